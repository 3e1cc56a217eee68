"""The `ora-solve solo` job: check the output, search, verify the line, write the record.

Kept out of cli/ so the CLI stays a thin parse/call/print layer. The job has three parts,
each one function: :func:`records.output` (the record's path, checked before any search),
:func:`run_search` (the search under its time limit, stopped by SIGINT/SIGTERM) and
:func:`write_result` (the record, verified on the reference engine and written atomically).

Time limits are for the whole job: compiling the kernels, the search, the verification and
the writing all end within ``time_limit`` seconds of ``started`` (``RESERVE`` is kept back for
what follows the search). Without ``--beam`` or ``--mcts`` the job runs the time-budgeted beam
(:mod:`solver.search.beam.schedule`) for ``DEFAULT_TIME_LIMIT`` seconds.

A first SIGINT (Ctrl-C) or SIGTERM stops the search at the end of the layer under way; the
best line so far is finished greedily, verified and written with ``"interrupted": true``. A
second one aborts at once and writes nothing.
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from solver.fast import layout as L

from . import progress, records
from .beam import beam_search, timed_beam_search
from .beam.schedule import single_weighting
from .beam.stages import PERTURBED_PASSES, polish_plan, search_shape
from .evaluation.weights import (
    LEADS_PORTFOLIO,
    TABLE_TWIN_SHAPE,
    arrays,
    default_portfolio,
    fitted_default,
    has_linear_twin,
    named_with,
    to_named,
    tuned_default,
    with_stock_shape,
)
from .mcts import PLAYOUT_WIDTH as MCTS_PLAYOUT_WIDTH
from .mcts import mcts_search
from .nrpa import ITERATIONS, SEEDED_TAU, TAU, nrpa_search
from .playouts.beam_playouts import MAX_WIDTH as MCTS_MAX_WIDTH

RESULTS = Path("results")
DEFAULT_TIME_LIMIT = 600.0  # seconds, the whole default command on 2 cores
ROUNDS = 32


def reserve(time_limit: float) -> float:
    """Seconds of a time limit kept for finishing, verifying and writing the line."""
    return 3.0 + 0.01 * time_limit


@dataclass(frozen=True)
class SeedLine:
    """The complete line that seeds NRPA (``--from FILE``): the file, its actions, its score
    and the round from which the search changes it (``--at-round``; None: the whole game)."""

    source: str
    line: tuple[int, ...]
    score: int
    at_round: int | None = None


@dataclass(frozen=True)
class SoloJob:
    """What to search: beam of a fixed ``width``, MCTS of ``simulations`` per decision, NRPA
    of level ``nrpa`` (seeded by ``seed_line``), or (none of them) the budgeted beam, in
    ``node_limit`` children generated if given, else in seconds; each from ``position``
    (None: the initial state); ``time_limit`` in seconds for the whole job."""

    variant: str
    seed: int = 0
    width: int | None = None
    simulations: int | None = None
    time_limit: float | None = None
    position: object = None  # solver.research.positions.Position to search on from
    nrpa: int | None = None
    iterations: int = ITERATIONS
    seed_line: SeedLine | None = field(default=None, compare=False)
    weights: object = field(default=None, compare=False)  # evaluation.weights.Weights (--weights)
    playout_width: int | None = None  # MCTS playouts' start width (None: mcts.PLAYOUT_WIDTH)
    node_limit: int | None = None  # the node-budgeted beam: children generated in all

    @property
    def portfolio(self) -> list | None:
        """The search's weightings (``weights.Weighting``s) with ``weights`` leading (None:
        the default portfolio)."""
        return (None if self.weights is None
                else named_with(self.weights.values, f"--weights {self.weights.path}"))

    def weights_used(self, stage_weightings: list[str] | None = None) -> dict:
        """What the record says about the evaluation's weights: the file and its values, or
        the package's tuned defaults, or the hand-set portfolio; with ``stage_weightings``
        (a beam search's ``SearchResult.weightings``) also what each ``weighting`` index of
        its stages names."""
        return self._weights_described() | ({} if stage_weightings is None
                                            else {"stage_weightings": stage_weightings})

    def _weights_described(self) -> dict:
        if self.weights is not None:
            return self.weights.describe() | {"role": LEADS_PORTFOLIO}
        only = "the beam's only weighting"
        table = fitted_default(self.variant) if self.algorithm == "beam" else None
        if table is not None:
            # a beam too narrow to polish is alone and has no perturbed passes; a polished
            # one runs weights.table_members, the table shaped as a second beam
            groups, lines = (search_shape(self.variant, self.width) if self.width is not None
                             else (1, 0))
            if not lines:
                return table.describe() | {"role": "package default fitted table by round, "
                                                   + only}
            role = "package default fitted table by round, the beam's weighting"
            if groups > 1:
                knee, slope = TABLE_TWIN_SHAPE[self.variant]
                role += (f"; a second beam (the stages' weighting 1) runs it with the stock's "
                         f"knee {knee:g} and slope {slope:g}")
            if PERTURBED_PASSES[self.variant] > 0:
                role += ("; the polish's later passes run seeded perturbations of each "
                         "chain's (the stages' 'perturbation')")
            return table.describe() | {"role": role}
        # the timed schedule's single beam runs the leader alone (schedule.SINGLE_BEAM)
        alone = (self.algorithm == "beam" and self.width is None
                 and single_weighting(self.variant) is not None)
        # a fixed-width beam's groups run weights.group_portfolio: its stages' weighting 1
        # is the leader without the stock's shape where the variant has one
        twin = (self.algorithm == "beam" and self.width is not None
                and has_linear_twin(self.variant) and search_shape(self.variant, self.width)[0] > 1)
        also = ("; group 1 (the stages' weighting 1) runs it without the stock's shape"
                if twin else "")
        tuned = tuned_default(self.variant)
        if tuned is not None:  # its values as the search ran them: with the stock's shape
            return tuned.describe() | {
                "values": to_named(with_stock_shape(self.variant, tuned.values)),
                "role": "package default, " + (only if alone else LEADS_PORTFOLIO) + also}
        return {"file": None, "role": "hand-set portfolio (evaluation.PORTFOLIO)" + (
                    ", its leader alone" if alone else "") + also,
                "values": to_named(default_portfolio(self.variant)[0])}

    @property
    def algorithm(self) -> str:
        return ("nrpa" if self.nrpa is not None else "mcts" if self.simulations is not None
                else "beam")

    @property
    def name(self) -> str:
        """The record's default file name, e.g. ``ireland-t600-seed0.json``."""
        return self.file_name(f"seed{self.seed}")

    def file_name(self, seed_tag: str) -> str:
        """The default file name with ``seed_tag`` for the seed (``seeds0-1-2``: a sweep)."""
        if self.nrpa is not None:
            budget = f"nrpa{self.nrpa}x{self.iterations}" + (
                f"-from{self.seed_line.score}" if self.seed_line else "")
        elif self.simulations is not None:
            budget = f"mcts{self.simulations}" + (
                f"pw{self.playout_width}" if self.playout_width is not None else "")
        elif self.width is not None:
            budget = f"beam{self.width}"
        elif self.node_limit is not None:
            budget = f"n{node_tag(self.node_limit)}"
        else:
            budget = ""
        if self.time_limit is not None:
            budget += ("-" if budget else "") + f"t{self.time_limit:g}"
        tag = (f"from{len(self.position.prefix)}" if self.position is not None
               and self.seed_line is None else "")  # a seeded NRPA's tag is its seed's score
        wtag = f"w{Path(self.weights.path).stem}" if self.weights is not None else ""
        return "-".join(x for x in (self.variant, budget, seed_tag, tag, wtag) if x) + ".json"

    def describe(self) -> str:
        """One line for the user: the search and its limit."""
        what = (f"NRPA level {self.nrpa}, {self.iterations} iterations" + (
                    f", seeded by {self.seed_line.source} ({self.seed_line.score} points)"
                    if self.seed_line else "")
                if self.nrpa is not None else f"MCTS, {self.simulations} simulations per turn"
                if self.simulations is not None else f"beam of width {self.width}"
                if self.width is not None else
                f"node-budgeted beam, {self.node_limit:,} children"
                if self.node_limit is not None else "time-budgeted beam")
        limit = ("" if self.time_limit is None else
                 f", {self.time_limit:g} s for the whole command")
        where = ("" if self.position is None else
                 f", from round {self.position.round} ({len(self.position.prefix)} actions in)")
        weights = "" if self.weights is None else f", weights {self.weights.path}"
        return f"{self.variant} solo, seed {self.seed}: {what}{limit}{where}{weights}"

    @property
    def parameters(self) -> dict:
        if self.nrpa is not None:
            p = {"level": self.nrpa, "iterations": self.iterations,
                 "time_limit": self.time_limit,
                 "tau": TAU if self.seed_line is None else SEEDED_TAU,
                 "priors": "the portfolio's weightings in turn, one per restart"}
            if self.seed_line is not None:
                p |= {"seed_line": self.seed_line.source, "seed_score": self.seed_line.score,
                      "from_round": self.seed_line.at_round}
            return p
        if self.simulations is not None:
            return {"simulations_per_decision": self.simulations, "decision": "turn",
                    "playout_width": self.playout_width or MCTS_PLAYOUT_WIDTH[self.variant],
                    "playout_max_width": MCTS_MAX_WIDTH, "time_limit": self.time_limit}
        if self.width is not None:
            return {"width": self.width, "time_limit": self.time_limit}
        if self.node_limit is not None:
            return {"schedule": "nodes", "node_limit": self.node_limit,
                    "time_limit": self.time_limit}
        return {"schedule": "time", "time_limit": self.time_limit}


def node_tag(n: int) -> str:
    """A node count as a file name's tag: 20000000 -> 20M, 500000 -> 500k, 1234 -> 1234."""
    for suffix, unit in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


def exit_status(signal_name: str) -> int:
    """The exit status of a command a signal stopped: 128 + its number (130 for SIGINT, 143
    for SIGTERM), as a shell reports it."""
    return 128 + signal.Signals[signal_name].value


class StopOnSignal:
    """While active, a first SIGINT/SIGTERM sets the stop flag (the search winds down); a
    second one aborts (SystemExit 128 + signal number)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, stopping: str = "stopping the search at the end of this layer; the "
                 "best line so far will be finished, verified and written"):
        self.stopping = stopping  # what the first signal does, for the user
        self.signum: int | None = None
        self._old: dict = {}

    def __call__(self) -> bool:
        return self.signum is not None

    @property
    def name(self) -> str | None:
        return None if self.signum is None else signal.Signals(self.signum).name

    def _handle(self, signum, frame):
        if self.signum is not None:
            sys.stderr.write(f"\n{signal.Signals(signum).name} again: aborted, nothing "
                             "written\n")
            raise SystemExit(exit_status(signal.Signals(signum).name))
        self.signum = signum
        sys.stderr.write(f"\n{self.name}: {self.stopping} (send it again to abort)\n")

    def __enter__(self):
        try:
            for s in self.SIGNALS:
                self._old[s] = signal.signal(s, self._handle)
        except ValueError:  # not the main thread: signals stay as they are
            pass
        return self

    def __exit__(self, *exc):
        for s, handler in self._old.items():
            signal.signal(s, handler)
        self._old.clear()


def run_search(job: SoloJob, started: float, stop, quiet: bool = False):
    """The search of ``job`` with a progress bar (none if ``quiet``), ending within the job's
    time limit."""
    seconds = None
    if job.time_limit is not None:
        seconds = max(0.01, job.time_limit - reserve(job.time_limit)
                      - (time.perf_counter() - started))
    bar = _ProgressBar(job, started, quiet)
    start = job.position.start() if job.position is not None else None
    try:
        if job.nrpa is not None:
            line = None if job.seed_line is None else list(job.seed_line.line)
            return nrpa_search(job.variant, job.nrpa, job.iterations, job.seed, seconds, line,
                               None, bar.iteration, stop=stop, start=start,
                               priors=arrays(job.portfolio))
        if job.simulations is not None:
            return mcts_search(job.variant, job.simulations, job.seed, seconds, bar.update,
                               stop=stop, portfolio=arrays(job.portfolio),
                               width=job.playout_width)
        if job.width is not None:
            return beam_search(job.variant, job.width, job.seed, seconds, bar.update,
                               stop=stop, start=start, portfolio=job.portfolio)
        return timed_beam_search(job.variant, seconds, job.seed, bar.update, stop=stop,
                                 start=start, portfolio=job.portfolio, nodes=job.node_limit)
    finally:
        bar.close()


def write_result(job: SoloJob, result, output: records.Output, command: str,
                 interrupted: str | None, extra: dict | None = None,
                 commit: str | None = None) -> tuple[dict, Path]:
    """Verify the line on the reference engine and write its record atomically (``extra``:
    more fields for the record, e.g. a seed sweep's spread; ``commit``: the code's commit when
    the search started, default the current one). records.Unsaved if the record could not be
    written there (it is then in the fallback file, or its text in the exception)."""
    record = records.make_record(command=command, variant=job.variant,
                                 algorithm=job.algorithm, params=job.parameters, seed=job.seed,
                                 nodes=result.nodes, seconds=result.seconds,
                                 score=result.score, line=result.line,
                                 stages=getattr(result, "trace", None), commit=commit)
    record["complete"] = bool(result.complete)
    record["weights"] = job.weights_used(result.weightings)
    if job.position is not None:
        p = job.position
        record["position"] = {"source": p.source, "prefix_actions": len(p.prefix),
                              "round": p.round, "prefix_moves": p.moves()}
    record["interrupted"] = interrupted is not None
    if interrupted is not None:
        record["signal"] = interrupted
    record |= extra or {}
    ok, message, _ = records.verify_record(record)
    if not ok:
        raise RuntimeError(f"the search's line does not replay on the reference engine: "
                           f"{message}")
    path = records.write_record(record, output.path, replace=output.explicit)
    return record, path


def run_solo(job: SoloJob, *, out: str | None, command: str, quiet: bool = False,
             started: float | None = None, bar: bool | None = None) -> tuple[dict, Path]:
    """Check the output path, search, confirm the line through the reference engine, write
    the record; returns it and its path (``record["interrupted"]``: stopped by a signal).
    ``quiet``: no words on stderr; ``bar``: the progress bar (default: unless ``quiet``)."""
    started = time.perf_counter() if started is None else started
    commit = records.git_commit(records.CODE)  # the code searching, whatever changes meanwhile
    output = records.output(out, RESULTS / job.name)  # checked before the search
    with StopOnSignal() as stop:
        if not quiet:
            sys.stderr.write(f"{job.describe()}; record to {output.path} (Ctrl-C stops early "
                             "and keeps the best line)\n")
        result = run_search(job, started, stop, quiet if bar is None else not bar)
        interrupted = stop.name
        return write_result(job, result, output, command, interrupted, commit=commit)


class _ProgressBar:
    """The search's progress: children against the node budget, seconds against the time
    limit, or rounds against stages x rounds (fixed width), the game's rounds (MCTS) or the
    top level's iterations (NRPA); the postfix names the stage."""

    def __init__(self, job: SoloJob, started: float, quiet: bool):
        self.job, self.started = job, started
        self.counted = job.node_limit is not None
        self.timed = job.time_limit is not None and not self.counted
        if self.counted:
            total, unit = job.node_limit, " nodes"
            fmt = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} nodes{postfix}"
        elif self.timed:
            total, unit = job.time_limit, "s"
            fmt = "{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s{postfix}"
        elif job.nrpa is not None:
            total, unit, fmt = job.iterations, " iteration", None
        else:
            self.spans = self._stage_spans() if job.width is not None else [ROUNDS]
            total, unit = sum(self.spans), " round"
            fmt = None
        what = (f"nrpa {job.nrpa}" if job.nrpa is not None else
                f"mcts {job.simulations}" if job.simulations is not None else
                f"beam {job.width}" if job.width is not None else "beam")
        self.bar = progress.bar(total=total, desc=f"{what} {job.variant}", unit=unit,
                                quiet=quiet, bar_format=fmt, dynamic_ncols=True,
                                unit_scale=self.counted)

    def _stage_spans(self) -> list[int]:
        """Rounds searched by each stage of beam_search at this width (beam.py)."""
        pf = self.job.portfolio
        groups, lines = search_shape(self.job.variant, self.job.width,
                                     len(pf) if pf else None)
        self.groups = groups
        return ([ROUNDS] * groups
                + [ROUNDS + 1 - r for _, r in polish_plan(self.job.variant)] * lines)

    def update(self, state, k, stage: str = "", nodes: int | None = None) -> None:
        """After a layer (``nodes``: the children generated so far, under a node budget)."""
        rnd = int(state[0][L.ROUND]) if state.ndim == 2 else int(state[L.ROUND])
        elapsed = time.perf_counter() - self.started
        if self.counted:
            n = min(self.bar.total, nodes or 0)
            post = f"{stage}, round {rnd}" if stage else f"round {rnd}"
        elif self.timed:
            n = min(self.bar.total, elapsed)
            left = max(0.0, self.bar.total - elapsed)
            post = f"{stage}, round {rnd}, {left:.0f} s left" if stage else \
                f"round {rnd}, {left:.0f} s left"
        else:
            n = self._position(stage, rnd)
            post = f"{stage}, round {rnd}" if stage else f"round {rnd}"
        self.bar.n = max(self.bar.n, n)
        self.bar.set_postfix_str(post, refresh=False)
        self.bar.refresh()

    def iteration(self, i: int, best: float) -> None:
        """NRPA's progress: top-level iteration ``i`` done, ``best`` the best score so far."""
        elapsed = time.perf_counter() - self.started
        if self.timed:
            self.bar.n = max(self.bar.n, min(self.bar.total, elapsed))
            left = max(0.0, self.bar.total - elapsed)
            post = f"iteration {i}, best {best:g}, {left:.0f} s left"
        else:
            self.bar.n = max(self.bar.n, i)
            post = f"best {best:g}"
        self.bar.set_postfix_str(post, refresh=False)
        self.bar.refresh()

    def _position(self, stage: str, rnd: int) -> int:
        """Rounds searched so far: the stages before this one, then this one's rounds."""
        if not stage:  # MCTS: one game
            return min(rnd, ROUNDS)
        kind, _, count = stage.partition(" ")
        i = int(count.split("/")[0]) - 1
        index = min(len(self.spans) - 1, i if kind == "group" else self.groups + i)
        span = self.spans[index]
        return sum(self.spans[:index]) + max(0, min(span, rnd - (ROUNDS + 1 - span)))

    def close(self) -> None:
        if not self.timed and not self.counted:
            self.bar.n = self.bar.total
        self.bar.refresh()
        self.bar.close()
