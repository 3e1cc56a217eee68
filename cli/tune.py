"""`ora-solve tune`: parse, check the output, run solver/search/evaluation/tune.py, write the
weights file."""

from __future__ import annotations

from pathlib import Path

import click

from cli.options import (
    beam_option,
    cluster_option,
    failing,
    jobs_option,
    make_backend,
    out_option,
    parse_seeds,
    quiet_option,
    seed_option,
    stopped,
    unsaved,
    variant_option,
)
from solver.search.evaluation.settings import METHODS, Settings

DEFAULT = Settings(variant="")  # the tuner's defaults, written once (in Settings)


def _seed_list(seeds: list[int]) -> str:
    return ",".join(map(str, seeds))


@click.command("tune")
@variant_option(required=True)
@click.option("--generations", type=click.IntRange(min=1), default=DEFAULT.generations,
              show_default=True, help="Generations of the tuner.")
@click.option("--population", type=click.IntRange(min=2), default=DEFAULT.population,
              show_default=True,
              help="Candidates per generation (the mean and antithetic samples).")
@click.option("--seeds", default=_seed_list(DEFAULT.seeds), show_default=True,
              help="Training seeds: every candidate is scored on all of them (paired).")
@click.option("--holdout", default=_seed_list(DEFAULT.holdout), show_default=True,
              help="Held-out seeds, never used for selection: the tuned weights against the "
                   "hand-set portfolio at the same budget ('' for none).")
@beam_option(default=DEFAULT.beam, help="Width of each candidate's single-weighting beam.")
@jobs_option
@cluster_option
@click.option("--start", "start_file", type=click.Path(dir_okay=False), default=None,
              help="Start from this weights file (default: the first hand-set weighting).")
@click.option("--start-best", is_flag=True, default=False,
              help="Start from the hand-set weighting that scores best on the training seeds "
                   "(each is scored there first).")
@click.option("--method", type=click.Choice(METHODS), default=DEFAULT.method,
              show_default=True,
              help="cem: the cross-entropy method; es: a (1+lambda) evolution strategy around "
                   "the best candidate so far (for a good start, e.g. --start-best).")
@click.option("--sigma-scale", type=click.FloatRange(min=0, max=4, min_open=True),
              default=DEFAULT.sigma_scale, show_default=True,
              help="Multiply every initial step size (sigma) by this.")
@click.option("--compare", type=click.IntRange(min=1), default=None,
              help="Compare with only the first N hand-set weightings on the held-out seeds "
                   "(default: all; the weights count as beating the hand-set portfolio only "
                   "against all).")
@out_option("Weights file to write, replaced if it exists (default: a free name "
            "results/weights/<variant>-beam<W>-seed<S>.json).")
@seed_option("Seed of the tuner's sampling.", default=DEFAULT.seed)
@quiet_option
def tune(variant, generations, population, seeds, holdout, beam, workers, cluster, start_file,
         start_best, method, sigma_scale, compare, out, seed, quiet):
    """Tune the evaluation's weights (cross-entropy method or evolution strategy) on short
    paired beams.

    Writes a weights file (for --weights FILE of solo, openings and analyse) with its tuning
    record. Ctrl-C or SIGTERM stops the tuning: the best weights so far are written with
    "interrupted": true, and the command exits 130 or 143. If the weights file cannot be
    written at the end (a full disk), it goes to $TMPDIR/ora-solve-<name>.json instead, or to
    stdout, and the command exits 1.
    """
    import numpy as np

    from solver.search import records
    from solver.search.evaluation import tune as T
    from solver.search.evaluation import weights as WF
    from solver.search.evaluation.features import PORTFOLIO
    from solver.search.solo import StopOnSignal

    settings = T.Settings(variant=variant, generations=generations, population=population,
                          seeds=parse_seeds(seeds, "--seeds"),
                          holdout=parse_seeds(holdout, "--holdout", allow_empty=True),
                          beam=beam, seed=seed, compare=compare, start_best=start_best,
                          method=method, sigma_scale=sigma_scale)
    if start_best and start_file is not None:
        raise click.UsageError("--start FILE and --start-best exclude each other")
    try:
        settings.check()
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    start = np.asarray(PORTFOLIO[0], dtype=np.float64)
    if start_file is not None:
        with failing("ora-solve tune", WF.WeightsError):
            start = WF.load(start_file, variant).values
    default = Path(f"results/weights/{variant}-beam{beam}-seed{seed}.json")
    with failing("ora-solve tune", records.OutputError):  # before any work
        output = records.output(out, default, what="the weights file")
    command = records.command_line("tune", [
        ("--variant", variant), ("--generations", generations), ("--population", population),
        ("--seeds", seeds), ("--holdout", holdout), ("--beam", beam), ("--seed", seed),
        ("--start", start_file), ("--start-best", start_best),
        ("--method", None if method == DEFAULT.method else method),
        ("--sigma-scale", None if sigma_scale == DEFAULT.sigma_scale else f"{sigma_scale:g}"),
        ("--compare", compare), ("--out", out)], quote=True)
    backend = make_backend("ora-solve tune", workers, cluster)  # the one place the backend is made
    n_train = generations * population
    n_hold = (1 + min(compare or len(PORTFOLIO), len(PORTFOLIO))) * len(settings.holdout)
    click.echo(f"tune {variant}: {generations} generations x {population} candidates x "
               f"{len(settings.seeds)} training seeds, beam {beam}; then "
               f"{n_hold} held-out beams; {backend.describe()}; weights to {output.path} "
               "(Ctrl-C stops and keeps the best so far)", err=True)
    from solver.search.progress import bar

    bars = {"candidate": bar(total=n_train, desc=f"tune {variant}", unit=" candidate",
                             quiet=quiet, dynamic_ncols=True)}

    def progress(event, name=None, done=False, total=None):
        if event == "phase" and name == "start":
            bars["start"] = bar(total=total, desc=f"start {variant} (hand-set)", unit=" beam",
                                quiet=quiet, dynamic_ncols=True)
        elif event == "phase":
            bars["candidate"].close()
            bars["holdout"] = bar(total=total, desc=f"held-out {variant}", unit=" beam",
                                  quiet=quiet, dynamic_ncols=True)
        elif event == "start":
            bars["start"].update(1)
        elif event == "candidate":
            if "start" in bars:
                bars.pop("start").close()
            if done:
                bars["candidate"].update(1)
                if tuner.best is not None:
                    bars["candidate"].set_postfix_str(f"best {tuner.best.mean:.1f}")
        elif event == "holdout":
            bars["holdout"].update(1)

    with StopOnSignal("stopping the tuning when the beams under way end; the best weights "
                      "so far will be written") as stop:
        tuner = T.Tuner(settings, start, backend, stop=stop, progress=progress)
        try:
            with backend:
                tuning = tuner.run()
        finally:
            for b in bars.values():
                b.close()
        signal_name = stop.name
    if tuner.best is None:
        stopped("ora-solve tune: stopped before any candidate was scored: nothing written",
                signal_name or "SIGINT")
    tuning = {"command": command,
              "commit": records.git_commit(Path(T.__file__).resolve().parent),
              "versions": records.versions(), "start_file": start_file} | tuning
    if signal_name is not None:
        tuning["interrupted"], tuning["signal"] = True, signal_name
    data = WF.make_file(variant, tuner.best.w, tuning)
    try:
        written = records.write_record(data, output.path, replace=output.explicit,
                                       what="the weights file")
    except records.Unsaved as e:
        if e.kept is not None:
            _summary(tuning, e.kept)
        unsaved("ora-solve tune", e)
    _summary(tuning, written)
    if signal_name is not None:
        stopped(f"stopped by {signal_name}: {_where(tuning)}; the best weights so far (mean "
                f"{tuning['best_training']['mean']} on the training seeds) were written to "
                f"{written}; tune has no --resume: --start {written} tunes on from them",
                signal_name)


def _where(t: dict) -> str:
    """Where a stopped tuning stands: the candidates scored and the generation, or the
    held-out comparison."""
    scored = sum(h["candidates"] for h in t["history"])
    total = t["generations"] * t["population"]
    if scored == total and t["holdout_seeds"]:
        return f"all {total} candidates scored, the held-out comparison not finished"
    return (f"{scored} of {total} candidates scored, in generation {t['generations_run']} of "
            f"{t['generations']}")


def _summary(t: dict, path) -> None:
    """The tuning's outcome: per generation, then the held-out table."""
    click.echo(f"tune {t['variant']}: start {t['start_training']['mean'] if t['start_training'] else '-'}"
               f" -> best {t['best_training']['mean']} on training seeds {t['training_seeds']} "
               f"(generation {t['best_training']['generation']}), {t['tuning_seconds']} s")
    if t.get("start_selection"):
        sel = t["start_selection"]
        click.echo(f"  start: hand-set #{sel['index']}, the best of {len(sel['means'])} on the "
                   f"training seeds (mean {sel['means'][sel['index']]})")
    for h in t["history"]:
        click.echo(f"  generation {h['generation']}: best {h['best']}, mean {h['mean']}, "
                   f"best so far {h['best_so_far']}")
    h = t["holdout"]
    if h:
        click.echo(f"held-out seeds {h['seeds']}, beam {h['beam']}:")
        cols = "".join(f"{s:>7}" for s in h["seeds"])
        click.echo(f"  {'weighting':<26}{cols}{'mean':>9}")
        rows = [("tuned", h["tuned"]), ("hand-set #0", h["hand_set_first"]),
                (f"best hand-set (#{h['hand_set_best']['index']})", h["hand_set_best"])]
        if "start" in h:
            rows.append(("start", h["start"]))
        if "hand_set_selected" in h:
            rows.append((f"chosen on training (#{h['hand_set_selected']['index']})",
                         h["hand_set_selected"]))
        for name, r in rows:
            click.echo(f"  {name:<26}" + "".join(f"{s:>7}" for s in r["scores"])
                       + f"{r['mean']:>9.2f}")
        verdict = "beat" if h["tuned"]["mean"] >= h["hand_set_best"]["mean"] else \
            "do not beat"
        click.echo(f"  the tuned weights {verdict} the best of the {h['hand_set_compared']} "
                   f"hand-set weightings compared ({h['hand_set_total']} in all)"
                   + ("" if h["beats_hand_set"] or verdict != "beat" else
                      ": not all compared, so they do not count as beating the portfolio"))
        if "hand_set_selected" in h:
            click.echo(f"  the tuned weights {'beat' if h['beats_selected'] else 'do not beat'}"
                       f" hand-set #{h['hand_set_selected']['index']}, the one the training "
                       "seeds chose (like for like: the best hand-set is chosen on these seeds)")
    click.echo(f"weights written to {path}")


def register(main: click.Group) -> None:
    """Add `tune` to the ora-solve group."""
    main.add_command(tune)
