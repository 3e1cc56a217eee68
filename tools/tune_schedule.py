"""Compare settings of the time-budgeted beam (solver/search/beam/schedule.py) at one budget.

    PYTHONPATH=. python tools/tune_schedule.py --seconds 120 --seeds 101 102 \
        --groups 3 6 12 --share 0.5 > tune.jsonl

Runs ``timed_beam_search`` once per (variant, seed, groups, share), one after another, and
prints one JSON line per run: the settings, score, seconds and the stages' widths. Use seeds
you do not report (the tuning seeds), and run it alone: the widths follow the machine's speed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

from solver.search.beam import schedule


def main() -> None:
    """Parse the grid and run it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--variants", nargs="+", default=["ireland", "france"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[101])
    ap.add_argument("--groups", nargs="+", type=int, default=[schedule.GROUPS])
    ap.add_argument("--share", nargs="+", type=float, default=None,
                    help="group shares to try (default: each variant's GROUP_SHARE)")
    a = ap.parse_args()
    default_share = dict(schedule.GROUP_SHARE)
    for seed, variant, groups, share in itertools.product(a.seeds, a.variants, a.groups,
                                                          a.share or [None]):
        schedule.GROUPS = groups
        schedule.GROUP_SHARE = default_share | ({} if share is None else {variant: share})
        share = schedule.GROUP_SHARE[variant]
        t = time.perf_counter()
        r = schedule.timed_beam_search(variant, a.seconds, seed)
        print(json.dumps({"variant": variant, "seed": seed, "groups": groups, "share": share,
                          "seconds": a.seconds, "score": r.score[0],
                          "wall": round(time.perf_counter() - t, 1),
                          "widths": [(s["stage"][0], s["width"], s["score"]) for s in r.trace]}),
              flush=True)


if __name__ == "__main__":
    main()
