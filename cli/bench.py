"""`ora-solve bench`: the fast engine's playout speed, with --search the beam's speed
(solver/search/bench/speed.py), with --strength the strength suite
(solver/search/bench/strength.py)."""

from __future__ import annotations

import json

import click

from cli.options import (
    beam_option,
    check_outputs,
    failing,
    json_option,
    nodes_option,
    old_spelling,
    old_spelling_option,
    out_option,
    parse_seeds,
    seed_option,
    unsaved,
    variant_option,
)


@click.command("bench")
@variant_option(default="ireland")
@click.option("--games", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Fast-engine playouts to time.")
@click.option("--reference-games", type=click.IntRange(min=1), default=10, show_default=True,
              help="Reference-engine playouts (the first of the same playouts).")
@seed_option("Seed of the first playout (with --search: the beam's seed).")
@click.option("--search", "search", is_flag=True,
              help="Bench the beam search instead: a fixed beam from fixed rounds of a "
                   "committed line, its signature and where its expansion's time goes.")
@beam_option(default=100, help="With --search: beam width.")
@old_spelling_option("--width", "--beam", type=click.IntRange(min=1))
@click.option("--layers", type=click.IntRange(min=1), default=4, show_default=True,
              help="With --search: layers from each start position.")
@click.option("--sample", type=click.IntRange(min=0), default=8, show_default=True,
              help="With --search: parents of each round profiled component by component "
                   "(0: no profile).")
@click.option("--strength", is_flag=True,
              help="Run the strength suite instead: fixed-width beams and the default "
                   "schedule under a node budget on tuning seeds, both variants unless "
                   "--variant is given; scores, plans and a signature.")
@click.option("--seeds", "strength_seeds", default=None,
              help="With --strength: tuning seeds, comma-separated (default 3,4,5,6; "
                   "0-2 are reporting seeds and refused).")
@click.option("--beams", default=None,
              help="With --strength: fixed beam widths, comma-separated (default 1000; "
                   "'' for none).")
@old_spelling_option("--widths", "--beams")
@nodes_option("With --strength: the default schedule's node budget (default 100M; 0: not run).",
              allow_zero=True)
@out_option("With --strength: also write the result as JSON to this file.")
@json_option("Print one JSON object.")
@click.pass_context
def bench(ctx, variant: str, games: int, reference_games: int, seed: int, search: bool,
          beam: int, width: int | None, layers: int, sample: int, strength: bool,
          strength_seeds: str | None, beams: str | None, widths: str | None,
          nodes: int | None, out: str | None, as_json: bool) -> None:
    """Random-playout speed of the fast engine vs the reference engine, in one run; with
    --search, the speed of the beam search; with --strength, the search's strength."""
    beam = old_spelling("--width", width, "--beam", beam)
    beams = old_spelling("--widths", widths, "--beams", beams)
    if not strength and any(x is not None for x in (strength_seeds, beams, nodes, out)):
        raise click.UsageError("--seeds, --beams, --nodes and --out are options of "
                               "--strength")
    if strength:
        bench_strength(ctx, search, variant, strength_seeds, beams, nodes, out, as_json)
        return
    if search:
        from solver.search.bench import speed as S

        with failing("bench", ValueError):
            r = S.run(variant, width=beam, layers=layers, seed=seed, sample=sample)
        click.echo(json.dumps(r) if as_json else S.format_text(r))
        return
    from solver.fast import bench as B

    r = B.run(variant, games, reference_games, seed)
    if as_json:
        click.echo(json.dumps(r))
        return
    for k, v in r.items():
        click.echo(f"{k:<26}{v}")


def bench_strength(ctx, search, variant, seeds, beams, nodes, out, as_json) -> None:
    """bench --strength: check every argument and the output path, then run the suite."""
    from solver.search.bench import strength as S
    from solver.search import records

    if search:
        raise click.UsageError("choose one of --search and --strength")
    variants = S.VARIANTS if ctx.get_parameter_source("variant").name == "DEFAULT" \
        else (variant,)
    seed_list = parse_seeds(seeds) if seeds is not None else list(S.SEEDS)
    width_list = S.WIDTHS if beams is None else parse_seeds(beams, "--beams", allow_empty=True)
    if any(w < 1 for w in width_list):
        raise click.BadParameter("widths are at least 1", param_hint="--beams")
    nodes = S.NODES if nodes is None else nodes
    try:
        S.check_seeds(seed_list)
        if not width_list and not nodes:
            raise ValueError("nothing to run: give --beams or a positive --nodes")
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    check_outputs("bench", out, what="the result")
    echo = None if as_json else click.echo
    r = S.run(variants, seed_list, width_list, nodes, progress=echo)
    if out is not None:
        r["command"] = records.command_line("bench", [
            ("--strength", True), ("--seeds", ",".join(map(str, seed_list))),
            ("--beams", ",".join(map(str, width_list)) or "''"), ("--nodes", nodes),
            ("--variant", variant if len(variants) == 1 else None), ("--out", out)])
        r["commit"] = records.git_commit()
        try:
            records.write_record(r, out, replace=True, what="the result")
        except records.Unsaved as e:
            unsaved("bench", e)
    click.echo(json.dumps(r) if as_json else "\n" + S.format_text(r))


def register(main: click.Group) -> None:
    """Add `bench` to the ora-solve group."""
    main.add_command(bench)
