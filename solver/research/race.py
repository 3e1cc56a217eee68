"""Racing: a sweep's candidates searched over a ladder of budgets, the clearly behind dropped
after each round (`ora-solve openings --race`, `ora-solve analyse --race`).

Round 1 searches every candidate at a quarter of the final width (``START_FRACTION``) on the
given seeds. After each round the candidates that ran it are compared by
:func:`solver.research.stats.compare` on that round's scores alone (all of them ran the same
width on the same seeds, so the design stays paired; widths are never mixed), and those that
Holm's correction puts clearly behind the leader are dropped. The survivors go on with twice
the seeds and twice the width (at most the final width; the "width" ladder doubles the width
alone up to the final one, then the seeds) until at most ``top`` remain, or the next round
does not fit in what is left of the budget: the sum of the width over every job
the race uses (width x seeds units), or a time limit for the whole race. A round that cannot
run whole does not start; when the doubled step does not fit, the width alone, then the
seeds alone are doubled instead. When none of those fits, a last round spends what is left:
the next width on as many seeds as fit (at least as many as round 1), else the round's own
width on as many more seeds as fit, so the race ends with its budget spent rather than a
round short of it.

A job is keyed by (candidate, seed, width), so a later round reuses the jobs an earlier one
ran at the same width (once the width is final, a round adds only seeds), and a resumed race
reuses every finished job and replays the same decisions: the table is a function of the
jobs' scores and the budget alone. With a time limit it is not: when to stop then depends on
the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.jobs import Job

from . import stats
from . import sweep as SW

START_FRACTION = 4  # round 1's width: the final width over this (a cheap first screen)
GROWTH = 2  # each round multiplies the seeds, and the width up to the final one, by this
# how the rounds grow: "both" doubles the seeds and the width together, "width" doubles the
# width alone up to the final one and then the seeds (rankings at narrow widths do not carry
# to wide ones, so "width" spends less of its budget ranking on them: docs/research.md)
LADDERS = ("both", "width")


class RaceError(ValueError):
    """A race that cannot start (one candidate, a budget too small for the first round)."""


@dataclass(frozen=True)
class Step:
    """One rung of the ladder: a width and the seeds run at it."""

    width: int
    seeds: list[int]


def start_width(width: int) -> int:
    """Round 1's width for a race whose final width is ``width``."""
    return max(1, round(width / START_FRACTION))


def more_seeds(first: list[int], n: int) -> list[int]:
    """The first ``n`` seeds of a race: the given ones, then the integers after the largest."""
    out = list(first[:n])
    nxt = max(first) + 1
    while len(out) < n:
        out.append(nxt)
        nxt += 1
    return out


def first_step(first: list[int], width: int) -> Step:
    """Round 1: ``start_width`` on the given seeds."""
    return Step(start_width(width), list(first))


def next_steps(step: Step, first: list[int], width: int, ladder: str = LADDERS[0]) -> list[Step]:
    """The next round's options, the preferred first. Ladder "both": ``GROWTH`` times the
    seeds and the width (the width at most ``width``), else the width alone, else the seeds
    alone (so a race whose budget does not allow the whole step still spends it on a smaller
    one). Ladder "width": ``GROWTH`` times the width on the same seeds while it is below
    ``width``, then ``GROWTH`` times the seeds."""
    w, n = min(width, GROWTH * step.width), GROWTH * len(step.seeds)
    if ladder == "width":
        return [Step(w, list(step.seeds))] if w > step.width else [Step(w, more_seeds(first, n))]
    options = [Step(w, more_seeds(first, n))]
    if w > step.width:
        options += [Step(w, list(step.seeds)), Step(step.width, more_seeds(first, n))]
    return options


def fill_steps(step: Step, first: list[int], width: int,
               room: Callable[[Step], bool]) -> list[Step]:
    """The rounds that spend what is left when no step of :func:`next_steps` fits: the next
    width (at most ``width``) on the most seeds that fit, at least ``len(first)``, then
    ``step``'s width on the most more seeds that fit; ``room(step)`` says whether a step's
    new jobs fit in what is left. An option that fits on no seed count is given at its
    smallest, so that the stop reason can say what it would cost."""
    def most(w: int, lo: int) -> Step:
        n = lo
        while n < lo + 10_000 and room(Step(w, more_seeds(first, n + 1))):
            n += 1
        return Step(w, more_seeds(first, n))

    w = min(width, GROWTH * step.width)
    options = [most(w, len(first))] if w > step.width else []
    return options + [most(step.width, len(step.seeds) + 1)]


def describe(candidates: int, first: list[int], width: int, budget: int | None,
             time_limit: float | None, top: int, ladder: str) -> str:
    """What a race will do, in a line (printed as it starts)."""
    grows = (f"seeds and width x{GROWTH} each round up to width {width}" if ladder == "both"
             else f"width x{GROWTH} each round up to {width}, then seeds x{GROWTH}")
    return (f"race of {candidates} candidates, width {start_width(width)} on {len(first)} "
            f"seeds first, {grows}, until at most {top} remain"
            + (f" or {budget} width x seeds units are spent" if budget else "")
            + (f" or {time_limit:g} s have passed" if time_limit else ""))


def job_key(candidate: int, seed: int, width: int) -> str:
    """A race's job: one candidate on one seed at one width."""
    return f"c{candidate:04d}-s{seed}-w{width}"


def first_cost(candidates: int, first: list[int], width: int) -> int:
    """What round 1 costs, in width x seeds units."""
    return candidates * len(first) * start_width(width)


def default_budget(candidates: int, seeds: list[int], width: int,
                   time_limit: float | None) -> int | None:
    """A race's budget when none is given: what the flat sweep of the same command costs
    (candidates x seeds x width), so the two spend alike; none when a time limit is given."""
    return None if time_limit is not None else candidates * len(seeds) * width


def check(candidates: int, first: list[int], width: int, budget: int | None,
          top: int = 1) -> None:
    """RaceError unless a race of these can start."""
    if candidates < 2:
        raise RaceError(f"--race needs at least two candidates (there "
                        f"{'is one' if candidates == 1 else 'are none'}): a flat sweep "
                        "ranks one")
    if candidates <= top:
        raise RaceError(f"--race with --top {top}: the {candidates} candidates are already "
                        "at most that many (give a smaller --top, or drop --race)")
    cost = first_cost(candidates, first, width)
    if budget is not None and cost > budget:
        raise RaceError(f"--budget {budget} is too small for the first round: {candidates} "
                        f"candidates x {len(first)} seeds at width {start_width(width)} "
                        f"cost {cost} (width x seeds units)")


@dataclass
class Race:
    """A finished race: every round, the table's rows, why it stopped, what it spent."""

    rounds: list[dict] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)
    final: list[dict] = field(default_factory=list)  # the last round's rows (all that ran it)
    stopped: str = ""
    spent: int = 0
    jobs: int = 0


def run(candidates: list[SW.Candidate], first: list[int], width: int, *,
        make_jobs: Callable[[list[SW.Candidate], list[int], int], list[Job]],
        run_jobs: Callable[[list[Job], str], dict[str, dict]], rank_by: str, top: int,
        budget: int | None, time_limit: float | None = None, workers: int = 1,
        clock: Callable[[], float] = time.monotonic, ladder: str = LADDERS[0],
        work: Callable[[int], float] | None = None) -> Race:
    """Race ``candidates`` (the first round on seeds ``first``, the final width ``width``,
    the rounds growing by ``ladder``: :func:`next_steps`).
    ``make_jobs(candidates, seeds, width)`` makes one job per (candidate, seed), keyed by
    :func:`job_key`; ``run_jobs(jobs, desc)`` runs them (the finished ones reused) and
    returns every result by key. The race stops when at most ``top`` candidates remain, or
    before a round that does not fit in ``budget`` (width x seeds units) or in
    ``time_limit`` seconds from the start. A round's time is estimated as its jobs' work
    (``work(width)`` a job, default the width: :func:`job_work` for searches) times the
    seconds per unit of work so far: the jobs' own seconds on ``workers`` workers, or the
    last round's wall time per unit, if more."""
    if ladder not in LADDERS:
        raise RaceError(f"unknown ladder {ladder!r} (one of {', '.join(LADDERS)})")
    check(len(candidates), first, width, budget, top)
    work = work or float
    t0 = clock()
    race, alive, used, seconds, done_work, rate = Race(), list(candidates), set(), 0.0, 0.0, 0.0
    options, prev, number = [first_step(first, width)], None, 0
    while True:
        number += 1
        whys = []

        def new_jobs(st: Step) -> int:
            return sum(job_key(c.index, s, st.width) not in used
                       for c in alive for s in st.seeds)

        def why(st: Step):
            n = new_jobs(st)
            return _no_room(number, st, st.width * n, rate * work(st.width) * n, race.spent,
                            budget, time_limit, clock() - t0)

        def fits(st: Step) -> bool:
            whys.append(why(st))
            return whys[-1] is None

        step = next((st for st in options if fits(st)), None)
        if step is None and number > 1:  # the last round: what is left, on fewer seeds
            last = fill_steps(prev, first, width, lambda st: why(st) is None)
            step = next((st for st in last if fits(st)), None)
        if step is None:
            race.stopped = _stop_reason(number, whys)
            break
        jobs = make_jobs(alive, step.seeds, step.width)
        new = [j for j in jobs if j.key not in used]
        cost, step_work = step.width * len(new), work(step.width) * len(new)
        started = clock()
        results = run_jobs(jobs, f"round {number} (width {step.width}, "
                                 f"{len(step.seeds)} seeds)")
        used.update(j.key for j in new)
        race.spent += cost
        race.jobs += len(new)
        done_work += step_work
        seconds += sum(float(results[j.key].get("seconds", 0.0)) for j in new)
        # seconds per unit of work: the jobs' own time over the workers, or the last round's
        # wall time (overheads, idle workers) if that is more; a resumed round is quick, so
        # the first stays
        rate = max(seconds / done_work / max(1, workers) if done_work else 0.0,
                   (clock() - started) / step_work if step_work else 0.0)
        flat = {f"c{c.index:04d}-s{s}": results[job_key(c.index, s, step.width)]
                for c in alive for s in step.seeds}
        rows = SW.table_rows(alive, flat, step.seeds, rank_by)
        dropped = [r for r in rows if r["clearly_behind"]]
        for r in rows:
            r.update(round=number, width=step.width, seeds=list(step.seeds),
                     round_rank=r["rank"], dropped=r["clearly_behind"])
        race.rounds.append(_round_record(number, step, rows, dropped, cost, race.spent))
        race.rows.extend(dropped)
        race.final = rows
        out = {r["candidate"] for r in dropped}
        alive = [c for c in alive if c.index not in out]
        options, prev = next_steps(step, first, width, ladder), step
        if len(alive) <= top:
            race.stopped = (f"separated: {len(alive)} candidate"
                            f"{' remains' if len(alive) == 1 else 's remain'} after round "
                            f"{number} (--top {top})")
            break
    survivors = [r for r in race.final if not r["dropped"]]
    race.rows = survivors + sorted(race.rows, key=lambda r: (-r["round"], r["round_rank"]))
    for rank, r in enumerate(race.rows, start=1):
        r["rank"] = rank
    return race


def _no_room(number, step, cost, estimate, spent, budget, time_limit,
             elapsed) -> tuple[str, str, str] | None:
    """Why round ``number`` cannot run ``step`` whole (None if it can): ("budget", what is
    left, what it would cost), or ("time", ...) when its jobs, ``estimate`` seconds, would
    overrun the time limit (round 1 always runs: the budget was checked, and there is no
    rate yet)."""
    what = f"width {step.width} x {len(step.seeds)} seeds would cost {cost}"
    if budget is not None and spent + cost > budget:
        return ("budget", f"the {budget - spent} left of --budget {budget}", what)
    if time_limit is not None and number > 1 and spent:
        if elapsed + estimate > time_limit:
            return ("time", f"the {_secs(max(0.0, time_limit - elapsed))} s left of "
                            f"--time-limit {time_limit:g}", f"{what}, about {_secs(estimate)} s")
    return None


def _secs(x: float) -> str:
    return f"{x:.0f}" if x >= 10 else f"{x:.1f}"


def _stop_reason(number: int, whys: list[tuple[str, str, str]]) -> str:
    """Why no option of round ``number`` fits, one clause per limit."""
    out = []
    for kind in ("budget", "time"):
        mine = list(dict.fromkeys(w for w in whys if w[0] == kind))  # a fill may repeat
        if mine:
            out.append(f"{kind}: no round {number} fits in {mine[0][1]} ("
                       + "; ".join(w[2] for w in mine) + ")")
    return "; ".join(out)


def _round_record(number, step, rows, dropped, cost, spent) -> dict:
    """What the record keeps of one round: who ran, who dropped and the statistics that
    dropped them."""
    scores = {r["candidate"]: r["scores"] for r in rows}
    return {"round": number, "width": step.width, "seeds": list(step.seeds),
            "ran": sorted(r["candidate"] for r in rows), "cost": cost, "spent": spent,
            "leader": rows[0]["candidate"],
            "dropped": [{"candidate": r["candidate"], "rank": r["round_rank"],
                         "best": r["best"], "mean": r["mean"], "diff": r["diff"],
                         "diff_ci": r["diff_ci"], "p": r["p"], "p_holm": r["p_holm"],
                         "variance": r["variance"], "scores": r["scores"]} for r in dropped],
            "statistics": stats.summary(scores, len(dropped),
                                        sum(r["behind_uncorrected"] for r in rows))}


def budget_label(row: dict) -> str:
    """Where a row's statistics come from: ``r2 10x6`` (round 2, width 10, 6 seeds)."""
    return f"r{row['round']} {row['width']}x{len(row['seeds'])}"


def footnotes(race: Race) -> list[str]:
    """The race's notes under the table: the final round's statistics, then every round
    (none of these lines starts with a digit or '#')."""
    last = race.rounds[-1]
    notes = [f"budget: the round whose statistics a row shows, width x seeds: round "
             f"{last['round']} for the survivors; a dropped",
             "  row's are those of the round that dropped it, against that round's leader. "
             f"Round {last['round']}'s statistics:"]
    notes += SW.footnotes(race.final)
    for rd in race.rounds:
        seeds = rd["seeds"]
        notes.append(f"round {rd['round']}: width {rd['width']}, seeds {_span(seeds)}, "
                     f"{len(rd['ran'])} ran, {len(rd['dropped'])} dropped (Holm over "
                     f"{len(rd['ran']) - 1}); cost {rd['cost']}, spent {rd['spent']}")
    return notes + [f"stopped: {race.stopped}"]


def _span(seeds: list[int]) -> str:
    if seeds == list(range(seeds[0], seeds[0] + len(seeds))) and len(seeds) > 2:
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(str(s) for s in seeds)


def format_table(race: Race, top: int | None = None, spread: bool = False) -> str:
    """The race's table: survivors at the final budget, then the dropped, latest first."""
    return SW.format_table(race.rows, top, spread, notes=footnotes(race),
                           budget=budget_label)


def record_block(race: Race, *, first: list[int], width: int, budget: int | None,
                 time_limit: float | None, top: int, ladder: str = LADDERS[0]) -> dict:
    """The record's ``race`` field: the rule, every round and why the race stopped."""
    return {"start_width": start_width(width), "final_width": width, "first_seeds": first,
            "growth": GROWTH, "ladder": ladder, "top": top, "budget": budget,
            "time_limit": time_limit,
            "units": "width x seeds: the sum of the width over every job the race used",
            "drop": "clearly behind the round's leader: one-sided paired t-test on the "
                    "round's own scores, Holm-corrected over the round's comparisons",
            "spent": race.spent, "jobs": race.jobs, "stopped": race.stopped,
            "survivors": sorted(r["candidate"] for r in race.final if not r["dropped"]),
            "rounds": race.rounds}


def make_record(race: Race, *, kind: str, command: str, position, first: list[int],
                width: int, budget: int | None, time_limit: float | None, top: int,
                seconds: float, weights=None, ladder: str = LADDERS[0]) -> dict:
    """The race's JSON record: a sweep record (kind ``ora-solve sweep``) whose statistics are
    the final round's, whose rows are the race's, with its ``race`` field."""
    rec = SW.make_record(kind=kind, command=command, position=position,
                         seeds=race.final[0]["seeds"], width=width, time_limit=None,
                         rows=race.final, seconds=seconds, jobs=race.jobs, weights=weights)
    rec["rows"] = [{k: v for k, v in r.items() if k != "best_line"} for r in race.rows]
    rec["race"] = record_block(race, first=first, width=width, budget=budget,
                               time_limit=time_limit, top=top, ladder=ladder)
    return rec


def search_jobs(position, weights=None):
    """``make_jobs`` for :func:`run`: the sweep's search jobs (solver/research/sweep.py) of
    a position's candidates, keyed by :func:`job_key`."""
    def make(candidates: list[SW.Candidate], seeds: list[int], width: int) -> list[Job]:
        return [Job(job_key(j.payload["candidate"], j.payload["seed"], width), j.payload)
                for j in SW.make_jobs(position, candidates, seeds, width, None, weights)]

    return make


def job_work(position, weights=None) -> Callable[[int], float]:
    """``work`` for :func:`run`: a search job's relative cost at a width, the beams' widths
    times the rounds they search from the position (``stages.beam_work``). A fixed-width
    search polishes only from width 200 on (two strategy groups), so a width-200 job costs
    about six times a width-100 one, not twice (docs/research.md)."""
    from solver.search.beam.stages import beam_work
    from solver.search.evaluation.weights import portfolio_with

    variant = position.variant
    weightings = None if weights is None else len(portfolio_with(weights.values))
    return lambda width: float(beam_work(variant, width, weightings, position.round))
