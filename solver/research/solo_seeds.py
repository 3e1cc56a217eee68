"""`ora-solve solo --seeds A,B,C`: one solo job searched with several seeds, as a sweep.

Each seed is a job (solver/jobs) of the same :class:`SoloJob` with only its seed
changed, so the seeds run side by side on the local pool (``--jobs``) or as tasks on a Ray
cluster (``--cluster``), each saved as it finishes in ``<record stem>.jobs/`` (``--resume``
finishes an interrupted sweep). The record is the best seed's line (ties: the seed given
first), in the ordinary results-record form that ``replay`` and ``show`` read, plus a
``seed_sweep`` field with the spread: every seed's score, the mean, min, max and standard
deviation. A time limit is per seed. Interrupted (Ctrl-C, SIGTERM), the seeds that finished
make the record (``"interrupted": true``, the missing seeds listed); running ones are lost.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, replace
from pathlib import Path
from types import SimpleNamespace

from solver.jobs import Job, Task
from solver.search import records
from solver.search.solo import RESULTS, SeedLine, SoloJob, run_search, write_result

from . import stats
from .rundir import RunDir
from .sweep import warm_search

KIND = "solo seeds"


def payload(job: SoloJob, seed: int) -> dict:
    """The job as JSON (what a worker on any node needs), with ``seed``."""
    pos = job.position
    return {"variant": job.variant, "seed": seed, "width": job.width,
            "simulations": job.simulations, "time_limit": job.time_limit, "nrpa": job.nrpa,
            "iterations": job.iterations, "playout_width": job.playout_width,
            "node_limit": job.node_limit,
            "seed_line": None if job.seed_line is None else asdict(job.seed_line),
            "prefix": None if pos is None else list(pos.prefix),
            "source": None if pos is None else pos.source,
            "weights": None if job.weights is None else job.weights.describe()}


def job_of(p: dict) -> SoloJob:
    """The SoloJob of a payload (its position replayed on the reference engine)."""
    position = None
    if p["prefix"] is not None:
        from .positions import from_line

        position = from_line(p["variant"], p["prefix"], source=p["source"])
    weights = None
    if p.get("weights") is not None:
        from solver.search.evaluation.weights import Weights, from_named

        weights = Weights(p["weights"]["file"], p["variant"],
                          from_named(p["weights"]["values"], "the job's weights"))
    return SoloJob(variant=p["variant"], seed=p["seed"], width=p["width"],
                   simulations=p["simulations"], time_limit=p["time_limit"],
                   position=position, nrpa=p["nrpa"], iterations=p["iterations"],
                   seed_line=None if p["seed_line"] is None else SeedLine(
                       **(p["seed_line"] | {"line": tuple(p["seed_line"]["line"])})),
                   weights=weights, playout_width=p.get("playout_width"),
                   node_limit=p.get("node_limit"))


def seed_job(p: dict) -> dict:
    """One seed: the search (its time limit counted from here), its line checked on the
    reference engine."""
    job = job_of(p)
    r = run_search(job, time.perf_counter(), stop=None, quiet=True)
    total, goods, economic, dwelling = (int(v) for v in r.score)
    score = {"total": total, "goods": goods, "economic": economic, "dwelling": dwelling}
    ok, message, _ = records.verify_record({"variant": job.variant, "line": list(r.line),
                                            "score": score})
    trace = json.loads(json.dumps(getattr(r, "trace", None) or [],
                                  default=lambda o: o.item() if hasattr(o, "item") else str(o)))
    return {"seed": p["seed"], "score": score, "line": [int(a) for a in r.line],
            "nodes": int(r.nodes), "seconds": round(float(r.seconds), 2),
            "complete": bool(r.complete), "verified": ok, "message": message,
            "stages": trace, "weightings": r.weightings}


SEED_TASK = Task(seed_job, warm_search)  # what the workers run


def key(seed: int) -> str:
    """A seed's job key (its file in the run directory)."""
    return f"s{seed}"


def make_jobs(job: SoloJob, seeds: list[int]) -> list[Job]:
    """One job per seed."""
    return [Job(key(s), payload(job, s)) for s in seeds]


def manifest(job: SoloJob, seeds: list[int]) -> dict:
    """What identifies the sweep (a run directory refuses to resume another)."""
    return {"kind": KIND, "seeds": seeds} | {k: v for k, v in payload(job, 0).items()
                                             if k != "seed"}


def seed_tag(seeds: list[int]) -> str:
    """The seeds in a file name (``seeds0-1-2``)."""
    return "seeds" + "-".join(str(s) for s in seeds)


def output(job: SoloJob, seeds: list[int], out: str | None, resume: bool) -> records.Output:
    """Where the record goes, checked before anything runs (records.OutputError if it
    cannot be written): ``out``; else results/<name>, the first free name unless resuming."""
    return records.output(out, RESULTS / job.file_name(seed_tag(seeds)), resume=resume)


def run_dir(output: records.Output, job: SoloJob, seeds: list[int], resume: bool) -> RunDir:
    """The sweep's finished seeds, beside the record (jobs.SweepError if unusable)."""
    return RunDir(output.path.with_name(output.path.stem + ".jobs"), manifest(job, seeds),
                  resume)


def spread(seeds: list[int], results: dict[str, dict], wall: float) -> dict:
    """The record's ``seed_sweep``: every finished seed's run, the statistics, the best."""
    runs = [results[key(s)] for s in seeds if key(s) in results]
    scores = [r["score"]["total"] for r in runs]
    best = max(runs, key=lambda r: r["score"]["total"])  # the first of equals: seed order
    return {"seeds": seeds, "finished": [r["seed"] for r in runs],
            "missing": [s for s in seeds if key(s) not in results],
            "scores": scores, "mean": round(stats.mean(scores), 2), "min": min(scores),
            "max": max(scores),
            "stdev": None if len(scores) < 2 else round(stats.stdev(scores), 2),
            "best_seed": best["seed"], "wall_seconds": round(wall, 1),
            "runs": [{k: r[k] for k in ("seed", "score", "nodes", "seconds", "complete",
                                        "verified")} for r in runs]}


def write(job: SoloJob, seeds: list[int], results: dict[str, dict], out: records.Output,
          command: str, wall: float, interrupted: str | None) -> tuple[dict, Path]:
    """The best seed's line as the record, the spread in ``seed_sweep``; written atomically."""
    sweep = spread(seeds, results, wall)
    best = results[key(sweep["best_seed"])]
    sc = best["score"]
    result = SimpleNamespace(score=(sc["total"], sc["goods"], sc["economic"], sc["dwelling"]),
                             line=best["line"], nodes=best["nodes"], seconds=best["seconds"],
                             complete=best["complete"], trace=best["stages"],
                             weightings=best.get("weightings"))  # None in older run dirs
    return write_result(replace(job, seed=best["seed"]), result, out, command, interrupted,
                        {"seed_sweep": sweep})


def format_spread(sweep: dict) -> str:
    """Every seed's score and the statistics, as text."""
    lines = [f"{'seed':>6} {'total':>6} {'goods':>6} {'econ':>6} {'dwell':>6} {'nodes':>10} "
             f"{'seconds':>8}"]
    for r in sweep["runs"]:
        s = r["score"]
        mark = " best" if r["seed"] == sweep["best_seed"] else ""
        lines.append(f"{r['seed']:>6} {s['total']:>6} {s['goods']:>6} {s['economic']:>6} "
                     f"{s['dwelling']:>6} {r['nodes']:>10} {r['seconds']:>8.1f}{mark}")
    sd = "" if sweep["stdev"] is None else f", stdev {sweep['stdev']:.1f}"
    lines.append(f"spread over {len(sweep['runs'])} seeds: mean {sweep['mean']:.1f}, min "
                 f"{sweep['min']}, max {sweep['max']}{sd}")
    if sweep["missing"]:
        lines.append(f"not finished: seeds {', '.join(str(s) for s in sweep['missing'])}")
    return "\n".join(lines)
