"""Write results/README.md from the records in results/ (every number is a measured record).

Usage: ``python tools/results_table.py`` after running searches such as
``ora-solve solo --variant ireland --beam 500``. Each row is one record file: its score
breakdown, wall time and nodes are what that run measured; every record replays on the
reference engine (tests/test_search.py checks them all).
"""

from __future__ import annotations

import json
import pathlib

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "results"
DEFAULT_TIME_LIMIT = 600.0  # `ora-solve solo`'s time limit without --beam/--mcts/--nrpa

HEADER = """# Results

Every file here is a solo line found by `ora-solve solo`, replayable with
`ora-solve replay FILE` (the test suite replays them all through the reference engine). Each
record holds the command, commit, versions, rule profile (`rulebook`), parameters, seed,
nodes expanded, wall time, score and the full line (canonical ids and readable text).

Scores and wall times below are measured, one row per record (2-core machine, the search
using both cores, each run alone). The wall time is the search's own, from the record. The
width-2000 rows ran on an empty Numba cache, so theirs include compiling the kernels (France:
346 s against 325 s for the same line rerun warm); the other rows ran with the kernels
already compiled. The commit column is the code that found the line. Records with a
`stages` field list each beam group and polish restart with its score and time.

| variant | search | budget | seed | total | goods | economic | dwelling | wall time (s) | nodes | commit | file |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
"""


FOOTER = """
The rows "default command" are `ora-solve solo --variant V --seed S` exactly (600 s, the
timed schedule of solver/search/schedule.py), each run alone with warm kernels: at deadb6a
Ireland 517 / 558 / 552 and France 522 / 519 / 519 for seeds 0 / 1 / 2; France at 628bff3
(its best-measured weighting leads) 531 / 517 / 536. The
width-2000 rows are `ora-solve solo --variant V --beam 2000` (the default command until
it became time-budgeted). Width 100 is a
single group and has no endgame polish. Until 628bff3 wider beams ran one group per 100 of
width (at most 21, one per portfolio weighting: 5 groups of 100 at width 500, 20 of 100 at
width 2000, 21 of 476 at width 10000); from 628bff3 they run at most six wider groups chosen
as the timed schedule chooses them. Then the polish runs at half the width (see
solver/search/beam.py). Both variants pass 500 from width 500 on; width 10000 reaches 536
(France, 12.6 minutes) and 539 (Ireland, 28 minutes). A single narrow beam is chaotic (399
and 405 at width 100): the groups and the polish are what make the wider searches reliable.
The width-2000 rows `ireland-beam2000-seed0-2.json` (536, at 3f57b53, guided polish
restarts) and `-3` (529, at 628bff3, six groups) and `france-beam2000-seed0-2.json` (504, at
628bff3; 481 at 03834b4, not kept) are the same command on later code.

MCTS over whole turns (`solver/search/mcts.py`; rows "sims/turn"): the tree's edges are the
beam's turns, max backup, one decision per turn. Its playouts are narrow beams (rows "beam
playouts from width W": width W at the start, growing as the game shortens, see
`solver/search/rollout.py`); the rows "greedy playouts" are the earlier MCTS whose playouts
played the best turn under one weighting. The "sims/command" rows are the command-level MCTS
before both (uniformly random rollouts, about 200 points at 1000 simulations per command).
The default `ora-solve solo --variant V --mcts` (16 simulations per turn, beam playouts from
width 9 in Ireland and 16 in France, at most 128, commits 3c51c9f / fe53ad7) scored Ireland
537 / 519 and France 507 / 513 for seeds 0 / 1, in 381-582 s each (run alone under the
timed lock, warm kernels; the widths were chosen on seed 5). The rows "from width 7" are the
same command at 2662744 (the France records say `-dirty` for an edit to the top-level
README.md made while they ran, no code), the row "from width 5" at 8524fe2.
NRPA rows (`solver/search/nrpa.py`) started from a beam line (`--from FILE`, the seed line:
its file and score are in the budget column) and searched the rounds from `from_round` on;
their `stages` field lists each top-level iteration (with `restart`: the rows at TAU 3 restart
from their best line until the time limit). The e594ea3 rows ran at TAU 1. The two 3600 s
rows ran at the same time at `nice -n 19` on a machine shared with other helpers' jobs and
timed runs (load average 9-13 on 2 cores), so each had a fraction of a core for most of the
hour; they ran the code of 464f980 and name b7567d4, the commit when they were written (it
differs for them only in the trace of a converged run's last iteration and the record's
`tau` field; records now name the commit their search started on). Ireland reached 543 in
its first level-1 run (142 playouts; 540, 541, 542, 543 on the way) and kept it through 81
restarts; France's level-2 runs converged on the seed line in each of 16 restarts (every
level-1 search returned it; no playout scored above 536 in 16542).

`sweeps/` holds comparison sweeps (`ora-solve openings`, `ora-solve analyse`): each JSON record
keeps every job's full line from the initial state with its command and commit, so
`ora-solve replay sweeps/FILE.json` confirms all of them; the CSV, PNG and SVG beside it are
drawn from that record. `openings-ireland-t2-beam20` is the full two-turn Ireland sweep (282
openings x seeds 0,1,2 at width 20; see docs/research.md).
"""


def main() -> int:
    rows = []
    for path in sorted(RESULTS.glob("*.json")):
        r = json.loads(path.read_text())
        p = r["parameters"]
        size = p.get("width", p.get("simulations_per_decision", p.get("level", 0)))
        if r["algorithm"] == "mcts":
            # records before the turn-level MCTS (no "decision" field) searched commands
            budget = f"{size} sims/{p.get('decision', 'command, old MCTS')}"
            if p.get("playout_width"):
                budget += f", beam playouts from width {p['playout_width']}" + (
                    f" (at most {p['playout_max_width']})" if p.get("playout_max_width") else "")
            elif "decision" in p:
                budget += ", greedy playouts"
        elif r["algorithm"] == "nrpa":
            budget = f"level {size} x {p.get('iterations')} iterations"
            if p.get("seed_line"):
                budget += f", from {p['seed_score']} (`{pathlib.Path(p['seed_line']).name}`"
                budget += f", round {p['from_round']} on)" if p.get("from_round") else ")"
        elif p.get("schedule") == "time":
            default = p["time_limit"] == DEFAULT_TIME_LIMIT and "--weights" not in r["command"]
            budget = (("default command: " if default else "")
                      + f"time limit {p['time_limit']:g} s (timed schedule)")
            size = 10 ** 9 + p["time_limit"]  # after the fixed widths, shorter limits first
        else:
            budget = f"width {size}"
        if p.get("time_limit") and p.get("schedule") != "time":
            budget += f", limit {p['time_limit']} s"
        s = r["score"]
        rows.append((r["variant"], r["algorithm"], budget, r["seed"], s["total"], s["goods"],
                     s["economic"], s["dwelling"], r["wall_seconds"], r["nodes"],
                     r["commit"][:7] + ("-dirty" if r["commit"].endswith("-dirty") else ""),
                     path.name, size))
    rows.sort(key=lambda x: (x[0], x[1], x[12], x[2], x[3]))
    lines = [HEADER]
    for row in rows:
        lines.append("| " + " | ".join(str(v) for v in row[:11]) + f" | `{row[11]}` |\n")
    best = {}
    for row in rows:
        if row[4] > best.get(row[0], (0,))[0]:
            best[row[0]] = (row[4], row[11])
    lines.append("\nBest line per variant: " + ", ".join(
        f"{v} {s} (`{f}`)" for v, (s, f) in sorted(best.items())) + ".\n")
    lines.append(FOOTER)
    (RESULTS / "README.md").write_text("".join(lines))
    print(f"wrote {RESULTS / 'README.md'} with {len(rows)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
