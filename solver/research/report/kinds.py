"""Which page a record makes, by its ``kind``: one small builder per kind of record.

A builder takes the record's JSON and its path and returns a `Page`: the script's renderer
(``view``), a title, the page's data and the lines it holds. A new kind of record is one more
builder registered with ``@builder(KIND)`` and, if it needs one, one renderer in the page's
script (a file beside page.js, as sweep.js and review.js).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.jobs import ordered_map
from solver.search import records
from solver.search.evaluation import weights as W

from .. import review as RV
from .. import sweep as SW
from .line import Strings, line_data


class ReportError(Exception):
    """A record the report cannot read: its message names the file and the problem."""


@dataclass
class Page:
    """What the page shows: ``view`` picks the script's renderer."""

    view: str
    title: str
    data: dict
    lines: list[dict] = field(default_factory=list)  # each line's rows, drawn when opened
    strings: Strings = field(default_factory=Strings)
    items: dict = field(default_factory=dict)  # item id -> [kind, name, name lines]
    verified: str = ""  # one sentence: what the reference engine confirmed


BUILDERS: dict[str, Callable[..., Page]] = {}


def builder(kind: str):
    """Register the page builder of records of ``kind``."""
    def register(f):
        BUILDERS[kind] = f
        return f
    return register


def build(data: dict, source: str, workers: int = 1) -> Page:
    """The page of a record's JSON (ReportError for a kind no builder knows)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind not in BUILDERS:
        known = ", ".join(repr(k) for k in BUILDERS)
        raise ReportError(f"{source}: no report for a record of kind {kind!r} (known: {known})")
    return BUILDERS[kind](data, source, workers=workers)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _need(data: dict, source: str, fields: dict) -> None:
    for key, typ in fields.items():
        if not isinstance(data.get(key), typ):
            raise ReportError(f"{source}: field {key!r} is missing or not a {typ.__name__}")


def _variant(data: dict, source: str) -> str:
    if data.get("variant") not in ("ireland", "france"):
        raise ReportError(f"{source}: unknown variant {data.get('variant')!r}")
    return data["variant"]


def provenance(data: dict, keys: tuple[str, ...]) -> list[list]:
    """The record's own account of how it was made: [name, value] pairs, in ``keys`` order."""
    return [[k, data[k]] for k in keys if k in data]


# ===== a solo line ==============================================================================

@builder(records.KIND)
def line_page(data: dict, source: str, workers: int = 1) -> Page:
    """A solo line record: its rounds, landscapes and charts, replayed and verified."""
    _need(data, source, {"line": list, "score": dict})
    variant = _variant(data, source)
    ok, message, _ = records.verify_record(data)
    page = Page("line", f"{source}: {variant}, {data['score'].get('total')} points", {})
    page.lines.append(line_data(variant, data["line"], page.strings, page.items))
    page.verified = (f"{'Verified' if ok else 'NOT verified'} on the reference engine "
                     f"(solver.rules) when this page was written, {_now()}: {message}.")
    page.data = {"source": source, "variant": variant, "score": data["score"], "ok": ok,
                 "provenance": provenance(data, (
                     "command", "commit", "date", "versions", "variant", "profile",
                     "algorithm", "parameters", "seed", "nodes", "wall_seconds", "score")),
                 "stages": data.get("stages", [])}
    return page


# ===== a sweep (openings, analyse) ==============================================================

ROW_KEYS = ("rank", "candidate", "label", "recorded", "best", "best_seed", "mean", "ci",
            "diff", "diff_ci", "clearly_behind", "p", "p_holm", "scores", "gap")


def _best_line(row: dict) -> list[int] | None:
    for run in row.get("runs", []):
        if run.get("seed") == row.get("best_seed"):
            return run.get("line")
    return None


def _replay(job: tuple[str, list[int]]) -> tuple[dict, list[str], dict]:
    """One line's rows with its own string table (a worker process's share of a sweep)."""
    strings, items = Strings(), {}
    rows = line_data(job[0], job[1], strings, items)
    return rows, strings.items, items


def add_lines(page: Page, variant: str, lines: list[list[int]], workers: int = 1) -> list[dict]:
    """Replay ``lines`` into the page (in ``workers`` processes if more than one): each
    line's data, in order."""
    jobs = [(variant, line) for line in lines]
    out = []
    for line, texts, items in ordered_map(_replay, jobs, workers):
        for part in line["rows"]:  # this worker's string indices into the page's table
            part["a"] = [page.strings(texts[i]) for i in part["a"]]
        page.items.update(items)
        page.lines.append(line)
        out.append(line)
    return out


# a race's rows (race.py) also say which round's budget their statistics come from
RACE_ROW_KEYS = ("round", "width", "seeds", "dropped")
RACE_KEYS = ("start_width", "final_width", "first_seeds", "growth", "ladder", "top", "budget",
             "time_limit", "units", "drop", "spent", "jobs", "stopped", "survivors")


def race_summary(race: dict) -> dict:
    """What the page shows of a race: its rule, why it stopped, and each round's budget,
    runs, drops and cost."""
    return {k: race.get(k) for k in RACE_KEYS} | {"rounds": [
        {"round": rd["round"], "width": rd["width"], "seeds": rd["seeds"],
         "ran": len(rd["ran"]), "dropped": [d["candidate"] for d in rd["dropped"]],
         "cost": rd["cost"], "spent": rd["spent"], "leader": rd["leader"]}
        for rd in race.get("rounds", [])]}


@builder(SW.KIND)
def sweep_page(data: dict, source: str, workers: int = 1) -> Page:
    """A sweep record: its table and chart, and each candidate's best line on a click (a
    race's budgets and rounds too)."""
    _need(data, source, {"rows": list})
    variant = _variant(data, source)
    rows = data["rows"]
    page = Page("sweep", f"{source}: {data.get('sweep', 'sweep')} of {len(rows)} candidates, "
                f"{variant}{', raced' if 'race' in data else ''}", {})
    failed = []
    lines = add_lines(page, variant, [_best_line(r) or [] for r in rows], workers)
    for row, line in zip(rows, lines):
        end = line["rows"][-1]["s"][0]
        if line["error"] or not line.get("terminal") or end != row.get("best"):
            failed.append(f"candidate {row.get('candidate')}")
    page.verified = (f"Each candidate's best line replayed on the reference engine "
                     f"(solver.rules) when this page was written, {_now()}: "
                     + (f"{len(rows) - len(failed)} of {len(rows)} end the game on the "
                        f"recorded best; not confirmed: {', '.join(failed)}." if failed else
                        f"all {len(rows)} end the game on the recorded best."))
    page.data = {"source": source, "variant": variant, "sweep": data.get("sweep"),
                 "rows": [{k: r[k] for k in ROW_KEYS + RACE_ROW_KEYS if k in r}
                          for r in rows],
                 "statistics": data.get("statistics"),
                 "race": race_summary(data["race"]) if isinstance(data.get("race"), dict)
                 else None,
                 "provenance": provenance(data, (
                     "command", "commit", "versions", "variant", "profile", "position",
                     "budget", "seeds", "jobs", "wall_seconds"))}
    return page


# ===== a review (`ora-solve review`) ============================================================

REVIEW_KEYS = ("round", "value", "found", "loss", "loss_through", "prefix_actions", "source",
               "from_round", "seed", "score", "turn_text", "own_turn_text")


@builder(RV.KIND)
def review_page(data: dict, source: str, workers: int = 1) -> Page:
    """A review record: V(R) against the reviewed line's own score, the rounds ranked by
    points lost, and each round's line (the one reaching V(R)) on a click; every line of the
    review replayed."""
    _need(data, source, {"reviewed": dict, "rounds": list, "best": dict})
    variant = _variant(data, source)
    reviewed = data["reviewed"]
    try:
        n, bad = RV.verify_review(data, workers)
        # the reviewed line first, then each distinct line reaching some round's V(R)
        index = {tuple(reviewed["line"]): 0}
        for r in data["rounds"]:
            index.setdefault(tuple(r["line"]), len(index))
        rounds = [{k: r[k] for k in REVIEW_KEYS if k in r} | {
            "scores": [x["score"]["total"] for x in r["runs"]],
            "seeds": [x["seed"] for x in r["runs"]], "li": index[tuple(r["line"])]}
            for r in data["rounds"]]
        lost = [r["round"] for r in RV.ranking(data["rounds"])]
        best = {k: data["best"][k] for k in ("score", "source", "from_round", "seed")}
        best["li"] = index.get(tuple(data["best"]["line"]), 0)
    except (KeyError, TypeError, IndexError) as e:
        raise ReportError(f"{source}: not a review record ({type(e).__name__}: {e})") from None
    if not rounds:
        raise ReportError(f"{source}: a review of no rounds")
    page = Page("review", "", {})
    add_lines(page, variant, [list(ln) for ln in index], workers)
    own = reviewed["score"].get("total")
    page.title = (f"{source}: review of {reviewed.get('source')} ({own} points), "
                  f"{_span([r['round'] for r in rounds])}; best found {best['score']['total']}")
    page.verified = (f"Every line of the review replayed on the reference engine "
                     f"(solver.rules) when this page was written, {_now()}: " + (
                         f"all {n} confirmed (the reviewed line, each round's V(R) line and "
                         "every seed's run, each passing through its round's position)."
                         if not bad else f"{n - len(bad)} of {n} confirmed; not confirmed: "
                         + "; ".join(bad[:5]) + (" ..." if len(bad) > 5 else "") + "."))
    page.data = {"source": source, "variant": variant, "ok": not bad, "own": reviewed["score"],
                 "reviewed": reviewed.get("source"), "rounds": rounds, "lost": lost,
                 "best": best,
                 "provenance": provenance(data, ("command", "commit", "versions", "variant",
                                                 "profile"))
                 + [["reviewed", {"source": reviewed.get("source"), "score": reviewed["score"],
                                  "actions": len(reviewed["line"])}]]
                 + provenance(data, ("budget", "seeds", "jobs", "wall_seconds"))}
    return page


def _span(rounds: list[int]) -> str:
    return f"round {rounds[0]}" if len(rounds) == 1 else f"rounds {rounds[0]}-{rounds[-1]}"


# ===== a tuning record (a weights file) =========================================================

@builder(W.KIND)
def tuning_page(data: dict, source: str, workers: int = 1) -> Page:
    """A weights file: its weights and, for a tuning record, the tuning's history."""
    variant = _variant(data, source)
    try:
        W.parse(data, source)
    except W.WeightsError as e:
        raise ReportError(str(e)) from None
    tuning = data.get("tuning") or {}
    page = Page("tuning", f"{source}: {variant} evaluation weights", {})
    page.verified = ("A weights file holds no line to replay; its weights were checked as "
                     "`ora-solve solo --weights` reads them.")
    page.data = {"source": source, "variant": variant, "weights": data["weights"],
                 "start": tuning.get("start_weights"), "history": tuning.get("history", []),
                 "note": data.get("note"),
                 "provenance": provenance(tuning, (
                     "command", "commit", "versions", "method", "seed", "beam", "population",
                     "generations", "generations_run", "training_seeds", "holdout_seeds",
                     "objective", "start_training", "best_training", "holdout", "interrupted",
                     "wall_seconds", "workers"))}
    return page
