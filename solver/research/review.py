"""Review a line: where it lost points (`ora-solve review RECORD`).

For each round R of a complete line, the position the line reaches at the first turn of round
R is searched under one budget (a fixed-width beam, or a time limit, on each seed): one job per
(round, seed), run on the job runner (solver/jobs) with the sweeps' job function and saved in
a run directory (rundir.py), so a stopped review resumes where it stopped.

V(R) is the best final score of a line known to pass through the position at R: the best
seed's line searched from R, the lines found from every later round searched (each plays the
line's own turns up to its round, so it passes through R's position too), and the line
itself. So V(R) is never below the line's own score and never rises from one round to the
next: a later search that beats an earlier one is a search that missed at R, not points the
line won. Where V falls, the turns the line played in round R lost the difference,
``loss(R) = V(R) - V(R + 1)`` (after the last round searched, against the line's own score),
and the line that reaches V(R) shows a better round R.

The review's record (kind ``ora-solve review``) keeps the reviewed line, every job's line and
each round's better line, all from the initial state, so ``ora-solve replay`` confirms each.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from solver.jobs import Job, ordered_map
from solver.rules import canonical as C
from solver.search import records
from solver.search.evaluation.weights import LEADS_PORTFOLIO, to_named

from . import beam_adapter as BA
from .sweep import turn_label

KIND = "ora-solve review"
FORMAT = 1

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


class ReviewError(ValueError):
    """Rounds that cannot be reviewed (past the end of the line, an empty range, ...)."""


def parse_rounds(text: str | None, last: int) -> list[int]:
    """The rounds of ``--rounds`` (``A-B`` or ``R``; None: every round 1..``last``), checked
    against the line's last round (ReviewError naming what is wrong)."""
    if text is None:
        return list(range(1, last + 1))
    m = _RANGE.match(text)
    if not m:
        raise ReviewError(f"--rounds {text!r}: give a round (25) or a range of rounds (20-32)")
    a = int(m.group(1))
    b = a if m.group(2) is None else int(m.group(2))
    if a < 1:
        raise ReviewError(f"--rounds {text}: rounds start at 1")
    if b < a:
        raise ReviewError(f"--rounds {text}: the range is empty (it ends before it starts)")
    if b > last:
        raise ReviewError(f"--rounds {text}: round {b} is past the end of the line (it ends "
                          f"in round {last})")
    return list(range(a, b + 1))


@dataclass
class Stop:
    """Round ``round`` of the line: the prefix that reaches its first turn, and the actions
    the line played from there to the first turn of the next round (``own_turn``)."""

    round: int
    prefix: list[int]
    own_turn: list[int]


def round_prefix(variant: str, line: list[int], rnd: int) -> list[int]:
    """The actions of ``line`` before the first turn of round ``rnd`` (the whole line if it
    never gets there). Round 1 starts at the initial state; the beam's ``state_at_round``
    starts a round at its first change of flow step after the first action, which for
    round 1 is after the first turn."""
    if rnd <= 1:
        return []
    return BA.state_at_round(variant, list(line), rnd)[1]


def stops(variant: str, line: list[int], rounds: list[int]) -> list[Stop]:
    """Each round's position on the line and the turns the line played in it."""
    out = []
    for r in rounds:
        prefix = round_prefix(variant, line, r)
        nxt = round_prefix(variant, line, r + 1)
        out.append(Stop(r, prefix, list(line[len(prefix):len(nxt)])))
    return out


def job_key(rnd: int, seed: int) -> str:
    """A (round, seed) job's key (its file in the run directory)."""
    return f"r{rnd:02d}-s{seed}"


def make_jobs(variant: str, plan: list[Stop], seeds: list[int], width: int,
              time_limit: float | None, weights=None) -> list[Job]:
    """One job per (round, seed) for the sweeps' job function (sweep.SEARCH: the beam from
    the prefix, its line checked on the reference engine), in its payload form
    (``candidate`` is the round); ``weights`` (weights.Weights) leads every job's
    portfolio."""
    extra = {} if weights is None else {"weights": to_named(weights.values)}
    return [Job(job_key(s.round, seed), {"variant": variant, "prefix": s.prefix,
                                          "candidate": s.round, "seed": seed, "width": width,
                                          "time_limit": time_limit} | extra)
            for s in plan for seed in seeds]


def manifest(variant: str, source: str, line: list[int], plan: list[Stop], seeds: list[int],
             width: int, time_limit: float | None, weights=None) -> dict:
    """What identifies a review (its run directory refuses to resume another)."""
    return {"kind": "review", "variant": variant, "source": source, "line": list(line),
            "rounds": [s.round for s in plan], "seeds": seeds, "width": width,
            "time_limit": time_limit} | (
        {} if weights is None else {"weights": to_named(weights.values)})


# ===== the values ===============================================================================

def _states(variant: str, line: list[int], cuts: set[int]) -> dict:
    """The reference state after each of the first ``cuts`` actions of ``line`` (one replay)."""
    st = C.canonical_initial_state(variant)
    out = {0: st.clone()} if 0 in cuts else {}
    for k, cid in enumerate(line, 1):
        C.apply_canonical(st, cid)
        if k in cuts:
            out[k] = st.clone()
    return out


def review_rows(variant: str, line: list[int], score: dict, plan: list[Stop],
                results: dict[str, dict], seeds: list[int], last_round: int) -> list[dict]:
    """One row per round searched, in round order: the best score found from it (``found``),
    V(R) (``value``), the points its turns lost (``loss``, over rounds R..``loss_through``:
    the last row searched before the line's ``last_round`` answers for the rounds after it
    too), the line reaching V(R) with its round R turns beside the line's own, and every
    seed's run."""
    states = _states(variant, line, {len(s.prefix) for s in plan})
    best = {"score": score, "line": list(line), "source": "line", "from_round": None,
            "seed": None}
    rows = []
    for s in reversed(plan):  # V(R) takes the best of the rounds after R too
        runs = [results[job_key(s.round, seed)] for seed in seeds]
        top = max(runs, key=lambda r: (r["score"]["total"], -seeds.index(r["seed"])))
        if top["score"]["total"] > best["score"]["total"]:
            best = {"score": top["score"], "line": top["line"], "source": "search",
                    "from_round": s.round, "seed": top["seed"]}
        at = len(s.prefix)
        cut = len(round_prefix(variant, best["line"], s.round + 1))
        turn = best["line"][at:cut] if best["source"] == "search" else s.own_turn
        state = states[at]
        rows.append({"round": s.round, "value": best["score"]["total"],
                     "found": top["score"]["total"], "prefix_actions": at,
                     "score": dict(best["score"]), "source": best["source"],
                     "from_round": best["from_round"], "seed": best["seed"],
                     "turn": list(turn), "turn_text": turn_label(state, list(turn)),
                     "own_turn": s.own_turn, "own_turn_text": turn_label(state, s.own_turn),
                     "line": list(best["line"]),
                     "runs": [{"seed": r["seed"], "score": r["score"], "line": r["line"],
                               "nodes": r["nodes"], "seconds": r["seconds"],
                               "verified": r["verified"]} for r in runs]})
    rows.reverse()
    for row, nxt in zip(rows, rows[1:] + [None]):
        row["loss"] = row["value"] - (score["total"] if nxt is None else nxt["value"])
        row["loss_through"] = max(row["round"], last_round) if nxt is None else row["round"]
    return rows


def _rounds(row: dict) -> str:
    """The rounds a row's loss answers for: "round 25", or "rounds 25-32" for the last row
    of a review that stops before the line's last round."""
    r, through = row["round"], row["loss_through"]
    return f"round {r}" if through == r else f"rounds {r}-{through}"


def ranking(rows: list[dict]) -> list[dict]:
    """The rounds that lost points, most first (ties: the earlier round first)."""
    return sorted((r for r in rows if r["loss"] > 0), key=lambda r: (-r["loss"], r["round"]))


# ===== text, CSV, record ========================================================================

def _by(row: dict) -> str:
    if row["source"] == "line":
        return "the line itself"
    return f"seed {row['seed']} from round {row['from_round']}"


def format_table(rows: list[dict], own: int) -> str:
    """The per-round table: actions before the round, the best found from it, V(R), the
    points its turns lost and where V's line came from."""
    out = [f"{'round':>5} {'actions':>7} {'found':>6} {'V(R)':>6} {'loss':>5}  V(R) reached by"]
    for r in rows:
        out.append(f"{r['round']:>5} {r['prefix_actions']:>7} {r['found']:>6} {r['value']:>6} "
                   f"{r['loss']:>5}  {_by(r)}")
    out += [f"found: the best seed's final score searched from the round's first turn; "
            f"V(R): the best of that,",
            f"  of every later round's and of the line's own {own}; loss: V(R) - V(R+1) "
            "(the last round: - the line's own)."]
    if rows and rows[-1]["loss_through"] > rows[-1]["round"]:
        out.append(f"  The last row's loss answers for {_rounds(rows[-1])}: the rounds after "
                   f"{rows[-1]['round']} were not searched.")
    return "\n".join(out)


def format_ranking(rows: list[dict], top: int | None = None) -> str:
    """The rounds ranked by points lost, each with the line's turns, the better turns and
    the better line's final score and parts."""
    ranked = ranking(rows)
    if not ranked:
        return "no round lost points at this budget: no line better than the reviewed one " \
               "was found"
    out = [f"rounds ranked by points lost ({len(ranked)} of {len(rows)} lost points):"]
    for i, r in enumerate(ranked[: top or len(ranked)], 1):
        sc = r["score"]
        out += [f"{i:>3}. {_rounds(r)}: {r['loss']} points lost (V {r['value']} here, "
                f"{r['value'] - r['loss']} after it)",
                f"     played: {r['own_turn_text']}",
                f"     better: {r['turn_text']}",
                f"     better line: {sc['total']} points (goods {sc['goods']}, economic "
                f"{sc['economic']}, dwelling {sc['dwelling']}), {_by(r)}"]
    if top and len(ranked) > top:
        out.append(f"     ... {len(ranked) - top} more in the record")
    return "\n".join(out)


CSV_FIELDS = ("round", "prefix_actions", "found", "value", "loss", "loss_through", "source",
              "from_round", "seed", "scores", "own_turn", "better_turn")


def to_csv(rows: list[dict]) -> str:
    """The per-round table as CSV (seeds' scores in seed order, ``;``-separated)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in rows:
        w.writerow([r["round"], r["prefix_actions"], r["found"], r["value"], r["loss"],
                    r["loss_through"], r["source"], r["from_round"] or "",
                    "" if r["seed"] is None else r["seed"],
                    ";".join(str(x["score"]["total"]) for x in r["runs"]), r["own_turn_text"],
                    r["turn_text"]])
    return buf.getvalue()


def make_record(*, command: str, variant: str, source: str, line: list[int], score: dict,
                seeds: list[int], width: int, time_limit: float | None, rows: list[dict],
                seconds: float, jobs: int, weights=None) -> dict:
    """The review's JSON record: provenance, the reviewed line, each round's V(R) with its
    line and runs, and the ranking by points lost."""
    return {"kind": KIND, "format": FORMAT, "command": command,
            "commit": records.code_commit(),
            "versions": records.versions(), "variant": variant, "profile": records.RULEBOOK.name,
            "reviewed": {"source": source, "line": list(line), "score": dict(score)},
            "budget": {"algorithm": "beam", "width": width, "time_limit": time_limit} | (
                {} if weights is None else {"weights": weights.describe()}),
            "seeds": seeds, "jobs": jobs, "wall_seconds": round(seconds, 1),
            "best": {"score": dict(rows[0]["score"]), "source": rows[0]["source"],
                     "from_round": rows[0]["from_round"], "seed": rows[0]["seed"],
                     "line": rows[0]["line"]},
            "lost": [{"round": r["round"], "through": r["loss_through"], "loss": r["loss"]}
                     for r in ranking(rows)],
            "rounds": rows}


def best_record(record: dict, command: str) -> dict | None:
    """The best line the review found, as a results record (``replay`` and ``show`` read it),
    or None if none beats the reviewed line."""
    best, rows = record["best"], record["rounds"]
    if best["source"] != "search":
        return None
    row = next(r for r in rows if r["round"] == best["from_round"])
    run = next(x for x in row["runs"] if x["seed"] == best["seed"])
    sc, budget = run["score"], record["budget"]
    rec = records.make_record(command=command, variant=record["variant"], algorithm="beam",
                              params={"width": budget["width"],
                                      "time_limit": budget["time_limit"]},
                              seed=run["seed"], nodes=run["nodes"], seconds=run["seconds"],
                              score=(sc["total"], sc["goods"], sc["economic"], sc["dwelling"]),
                              line=run["line"], commit=record["commit"])
    reviewed = record["reviewed"]
    rec["position"] = {"source": f"{reviewed['source']} at round {row['round']}",
                       "prefix_actions": row["prefix_actions"], "round": row["round"],
                       "review": f"beats the reviewed line's {reviewed['score']['total']} "
                                 "points"}
    if "weights" in budget:
        rec["weights"] = budget["weights"] | {"role": LEADS_PORTFOLIO}
    return rec


def output_paths(out: str) -> list[str]:
    """Every file a review writes for ``--out`` (checked before it starts): the record, its
    CSV, PNG and SVG."""
    base = Path(out)
    return [str(base)] + [str(base.with_suffix(x)) for x in (".csv", ".png", ".svg")]


def run_dir_of(out: str) -> Path:
    """The directory of a review's finished jobs, beside its record."""
    base = Path(out)
    return base.with_name(base.stem + ".jobs")


def write_outputs(out: str, record: dict, title: str) -> list[str]:
    """Write the record, the CSV and the chart; their paths (records.Unsaved at the first
    that cannot be written: the finished jobs keep everything, --resume writes them again)."""
    from .draw import review_chart

    paths = output_paths(out)
    records.write_record(record, paths[0], replace=True, what="the review's record")
    records.save(paths[1], to_csv(record["rounds"]), replace=True, what="the review's table")
    review_chart(record["rounds"], record["reviewed"]["score"]["total"], title, paths[2:])
    return paths


# ===== replay ===================================================================================

def lines_of(data: dict) -> list[tuple[str, int | None, list[int], dict]]:
    """Every line a review record holds: (what it is, the round it must pass through, line,
    score)."""
    rev = data["reviewed"]
    out = [("the reviewed line", None, rev["line"], rev["score"])]
    for row in data.get("rounds", []):
        out.append((f"round {row['round']}'s V line", row["round"], row["line"], row["score"]))
        out += [(f"round {row['round']} seed {run['seed']}", row["round"], run["line"],
                 run["score"]) for run in row.get("runs", [])]
    return out


def verify_review(data: dict, workers: int = 1) -> tuple[int, list[str]]:
    """Replay every line of a review record on the reference engine, and check that each
    round's lines pass through the reviewed line's position at that round: the number of
    lines and the failures, in the record's order."""
    items = lines_of(data)
    prefix = {row["round"]: data["reviewed"]["line"][:row["prefix_actions"]]
              for row in data.get("rounds", [])}
    lines = [{"variant": data["variant"], "line": ln, "score": sc} for _, _, ln, sc in items]
    verdicts = list(ordered_map(records.verify_record, lines, workers))
    bad = []
    for (what, rnd, ln, _), (ok, message, _) in zip(items, verdicts):
        if not ok:
            bad.append(f"{what}: {message}")
        elif rnd is not None and ln[:len(prefix[rnd])] != prefix[rnd]:
            bad.append(f"{what}: does not start from the reviewed line's round {rnd}")
    return len(items), bad
