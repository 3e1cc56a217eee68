"""`ora-solve solo`: parse and check the options, make the job (solver/search/solo.py) and
print its record; with --seeds, one job per seed on the backend (solver/research/solo_seeds.py)."""

from __future__ import annotations

import json
import sys
import time

import click

from cli.options import (
    beam_option,
    cluster_option,
    echo_rounds,
    fail,
    failing,
    jobs_option,
    json_option,
    load_weights,
    make_backend,
    nodes_option,
    old_spelling,
    old_spelling_option,
    out_option,
    parse_seeds,
    position_options,
    position_words,
    quiet_option,
    score_text,
    seed_option,
    stopped,
    time_limit_option,
    unsaved,
    variant_option,
    weights_option,
)
from cli.research import open_run_dir, resolve_position, run_jobs

MCTS_DEFAULT = 16  # solver.search.mcts.DEFAULT_SIMULATIONS (kept here so --help loads no numba)
PLAYOUT_MAX = 128  # solver.search.playouts.beam_playouts.MAX_WIDTH (likewise)
NRPA_ITERATIONS = 100  # solver.search.nrpa.ITERATIONS (likewise; a test holds them equal)


@click.command("solo")
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
         nrpa: int | None, iterations: int | None, seed_line: str | None,
         from_round: int | None, seed: int, seeds: str | None, time_limit: float | None,
         nodes: int | None, out: str | None, as_json: bool, workers: int | None,
         cluster: str | None, resume: bool, weights_file: str | None, quiet: bool,
         **where) -> None:
    """Search for a high-scoring solo line and write a replayable results record.

    Ctrl-C (SIGINT) or SIGTERM stops the search: the best line so far is finished, verified
    and written with "interrupted": true, and the command exits 130 (SIGINT) or 143. With
    --seeds, the seeds that finished make the record and --resume runs the rest. If the
    record cannot be written when the search ends (a full disk), it goes to
    $TMPDIR/ora-solve-<name>.json instead, or to stdout, and the command exits 1.
    """
    started = time.perf_counter()  # time limits count from here
    check_search(beam, mcts, playout_width, nrpa, iterations, seed_line, from_round, nodes)
    where["from_file"] = old_spelling("--seed-line", seed_line, "--from", where["from_file"])
    where["at_round"] = old_spelling("--from-round", from_round, "--at-round", where["at_round"])
    seed_list = seeds_of(seeds, workers, cluster, resume)
    if mcts is not None and any(v is not None for v in where.values()):
        raise click.UsageError("a search from a position (--from, --opening) needs the beam or "
                               "NRPA, not --mcts")
    job = make_job(variant, seed, beam, mcts, playout_width, nrpa, iterations, time_limit,
                   nodes, weights_file, where)
    command = command_of(job, seeds, where, weights_file)
    if seed_list is None:
        solo_one(job, out=out, command=command, started=started, as_json=as_json, quiet=quiet)
    else:
        solo_seeds(job, seed_list, out=out, resume=resume, command=command, workers=workers,
                   cluster=cluster, as_json=as_json, quiet=quiet)


def check_search(beam, mcts, playout_width, nrpa, iterations, seed_line, from_round,
                 nodes) -> None:
    """UsageError unless one search at most is chosen and each option goes with its search."""
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


def seeds_of(seeds: str | None, workers, cluster, resume: bool) -> list[int] | None:
    """The seeds of --seeds (None: one search, --seed's); UsageError for --seed with --seeds,
    or for an option of --seeds without it."""
    if seeds is not None:
        if click.get_current_context().get_parameter_source("seed").name != "DEFAULT":
            raise click.UsageError("give --seed S or --seeds A,B,C, not both")
        return parse_seeds(seeds)
    if workers is not None or cluster is not None or resume:
        raise click.UsageError("--jobs, --cluster and --resume are options of --seeds")
    return None


def make_job(variant, seed, beam, mcts, playout_width, nrpa, iterations, time_limit, nodes,
             weights_file, where):
    """The solo job the options describe (exit 2 with one message if its position or its
    weights cannot be read): without --beam, --mcts, --nrpa, --time-limit or --nodes, the
    time-budgeted beam of solver.search.solo.DEFAULT_TIME_LIMIT seconds."""
    seed_record = None
    if nrpa is not None and where["from_file"] is not None:
        seed_record, position = nrpa_seed(variant, **where)
    else:
        position = resolve_position(variant, command="solo", **where)
    from solver.search.solo import DEFAULT_TIME_LIMIT, SoloJob

    weights = load_weights(weights_file, variant, "solo")
    if beam is None and mcts is None and nrpa is None and time_limit is None \
            and nodes is None:
        time_limit = DEFAULT_TIME_LIMIT
    return SoloJob(variant=variant, seed=seed, width=beam, simulations=mcts,
                   time_limit=time_limit, position=position, nrpa=nrpa,
                   iterations=iterations or NRPA_ITERATIONS, seed_line=seed_record,
                   weights=weights, playout_width=playout_width, node_limit=nodes)


def command_of(job, seeds: str | None, where: dict, weights_file: str | None) -> str:
    """The command line the record keeps (records.command_line)."""
    from solver.search import records

    return records.command_line("solo", [
        ("--variant", job.variant), ("--nrpa", job.nrpa),
        ("--iterations", None if job.nrpa is None else job.iterations),
        ("--mcts", job.simulations), ("--playout-width", job.playout_width),
        ("--beam", job.width), ("--nodes", job.node_limit), ("--seeds", seeds),
        ("--seed", job.seed if seeds is None else None),
        ("--time-limit", None if job.time_limit is None else f"{job.time_limit:g}"),
        *position_words(**where, quote_opening=True), ("--weights", weights_file)])


def nrpa_seed(variant, from_file, at_round, prefix_moves, opening, command: str = "solo"):
    """The complete game of ``--from`` that seeds NRPA (a ``solo.SeedLine``) and the position
    at the ``--at-round`` / ``--moves`` cut (None: the whole game is searched); exit 2 with one
    message if the file cannot be read, is not a complete game of the variant or the cut is
    wrong."""
    from solver.research.positions import PositionError, complete_line
    from solver.search.solo import SeedLine

    try:
        if opening is not None:
            raise PositionError("give the position with --from FILE or with --opening, not both")
        if at_round is not None and prefix_moves is not None:
            raise PositionError("cut the prefix with --at-round or with --moves, not both")
        full, cut = complete_line(variant, from_file, at_round, prefix_moves)
    except PositionError as e:
        fail(command, str(e))
    score = int(full.state.score()[0].total)
    return SeedLine(from_file, tuple(full.line), score, at_round), cut



def solo_one(job, *, out, command: str, started: float, as_json: bool, quiet: bool) -> None:
    """One search (solver.search.solo.run_solo): its record printed; stopped by a signal, the
    record of the best line so far, then exit 130 or 143."""
    from solver.search import records
    from solver.search.solo import run_solo

    try:
        with failing("ora-solve solo", records.OutputError):
            record, path = run_solo(job, out=out, command=command, quiet=as_json,
                                    started=started, bar=not (as_json or quiet))
    except records.Unsaved as e:
        if e.kept is not None:  # the line is safe in the fallback: shown as usual
            echo_solo(json.loads(e.text), e.kept, as_json)
        unsaved("ora-solve solo", e)
    echo_solo(record, path, as_json)
    if record["interrupted"]:
        stopped(f"interrupted by {record['signal']}: the search stopped early; its best line "
                f"({record['score']['total']} points) was finished greedily, verified and "
                f"written to {path}", record["signal"])


def echo_solo(record: dict, path, as_json: bool) -> None:
    """A written solo record on stdout: as JSON, or its score, its line and its path."""
    if as_json:
        click.echo(json.dumps(record))
        return
    click.echo(f"\n{record['variant']} solo, {record['algorithm']} {record['parameters']}, "
               f"seed {record['seed']}: {score_text(record['score'])}, {record['nodes']} "
               f"nodes, {record['wall_seconds']} s")
    echo_rounds(record)
    click.echo(f"record written to {path}")



def solo_seeds(job, seeds: list[int], *, out, resume: bool, command: str, workers, cluster,
               as_json: bool, quiet: bool = False) -> None:
    """`solo --seeds`: the job with each seed on the backend; the best line is the record, the
    spread is printed and kept in it (solver/research/solo_seeds.py)."""
    import time as _time

    from solver.research import solo_seeds as SS
    from solver.search import records

    with failing("ora-solve solo", records.OutputError):
        output = SS.output(job, seeds, out, resume)
    backend = make_backend("ora-solve solo", workers, cluster)  # before anything is written
    run_dir = open_run_dir("ora-solve solo", backend,
                           lambda: SS.run_dir(output, job, seeds, resume))
    jobs = SS.make_jobs(job, seeds)
    what = job.describe().replace(f", seed {job.seed}", "").replace("for the whole command",
                                                                    "per seed")
    click.echo(f"{what}; seeds {','.join(map(str, seeds))} ({len(jobs)} jobs, "
               f"{backend.describe()}); record to {output.path}, finished seeds in "
               f"{run_dir.path}/ (Ctrl-C keeps the seeds that finished)", err=True)
    t0 = _time.perf_counter()
    results, interrupted = run_jobs("ora-solve solo", SS.SEED_TASK, jobs, run_dir, backend,
                                    desc="seeds", quiet=as_json or quiet, noun="seeds")
    if not results:
        stopped(f"\nora-solve solo: interrupted by {interrupted} before any seed finished; "
                "nothing written", interrupted)
    try:
        record, path = SS.write(job, seeds, results, output, command,
                                _time.perf_counter() - t0, interrupted)
    except records.Unsaved as e:
        unsaved("ora-solve solo", e, f"; the finished seeds are saved in {run_dir.path}/")
    sweep = record["seed_sweep"]
    if as_json:
        click.echo(json.dumps(record))
    else:
        click.echo(f"\n{what}; seeds {','.join(map(str, seeds))}: best "
                   f"{score_text(record['score'])} (seed {record['seed']}), "
                   f"{sweep['wall_seconds']} s in all")
        click.echo(SS.format_spread(sweep))
        click.echo(f"best line (seed {record['seed']}):")
        echo_rounds(record)
        click.echo(f"record written to {path}")
    bad = [f"seed {r['seed']}" for r in sweep["runs"] if not r["verified"]]
    if bad:
        click.echo(f"ora-solve solo: the lines of {', '.join(bad)} do not replay on the "
                   "reference engine", err=True)
        sys.exit(1)
    if interrupted:
        stopped(f"interrupted by {interrupted}: {len(sweep['runs'])} of {len(seeds)} seeds "
                f"finished; the best of them was written to {path}; the same command with "
                "--resume runs the rest", interrupted)



def register(main: click.Group) -> None:
    """Add `solo` to the ora-solve group."""
    main.add_command(solo)
