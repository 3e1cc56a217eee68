"""The researcher's commands: `show`, `openings`, `analyse`; the position that `solo` shares
and the runner of a sweep's jobs that `solo --seeds` shares (thin: parse, call
solver/research, print/write)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cli.options import (
    beam_option,
    check_outputs,
    cluster_option,
    fail,
    failing,
    jobs_option,
    load_weights,
    make_backend,
    out_option,
    parse_seeds,
    position_options,
    position_words,
    quiet_option,
    score_text,
    stopped,
    time_limit_option,
    unsaved,
    variant_option,
    weights_option,
)

# ===== positions ================================================================================

def resolve_position(variant, from_file, at_round, prefix_moves, opening, command: str,
                     required: bool = False):
    """The position the options name (None if none and not ``required``); exit 2 with one
    message if it cannot be read or played."""
    from solver.research.positions import PositionError, resolve

    if not required and from_file is None and opening is None and at_round is None \
            and prefix_moves is None:
        return None
    try:
        return resolve(variant, from_file, at_round, prefix_moves, opening)
    except PositionError as e:
        click.echo(f"{command}: {e}", err=True)
        sys.exit(2)


# ===== show =====================================================================================

@click.command("show")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--at-round", type=click.IntRange(min=1), default=None,
              help="Show the landscape at the first turn of this round (default: the end).")
@click.option("--png", type=click.Path(dir_okay=False), default=None,
              help="Write the landscape and the score chart as a PNG.")
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Write the landscape and the score chart as an SVG.")
def show(record: str, at_round: int | None, png: str | None, svg: str | None) -> None:
    """A results record round by round (actions, goods, score) and its landscape."""
    from solver.research import show as S
    from solver.research.positions import PositionError, from_line
    from solver.search import records

    with failing("show", records.RecordError):
        data = records.load_record(record)
    check_outputs("show", png, svg)
    with failing("show", PositionError):
        pos = from_line(data["variant"], data["line"], at_round, None,
                        source=record + (f" at round {at_round}" if at_round else ""))
    parts = S.rounds(data["variant"], data["line"])
    click.echo(f"{record}: {data['variant']}, {len(data['line'])} actions, "
               f"{score_text(data['score'])}")
    click.echo(f"{'':<24}{'total':>6}{'goods':>6}{'econ':>6}{'dwell':>6}")
    for p in parts:
        s = p.score
        click.echo(f"{p.when:<24}{s['total']:>6}{s['goods']:>6}{s['economic']:>6}"
                   f"{s['dwelling']:>6}")
        for a in p.actions:
            click.echo(f"    {a}")
        click.echo(f"    goods: {p.goods or 'none'}")
    where = f"at round {at_round} (after {len(pos.prefix)} actions)" if at_round else \
        "at the end"
    click.echo(f"\nlandscape {where}:")
    click.echo(S.text_map(pos.state))
    parts_land = S.land_parts(pos.state)
    if parts_land:
        click.echo("bought land: " + "; ".join(parts_land))
    paths = [(p, fmt) for p, fmt in ((png, "png"), (svg, "svg")) if p]
    if paths:
        from solver.research.draw import show_figure

        upto = next((i + 1 for i, p in enumerate(parts) if p.actions_done >= len(pos.prefix)),
                    None) if at_round else None
        title = (f"{data['variant']} {data.get('algorithm', '')} "
                 f"{data.get('parameters', {}).get('width', '')} seed {data.get('seed', '')}: "
                 f"{data['score']['total']} points; landscape {where}")
        try:
            show_figure(pos.state, parts, title, paths, upto)
        except records.Unsaved as e:
            unsaved("show", e)
        for p, _ in paths:
            click.echo(f"picture written to {p}")


# ===== sweeps: openings and analyse ============================================================

def sweep_options(f):
    """The budget, seeds, parallelism and output options every sweep shares."""
    f = click.option("--resume", is_flag=True,
                     help="Finish the sweep whose finished jobs are in OUT's .jobs directory.")(f)
    f = out_option("JSON record path (default under results/sweeps/); the CSV, PNG and SVG "
                   "are written beside it, the finished jobs in <OUT stem>.jobs/.")(f)
    f = quiet_option(f)
    f = cluster_option(f)
    f = jobs_option(f)
    f = time_limit_option("Seconds per job (tables then depend on machine load); with "
                          "--race, seconds for the whole race (no round starts that would "
                          "overrun them).")(f)
    f = click.option("--budget", type=click.IntRange(min=1), default=None,
                     help="With --race: width x seeds units for the whole race, the sum of "
                          "the width of every job [default: the flat sweep's, candidates x "
                          "seeds x --beam, unless --time-limit is given].")(f)
    f = click.option("--ladder", type=click.Choice(["both", "width"]), default=None,
                     help="With --race: how the rounds grow. both: the seeds and the width "
                          "doubled each round; width: the width doubled alone up to --beam, "
                          "then the seeds [default: both].")(f)
    f = click.option("--race", is_flag=True,
                     help="Race: round 1 at a quarter of --beam on --seeds, then the clearly "
                          "behind dropped and seeds and width doubled each round (up to "
                          "--beam; see --ladder) until --top remain or the budget is "
                          "spent.")(f)
    f = beam_option(default=100, help="Beam width of every job (a race's final width).")(f)
    f = click.option("--seeds", default="0,1,2", show_default=True,
                     help="Comma-separated search seeds; every candidate gets the same seeds.")(f)
    return weights_option(f)


def saved_jobs(run_dir, jobs) -> str:
    """Where a stopped sweep stands: "46 of 50 jobs saved in term2.jobs/"."""
    keys = {j.key for j in jobs}
    n = len([k for k in run_dir.finished() if k in keys])
    return f"{n} of {len(jobs)} jobs saved in {run_dir.path}/"


def open_run_dir(command: str, backend, make):
    """``make()``, the directory of a sweep's finished jobs; exit 2 with one message (the
    backend closed) if it cannot be used: another sweep's, or --resume not given."""
    from solver.research import rundir as R

    try:
        return make()
    except R.SweepError as e:
        backend.close()
        fail(command, str(e))


def run_jobs(command: str, task, jobs, run_dir, backend, *, desc: str, quiet: bool = False,
             noun: str = "jobs") -> tuple[dict, str | None]:
    """Run a sweep's jobs on a backend (closed after): the results by key, and the signal
    (Ctrl-C or SIGTERM) that stopped it if one did (the results are then the finished jobs).
    A job that cannot be saved (a full disk) stops it at once, exit 1; a cluster failure,
    exit 2. The finished jobs stay saved in every case (``noun``: what the jobs are)."""
    from solver.research import rundir as R

    keys = {j.key for j in jobs}
    results, signal_name = guarded(
        command, run_dir, backend,
        lambda: R.run_sweep(task, jobs, run_dir, backend, progress=not quiet, desc=desc),
        lambda: saved_jobs(run_dir, jobs), noun)
    if signal_name is not None:
        results = {k: v for k, v in run_dir.finished().items() if k in keys}
    return results, signal_name


def guarded(command: str, run_dir, backend, work, where, noun: str = "jobs"):
    """``work()`` (which runs jobs on the backend, closed after) and None, or None and the
    signal (Ctrl-C or SIGTERM) that stopped it. A job that cannot be saved stops it at once,
    exit 1 (``where()``: how many jobs are saved); a cluster failure, exit 2."""
    from solver import jobs as J
    from solver.research import rundir as R
    from solver.search import records

    with R.SignalsStop() as stopper:
        try:
            with backend:
                return work(), None
        except KeyboardInterrupt:
            return None, stopper.name
        except records.Unsaved as e:
            unsaved(command, e, f"; stopped: {where()}; free some space and run the same "
                                "command with --resume for the rest")
        except J.BackendError as e:
            fail(command, f"{e}; the {len(run_dir.finished())} finished {noun} are saved in "
                          f"{run_dir.path}/ (--resume runs the rest)")


def _flat(kind, position, candidates, seeds, width, time_limit, backend, run_dir, quiet,
          command, rank_by, top, weights):
    """A flat sweep's jobs run: its rows, record and table text."""
    import time as _time

    from solver.research import sweep as SW

    jobs = SW.make_jobs(position, candidates, seeds, width, time_limit, weights)
    click.echo(f"{kind}: {len(candidates)} candidates x {len(seeds)} seeds = {len(jobs)} jobs, "
               f"beam {width}" + (f", {time_limit:g} s per job" if time_limit else "")
               + f", {backend.describe()}; finished jobs in {run_dir.path}/", err=True)
    t0 = _time.perf_counter()
    keys = {j.key for j in jobs}
    before = len([k for k in run_dir.finished() if k in keys])
    results, signal_name = run_jobs(kind, SW.SEARCH, jobs, run_dir, backend, desc=kind,
                                    quiet=quiet)
    if signal_name is not None:
        stopped(f"\nstopped: {saved_jobs(run_dir, jobs)}; run the same command with --resume "
                "for the rest", signal_name)
    seconds = _time.perf_counter() - t0
    rows = SW.table_rows(candidates, results, seeds, rank_by)
    record = SW.make_record(kind=kind, command=command, position=position, seeds=seeds,
                            width=width, time_limit=time_limit, rows=rows, seconds=seconds,
                            jobs=len(jobs), weights=weights)
    return rows, record, SW.format_table(rows, top, spread=kind == "analyse"), (
        f"{len(jobs)} jobs ({len(jobs) - before} run now), {seconds:.1f} s")


def _race(kind, position, candidates, seeds, width, race, backend, run_dir, quiet, command,
          rank_by, top, weights):
    """A race's rounds run: its rows, record and table text."""
    import time as _time

    from solver.research import race as RC
    from solver.research import rundir as R
    from solver.research import sweep as SW

    budget, time_limit, target, ladder = race
    click.echo(f"{kind}: {RC.describe(len(candidates), seeds, width, *race)}; "
               f"{backend.describe()}; finished jobs in {run_dir.path}/", err=True)
    t0 = _time.perf_counter()
    before = len(run_dir.finished())
    where = [""]

    def run_round(jobs, desc):
        where[0] = desc
        return R.run_sweep(SW.SEARCH, jobs, run_dir, backend, progress=not quiet,
                           desc=f"{kind} {desc}")

    done, signal_name = guarded(
        kind, run_dir, backend,
        lambda: RC.run(candidates, seeds, width, make_jobs=RC.search_jobs(position, weights),
                       run_jobs=run_round, rank_by=rank_by, top=target, budget=budget,
                       time_limit=time_limit, workers=backend.workers, ladder=ladder,
                       work=RC.job_work(position, weights)),
        lambda: f"{where[0]}; {len(run_dir.finished())} jobs saved in {run_dir.path}/")
    if signal_name is not None:
        stopped(f"\nstopped in {where[0]}: {len(run_dir.finished())} jobs of the race saved "
                f"in {run_dir.path}/; run the same command with --resume for the rest",
                signal_name)
    seconds = _time.perf_counter() - t0
    record = RC.make_record(done, kind=kind, command=command, position=position, first=seeds,
                            width=width, budget=budget, time_limit=time_limit, top=target,
                            seconds=seconds, weights=weights, ladder=ladder)
    ran = len(run_dir.finished()) - before
    return done.rows, record, RC.format_table(done, top, spread=kind == "analyse"), (
        f"race: {len(done.rounds)} rounds, {done.jobs} jobs ({ran} run now), "
        f"{done.spent} width x seeds units, {seconds:.1f} s")


def _run_sweep(kind: str, position, candidates, seeds, width, time_limit, workers, cluster,
               out, resume, command, rank_by, top, title, weights=None,
               quiet: bool = False, race=None) -> dict:
    """Run (or resume) a sweep, or with ``race`` = (budget, time limit, top K) a race, print
    its table, write its record, CSV and chart."""
    from solver.research import race as RC
    from solver.research import rundir as R
    from solver.research import sweep as SW
    from solver.search import records

    records.code_commit()  # the record names the code that runs the jobs
    if race is not None:
        with failing(kind, RC.RaceError):
            RC.check(len(candidates), seeds, width, race[0], race[2])
    if not out.startswith("results/sweeps/"):
        check_outputs(kind, *SW.output_paths(out))
    backend = make_backend(kind, workers, cluster)  # before anything is written
    if out.startswith("results/sweeps/"):
        Path("results/sweeps").mkdir(parents=True, exist_ok=True)
        check_outputs(kind, *SW.output_paths(out))
    manifest = SW.manifest(kind, position, candidates, seeds, width, time_limit, weights)
    if race is not None:  # a race's jobs are keyed by their width; its budget may grow
        manifest |= {"race": True, "time_limit": None}
    run_dir = open_run_dir(kind, backend, lambda: R.RunDir(SW.run_dir_of(out), manifest,
                                                           resume))
    if race is None:
        rows, record, table, summary = _flat(kind, position, candidates, seeds, width,
                                             time_limit, backend, run_dir, quiet, command,
                                             rank_by, top, weights)
    else:
        rows, record, table, summary = _race(kind, position, candidates, seeds, width, race,
                                             backend, run_dir, quiet, command, rank_by, top,
                                             weights)
    click.echo(table)  # before any write
    every_job = (f"; every job is saved in {run_dir.path}/: run the same command with "
                 "--resume to write the outputs again")
    try:
        paths = SW.write_outputs(out, record, rows, title)
        if kind == "analyse":
            best = SW.write_best_lines(out, position, rows, top or len(rows), command, width,
                                       weights)
    except records.Unsaved as e:
        unsaved(kind, e, every_job)
    except OSError as e:  # the best lines' directory: after the work, so exit 1 as above
        click.echo(f"{kind}: cannot create {e.filename}: {e.strerror}{every_job}", err=True)
        sys.exit(1)
    if kind == "analyse":
        for r, p in zip(rows, best):
            click.echo(f"{r['rank']:>3}. best line (seed {r['best_seed']}, {r['best']} points, "
                       f"{p}): {SW.continuation(position, r)}")
    bad = [f"candidate {r['candidate']} seed {run['seed']}" for r in rows for run in r["runs"]
           if not run["verified"]]
    click.echo(f"{summary}; written: {', '.join(paths)}")
    if bad:
        click.echo(f"{kind}: {len(bad)} lines do not replay on the reference engine: "
                   + "; ".join(bad[:5]), err=True)
        sys.exit(1)
    return record


def race_spec(command: str, race: bool, budget, time_limit, top, n: int, seeds, width,
              ladder=None):
    """(budget, time limit, top K, ladder) of a race (None without ``--race``); ``--budget``
    defaults to what the flat sweep of ``n`` candidates would cost, unless a time limit is
    given. Exit 2 for --budget or --ladder without --race."""
    from solver.research.race import LADDERS, default_budget

    if not race:
        if budget is not None:
            fail(command, "--budget is the budget of a race: give --race too")
        if ladder is not None:
            fail(command, "--ladder is how a race grows: give --race too")
        return None
    return (budget or default_budget(n, seeds, width, time_limit), time_limit, top,
            ladder or LADDERS[0])


@click.command("openings")
@variant_option(required=True)
@click.option("--turns", type=click.IntRange(min=1, max=4), default=None,
              help="Sweep every distinct opening of this many turns (the beam's unit).")
@click.option("--file", "openings_file", type=click.Path(dir_okay=False), default=None,
              help="Sweep these openings instead: one per line, kennerspiel moves separated "
                   "by ';'.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Rows of the table to print [default: all]; with --race, race until at "
                   "most this many remain [default: 1].")
@sweep_options
def openings(variant, turns, openings_file, top, seeds, beam, race, ladder, budget, time_limit,
             workers, cluster, out, resume, weights_file, quiet):
    """Compare openings under one budget and paired seeds: a ranked table, JSON, CSV, chart."""
    from solver.research import positions as P
    from solver.research import sweep as SW
    from solver.search import records

    seed_list = parse_seeds(seeds)
    weights = load_weights(weights_file, variant, "openings")
    if (turns is None) == (openings_file is None):
        raise click.UsageError("give --turns N or --file F (one of them)")
    base = P.initial(variant)
    if openings_file is not None:
        try:
            text = Path(openings_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            fail("openings", f"cannot read {openings_file}: {getattr(e, 'strerror', e)}")
        lines = [(i + 1, ln.split("#", 1)[0].strip()) for i, ln in enumerate(text.splitlines())]
        lines = [(i, ln) for i, ln in lines if ln]
        if not lines:
            fail("openings", f"{openings_file} holds no openings")
        positions = []
        for i, ln in lines:
            try:
                positions.append(P.resolve(variant, opening=ln))
            except P.PositionError as e:
                fail("openings", f"{openings_file} line {i}: {e}")
        candidates = SW.from_positions(base, positions)
        what = f"{len(lines)} openings from {openings_file}"
    else:
        candidates = SW.openings(base, turns)
        what = f"the {len(candidates)} distinct openings of {turns} turns"
    spec = race_spec("openings", race, budget, time_limit, top or 1, len(candidates),
                     seed_list, beam, ladder)
    out = out or (f"results/sweeps/openings-{variant}-{'t' + str(turns) if turns else 'file'}"
                  f"-beam{beam}{'-race' if race else ''}.json")
    command = records.command_line("openings", [
        ("--variant", variant), ("--turns", turns), ("--file", openings_file),
        ("--top", top), ("--seeds", seeds), ("--beam", beam), ("--race", race),
        ("--ladder", ladder), ("--budget", budget), ("--time-limit", time_limit),
        ("--weights", weights_file), ("--out", out)])
    title = (f"{variant}: {what}, beam {beam}, seeds {seeds} (ranked by mean)" if not race else
             f"{variant}: race of {what} up to beam {beam}, from seeds {seeds} (ranked by "
             "mean; dropped rows at the round that dropped them)")
    _run_sweep("openings", base, candidates, seed_list, beam, time_limit, workers, cluster,
               out, resume, command, "mean", top, title, weights, quiet, spec)


@click.command("analyse")
@variant_option(help="Game variant (taken from a record given with --from).")
@position_options
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Rows of the table to print (every turn is searched and ranked); with "
                   "--race, race until at most this many remain.")
@sweep_options
def analyse(variant, top, seeds, beam, race, ladder, budget, time_limit, workers, cluster, out,
            resume, weights_file, quiet, **where):
    """Every distinct next turn of a position, searched with one budget and paired seeds."""
    from solver.research import sweep as SW
    from solver.search import records

    seed_list = parse_seeds(seeds)
    position = resolve_position(variant, command="analyse", required=True, **where)
    weights = load_weights(weights_file, position.variant, "analyse")
    forced = []
    while True:
        candidates = SW.next_turns(position)
        if len(candidates) != 1:
            break
        forced.append(candidates[0].label)  # one turn only (e.g. the neutral's build)
        position = position.after(candidates[0].actions)
    if not candidates:
        fail("analyse", "the game is over at this position: nothing to analyse")
    for f in forced:
        click.echo(f"forced (the only turn under the search policy): {f}", err=True)
    click.echo(f"position: {position.source}, round {position.round}, "
               f"{len(position.prefix)} actions", err=True)
    spec = race_spec("analyse", race, budget, time_limit, top, len(candidates), seed_list,
                     beam, ladder)
    out = out or (f"results/sweeps/analyse-{position.variant}-a{len(position.prefix)}-"
                  f"beam{beam}{'-race' if race else ''}.json")
    command = records.command_line("analyse", [
        ("--variant", variant), *position_words(**where, quote_opening=False), ("--top", top),
        ("--seeds", seeds), ("--beam", beam), ("--race", race), ("--ladder", ladder),
        ("--budget", budget), ("--time-limit", time_limit), ("--weights", weights_file),
        ("--out", out)])
    title = (f"{position.variant}: the {len(candidates)} next turns at round {position.round} "
             f"({position.source}), {'race up to ' if race else ''}beam {beam}, "
             f"{'from ' if race else ''}seeds {seeds} (ranked by best"
             f"{'; dropped rows at the round that dropped them' if race else ''})")
    record = _run_sweep("analyse", position, candidates, seed_list, beam, time_limit, workers,
                        cluster, out, resume, command, "best", top, title, weights, quiet,
                        spec)
    mark = [r for r in record["rows"] if r["recorded"]]
    if mark:
        click.echo(f"* the turn the position's own line played ranks {mark[0]['rank']} of "
                   f"{len(record['rows'])}")
    elif position.line[len(position.prefix):]:
        click.echo("the position's own line leaves the search policy's forced turns")


def replay_sweep(file: str, as_json: bool) -> None:
    """`ora-solve replay` of a sweep record: every line of every job replayed."""
    from solver.research import sweep as SW

    try:
        data = json.loads(Path(file).read_text())
    except (OSError, ValueError) as e:
        fail("replay", f"cannot read {file}: {e}")
    n = sum(len(r.get("runs", [])) for r in data.get("rows", []))
    bad = SW.verify_sweep(data)
    if as_json:
        click.echo(json.dumps({"confirmed": not bad, "lines": n, "failed": bad}))
    else:
        race = data.get("race")
        click.echo(f"{file}: {data.get('sweep')} {'race' if race else 'sweep'}, "
                   f"{len(data.get('rows', []))} candidates, "
                   + (f"{len(race['rounds'])} rounds, " if race else "") + f"{n} lines")
        click.echo("replay: " + ("every line confirmed on the reference engine" if not bad
                                 else f"FAILED: {len(bad)} lines: " + "; ".join(bad[:5])))
    if bad:
        sys.exit(1)


def is_sweep_record(file: str) -> bool:
    """Whether a file is a sweep record (kind ``ora-solve sweep``)."""
    try:
        with open(file) as f:
            return json.load(f).get("kind") == "ora-solve sweep"
    except (OSError, ValueError, AttributeError):
        return False


# ===== registration =============================================================================

def register(main: click.Group) -> None:
    """Add the research commands to the ora-solve group."""
    main.add_command(show)
    main.add_command(openings)
    main.add_command(analyse)
