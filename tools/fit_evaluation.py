"""Fit an evaluation table by round (solver/search/evaluation/fit.py) and write a table file.

Usage::

    python tools/fit_evaluation.py --variant france --seeds 20-29 --data france-fit.npz \
        --out solver/search/evaluation/tuned/france-by-round.json

samples ``--per-layer`` states of every layer of a width-``--width`` beam per training seed,
labels each by a width-``--label-width`` beam from it (about 35 minutes for France's 2238
states on one core), fits and clamps the table and writes it with its ``fitting`` record.
``--data`` keeps the states and labels: if the file exists they are read from it instead of
searched again. The file is a table file (format 2); ``beam_search`` runs one beam under
it only once its ``fitting.holdout`` holds the held-out comparison and
``beats_beam_search`` is true, both added by hand (docs/tuning.md).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def seed_list(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv=None) -> int:
    from solver.search.evaluation import fit
    from solver.search.evaluation.weights import default_portfolio, make_table_file

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", choices=("france", "ireland"), required=True)
    ap.add_argument("--seeds", default="20-29", help="training seeds [20-29]")
    ap.add_argument("--width", type=int, default=100, help="the sampling beams' width")
    ap.add_argument("--per-layer", type=int, default=3, help="states kept per layer")
    ap.add_argument("--label-width", type=int, default=20, help="the labelling beams' width")
    ap.add_argument("--ridge", type=float, default=3000.0,
                    help="shrinkage toward the leader's potential [3000]")
    ap.add_argument("--clamp", type=float, default=2.0,
                    help="each weight at most this times the leader's [2]")
    ap.add_argument("--data", help="an .npz of states and labels, read if it exists, else "
                                   "written")
    ap.add_argument("--out", required=True, help="the table file to write")
    a = ap.parse_args(argv)
    seeds = seed_list(a.seeds)
    portfolio = default_portfolio(a.variant)
    data = pathlib.Path(a.data) if a.data else None
    if data is not None and data.exists():
        d = np.load(data)
        states, labels = d["states"], d["labels"]
    else:
        states = fit.sample_states(a.variant, seeds, a.width, a.per_layer, portfolio, print)
        labels = fit.label_states(a.variant, states, a.label_width, portfolio[0], print)
        if data is not None:
            np.savez(data, states=states, labels=labels)
    table, report = fit.fit_table(a.variant, states, labels, portfolio[0], a.ridge)
    table = fit.clamp_table(table, portfolio[0], a.clamp)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    fitting = {"command": "python tools/fit_evaluation.py " + " ".join(argv or sys.argv[1:]),
               "commit": commit, "seeds": seeds, "width": a.width, "per_layer": a.per_layer,
               "label_width": a.label_width, "ridge": a.ridge, "clamp": a.clamp,
               "degree": fit.DEGREE, "fit": report,
               "holdout": {"beats_beam_search": False}}
    out = pathlib.Path(a.out)
    tmp = out.with_name(out.name + ".part")
    text = json.dumps(make_table_file(a.variant, table, fitting), indent=1)
    # a list of numbers on one line: a weight's 34 rounds read as one row
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]",
                  text)
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(out)
    print(f"wrote {out}: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
