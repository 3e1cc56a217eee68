"""``ora-solve bench --strength``: how strong the search is, measured so that it repeats.

Every change to the search is judged here before any 10-minute timed run. The suite runs,
in both variants and on tuning seeds only (seeds 0-2 report results and are never tuned on):

* fixed-width beams (``beam_search``), which give the same line on any machine;
* the default schedule under a node budget (``timed_beam_search(nodes=N)``): the schedule a
  user's timed run uses, sized by children generated instead of seconds, so it repeats too.

For each run it prints the score and its parts, the seconds, and the **plan**: the player's
buildings in the order built up to round ``PLAN_ROUND`` (the records' shared openings show
that plans split there). Per variant and budget it prints the mean and the number of distinct
plans, and over all runs a **signature** (a digest of every line), which is the same for the
same code and arguments on any machine: a change that claims no behaviour change keeps it.
"""

from __future__ import annotations

import hashlib
import json
import time

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.rules.cards import BUILDING_IDS

VARIANTS = ("ireland", "france")
SEEDS = (3, 4, 5, 6)  # tuning seeds: never 0-2, the reporting seeds
REPORTING_SEEDS = (0, 1, 2)
WIDTHS = (1000,)
# the default schedule's budget in children generated: about 50-70 s a run on 2 cores
NODES = 100_000_000
PLAN_ROUND = 18  # a plan: the buildings built before round PLAN_ROUND + 1


def plan_of(variant: str, line: list[int], last_round: int = PLAN_ROUND) -> tuple[str, ...]:
    """The ids of the buildings the player builds in ``line`` up to round ``last_round``,
    in the order built."""
    e = FastEngine(variant)
    W = e.initial_wide().copy()
    built = []
    for a in line:
        if W[L.ROUND] > last_round:
            break
        if I.BUILD0 <= a < I.SETTLE0:
            built.append(BUILDING_IDS[(a - I.BUILD0) // L.N_CELLS])
        e.step_wide(W, a)
    return tuple(built)


def check_seeds(seeds) -> tuple[int, ...]:
    """The suite's seeds, refusing the reporting seeds (ValueError naming them)."""
    seeds = tuple(int(s) for s in seeds)
    if not seeds:
        raise ValueError("the strength suite needs at least one seed")
    reporting = sorted(set(seeds) & set(REPORTING_SEEDS))
    if reporting:
        raise ValueError(f"seeds {', '.join(map(str, reporting))}: seeds 0-2 report results "
                         f"and are never tuned on; give tuning seeds (default "
                         f"{','.join(map(str, SEEDS))})")
    return seeds


def run(variants=VARIANTS, seeds=SEEDS, widths=WIDTHS, nodes: int | None = NODES,
        progress=None) -> dict:
    """Run the suite; returns {"runs": [...], "summary": [...], "signature": str}.

    ``widths``: fixed beam widths (each on every seed); ``nodes``: the default schedule's
    node budget (None or 0: not run). ``progress(text)`` is told each run as it ends."""
    from ..beam import beam_search, timed_beam_search

    seeds = check_seeds(seeds)
    budgets = [("beam", w) for w in widths] + ([("nodes", nodes)] if nodes else [])
    if not budgets:
        raise ValueError("nothing to run: give a width or a node budget")
    runs = []
    for variant in variants:
        beam_search(variant, 1, seeds[0])  # compile or load the kernels outside the timings
        for kind, size in budgets:
            for seed in seeds:
                t0 = time.perf_counter()
                if kind == "beam":
                    r = beam_search(variant, size, seed)
                else:
                    r = timed_beam_search(variant, None, seed, nodes=size)
                row = {"variant": variant, "budget": f"{kind} {size}", "seed": seed,
                       "score": list(r.score), "seconds": round(time.perf_counter() - t0, 1),
                       "nodes": r.nodes, "plan": list(plan_of(variant, r.line)),
                       "line": list(r.line), "stages": r.trace}
                runs.append(row)
                if progress is not None:
                    progress(format_run(row))
    return {"seeds": list(seeds), "runs": runs, "summary": summarise(runs),
            "signature": signature(runs)}


def summarise(runs: list[dict]) -> list[dict]:
    """Per variant and budget: the mean score, the scores, distinct plans and seconds."""
    out = []
    keys = list(dict.fromkeys((r["variant"], r["budget"]) for r in runs))
    for variant, budget in keys:
        rows = [r for r in runs if (r["variant"], r["budget"]) == (variant, budget)]
        scores = [r["score"][0] for r in rows]
        out.append({"variant": variant, "budget": budget, "scores": scores,
                    "mean": round(sum(scores) / len(scores), 2),
                    "plans": len({tuple(r["plan"]) for r in rows}),
                    "seconds": round(sum(r["seconds"] for r in rows), 1)})
    return out


def signature(runs: list[dict]) -> str:
    """A digest of every run's variant, budget, seed, score and line."""
    text = json.dumps([[r["variant"], r["budget"], r["seed"], r["score"], r["line"]]
                       for r in runs])
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def format_run(row: dict) -> str:
    total, goods, econ, dwell = row["score"]
    return (f"{row['variant']:<8} {row['budget']:<14} seed {row['seed']:<4} {total:>4} "
            f"({goods}/{econ}/{dwell})  {row['seconds']:>6.1f} s  plan: "
            f"{' '.join(row['plan']) or '-'}")


def format_text(result: dict) -> str:
    lines = ["runs (score: goods/economic/dwelling; plan: buildings built by round "
             f"{PLAN_ROUND}):"]
    lines += ["  " + format_run(r) for r in result["runs"]]
    lines.append("summary:")
    for s in result["summary"]:
        lines.append(f"  {s['variant']:<8} {s['budget']:<14} mean {s['mean']:>7.2f}  "
                     f"({' / '.join(map(str, s['scores']))})  distinct plans "
                     f"{s['plans']}/{len(s['scores'])}  {s['seconds']:.0f} s")
    lines.append(f"signature {result['signature']} (seeds "
                 f"{','.join(map(str, result['seeds']))})")
    return "\n".join(lines)
