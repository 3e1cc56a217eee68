"""Sweeps: candidates (openings, or the next turns of a position) searched under one budget
with the same seeds, then ranked (`ora-solve openings`, `ora-solve analyse`).

A candidate is a line of turns played from a base position; each (candidate, seed) is a job
(solver/jobs) that runs the beam from the position after the candidate and checks
the line it finds on the reference engine. The sweep's record (kind ``ora-solve sweep``)
keeps every job's full line from the initial state, so ``ora-solve replay`` can confirm each.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from solver.jobs import Job, Task, ordered_map
from solver.rules import canonical as C
from solver.rules.names import action_text
from solver.search import records
from solver.search.evaluation.weights import LEADS_PORTFOLIO, from_named, to_named

from . import beam_adapter as BA
from . import stats

KIND = "ora-solve sweep"
FORMAT = 2  # 2: Holm-corrected "clearly behind", p-values, "statistics"; 1 is read the same


@dataclass
class Candidate:
    """A line of turns from the base position, with its text."""

    index: int
    actions: list[int]  # canonical ids played from the base position
    label: str  # readable, building names, turns separated by " | "
    moves: str  # the same in kennerspiel notation ("CMD; CMD; ..."), from the initial state
    recorded: bool = False  # the turn the base position's own line played
    notes: list[str] = field(default_factory=list)


def turn_label(state, actions: list[int]) -> str:
    """Readable text of actions played from a reference state: turns separated by `` | ``
    (END dropped; a turn of END alone is ``pass``), a building's option joined to its use
    (``USE Farmyard (LR2) with prior: sheep``)."""
    st = state.clone()
    turns, cur = [], []
    for cid in actions:
        step = st.g.step
        if cid != C.END:
            text = action_text(st, cid)
            head, sep, option = text.partition("): ")
            if sep and cur and (head + ")") in cur[-1] and ": " not in cur[-1].split(")")[-1]:
                cur[-1] += ": " + option  # the option of the building just used
            else:
                cur.append(text)
        C.apply_canonical(st, cid)
        if st.g.step != step:  # the flow moved on: the turn is over
            turns.append(", ".join(cur) or "pass")
            cur = []
    if cur:
        turns.append(", ".join(cur))
    return " | ".join(turns) or "pass"


def _kennerspiel(position, actions: list[int]) -> str:
    from . import notation_adapter as NA

    st = position.state.clone()
    for cid in actions:
        C.apply_canonical(st, cid)
    return "; ".join(" ".join(m) for m in NA.export_moves(position.variant, st.history()))


def openings(position, turns: int) -> list[Candidate]:
    """Every distinct line of ``turns`` beam turns from the position (duplicates, i.e. lines
    reaching the same state up to the order of the lay brothers, merged: the first in action
    order is kept)."""
    if turns < 1:
        raise ValueError("--turns must be at least 1")
    frontier = [([], position.wide())]
    for _ in range(turns):
        nxt, seen = [], set()
        for actions, W in frontier:
            kids = BA.next_turns(position.variant, W)
            if not kids:  # the game is over: the line stays as it is
                nxt.append((actions, W))
                continue
            for path, child, _ in kids:
                key = BA.position_key(child)
                if key in seen:
                    continue
                seen.add(key)
                nxt.append((actions + path, child))
        frontier = nxt
    frontier.sort(key=lambda t: t[0])
    return [Candidate(i, a, turn_label(position.state, a), _kennerspiel(position, a))
            for i, (a, _) in enumerate(frontier)]


def from_positions(base, positions) -> list[Candidate]:
    """Candidates given as positions (a file of openings), duplicates (the same state up to
    the order of the lay brothers) merged."""
    out, seen = [], set()
    for pos in positions:
        key = BA.position_key(pos.wide())
        if key in seen:
            continue
        seen.add(key)
        rest = pos.prefix[len(base.prefix):]
        out.append(Candidate(len(out), rest, turn_label(base.state, rest),
                             _kennerspiel(base, rest)))
    return out


def next_turns(position) -> list[Candidate]:
    """Every distinct next turn of the position (the beam's unit), the recorded one marked;
    a recorded turn outside the search policy is added as a candidate of its own."""
    kids = BA.next_turns(position.variant, position.wide())
    own = position.own_turn()
    own_hash = None
    if own:
        W = position.wide()
        for a in own:
            BA.engine(position.variant).step_wide(W, a)
        own_hash = BA.state_hash(W)
    out = []
    for path, _, h in kids:
        c = Candidate(len(out), path, turn_label(position.state, path),
                      _kennerspiel(position, path), recorded=h == own_hash)
        out.append(c)
    if own and not any(c.recorded for c in out):
        out.append(Candidate(len(out), own, turn_label(position.state, own),
                             _kennerspiel(position, own), recorded=True,
                             notes=["outside the search policy"]))
    return out


# ===== jobs =====================================================================================

def search_job(payload: dict) -> dict:
    """One job: the beam from the state after ``prefix``; the line checked on the reference
    engine. Deterministic in its payload (with a width budget)."""
    variant, prefix = payload["variant"], payload["prefix"]
    e = BA.engine(variant)
    W = e.initial_wide()
    for a in prefix:
        e.step_wide(W, a)
    weights = payload.get("weights")
    r = BA.search(variant, payload["width"], payload["seed"], payload.get("time_limit"),
                  (W, list(prefix)), weights=None if weights is None else
                  from_named(weights, "the job's weights"))
    total, goods, economic, dwelling = (int(v) for v in r.score)
    score = {"total": total, "goods": goods, "economic": economic, "dwelling": dwelling}
    ok, message, _ = records.verify_record({"variant": variant, "line": list(r.line),
                                            "score": score})
    return {"candidate": payload["candidate"], "seed": payload["seed"], "score": score,
            "line": [int(a) for a in r.line], "nodes": int(r.nodes),
            "seconds": round(float(r.seconds), 2), "complete": bool(r.complete),
            "verified": ok, "message": message}


_WARM: set[str] = set()  # the variants whose kernels this process has loaded


def warm_search(payload: dict) -> bool:
    """Load the beam's kernels for the payload's variant, once per process (True if now)."""
    variant = payload["variant"]
    if variant in _WARM:
        return False
    BA.warm(variant)
    _WARM.add(variant)
    return True


SEARCH = Task(search_job, warm_search)  # what a sweep's workers run


def make_jobs(position, candidates: list[Candidate], seeds: list[int], width: int,
              time_limit: float | None, weights=None) -> list[Job]:
    """One job per (candidate, seed); ``weights`` (weights.Weights) leads every job's
    portfolio."""
    extra = {} if weights is None else {"weights": to_named(weights.values)}
    return [Job(f"c{c.index:04d}-s{s}", {"variant": position.variant,
                                          "prefix": position.prefix + c.actions,
                                          "candidate": c.index, "seed": s, "width": width,
                                          "time_limit": time_limit} | extra)
            for c in candidates for s in seeds]


def manifest(kind: str, position, candidates, seeds, width, time_limit, weights=None) -> dict:
    """What identifies a sweep (a run directory refuses to resume another)."""
    return {"kind": kind, "variant": position.variant, "position": position.source,
            "prefix": position.prefix, "candidates": [c.actions for c in candidates],
            "seeds": seeds, "width": width, "time_limit": time_limit} | (
        {} if weights is None else {"weights": to_named(weights.values)})


# ===== the table ================================================================================

def table_rows(candidates: list[Candidate], results: dict[str, dict], seeds: list[int],
               rank_by: str) -> list[dict]:
    """One row per candidate, ranked, with its statistics and every seed's line."""
    by_c = {c.index: c for c in candidates}
    runs = {c.index: [results[f"c{c.index:04d}-s{s}"] for s in seeds] for c in candidates}
    scores = {i: [r["score"]["total"] for r in rs] for i, rs in runs.items()}
    rows = []
    for cmp in stats.compare(scores, rank_by):
        c = by_c[cmp.candidate]
        rs = runs[c.index]
        best = max(rs, key=lambda r: (r["score"]["total"], -r["seed"]))
        rows.append({"rank": cmp.rank, "candidate": c.index, "label": c.label,
                     "moves": c.moves, "recorded": c.recorded, "notes": c.notes,
                     "actions": c.actions, "best": cmp.best, "best_seed": best["seed"],
                     "mean": cmp.mean, "ci": list(cmp.ci), "spread": stats.stdev(scores[c.index]),
                     "gap": cmp.best - max(max(v) for v in scores.values()),
                     "diff": cmp.diff, "diff_ci": list(cmp.diff_ci),
                     "clearly_behind": cmp.clearly_behind, "scores": cmp.scores,
                     "p": cmp.p, "p_holm": cmp.p_holm,
                     "behind_uncorrected": cmp.behind_uncorrected, "variance": cmp.variance,
                     "runs": [{"seed": r["seed"], "score": r["score"], "line": r["line"],
                               "nodes": r["nodes"], "seconds": r["seconds"],
                               "verified": r["verified"]} for r in rs],
                     "best_line": best["line"]})
    return rows


def _f(x: float, nd: int = 1) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def _p(x) -> str:
    if x is None:
        return ""
    return "<.001" if x < 0.001 else f"{x:.3f}"


def format_table(rows: list[dict], top: int | None = None, spread: bool = False,
                 notes: list[str] | None = None, budget=None) -> str:
    """The ranked table as text (``spread``: also the spread over seeds and the gap to the
    best score, as `analyse` shows them), then footnotes on what the columns mean (``notes``
    instead of :func:`footnotes`). The candidate comes last and whole: openings often share a
    long first turn, and a cut label would make two rows look the same. Rows of a format-1
    record (no p-values) render too. ``budget(row)``: a column of the budget each row's
    statistics come from (a race's rows differ)."""
    extra = f" {'spread':>6} {'gap':>5}" if spread else ""
    where = f" {'budget':>9}" if budget else ""
    head = (f"{'#':>3} {'best':>5} {'mean':>7} {'95% CI':>15}{extra} "
            f"{'diff to #1 (95% CI)':>26} {'p Holm':>6} {'behind':>6}{where}  candidate")
    out = [head]
    for r in rows[: top or len(rows)]:
        label = ("* " if r["recorded"] else "") + r["label"]
        ci = f"{_f(r['ci'][0])}..{_f(r['ci'][1])}"
        diff = (f"{_f(r['diff'])} ({_f(r['diff_ci'][0])}..{_f(r['diff_ci'][1])})"
                if r["rank"] > 1 else "leader")
        more = f" {_f(r['spread']):>6} {r['gap']:>5}" if spread else ""
        at = f" {budget(r):>9}" if budget else ""
        out.append(f"{r['rank']:>3} {r['best']:>5} {_f(r['mean']):>7} {ci:>15}{more} "
                   f"{diff:>26} {_p(r.get('p_holm')):>6} "
                   f"{'yes' if r['clearly_behind'] else '':>6}{at}  {label}")
    return "\n".join(out + (footnotes(rows) if notes is None else notes))


def footnotes(rows: list[dict]) -> list[str]:
    """What the table's columns mean, and how "behind" was judged (none of these lines starts
    with a digit or '#', so they are not taken for rows)."""
    if not rows:
        return []
    n, others = len(rows[0]["scores"]), rows[1:]
    m, k = len(others), sum(r["clearly_behind"] for r in others)
    notes = ["best: the best seed's score; its line exists and replays (the game is "
             "deterministic), so it is",
             "  a proven lower bound on the candidate's value. mean, 95% CI: over the "
             f"{n} seed{'s' if n != 1 else ''}; diff: paired, seed by seed."]
    if not others:
        return notes
    if any("p_holm" not in r for r in others):  # a format-1 record
        return notes + [f"behind: the difference's 95% interval lies below zero: {k} of {m}, "
                        "with no correction",
                        f"  for the {m} comparisons (a record made before the correction)."]
    pool = stats.pooled({r["candidate"]: r["scores"] for r in rows})
    loose = sum(r["behind_uncorrected"] for r in others)
    notes += [f"behind: one-sided paired t-test against #1, Holm-corrected over {m} "
              f"comparisons, family-wise {stats.FAMILY_LEVEL:.0%}",
              f"  (p Holm: the adjusted p): {k} of {m} ({loose} at "
              f"{stats.FAMILY_LEVEL:.0%} without the correction)."]
    if pool.paired:
        notes += ["variance: the larger of each candidate's own and the sweep's pooled one "
                  f"(sd {math.sqrt(pool.within):.1f} per score,",
                  f"  {math.sqrt(pool.paired):.1f} per paired difference, {pool.paired_df} "
                  "d.f.), so tied seeds never make an interval a point."]
    else:
        notes += ["variance: none (no score varies with the seed): intervals n/a, and the "
                  "exact sign test",
                  "  judges behind (its p is at least 2^-n, never 0)."]
    return notes


def write_best_lines(out: str, position, rows: list[dict], top: int, command: str,
                     width: int, weights=None) -> list[str]:
    """Each of the first ``top`` rows' best line as a results record (``ora-solve show`` and
    ``replay`` read them) in ``<OUT stem>.best/``; their paths."""
    d = Path(out).with_name(Path(out).stem + ".best")
    d.mkdir(exist_ok=True)
    paths = []
    for r in rows[:top]:
        run = next(x for x in r["runs"] if x["seed"] == r["best_seed"])
        sc = run["score"]
        rec = records.make_record(command=command, variant=position.variant, algorithm="beam",
                                  params={"width": r.get("width", width), "time_limit": None},
                                  seed=run["seed"], nodes=run["nodes"],
                                  seconds=run["seconds"],
                                  score=(sc["total"], sc["goods"], sc["economic"],
                                         sc["dwelling"]), line=run["line"],
                                  commit=records.code_commit())
        rec["position"] = {"source": position.source, "prefix_actions": len(position.prefix),
                           "round": position.round, "candidate": r["label"]}
        if weights is not None:
            rec["weights"] = weights.describe() | {"role": LEADS_PORTFOLIO}
        path = d / f"rank{r['rank']:02d}.json"
        records.write_record(rec, path, replace=True, what=f"the best line of rank {r['rank']}")
        paths.append(str(path))
    return paths


def continuation(position, row: dict, turns: int = 3) -> str:
    """The first ``turns`` turns the best line plays after the row's own turn."""
    run = next(x for x in row["runs"] if x["seed"] == row["best_seed"])
    start = len(position.prefix) + len(row["actions"])
    st = position.after(row["actions"]).state
    rest = run["line"][start:]
    label = turn_label(st, rest).split(" | ")
    return " | ".join(label[:turns]) + (" | ..." if len(label) > turns else "")


CSV_FIELDS = ("rank", "candidate", "label", "moves", "recorded", "best", "best_seed", "mean",
              "ci_low", "ci_high", "spread", "gap", "diff", "diff_low", "diff_high",
              "clearly_behind", "scores", "p", "p_holm", "correction", "behind_uncorrected",
              "variance")
RACE_FIELDS = ("round", "width", "seeds_run", "dropped")  # a race's rows add these


def _csv_p(x) -> str:
    return "" if x is None else f"{x:.6g}"


def to_csv(rows: list[dict]) -> str:
    """The table as CSV (one row per candidate; scores in seed order, ``;``-separated).
    ``best`` is a lower bound on the candidate's value (its line exists); ``correction`` names
    the multiple-comparison correction of ``clearly_behind`` ("none" in a format-1 record),
    ``p`` and ``p_holm`` the one-sided p of being behind #1, raw and Holm-adjusted. A race's
    rows add the round, width and number of seeds their statistics come from, and whether
    the race dropped them there."""
    race = bool(rows) and "round" in rows[0]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS + (RACE_FIELDS if race else ()))
    for r in rows:
        more = [r["round"], r["width"], len(r["seeds"]), int(r["dropped"])] if race else []
        w.writerow([r["rank"], r["candidate"], r["label"], r["moves"], int(r["recorded"]),
                    r["best"], r["best_seed"], _f(r["mean"], 3), _f(r["ci"][0], 3),
                    _f(r["ci"][1], 3), _f(r["spread"], 3), r["gap"], _f(r["diff"], 3),
                    _f(r["diff_ci"][0], 3), _f(r["diff_ci"][1], 3), int(r["clearly_behind"]),
                    ";".join(str(s) for s in r["scores"]), _csv_p(r.get("p")),
                    _csv_p(r.get("p_holm")),
                    stats.CORRECTION if "p_holm" in r else "none",
                    "" if "behind_uncorrected" not in r else int(r["behind_uncorrected"]),
                    r.get("variance", "")] + more)
    return buf.getvalue()


def make_record(*, kind: str, command: str, position, seeds, width, time_limit,
                rows: list[dict], seconds: float, jobs: int, weights=None) -> dict:
    """The sweep's JSON record."""
    return {"kind": KIND, "format": FORMAT, "sweep": kind, "command": command,
            "commit": records.code_commit(),
            "versions": records.versions(), "variant": position.variant,
            "profile": records.RULEBOOK.name,
            "position": {"source": position.source, "prefix": position.prefix,
                         "round": position.round},
            "budget": {"algorithm": "beam", "width": width, "time_limit": time_limit} | (
                {} if weights is None else {"weights": weights.describe()}),
            "seeds": seeds, "jobs": jobs, "wall_seconds": round(seconds, 1),
            "statistics": stats.summary({r["candidate"]: r["scores"] for r in rows},
                                        sum(r["clearly_behind"] for r in rows),
                                        sum(r["behind_uncorrected"] for r in rows)),
            "rows": [{k: v for k, v in r.items() if k != "best_line"} for r in rows]}


def write_outputs(out: str, record: dict, rows: list[dict], title: str) -> list[str]:
    """Write the JSON record, the CSV and the chart (PNG, SVG) beside it; their paths.
    records.Unsaved at the first that cannot be written (the files after it are not tried:
    the finished jobs keep everything, and --resume writes them all again)."""
    from .draw import sweep_chart

    paths = output_paths(out)
    records.write_record(record, paths[0], replace=True, what="the sweep's record")
    records.save(paths[1], to_csv(rows), replace=True, what="the sweep's table")
    sweep_chart(rows, title, paths[2:])
    return paths


def output_paths(out: str) -> list[str]:
    """Every file a sweep writes for ``--out`` (checked before it starts)."""
    base = Path(out)
    return [str(base), str(base.with_suffix(".csv")), str(base.with_suffix(".png")),
            str(base.with_suffix(".svg"))]


def run_dir_of(out: str) -> Path:
    """The directory of a sweep's finished jobs, beside its record."""
    base = Path(out)
    return base.with_name(base.stem + ".jobs")


def verify_sweep(data: dict, progress=None, workers: int = 1, best_only: bool = False,
                 top: int | None = None, fast: bool = False) -> list[str]:
    """Replay every line of a sweep record on the reference engine; the failures, in the
    record's order. ``workers`` > 1 replays in that many processes (the lines are
    independent, and a 282-opening sweep holds 846 of them). ``best_only`` replays one line
    per row, its best seed's (the line behind the table's ``best``), a quicker check; ``top``
    only the first ``top`` rows (the table's head: rows are in rank order). ``fast`` replays
    on the fast engine instead, in this process (``records.verify_fast``: milliseconds a
    line, a screen of every line; the reference engine is the judge)."""
    rows = data.get("rows", [])[:top]
    runs = [(row["candidate"], run) for row in rows
            for run in _best_run(row.get("runs", []), best_only)]
    lines = [{"variant": data["variant"], "line": run["line"], "score": run["score"]}
             for _, run in runs]
    check = records.verify_fast if fast else records.verify_record
    verdicts = []
    for verdict in ordered_map(check, lines, 1 if fast else workers):
        verdicts.append(verdict)
        if progress:
            progress()
    bad = [f"candidate {candidate} seed {run['seed']}: {message}"
           for (candidate, run), (ok, message, _) in zip(runs, verdicts) if not ok]
    return bad + (race_agrees(data) if "race" in data else [])


def _best_run(runs: list[dict], best_only: bool) -> list[dict]:
    """The runs to replay: all, or the first of the best score."""
    if not best_only or not runs:
        return runs
    return [max(runs, key=lambda r: r["score"]["total"])]


def race_agrees(data: dict) -> list[str]:
    """Where a race record's statistics do not rest on its lines: a row's scores that are
    not its runs' scores, or a drop whose round and scores are not its row's."""
    bad = [f"candidate {r['candidate']}: its scores {r['scores']} are not its lines' "
           f"{[x['score']['total'] for x in r['runs']]}"
           for r in data.get("rows", []) if "scores" in r and "runs" in r
           and r["scores"] != [x["score"]["total"] for x in r["runs"]]]
    rows = {r["candidate"]: r for r in data.get("rows", [])}
    for rd in (data.get("race") or {}).get("rounds", []):
        for d in rd["dropped"]:
            row = rows.get(d["candidate"])
            if row is None or row.get("round") != rd["round"] or row["scores"] != d["scores"]:
                bad.append(f"candidate {d['candidate']}: dropped in round {rd['round']}, "
                           "but its row does not show that round's scores")
    return bad
