"""`ora-solve review RECORD`: where a line lost points (thin: parse, call
solver/research/review.py, print/write), and `replay` of a review record."""

from __future__ import annotations

import json
import sys
import time
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
    quiet_option,
    score_text,
    stopped,
    time_limit_option,
    unsaved,
    variant_option,
    weights_option,
)
from cli.research import open_run_dir, run_jobs, saved_jobs

DEFAULT_DIR = "results/reviews"


@click.command("review")
@click.argument("record", type=click.Path(dir_okay=False))
@variant_option(help="Game variant (taken from a results or game record; a move list needs it).")
@click.option("--rounds", default=None, metavar="A-B",
              help="Review only these rounds: a range (20-32) or one round (25). Default: "
                   "every round of the line.")
@click.option("--seeds", default="0,1,2", show_default=True,
              help="Comma-separated search seeds; every round gets the same seeds.")
@beam_option(default=100, help="Beam width of every job (one job per round and seed).")
@time_limit_option("Seconds per job (the values then depend on machine load).")
@weights_option
@jobs_option
@cluster_option
@quiet_option
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True,
              help="Rounds of the ranking by points lost to print (the record holds all).")
@out_option("JSON record path (default under results/reviews/); the CSV, PNG and SVG are "
            "written beside it, the finished jobs in <OUT stem>.jobs/.")
@click.option("--best-out", type=click.Path(dir_okay=False), default=None,
              help="Where the best line goes as a results record if it beats the reviewed "
                   "line (default: <OUT stem>.best.json).")
@click.option("--resume", is_flag=True,
              help="Finish the review whose finished jobs are in OUT's .jobs directory.")
def review(record, variant, rounds, seeds, beam, time_limit, weights_file, workers, cluster,
           quiet, top, out, best_out, resume):
    """Search from the line's position at each round; rank the rounds by points lost."""
    from solver.research import positions as P
    from solver.research import review as RV
    from solver.research import rundir as R
    from solver.research import sweep as SW
    from solver.search import records

    seed_list = parse_seeds(seeds)
    records.code_commit()  # the record names the code that runs the jobs
    with failing("review", P.PositionError):
        full = P.resolve(variant, record)
    if not full.state.is_terminal():
        fail("review", f"{record}: its line stops in round {full.round}, before the game "
                       "ends; a review needs a complete game")
    with failing("review", RV.ReviewError):
        round_list = RV.parse_rounds(rounds, full.round)
    weights = load_weights(weights_file, full.variant, "review")
    span = (f"r{round_list[0]}" if len(round_list) == 1 else
            f"r{round_list[0]}-{round_list[-1]}")
    default_out = out is None
    out = out or f"{DEFAULT_DIR}/{Path(record).stem}-review-{span}-beam{beam}.json"
    best_out = best_out or str(Path(out).with_name(Path(out).stem + ".best.json"))
    command = records.command_line("review", [
        (record, True), ("--variant", variant), ("--rounds", rounds), ("--seeds", seeds),
        ("--beam", beam), ("--time-limit", time_limit), ("--weights", weights_file),
        ("--out", out), ("--best-out", best_out)])
    if not default_out:
        check_outputs("review", *RV.output_paths(out), best_out)
    backend = make_backend("review", workers, cluster)  # before anything is written
    if default_out:
        Path(DEFAULT_DIR).mkdir(parents=True, exist_ok=True)
        check_outputs("review", *RV.output_paths(out), best_out)
    plan = RV.stops(full.variant, full.line, round_list)
    jobs = RV.make_jobs(full.variant, plan, seed_list, beam, time_limit, weights)
    run_dir = open_run_dir("review", backend, lambda: R.RunDir(
        RV.run_dir_of(out), RV.manifest(full.variant, record, full.line, plan, seed_list, beam,
                                        time_limit, weights), resume))
    own = full.state.score()[0].as_dict()
    click.echo(f"review: {record}: {full.variant}, {len(full.line)} actions, "
               f"{score_text(own)}; rounds {round_list[0]}-{round_list[-1]} x "
               f"{len(seed_list)} seeds = {len(jobs)} jobs, beam {beam}"
               + (f", {time_limit:g} s per job" if time_limit else "")
               + f", {backend.describe()}; finished jobs in {run_dir.path}/", err=True)
    t0 = time.perf_counter()
    before = len([k for k in run_dir.finished() if k in {j.key for j in jobs}])
    results, signal_name = run_jobs("review", SW.SEARCH, jobs, run_dir, backend,
                                    desc="review", quiet=quiet)
    if signal_name is not None:
        stopped(f"\nstopped: {saved_jobs(run_dir, jobs)}; run the same command with --resume "
                "for the rest", signal_name)
    seconds = time.perf_counter() - t0
    rows = RV.review_rows(full.variant, full.line, own, plan, results, seed_list,
                          full.round)
    rec = RV.make_record(command=command, variant=full.variant, source=record, line=full.line,
                         score=own, seeds=seed_list, width=beam, time_limit=time_limit,
                         rows=rows, seconds=seconds, jobs=len(jobs), weights=weights)
    click.echo(RV.format_table(rows, own["total"]))  # before any write
    click.echo("")
    click.echo(RV.format_ranking(rows, top))
    title = (f"{full.variant}: review of {record} ({own['total']} points), rounds "
             f"{round_list[0]}-{round_list[-1]}, beam {beam}, seeds {seeds}")
    better = RV.best_record(rec, command)
    try:
        paths = RV.write_outputs(out, rec, title)
        if better is not None:
            paths.append(str(records.write_record(better, best_out, replace=True,
                                                  what="the best line")))
    except records.Unsaved as e:
        unsaved("review", e, f"; every job is saved in {run_dir.path}/: run the same command "
                             "with --resume to write the outputs again")
    if better is not None:
        click.echo(f"\na better line than the reviewed one: {score_text(better['score'])}, "
                   f"written to {best_out}")
    bad = [f"round {r['round']} seed {run['seed']}" for r in rows for run in r["runs"]
           if not run["verified"]]
    click.echo(f"{len(jobs)} jobs ({len(jobs) - before} run now), {seconds:.1f} s; written: "
               f"{', '.join(paths)}")
    if bad:
        click.echo(f"review: {len(bad)} lines do not replay on the reference engine: "
                   + "; ".join(bad[:5]), err=True)
        sys.exit(1)


def is_review_record(file: str) -> bool:
    """Whether a file is a review record (kind ``ora-solve review``)."""
    try:
        with open(file) as f:
            return json.load(f).get("kind") == "ora-solve review"
    except (OSError, ValueError, AttributeError):
        return False


def replay_review(file: str, as_json: bool) -> None:
    """`ora-solve replay` of a review record: every line replayed, and each round's lines
    checked to pass through the reviewed line's position at that round."""
    from solver.research import review as RV

    try:
        data = json.loads(Path(file).read_text())
    except (OSError, ValueError) as e:
        fail("replay", f"cannot read {file}: {e}")
    try:
        n, bad = RV.verify_review(data)
    except (KeyError, TypeError, IndexError) as e:
        fail("replay", f"{file}: malformed review record ({type(e).__name__}: {e})")
    if as_json:
        click.echo(json.dumps({"confirmed": not bad, "lines": n, "failed": bad}))
    else:
        click.echo(f"{file}: review of {data['reviewed']['source']} "
                   f"({data['reviewed']['score']['total']} points), "
                   f"{len(data.get('rounds', []))} rounds, {n} lines")
        click.echo("replay: " + ("every line confirmed on the reference engine" if not bad
                                 else f"FAILED: {len(bad)} lines: " + "; ".join(bad[:5])))
    if bad:
        sys.exit(1)


def register(main: click.Group) -> None:
    """Add `review` to the ora-solve group."""
    main.add_command(review)
