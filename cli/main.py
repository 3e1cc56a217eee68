"""ora-solve command-line entry point: parse arguments, call the solver, print results."""

from __future__ import annotations

import json
import random
import sys
import time

import click

from cli.options import (
    VARIANTS,
    beam_option,
    check_outputs,
    cluster_option,
    echo_rounds,
    failing,
    jobs_option,
    json_option,
    load_weights,
    nodes_option,
    old_spelling,
    old_spelling_option,
    out_option,
    parse_seeds,
    position_options,
    position_words,
    profile_option,
    quiet_option,
    score_text,
    seed_option,
    stopped,
    time_limit_option,
    unsaved,
    variant_option,
    weights_option,
)
from cli.research import nrpa_seed, register, resolve_position
from cli.tune import register as register_tune

MCTS_DEFAULT = 16  # solver.search.mcts.DEFAULT_SIMULATIONS (kept here so --help loads no numba)
PLAYOUT_MAX = 128  # solver.search.playouts.beam_playouts.MAX_WIDTH (likewise)
NRPA_ITERATIONS = 100  # solver.search.nrpa.ITERATIONS (likewise; a test holds them equal)
PERFT_MAX_DEPTH = 8  # the tree grows ~4-5x per ply: depth 7 takes ~8 s, depth 8 ~40 s


def _package_version() -> str:
    """Return the installed ora-solve version, or a placeholder when running from source."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ora-solve")
    except PackageNotFoundError:
        return "0.1.0+source"


def _play_random(state, rng: random.Random):
    """Play uniformly random legal actions until the game ends; return the terminal state."""
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@click.group(
    help="ora-solve: rules engine, solver and tools for Ora et Labora solo and multiplayer games."
)
@click.version_option(version=_package_version(), prog_name="ora-solve")
def main() -> None:
    """ora-solve command group."""


@main.command()
@variant_option(required=True)
@click.option("--random", "random_play", is_flag=True, help="Play uniformly random legal actions.")
@seed_option("Random seed.")
@json_option()
@profile_option()
def play(variant: str, random_play: bool, seed: int, as_json: bool, profile: str) -> None:
    """Play one seeded solo game on the reference engine and print the final score."""
    if not random_play:
        raise click.UsageError("only --random play is implemented: pass --random")

    from solver.rules import new_initial_state

    state = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    state = _play_random(state, random.Random(seed))
    sc = state.score()[0]
    result = {
        "total": int(sc.total),
        "goods": int(sc.goods),
        "economic": int(sc.economic),
        "dwelling": int(sc.dwelling),
        "rounds": int(state.round),
    }

    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"Ora et Labora solo, {variant}, profile {profile}, seed {seed}")
    click.echo(f"rounds played: {result['rounds']}")
    for key in ("goods", "economic", "dwelling", "total"):
        click.echo(f"{key:<9}{result[key]:>4}")


@main.command("check-rules")
@variant_option(default="both", allow_both=True, help="Variant to check, or both.")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Random games per variant.",
)
@seed_option("Seed of the first game (game i: S+i).")
@profile_option()
@quiet_option
def check_rules(variant: str, games: int, seed: int, profile: str, quiet: bool) -> None:
    """Play seeded random solo games, checking the rules' invariants after every step."""
    from solver.rules.selfplay import SelfPlayError, random_games
    from solver.search.progress import bar as progress_bar

    variants = VARIANTS if variant == "both" else (variant,)
    all_games = all_steps = 0
    with progress_bar(total=games * len(variants), unit="game", quiet=quiet,
                      dynamic_ncols=True) as bar:
        for v in variants:
            bar.set_description(v)
            totals = []
            steps = 0
            start = time.perf_counter()
            try:
                for result in random_games(v, games, seed, profile=profile):
                    totals.append(result.total)
                    steps += result.steps
                    bar.update(1)
            except SelfPlayError as e:
                bar.close()
                click.echo(f"check-rules: FAILED after {all_games + len(totals)} games", err=True)
                click.echo(str(e), err=True)
                sys.exit(1)
            seconds = time.perf_counter() - start
            all_games += len(totals)
            all_steps += steps
            bar.write(
                f"{v}: {len(totals)} games (seeds {seed}..{seed + games - 1}), {steps} steps, "
                f"score mean {sum(totals) / len(totals):.1f} min {min(totals)} "
                f"max {max(totals)}, {seconds:.1f} s",
                file=sys.stdout,
            )
    click.echo(f"check-rules: {all_games} games, {all_steps} steps, 0 failures")


@main.command()
@variant_option(required=True)
@click.option(
    "--depth",
    type=click.IntRange(min=0, max=PERFT_MAX_DEPTH),
    required=True,
    help="Plies to count below the initial position.",
)
@click.option(
    "--divide", "split", is_flag=True, help="Also print the count below each first action."
)
@profile_option()
def perft(variant: str, depth: int, split: bool, profile: str) -> None:
    """Count the legal-action tree below the initial solo position (perft)."""
    from solver.rules import new_initial_state
    from solver.rules import perft as P

    state = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    start = time.perf_counter()
    if split and depth >= 1:
        counts = P.divide(state, depth)
        for text, n in counts.items():
            click.echo(f"{text}: {n}")
        nodes = sum(counts.values())
        click.echo("")
    else:
        nodes = P.perft(state, depth)
    seconds = time.perf_counter() - start
    click.echo(f"perft {variant} depth {depth}: {nodes} nodes ({seconds:.2f} s)")


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@profile_option(("rulebook", "kennerspiel"), help="Rule profile (kennerspiel reproduces "
                "the engine that recorded the games).")
@json_option()
def replay(file: str, profile: str, as_json: bool) -> None:
    """Replay a game record, a kennerspiel command list or an `ora-solve solo` result.

    FILE is a kennerspiel game record (../shared/games schema); a kennerspiel command list
    (a text file with one command per line, such as `BUILD G07 3 1`, or a JSON list of command
    strings), opening with CONFIG and START; or a results record written by `ora-solve solo`:
    its line is replayed through the reference engine and the score confirmed. Exit 1 for an
    illegal move or an unconfirmed score, 2 for a malformed file or move.
    """
    from solver.rules.notation import NotationError, RecordError, load_game, replay_summary

    if _is_solo_record(file):
        _replay_solo_record(file, as_json)
        return
    from cli.research import is_sweep_record, replay_sweep

    if is_sweep_record(file):  # an `openings` / `analyse` record: every line replayed
        replay_sweep(file, as_json)
        return

    try:
        record = load_game(file)
        result = replay_summary(record, profile)
    except RecordError as e:
        click.echo(f"replay: malformed record: {e}", err=True)
        sys.exit(2)
    except NotationError as e:
        click.echo(str(e), err=True)
        sys.exit(2 if e.malformed else 1)
    if as_json:
        click.echo(json.dumps(result))
        return
    state = "finished" if result["finished"] else "not finished"
    click.echo(f"{file}: profile {profile}, round {result['round']}, {state}")
    click.echo(f"{'seat':<5}{'color':<6}{'total':>6}{'goods':>7}{'economic':>9}{'dwelling':>9}")
    for seat, p in enumerate(result["players"]):
        click.echo(f"{seat:<5}{p['color']:<6}{p['total']:>6}{p['goods']:>7}{p['economic']:>9}"
                   f"{p['dwelling']:>9}")


def _echo_solo(record: dict, path, as_json: bool) -> None:
    """A written solo record on stdout: as JSON, or its score, its line and its path."""
    if as_json:
        click.echo(json.dumps(record))
        return
    click.echo(f"\n{record['variant']} solo, {record['algorithm']} {record['parameters']}, "
               f"seed {record['seed']}: {score_text(record['score'])}, {record['nodes']} "
               f"nodes, {record['wall_seconds']} s")
    echo_rounds(record)
    click.echo(f"record written to {path}")


def _is_solo_record(file: str) -> bool:
    try:
        with open(file) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    from solver.search.records import KIND

    return isinstance(data, dict) and data.get("kind") == KIND


def _replay_solo_record(file: str, as_json: bool) -> None:
    from solver.search import records

    try:
        data = records.load_record(file)
    except records.RecordError as e:
        click.echo(f"replay: malformed results record: {e}", err=True)
        sys.exit(2)
    ok, message, score = records.verify_record(data)
    if as_json:
        click.echo(json.dumps({"confirmed": ok, "message": message, "recorded": data["score"],
                               "replayed": score}))
    else:
        click.echo(f"{file}: {data['variant']}, {len(data['line'])} actions, recorded "
                   f"{data['score']['total']} points")
        click.echo(("replay: " if ok else "replay FAILED: ") + message)
    if not ok:
        sys.exit(1)


@main.command()
@variant_option(required=True)
@beam_option(help="Beam search of this fixed width (the same line every run).")
@click.option("--mcts", "mcts", type=click.IntRange(min=1), default=None, is_flag=False,
              flag_value=MCTS_DEFAULT,
              help=f"MCTS over whole turns with this many simulations per turn (--mcts alone: "
                   f"{MCTS_DEFAULT}).")
@click.option("--playout-width", type=click.IntRange(1, PLAYOUT_MAX), default=None,
              help="With --mcts: the playouts' beam width at the start of the game, growing as "
                   "it shortens (default 9 in Ireland, 16 in France).")
@click.option("--nrpa", "nrpa", type=click.IntRange(min=1), default=None,
              help="NRPA over whole turns of this level.")
@click.option("--iterations", type=click.IntRange(min=1), default=None,
              help=f"NRPA iterations per level (default {NRPA_ITERATIONS}).")
@old_spelling_option("--seed-line", "--from", type=click.Path(dir_okay=False))
@old_spelling_option("--from-round", "--at-round", type=click.IntRange(min=1))
@seed_option("Search seed.")
@click.option("--seeds", default=None, metavar="A,B,C",
              help="Search with each of these seeds (a sweep on --jobs workers or a --cluster): "
                   "the best line is the record, every seed's score and the spread are in it.")
@time_limit_option("The whole command (compiling, search, verification, writing) ends "
                   "within this many seconds, with the best line so far finished greedily "
                   "(with --seeds: each seed's search). Default without --beam/--mcts: 600, "
                   "the time-budgeted beam; with them: none.")
@nodes_option("The default beam schedule budgeted in children generated instead of seconds "
              "(e.g. 20M): the same line for the same seed on any machine. No time limit "
              "unless --time-limit is given too (then it only stops it).")
@out_option("Results record path, replaced if it exists (default: a free name in results/, "
            "e.g. results/<variant>-t600-seed<S>.json).")
@json_option("Print the results record as JSON.")
@jobs_option
@cluster_option
@click.option("--resume", is_flag=True,
              help="With --seeds: finish the sweep whose finished seeds are in the record's "
                   ".jobs directory.")
@weights_option
@quiet_option
@position_options(nrpa=True)
def solo(variant: str, beam: int | None, mcts: int | None, playout_width: int | None,
         nrpa: int | None,
         iterations: int | None, seed_line: str | None, from_round: int | None, seed: int,
         seeds: str | None, time_limit: float | None, nodes: int | None, out: str | None,
         as_json: bool, workers: int | None, cluster: str | None, resume: bool,
         weights_file: str | None, quiet: bool, **where) -> None:
    """Search for a high-scoring solo line and write a replayable results record.

    Ctrl-C (SIGINT) or SIGTERM stops the search: the best line so far is finished, verified
    and written with "interrupted": true, and the command exits 130 (SIGINT) or 143. With
    --seeds, the seeds that finished make the record and --resume runs the rest. If the
    record cannot be written when the search ends (a full disk), it goes to
    $TMPDIR/ora-solve-<name>.json instead, or to stdout, and the command exits 1.
    """
    started = time.perf_counter()  # time limits count from here
    if sum(x is not None for x in (beam, mcts, nrpa)) > 1:
        raise click.UsageError("choose one search: --beam W, --mcts N or --nrpa LEVEL")
    if nodes is not None and any(x is not None for x in (beam, mcts, nrpa)):
        raise click.UsageError("--nodes budgets the default beam schedule: not with --beam, "
                               "--mcts or --nrpa")
    if mcts is None and playout_width is not None:
        raise click.UsageError("--playout-width is an option of --mcts")
    if nrpa is None and (iterations is not None or seed_line is not None
                         or from_round is not None):
        raise click.UsageError("--iterations is an option of --nrpa (and so are --seed-line "
                               "and --from-round, the old spellings of --from and --at-round)")
    where["from_file"] = old_spelling("--seed-line", seed_line, "--from", where["from_file"])
    where["at_round"] = old_spelling("--from-round", from_round, "--at-round", where["at_round"])
    seed_list = None
    if seeds is not None:
        if click.get_current_context().get_parameter_source("seed").name != "DEFAULT":
            raise click.UsageError("give --seed S or --seeds A,B,C, not both")
        seed_list = parse_seeds(seeds)
    elif workers is not None or cluster is not None or resume:
        raise click.UsageError("--jobs, --cluster and --resume are options of --seeds")
    if mcts is not None and any(v is not None for v in where.values()):
        raise click.UsageError("a search from a position (--from, --opening) needs the beam or "
                               "NRPA, not --mcts")
    seed_record = None
    if nrpa is not None and where["from_file"] is not None:
        seed_record, position = nrpa_seed(variant, **where)
    else:
        position = resolve_position(variant, command="solo", **where)
    from solver.search import records
    from solver.search.solo import DEFAULT_TIME_LIMIT, SoloJob, run_solo

    weights = load_weights(weights_file, variant, "solo")
    iterations = iterations or NRPA_ITERATIONS
    if beam is None and mcts is None and nrpa is None and time_limit is None \
            and nodes is None:
        time_limit = DEFAULT_TIME_LIMIT
    job = SoloJob(variant=variant, seed=seed, width=beam, simulations=mcts,
                  time_limit=time_limit, position=position, nrpa=nrpa, iterations=iterations,
                  seed_line=seed_record, weights=weights, playout_width=playout_width,
                  node_limit=nodes)
    command = records.command_line("solo", [
        ("--variant", variant), ("--nrpa", nrpa),
        ("--iterations", None if nrpa is None else iterations), ("--mcts", mcts),
        ("--playout-width", playout_width), ("--beam", beam), ("--nodes", nodes),
        ("--seeds", seeds), ("--seed", seed if seed_list is None else None),
        ("--time-limit", None if time_limit is None else f"{time_limit:g}"),
        *position_words(**where, quote_opening=True), ("--weights", weights_file)])
    if seed_list is not None:
        from cli.research import solo_seeds

        solo_seeds(job, seed_list, out=out, resume=resume, command=command,
                   workers=workers, cluster=cluster, as_json=as_json, quiet=quiet)
        return
    try:
        with failing("ora-solve solo", records.OutputError):
            record, path = run_solo(job, out=out, command=command, quiet=as_json,
                                    started=started, bar=not (as_json or quiet))
    except records.Unsaved as e:
        if e.kept is not None:  # the line is safe in the fallback: shown as usual
            _echo_solo(json.loads(e.text), e.kept, as_json)
        unsaved("ora-solve solo", e)
    _echo_solo(record, path, as_json)
    if record["interrupted"]:
        stopped(f"interrupted by {record['signal']}: the search stopped early; its best line "
                f"({record['score']['total']} points) was finished greedily, verified and "
                f"written to {path}", record["signal"])


@main.command()
@variant_option(required=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of seeded random games.")
@seed_option("Seed of the first game.")
@quiet_option
def selfcheck(variant: str, games: int, seed: int, quiet: bool) -> None:
    """Play random games in the fast and reference engines side by side, comparing every step."""
    from solver.fast import selfcheck as S
    from solver.search.progress import bar as progress_bar

    with progress_bar(total=games, desc=f"selfcheck {variant}", unit="game",
                      quiet=quiet) as bar:
        result = S.run(variant, games, seed, progress=bar.update)
    for m in result.mismatches:
        click.echo(str(m))
        click.echo(f"selfcheck: {result.games} games, {result.steps} steps, "
                   f"{len(result.mismatches)} mismatches")
        sys.exit(1)
    click.echo(f"selfcheck: {result.games} games, {result.steps} steps, 0 mismatches")


@main.command()
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
@nodes_option("With --strength: the default schedule's node budget (default 5M; 0: not run).",
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
        _bench_strength(ctx, search, variant, strength_seeds, beams, nodes, out, as_json)
        return
    if search:
        from solver.search.bench import speed as S

        try:
            r = S.run(variant, width=beam, layers=layers, seed=seed, sample=sample)
        except ValueError as e:
            click.echo(f"bench: {e}", err=True)
            sys.exit(2)
        click.echo(json.dumps(r) if as_json else S.format_text(r))
        return
    from solver.fast import bench as B

    r = B.run(variant, games, reference_games, seed)
    if as_json:
        click.echo(json.dumps(r))
        return
    for k, v in r.items():
        click.echo(f"{k:<26}{v}")


def _bench_strength(ctx, search, variant, seeds, beams, nodes, out, as_json) -> None:
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


register(main)
register_tune(main)

if __name__ == "__main__":
    main()
