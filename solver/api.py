"""ora-solve from Python: the handful of calls a researcher makes in a notebook.

::

    from solver import api

    line = api.load("results/ireland-beam2000-seed0.json")    # a solo line record
    api.replay(line).confirmed                                 # checked on the reference engine
    pos = api.position("ireland", record=line, at_round=20)    # where the line stood in round 20
    better = api.search(pos, beam=200, seed=1)                 # search on from there
    rows = api.sweep(api.position("ireland"), turns=1, beam=10, seeds=[0, 1])
    rv = api.review(line, rounds=(30, 32), beam=20, seeds=[0])  # where it lost points

Every call returns plain objects with named fields (dataclasses) or, for a sweep's table,
a list of dicts that ``pandas.DataFrame(rows)`` takes as it is (pandas is not needed). Every
bad argument (an unknown variant, an unreadable record, an illegal opening, a round past the
end of a line, a budget of zero) raises :class:`ApiError` with one message that says what is
wrong; nothing is written. The command line (``ora-solve ...``) runs on the same code
(solver/research and solver/search); docs/api.md walks through an example.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from solver.rules.scoring import Score  # total, goods, economic, dwelling

VARIANTS = ("ireland", "france")


class ApiError(ValueError):
    """A call that cannot be done as asked (the message says what is wrong and where)."""


def _score(d) -> Score:
    """A score (the reference engine's ``Score``) from a record's dict or a search's tuple."""
    if isinstance(d, dict):
        return Score(int(d["total"]), int(d["goods"]), int(d["economic"]), int(d["dwelling"]))
    total, goods, economic, dwelling = (int(v) for v in d)
    return Score(total, goods, economic, dwelling)


@dataclass
class Round:
    """One round (or settlement phase) of a line: its actions by name, the goods held after
    it and the score so far."""

    when: str  # "round 7" or "round 11, settlement B"
    round: int
    actions: list[str]
    goods: str
    score: Score


@dataclass
class Line:
    """A complete solo game: the canonical action ids, its score, where it came from, and
    (for a search) what the search did. ``record`` is the results record it was read from or
    would be saved as (``save``)."""

    variant: str
    actions: list[int]
    score: Score
    source: str
    seconds: float | None = None
    nodes: int | None = None
    record: dict = field(default_factory=dict, repr=False)

    def rounds(self) -> list[Round]:
        """The line round by round, read off the reference engine."""
        from solver.research.show import rounds

        return [Round(r.when, r.round, list(r.actions), r.goods, _score(r.score))
                for r in rounds(self.variant, self.actions)]

    def save(self, path: str | Path, replace: bool = False) -> Path:
        """Write the line as a results record (``ora-solve replay`` reads it); an existing
        file is kept unless ``replace``. Returns the path written."""
        from solver.search import records

        if Path(path).exists() and not replace:
            raise ApiError(f"cannot save the line to {path}: a file is there "
                           "(replace=True replaces it)")
        try:
            records.check_writable(path)
            return records.write_record(self.record, path, replace=replace)
        except (records.OutputError, records.Unsaved, OSError) as e:
            raise ApiError(f"cannot save the line to {path}: {e}") from None


@dataclass(frozen=True)
class Replay:
    """A line replayed on the reference engine: ``confirmed`` when every action was legal,
    the game ended and the score is the one claimed."""

    confirmed: bool
    message: str
    score: Score | None


# ===== arguments ================================================================================

def _variant(variant) -> str:
    if variant not in VARIANTS:
        raise ApiError(f"unknown variant {variant!r}: give one of {', '.join(VARIANTS)}")
    return variant


def _budget(beam, seconds, nodes) -> None:
    given = [n for n, v in (("beam", beam), ("seconds", seconds), ("nodes", nodes))
             if v is not None]
    if len(given) != 1:
        raise ApiError("give exactly one budget: beam=WIDTH, seconds=S or nodes=N "
                       f"(given: {', '.join(given) or 'none'})")
    value = {"beam": beam, "seconds": seconds, "nodes": nodes}[given[0]]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ApiError(f"{given[0]} must be a positive number, not {value!r}")


def _seeds(seeds) -> list[int]:
    out = [seeds] if isinstance(seeds, int) else list(seeds)
    if not out or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                          for s in out):
        raise ApiError(f"seeds must be a non-empty list of integers >= 0, not {seeds!r}")
    if len(set(out)) != len(out):
        raise ApiError(f"seeds must be distinct, not {seeds!r}")
    return out


def _weights(weights, variant: str):
    if weights is None:
        return None
    from solver.search.evaluation.weights import WeightsError, load

    try:
        return load(weights, variant)
    except WeightsError as e:
        raise ApiError(str(e)) from None


# ===== records and replay =======================================================================

def load(path: str | Path) -> Line:
    """A solo line record (any file ``ora-solve solo`` writes, or ``Line.save``)."""
    from solver.search import records

    try:
        data = records.load_record(path)
    except records.RecordError as e:
        raise ApiError(str(e)) from None
    return Line(data["variant"], list(data["line"]), _score(data["score"]), str(path),
                data.get("wall_seconds"), data.get("nodes"), data)


def replay(line: Line | str | Path) -> Replay:
    """Replay a line (or the record at a path) on the reference engine."""
    from solver.search import records

    if not isinstance(line, Line):
        line = load(line)
    ok, message, score = records.verify_record(
        {"variant": line.variant, "line": line.actions, "score": asdict(line.score)})
    return Replay(ok, message, _score(score) if score else None)


# ===== positions and search =====================================================================

def position(variant: str | None = None, *, record: Line | str | Path | None = None,
             at_round: int | None = None, moves: int | None = None,
             opening: str | None = None):
    """A position to search or sweep from: the start of ``variant``; a record's line (a path
    or a loaded ``Line``) cut at the first turn of ``at_round`` or after ``moves`` actions; or
    an ``opening`` in kennerspiel notation ("CMD; CMD; ..."). The result
    (``solver.research.positions.Position``) has ``variant``, ``prefix`` (action ids),
    ``round`` and ``state`` (the reference engine's)."""
    from solver.research import positions as P

    if variant is not None:
        _variant(variant)
    if isinstance(record, Line):
        if variant is not None and variant != record.variant:
            raise ApiError(f"the line is a {record.variant} game, not {variant}")
        try:
            return P.from_line(record.variant, record.actions, at_round, moves,
                               source=record.source)
        except P.PositionError as e:
            raise ApiError(str(e)) from None
    try:
        return P.resolve(variant, None if record is None else str(record), at_round, moves,
                         opening)
    except P.PositionError as e:
        raise ApiError(str(e)) from None


def search(start, *, beam: int | None = None, seconds: float | None = None,
           nodes: int | None = None, seed: int = 0, weights: str | Path | None = None) -> Line:
    """The best line found from ``start`` (a variant name, or a position from ``position``)
    under one budget: a fixed ``beam`` width (the same line on any machine), ``seconds`` or
    ``nodes`` (children generated; the same line on any machine) of the default time-fitted
    schedule. ``weights``: a weights file that leads the portfolio. The line is checked on the
    reference engine (ApiError if it were not: that would be an engine bug)."""
    from solver.research.positions import Position
    from solver.search import beam_search, records, timed_beam_search
    from solver.search.evaluation.weights import named_with

    if isinstance(start, Position):
        pos = start
    else:
        pos = position(_variant(start))
    variant = pos.variant
    _budget(beam, seconds, nodes)
    w = _weights(weights, variant)
    portfolio = None if w is None else named_with(w.values, f"weights {w.path}")
    begin = None if not pos.prefix else pos.start()
    if beam is not None:
        r = beam_search(variant, int(beam), seed, start=begin, portfolio=portfolio)
        algorithm, params = "beam", {"width": int(beam)}
    else:
        r = timed_beam_search(variant, None if seconds is None else float(seconds), seed,
                              start=begin, portfolio=portfolio,
                              nodes=None if nodes is None else int(nodes))
        algorithm = "beam-timed" if nodes is None else "beam-nodes"
        params = {"time_limit": seconds} if nodes is None else {"nodes": int(nodes)}
    if pos.prefix:
        params["from"] = pos.source
        params["prefix_actions"] = len(pos.prefix)
    if w is not None:
        params["weights"] = w.describe()
    call = (f"solver.api.search({variant!r}, " + ", ".join(
        f"{k}={v!r}" for k, v in (("beam", beam), ("seconds", seconds), ("nodes", nodes),
                                  ("seed", seed), ("weights", weights)) if v is not None) + ")")
    record = records.make_record(command=call, variant=variant, algorithm=algorithm,
                                 params=params, seed=seed, nodes=r.nodes, seconds=r.seconds,
                                 score=r.score, line=r.line, stages=r.trace)
    if r.weightings is not None:  # what each stage's ``weighting`` index names
        record["weights"] = {"stage_weightings": r.weightings}
    ok, message, _ = records.verify_record(record)
    if not ok:
        raise ApiError(f"the line found does not replay on the reference engine: {message}")
    return Line(variant, [int(a) for a in r.line], _score(r.score), call,
                round(float(r.seconds), 2), int(r.nodes), record)


def _run(work: list, jobs: int) -> dict[str, dict]:
    """A sweep's or review's jobs on the local pool, the results by key (in memory: a call
    has nothing to resume, so no run directory)."""
    from solver.jobs import LocalBackend
    from solver.research import sweep as SW

    with LocalBackend(jobs) as backend:
        return {job.key: {"key": job.key} | result
                for job, result in backend.run(SW.SEARCH, work)}


# ===== sweeps ===================================================================================

def sweep(start, *, turns: int | None = 1, next_turn: bool = False, beam: int = 20,
          seeds=(0, 1, 2), jobs: int = 1, rank_by: str = "mean") -> list[dict]:
    """Compare the candidates from ``start`` (a variant or a position) under one budget and
    paired seeds, as ``ora-solve openings`` (every line of ``turns`` turns) or, with
    ``next_turn``, ``ora-solve analyse`` (every next turn, the recorded one marked) do.
    Returns the ranked rows: ``rank``, ``label``, ``moves``, ``best``, ``mean``, ``ci``,
    ``diff``, ``diff_ci``, ``clearly_behind`` (Holm-corrected), ``p``, ``p_holm``,
    ``scores``, ``best_line`` and ``runs`` (each seed's line), one dict per candidate.
    ``jobs``: worker processes (1 runs in this process's pool of one)."""
    from solver.research import sweep as SW
    from solver.research.positions import Position

    pos = start if isinstance(start, Position) else position(_variant(start))
    seeds = _seeds(seeds)
    if isinstance(beam, bool) or not isinstance(beam, int) or beam < 1:
        raise ApiError(f"beam must be a positive integer, not {beam!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ApiError(f"jobs must be a positive integer, not {jobs!r}")
    if rank_by not in ("mean", "best"):
        raise ApiError(f"rank_by is 'mean' or 'best', not {rank_by!r}")
    if next_turn:
        candidates = SW.next_turns(pos)
    else:
        if not isinstance(turns, int) or not 1 <= turns <= 4:
            raise ApiError(f"turns must be 1 to 4, not {turns!r}")
        candidates = SW.openings(pos, turns)
    if not candidates:
        raise ApiError(f"{pos.source}: the game is over, there is nothing to compare")
    work = SW.make_jobs(pos, candidates, seeds, beam, None)
    return SW.table_rows(candidates, _run(work, jobs), seeds, rank_by)


# ===== review ===================================================================================

@dataclass
class Review:
    """Where a line lost points (``ora-solve review``): ``rounds`` holds one dict per round
    searched (``round``, ``value`` V(R): the best known final score through the line's
    position at that round, ``found``, ``loss``, ``turn_text`` (the better turns),
    ``own_turn_text``, ``line``, ``runs``); ``lost`` the rounds that lost points, most
    first; ``best`` the best line known (the reviewed one unless a search beat it)."""

    line: Line
    rounds: list[dict]
    lost: list[dict]
    best: Line
    record: dict = field(repr=False, default_factory=dict)


def review(line: Line | str | Path, *, rounds: tuple[int, int] | int | None = None,
           beam: int = 100, seeds=(0, 1, 2), jobs: int = 1) -> Review:
    """Search from the position ``line`` reaches at the first turn of each round (all, one
    round, or an inclusive ``(first, last)`` range) with a fixed-width beam on each seed,
    as ``ora-solve review`` does, and say where the line lost points."""
    from solver.research import review as RV
    from solver.search import records

    if not isinstance(line, Line):
        line = load(line)
    seeds = _seeds(seeds)
    if isinstance(beam, bool) or not isinstance(beam, int) or beam < 1:
        raise ApiError(f"beam must be a positive integer, not {beam!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ApiError(f"jobs must be a positive integer, not {jobs!r}")
    full = position(record=line)
    if not full.state.is_terminal():
        raise ApiError(f"{line.source}: the line stops in round {full.round}, before the "
                       "game ends; a review needs a complete game")
    if isinstance(rounds, tuple):
        text = f"{rounds[0]}-{rounds[1]}" if len(rounds) == 2 else repr(rounds)
    else:
        text = None if rounds is None else str(rounds)
    try:
        round_list = RV.parse_rounds(text, full.round)
    except RV.ReviewError as e:
        raise ApiError(str(e).replace("--rounds", "rounds")) from None
    records.code_commit()  # the record names the code that runs the jobs
    plan = RV.stops(line.variant, line.actions, round_list)
    work = RV.make_jobs(line.variant, plan, seeds, beam, None)
    own = asdict(line.score)
    results = _run(work, jobs)
    rows = RV.review_rows(line.variant, line.actions, own, plan, results, seeds, full.round)
    call = (f"solver.api.review({line.source!r}, rounds={rounds!r}, beam={beam}, "
            f"seeds={seeds})")
    rec = RV.make_record(command=call, variant=line.variant, source=line.source,
                         line=line.actions, score=own, seeds=seeds, width=beam,
                         time_limit=None, rows=rows, seconds=0.0, jobs=len(work))
    better = RV.best_record(rec, call)
    best = line if better is None else Line(
        line.variant, list(better["line"]), _score(better["score"]), call,
        better["wall_seconds"], better["nodes"], better)
    return Review(line, rows, rec["lost"], best, rec)
