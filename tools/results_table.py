"""Write results/README.md from the records under results/, and file new records there.

Usage: ``python tools/results_table.py`` after running searches such as
``ora-solve solo --variant ireland --beam 500``. It walks results/ recursively (every folder
but ``weights/``, which holds weights files) and writes one table per folder: each row is one
record file, with the score breakdown, wall time and nodes that run measured; every line
record replays on the reference engine (tests/search/test_records.py checks them all).

``--file`` first files the records at the top of results/: per variant, budget and seed (the
name ``<variant>-<budget>-seed<S>.json`` without the ``-2``, ``-3``, ... that
solver/search/records.py adds to a taken name) the best-scoring record keeps or takes the
plain name, ties going to the earlier run, and every other one moves (``git mv`` when
tracked) to ``results/runs/<day>-<commit>/``: the day it ran and the short commit of the
code that ran it. The records of PINNED stay where they are. No record's bytes change.
``--check`` writes nothing and exits 1 if results/README.md is not what this script writes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
DEFAULT_TIME_LIMIT = 600.0  # `ora-solve solo`'s time limit without --beam/--mcts/--nrpa
WEIGHTS = "weights"  # weights files written by `ora-solve tune`: no line, not in the tables
SWEEPS = "sweeps"  # sweep records of `ora-solve openings` / `analyse`: a table of their own
REVIEWS = "reviews"  # review records of `ora-solve review`: a table of their own
RUNS = "runs"
#: top-level records that keep their name and content whatever scores better: README.md,
#: docs/ and tests use their lines at given rounds
PINNED = frozenset({"ireland-beam2000-seed0.json", "france-beam2000-seed0.json"})
#: a record name: the plain name, then the copy number records.free_path adds to a taken name
NAME = re.compile(r"^(?P<plain>[a-z]+-.+-seed\d+)(?:-(?P<copy>\d+))?\.json$")
DAY_FIELDS = ("created", "date", "timestamp")  # a record's own day, if it ever has one

HEADER = """# Results

Every file here outside `weights/` and `sweeps/` is a solo line found by `ora-solve solo`,
replayable with `ora-solve replay FILE` (the test suite replays them all through the
reference engine). Each record holds the command, commit, versions, rule profile
(`rulebook`), parameters, seed, nodes expanded, wall time, score and the full line (canonical
ids and readable text).

How the records are filed:

- The top of `results/` keeps, per variant, budget and seed, the best-scoring record under
  its plain name `<variant>-<budget>-seed<S>.json`, the budget as `ora-solve solo` names it
  (`t600` for the default 600-second command, `t60`, `beam<W>`, `mcts...`, `nrpa...`,
  `n<N>` for node budgets). Two records stay whatever scores better, with their lines, because
  examples in README.md, docs/ and the tests use their rounds: `ireland-beam2000-seed0.json`
  and `france-beam2000-seed0.json`.
- `runs/<day>-<commit>/` holds every other run: the day it ran (the record's `date`; a
  record from before that field, the day of its code's commit) and the short commit of the
  code that ran it (the record's `commit` field), each under its plain name.
- A new search writes its record at the top, under the plain name or, if that is taken, the
  first free name after it (`-2`, `-3`, ...). `python tools/results_table.py --file` files it
  by the rule above (ties go to the earlier run; every move is a `git mv`, no record
  changes) and `python tools/results_table.py` writes this file; the tests fail while a record
  is unfiled or this file is not what the script writes.
- `weights/` holds weights files of `ora-solve tune` (see docs/tuning.md); `sweeps/` holds
  comparison sweeps (table at the end).

Scores and wall times are measured, one row per record (2-core machine, the search using both
cores, each run alone unless said below). The wall time is the search's own, from the
record. The top-level width-2000 rows (11eefaf) ran on an empty Numba cache, so theirs
include compiling the kernels (France: 346 s against 325 s for the same line rerun warm);
the other rows ran with the kernels already compiled. The commit column is the code that
found the line. Records with a `stages` field list each beam group and polish restart with
its score and time.
"""

COLUMNS = """
| variant | search | budget | seed | total | goods | economic | dwelling | wall time (s) | nodes | commit | file |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
"""

FOOTER = """
The rows "default command" are `ora-solve solo --variant V --seed S` exactly (600 s, the
timed schedule of solver/search/beam/schedule.py), each run alone with warm kernels: at deadb6a
Ireland 517 / 558 / 552 and France 522 / 519 / 519 for seeds 0 / 1 / 2; France at 628bff3
(its best-measured weighting leads) 531 / 517 / 536. The top table keeps the best run of
each seed; the runs tables hold the others, by day and code (docs/search.md#results-history
compares them). The width-2000 rows are `ora-solve solo --variant V --beam 2000` (the
default command until it became time-budgeted). Width 100 is a
single group and has no endgame polish. Until 628bff3 wider beams ran one group per 100 of
width (at most 21, one per portfolio weighting: 5 groups of 100 at width 500, 20 of 100 at
width 2000, 21 of 476 at width 10000); from 628bff3 they run at most six wider groups chosen
as the timed schedule chooses them. Then the polish runs at half the width (see
solver/search/beam/stages.py). Both variants pass 500 from width 500 on; width 10000 reaches 536
(France, 12.6 minutes) and 539 (Ireland, 28 minutes). A single narrow beam is chaotic (399
and 405 at width 100): the groups and the polish are what make the wider searches reliable.
The width-2000 records `runs/2026-12-04-3f57b53/ireland-beam2000-seed0.json` (536, guided
polish restarts, run beside other work), `runs/2026-12-04-628bff3/ireland-beam2000-seed0.json`
(529, six groups) and `runs/2026-12-04-628bff3/france-beam2000-seed0.json` (504; 481 at
03834b4, not kept) are the same command on later code; the top-level
`ireland-beam2000-seed0.json` (503) and `france-beam2000-seed0.json` (512) keep the lines of
11eefaf that the examples use.

MCTS over whole turns (`solver/search/mcts.py`; rows "sims/turn"): the tree's edges are the
beam's turns, max backup, one decision per turn. Its playouts are narrow beams (rows "beam
playouts from width W": width W at the start, growing as the game shortens, see
`solver/search/playouts/beam_playouts.py`); the rows "greedy playouts" are the earlier MCTS whose playouts
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
`ora-solve replay sweeps/FILE.json` confirms all of them (the test suite does); the CSV, PNG
and SVG beside it are drawn from that record. `openings-ireland-t2-beam20` is the full
two-turn Ireland sweep (282 openings x seeds 0,1,2 at width 20; see docs/research.md).
"""

REVIEW_COLUMNS = """
`reviews/` holds reviews of lines (`ora-solve review`): for each round searched, V(R), the
best known line through the line's position there, and the points each round lost; every
line in a record replays (`ora-solve replay reviews/FILE.json`, and the test suite).

| reviewed line | variant | its score | rounds | budget | seeds | best found | commit | file |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
"""

SWEEP_COLUMNS = """
| sweep | variant | budget | seeds | jobs | wall time (s) | commit | file |
| --- | --- | --- | --- | --- | --- | --- | --- |
"""


def relative(path: pathlib.Path, results: pathlib.Path = RESULTS) -> str:
    return path.relative_to(results).as_posix()


def record_files(results: pathlib.Path = RESULTS) -> list[pathlib.Path]:
    """Every line record under ``results`` (recursively; not weights/, sweeps/ or reviews/), sorted by
    path relative to ``results``."""
    return sorted((p for p in results.rglob("*.json")
                   if p.relative_to(results).parts[0] not in (WEIGHTS, SWEEPS, REVIEWS)),
                  key=lambda p: relative(p, results))


def sweep_files(results: pathlib.Path = RESULTS) -> list[pathlib.Path]:
    return sorted((results / SWEEPS).glob("*.json"))


def review_files(results: pathlib.Path = RESULTS) -> list[pathlib.Path]:
    """The review records (a review's better line, ``<stem>.best.json``, is listed under its
    review, not here)."""
    return sorted(p for p in (results / REVIEWS).glob("*.json")
                  if not p.name.endswith(".best.json"))


def short_commit(commit: str) -> str:
    return commit[:7] + ("-dirty" if commit.endswith("-dirty") else "")


def run_day(path: pathlib.Path, record: dict) -> str:
    """The day a record was run: its own date field (records written since 2026-12-07 have
    one); else the day of the code commit its ``commit`` field names, the first day it can
    have run and the day every older record in runs/ is filed under; else (a commit git does
    not know) the day of the last commit that changed the file, or for a record not committed
    as it is, the day the file was written. Neither the file's history nor its name dates an
    older record: later commits rewrote records (format changes) and a name may have been
    another record's before."""
    for key in DAY_FIELDS:
        if isinstance(record.get(key), str) and re.match(r"\d{4}-\d\d-\d\d", record[key]):
            return record[key][:10]

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=path.parent, capture_output=True, text=True)

    code = str(record.get("commit", "")).removesuffix("-dirty")
    if re.fullmatch(r"[0-9a-f]{7,40}", code):
        day = git("log", "-1", "--format=%ad", "--date=short", code, "--").stdout.split()
        if day:
            return day[0]
    # as committed: not untracked, ignored, staged or changed since HEAD
    status = git("status", "--porcelain", "--ignored", "--", str(path))
    last = (git("log", "-1", "--format=%ad", "--date=short", "--", str(path)).stdout.split()
            if status.returncode == 0 and not status.stdout else [])
    if last:
        return last[0]  # the commit that brought this record under its name
    return datetime.date.fromtimestamp(path.stat().st_mtime).isoformat()


def filing(results: pathlib.Path = RESULTS) -> list[tuple[pathlib.Path, pathlib.Path]]:
    """The moves (source, destination) that file the top of ``results``, in the order to make
    them: per plain name, the best-scoring record (ties: the earlier run, by day then copy
    number) ends under the plain name and the others in runs/<day>-<commit>/ (a free copy
    number there if two runs of one folder share a name). Names not of the record form and
    the PINNED records are left where they are."""
    groups: dict[str, list[tuple[pathlib.Path, dict]]] = {}
    for path in record_files(results):
        m = NAME.match(path.name)
        if path.parent == results and m:
            groups.setdefault(m["plain"], []).append((path, json.loads(path.read_text())))
    out_moves, renames, taken = [], [], set()
    for plain, members in sorted(groups.items()):
        if len(members) == 1 and members[0][0].name == plain + ".json":
            continue
        days = {p: run_day(p, r) for p, r in members}

        def rank(member):
            p, r = member
            return (-r["score"]["total"], days[p], int(NAME.match(p.name)["copy"] or 1))

        pinned = [m for m in members if m[0].name in PINNED]
        keep = pinned[0] if pinned else min(members, key=rank)
        for path, record in members:
            if path == keep[0]:
                continue
            folder = results / RUNS / f"{days[path]}-{short_commit(record['commit'])}"
            dest, copy = folder / f"{plain}.json", 1
            while dest.exists() or dest in taken:
                copy += 1
                dest = folder / f"{plain}-{copy}.json"
            taken.add(dest)
            out_moves.append((path, dest))
        if keep[0].name != plain + ".json":
            renames.append((keep[0], results / f"{plain}.json"))
    return out_moves + renames


def move(src: pathlib.Path, dest: pathlib.Path) -> None:
    """``git mv`` if ``src`` is tracked (history follows), else a plain rename."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(src)], cwd=src.parent,
                             capture_output=True).returncode == 0
    if tracked:
        subprocess.run(["git", "mv", str(src), str(dest)], cwd=src.parent, check=True)
    else:
        src.rename(dest)


def row(path: pathlib.Path, results: pathlib.Path) -> tuple:
    """One table row of a line record and its sort key."""
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
    cells = (r["variant"], r["algorithm"], budget, r["seed"], s["total"], s["goods"],
             s["economic"], s["dwelling"], r["wall_seconds"], r["nodes"],
             short_commit(r["commit"]), f"`{relative(path, results)}`")
    return cells, (r["variant"], r["algorithm"], size, budget, r["seed"], path.name)


def table(rows: list[tuple]) -> list[str]:
    lines = [COLUMNS]
    for cells, _ in sorted(rows, key=lambda x: x[1]):
        lines.append("| " + " | ".join(str(v) for v in cells) + " |\n")
    return lines


def folder_heading(folder: str) -> str:
    m = re.fullmatch(r"runs/(\d{4}-\d\d-\d\d)-(\w+(?:-dirty)?)", folder)
    if m:
        return f"\n### `{folder}/`: run {m[1]}, code {m[2]}\n"
    return f"\n### `{folder}/`\n"


def render(results: pathlib.Path = RESULTS) -> str:
    """The text of results/README.md for the records under ``results``."""
    folders: dict[str, list[tuple]] = {}
    best: dict[str, tuple[int, str]] = {}
    for path in record_files(results):
        cells, key = row(path, results)
        folders.setdefault(path.parent.relative_to(results).as_posix(), []).append((cells, key))
        if cells[4] > best.get(cells[0], (0, ""))[0]:
            best[cells[0]] = (cells[4], cells[11])
    lines = [HEADER, "\n## Best record per variant, budget and seed\n"]
    lines += table(folders.pop(".", []))
    lines.append("\nBest line per variant: " + ", ".join(
        f"{v} {s} ({f})" for v, (s, f) in sorted(best.items())) + ".\n")
    if folders:
        lines.append("\n## Other runs, by day and code\n")
        for folder in sorted(folders):
            lines.append(folder_heading(folder))
            lines += table(folders[folder])
    lines.append(FOOTER)
    sweeps = sweep_files(results)
    if sweeps:
        lines.append(SWEEP_COLUMNS)
        for path in sweeps:
            s = json.loads(path.read_text())
            b = s.get("budget", {})
            budget = f"{b.get('algorithm', '?')} width {b.get('width')}" + (
                f", limit {b['time_limit']} s" if b.get("time_limit") else "")
            cells = (s.get("sweep"), s.get("variant"), budget,
                     ",".join(str(x) for x in s.get("seeds", [])), s.get("jobs"),
                     s.get("wall_seconds"), short_commit(s.get("commit", "")),
                     f"`{relative(path, results)}`")
            lines.append("| " + " | ".join(str(v) for v in cells) + " |\n")
    reviews = review_files(results)
    if reviews:
        lines.append(REVIEW_COLUMNS)
        for path in reviews:
            s = json.loads(path.read_text())
            b, rounds = s.get("budget", {}), [r["round"] for r in s.get("rounds", [])]
            budget = f"{b.get('algorithm', '?')} width {b.get('width')}" + (
                f", limit {b['time_limit']} s" if b.get("time_limit") else "")
            cells = (f"`{s['reviewed']['source']}`", s.get("variant"),
                     s["reviewed"]["score"]["total"],
                     f"{min(rounds)}-{max(rounds)}" if rounds else "", budget,
                     ",".join(str(x) for x in s.get("seeds", [])),
                     s.get("best", {}).get("score", {}).get("total"),
                     short_commit(s.get("commit", "")), f"`{relative(path, results)}`")
            lines.append("| " + " | ".join(str(v) for v in cells) + " |\n")
            best = path.with_name(path.stem + ".best.json")
            if best.exists():  # the better line the review found, a line record of its own
                b = json.loads(best.read_text())
                cells = ("the review's better line", b.get("variant"), b["score"]["total"],
                         f"from {b.get('position', {}).get('round', '?')}", budget,
                         b.get("seed"), b["score"]["total"],
                         short_commit(b.get("commit", "")), f"`{relative(best, results)}`")
                lines.append("| " + " | ".join(str(v) for v in cells) + " |\n")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", action="store_true",
                    help="first file the top-level records (best per name on top, the "
                         "others to runs/<day>-<commit>/)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if results/README.md is stale")
    args = ap.parse_args(argv)
    readme = RESULTS / "README.md"
    if args.check:
        stale = not readme.exists() or readme.read_text() != render()
        print(f"{readme} is {'stale' if stale else 'up to date'}")
        return int(stale)
    if args.file:
        for src, dest in filing():
            move(src, dest)
            print(f"{relative(src)} -> {relative(dest)}")
    text = render()
    readme.write_text(text)
    print(f"wrote {readme} with {len(record_files())} line records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
