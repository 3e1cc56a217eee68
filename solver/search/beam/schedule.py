"""The time-budgeted beam search: the stages of ``beam_search`` fitted to a number of seconds.

``timed_beam_search(variant, seconds)`` is what ``ora-solve solo --variant V`` runs. It has
the stages of :func:`solver.search.beam.beam_search` (one wide beam or strategy groups, then
the endgame polish), but chooses their widths from the time they may take instead of from
one width:

0. **Probe.** A beam of ``PROBE_WIDTH`` under the first weighting plays a whole game.
   It loads (or compiles) the kernels, gives a first complete line, and times a layer round
   by round.
1. **One wide beam** (France's default). One weighting: the variant's adopted fitted table
   by round (``weights.fitted_default``: France), else the portfolio's leader where
   ``SINGLE_BEAM`` says so (no variant now). A **scout** beam of ``SCOUT_SHARE`` of the
   budget left measures the cost of a unit of width (the probe's overestimates a wide
   beam's about twice), then the **beam** takes ``SINGLE_SHARE`` of what the scout left. A
   ``SINGLE_BEAM`` variant's beam is paced in time mode (``_Clock.pacer``): where its layers
   forecast more than its share, the rest of it narrows to fit, so the polish keeps its
   time. France's is not: its scout overestimates a wide beam's cost, and at 600 s its
   polish added nothing to the beam's line (seeds 0-2 at f4e1a64). Under France's table
   a wider beam keeps buying points (seeds 3-6: 521.00 at width 2000, 532.25 at 4000, 546.00
   at 8000), where the groups under the vectors did not. Under the strength suite's 100M
   children the single beam scored France's seeds 3-6 515/525/520/518 = 519.50 against the
   groups' 490.00 (docs/experiments.md, 2026-12-06).
1'. **Strategy groups** (Ireland's default, and any ``portfolio``, e.g. ``--weights FILE``
   leading the hand-set weightings). ``GROUPS`` beams share ``GROUP_SHARE`` of the time left
   after the probe. Group 0 runs the portfolio's leader; the others run the best-measured hand-set
   weightings for seed 0 and a seeded draw from the best ``GROUP_POOL`` for other seeds
   (``weights.group_weightings``), so two seeds search different plans. Before each
   group its width is set so that the groups still to run fit in what is left of that share.
2. **Endgame polish.** Restarts from rounds ``POLISH_ROUNDS`` of the ``POLISH_LINES`` best
   distinct lines, as in ``beam_search``, at one width chosen before each restart so that
   the restarts still planned fill the rest of the time (a restart from a state already
   tried is dropped and its time goes to the others). The second line's restarts run first,
   so that time left over by a high estimate goes to the best line's. Where ``SCREENED``
   (Ireland), every distinct line of the groups (up to ``GROUPS``) is first restarted once
   from ``SCREEN_ROUND``, and the ``POLISH_LINES`` best lines after that screening are
   restarted from ``SCREENED_ROUNDS``: a chain's first restart from round 28 is its
   cheapest and gains the most, and reorders the lines (``timed_polish_plan``). Time still
   left after them (the estimate was high) goes to more restarts of the best line, from
   ``FILL_ROUNDS`` in turn, each sized to the time left.

The cost model is measured, not assumed: a beam of width w from round r costs
``k * w * tail(r)``, where ``tail(r)`` is the share of a whole game's layer time spent from
round r on (from the latest whole-game beam) and ``k`` the seconds per unit of width: for
groups, of the whole-game beams so far (weighted by their width); for polish restarts, of
the restarts so far (``POLISH_PRIOR`` times the groups' until one has run). Every stage
also stops at the deadline, so a wrong estimate costs quality, never time. The search is
anytime: the best complete line found so far is kept, and a stopped stage finishes its
best state greedily.

The widths depend on the machine's speed, so two runs of one seed may differ; ``--beam W``
gives fixed widths and the same line every time. ``nodes`` (``--nodes N``) budgets the same
stages in children generated instead: the clock's "time" is the count of children, the cost
model is in children per unit of width, and a beam stops before a layer that would pass the
budget (one grown from its last as the last grew), so the same budget and seed give the same
line anywhere.

``GROUP_SHARE`` is 0.35 in Ireland and 0.5 in France. In short timed runs on a loaded machine
(``tools/tune_schedule.py``) 0.35 scored more than 0.5 in all four pairs, and 3 and 6 groups
scored about the same; six keep more weightings in play when the budget is large. Under the
strength suite's node budget France gained with 0.5 on six of eight tuning seeds (+11.5 and
+16.0 on the means of seeds 3-6 and 7-10) and Ireland lost (-11.75), hence one share per
variant (docs/experiments.md).

Each polish chain runs under the weighting whose beam found its line (as in ``beam_search``):
under the suite's node budget Ireland's seeds 3-6 scored 504.00 against 495.50 with the
leader polishing every chain, France's 490.00 against 489.50 (docs/experiments.md,
2026-12-06; one 600 s run on seed 5 had shown no gain).

Tried and not adopted (docs/experiments.md): one group per weighting of the portfolio
instead of the six, hand-set weighting #3 as Ireland's polisher, and each polish restart
priced at the measured rate of its own start round. Neither gained over the default in
600 s runs on tuning seed 5.
"""

from __future__ import annotations

import time

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from ..common import SearchResult
from ..evaluation.features import PORTFOLIO
from ..evaluation.weights import (
    Weighting,
    arrays,
    default_named,
    group_weightings,
    named,
    table_named,
)
from .expansion import KEEP_PER_PARENT
from .run import run_beam, wide_start
from .stages import MAX_GROUPS, POLISH_LINES, POLISH_ROUNDS, polish_chains, polish_restart

PROBE_WIDTH = 8
GROUPS = MAX_GROUPS  # the fixed-width beam's cap on groups, one number for both
# of the time left after the probe, by variant (docs/experiments.md, 2026-12-05 and -06)
GROUP_SHARE = {"ireland": 0.35, "france": 0.5}
MIN_GROUP_WIDTH = 20  # fewer groups rather than narrower ones
# the single-beam schedule: a scout beam's share of the budget left after the probe, then
# the wide beam's share of what the scout left; the probe's cost per unit of width
# overestimates a wide beam's about twice, the scout's less (the polish gets what is left)
SCOUT_SHARE = 0.1
SINGLE_SHARE = 0.85
# variants without a fitted table whose default schedule is still one beam, under the
# portfolio's leader. None for now: under the strength suite's 100M children Ireland's
# single beam beat its groups (seeds 3-6 519.00 against 504.00, 7-10 505.50 against
# 469.25), but at 400M children (600 s generate about 1.1G) the two traded seeds (3-6: 529.25
# against 526.75, two seeds each; docs/experiments.md, 2026-12-07). At --time-limit 60 it
# did not beat the groups either, and its pacer narrowed it to under half its planned width
# (2026-12-07, eighteenth session)
SINGLE_BEAM: tuple[str, ...] = ()
SAFETY = 0.92  # plan each stage to this share of the time it may take
# variants whose timed polish screens every group line from SCREEN_ROUND before the best
# lines' restarts from SCREENED_ROUNDS. In Ireland's timed runs a chain's first restart (from
# round 28) gained 14.4 points on average for 14.6M children, up to 42, and the next three
# 6.0, 1.7 and 1.3 (44 chains); screened, Ireland's seeds 3-6 scored 539.75 against 538.00 at
# 400M children, held-out seeds 7 and 8 540 and 544 against 530 and 513 (docs/experiments.md,
# 2026-12-07, twenty-third session).
# France's timed schedule runs one beam (and its scout), so it has no group lines to screen
SCREENED: tuple[str, ...] = ("ireland",)
SCREEN_ROUND = 28
SCREENED_ROUNDS = (22, 25, 28)
FILL_ROUNDS = (28, 25, 22, 30, 26, 24, 20)  # restarts of the best line with time left over
FILL_GAIN = 1.5  # a restart already run is run again only this much wider
# a restart's cost per unit of width against a whole game's tail from its round, until
# measured: a wide beam from one state is not full in its first layers, and many children
# coincide (the polish of the width-2000 records cost 0.3-0.6 of this estimate)
POLISH_PRIOR = 0.5
LAST_ROUND = 33  # the round counter's value at the final settlement phase


class _Clock:
    """The budget (seconds, or children generated with ``nodes``), per-layer costs and the
    cost model of the stages run so far, all in the budget's unit."""

    def __init__(self, seconds: float | None, progress, nodes: int | None = None):
        self.t0 = time.perf_counter()
        self.nodes = nodes  # a node budget: every figure below counts children, not seconds
        self.limit = float(nodes if nodes is not None else seconds)
        self.generated = 0  # children generated so far
        self.narrowed: int | None = None  # the last beam's final width, if its pacer narrowed it
        self.progress = progress
        # per kind of beam ("game": from round 1, "polish": a restart): the sum of
        # width * tail(from_round) over the beams run, and the budget they used
        self.work = {"game": 0.0, "polish": 0.0}
        self.spent = {"game": 0.0, "polish": 0.0}
        self.profile = [1.0] * (LAST_ROUND + 2)  # layer cost by round (flat until measured)
        self._stamp = 0.0
        self._rounds: list[float] = []

    def used(self) -> float:
        """The budget used so far: seconds since the start, or children generated."""
        if self.nodes is not None:
            return float(self.generated)
        return time.perf_counter() - self.t0

    def left(self) -> float:
        return max(0.0, self.limit - self.used())

    def tail(self, rnd: int) -> float:
        """Share of a whole game's cost spent from round ``rnd`` on."""
        return sum(self.profile[max(1, rnd):]) / sum(self.profile[1:])

    def cost(self, rounds, kind: str = "game") -> float:
        """Estimated budget per unit of width of beams of ``kind`` from each of ``rounds``."""
        if self.work[kind] > 0:
            rate = self.spent[kind] / self.work[kind]
        else:
            rate = self.spent["game"] / self.work["game"] * POLISH_PRIOR
        return rate * sum(self.tail(r) for r in rounds)

    def run(self, variant, width, seed, weights, label, stop, start=None,
            polish: bool = False, guide: list[int] | None = None,
            pace: float | None = None) -> SearchResult:
        """One beam within the budget (a whole game from ``start``, or a ``polish``
        restart keeping its ``guide`` line); its cost updates the cost model. ``pace``: the
        seconds the beam is planned to take; a timed beam then narrows as it goes if its
        layers forecast more (``pacer``)."""
        self._stamp = self.used()
        self._rounds = [0.0] * (LAST_ROUND + 2)
        timed = self.nodes is None
        paced = self.pacer(width, pace) if timed and pace is not None else width
        r = run_beam(variant, paced, seed, self.left() if timed else None, self._layer,
                     KEEP_PER_PARENT, weights, start=start, label=label, stop=stop,
                     node_limit=None if timed else int(self.left()), meter=self._meter,
                     guide=guide)
        from_round = 1 if start is None else int(start[0][L.ROUND])
        kind = "polish" if polish else "game"
        narrowed = isinstance(paced, _Pacer) and paced.width < width
        self.narrowed = paced.width if narrowed else None
        # narrowed: the work of its layers as run; its profile is not a full beam's
        work = paced.work_as_run() if narrowed else width * self.tail(from_round)
        if r.complete and kind == "game" and sum(self._rounds) > 0 and self.narrowed is None:
            self.profile = self._rounds
        self.work[kind] += work
        self.spent[kind] += r.seconds if timed else r.nodes
        return r

    def pacer(self, width: int, seconds: float) -> "_Pacer":
        """The width function of a whole-game beam planned at ``width`` to take ``seconds``
        (``_Pacer``)."""
        return _Pacer(self, width, seconds)

    def _meter(self, n: int) -> None:
        self.generated += n

    def _layer(self, beam, layers, label):
        now = self.used()
        rnd = min(LAST_ROUND + 1, int(beam[0][L.ROUND]))
        self._rounds[rnd] += now - self._stamp
        self._stamp = now
        if self.progress is None:
            return
        if self.nodes is None:
            self.progress(beam, layers, label)
        else:
            self.progress(beam, layers, label, self.generated)


class _Pacer:
    """The width of each layer of a whole-game beam planned at ``width`` to take ``seconds``,
    called with the round of each layer: at each new round, the time so far per unit of width
    and of the profile's share of a game forecasts the rest; if that passes what is left of
    ``seconds``, the rest of the beam narrows to fit (it never widens). A scout's cost per
    unit of width can underestimate a wide beam's: Ireland's single beams at f4e1a64 overran
    their share (at 60 s one took 48 of the 49 s left) and starved the polish
    (docs/experiments.md, 2026-12-06)."""

    def __init__(self, clock: _Clock, width: int, seconds: float):
        self.clock = clock
        self.seconds = seconds
        self.t0 = clock.used()
        self.width = width  # the width it has come to
        self.round: int | None = None  # the round of the last layer asked for
        self.work = 0.0  # width * share of a game, over the rounds done

    def __call__(self, rnd: int) -> int:
        last = self.round
        if last is not None and rnd <= last:  # the same round: as its first layer
            return self.width
        self.round = rnd
        if last is None:
            return self.width
        clock = self.clock
        self.work += self.width * (clock.tail(last) - clock.tail(rnd))
        spent = clock.used() - self.t0
        if self.work > 0 and spent > 0:
            rest = spent / self.work * self.width * clock.tail(rnd)
            room = self.seconds - spent
            if rest > room:
                self.width = max(min(PROBE_WIDTH, self.width),
                                 int(self.width * max(0.0, room) / rest))
        return self.width

    def work_as_run(self) -> float:
        """The beam's work in width * share of a game: its rounds so far, then the rest of
        the game at the width it came to."""
        return self.work + self.width * self.clock.tail(self.round or 1)


def timed_beam_search(variant: str = "ireland", seconds: float | None = 60.0, seed: int = 0,
                      progress=None, stop=None,
                      start: tuple[np.ndarray, list[int]] | None = None,
                      portfolio: list | None = None,
                      nodes: int | None = None) -> SearchResult:
    """Beam search whose stages fit in ``seconds``, or with ``nodes`` in that many children
    generated (then ``seconds`` is None, or a deadline that only stops it); returns the best
    complete line found.

    Under a node budget every width comes from children counted, not seconds timed, so the
    same ``nodes`` and seed give the same line on any machine at any load.

    ``progress(beam, layers, label)`` is called after every layer; ``stop()`` returning true
    ends the search at the next layer (the best line so far, finished greedily). ``start``
    (a state and the line that reached it, as for ``beam_search``) searches on from that
    position: the probe and the groups start there, no polish restart starts before it.
    ``portfolio``: the weightings (the groups: ``group_weightings``; the probe: entry 0; a
    polish chain: the weighting that found its line; default
    ``weights.default_named(variant)``; vectors or ``weights.Weighting``s, named in the
    result's ``weightings``). Under a node budget ``progress`` gets a fourth argument: the
    children generated so far.
    """
    one = single_weighting(variant) if portfolio is None else None
    single = one is not None  # one wide beam, then the polish
    ran = [one] if single else default_named(variant) if portfolio is None else named(portfolio)
    pf = arrays(ran)
    if nodes is not None:
        if nodes <= 0:
            raise ValueError("the node budget must be positive")
        if seconds is not None:  # a deadline on top of the node budget
            stop = _until(time.perf_counter() + seconds, stop)
    elif seconds is None or seconds <= 0:
        raise ValueError("the time budget must be positive")
    if start is not None:
        start = wide_start(variant, start)
    first_round = 1 if start is None else int(start[0][L.ROUND])
    clock = _Clock(seconds, progress, nodes)
    t0 = clock.t0
    trace: list[dict] = []
    found: list[tuple[SearchResult, int]] = []  # each whole-game beam and its weighting
    nodes = layers = 0
    complete = True

    def stopped() -> bool:
        return (stop is not None and stop()) or clock.left() <= 0

    def record(stage, r, width, weighting, from_round):
        nonlocal nodes, layers, complete
        nodes += r.nodes
        layers += r.layers
        complete = complete and r.complete
        trace.append({"stage": stage, "weighting": weighting, "width": width,
                      "from_round": from_round, "score": r.score[0],
                      "seconds": round(r.seconds, 1), "nodes": r.nodes}
                     | ({} if clock.narrowed is None else {"narrowed_to": clock.narrowed}))

    warm_up(variant, seed)
    r = clock.run(variant, PROBE_WIDTH, seed, pf[0], "probe", stop, start=start)
    record("probe", r, PROBE_WIDTH, 0, first_round)
    found.append((r, 0))

    if single:
        # ----- one wide beam under one weighting, sized from a scout's measured cost ----
        for stage, share in (("scout", SCOUT_SHARE), ("beam", SINGLE_SHARE)):
            if stopped():
                break
            planned = SAFETY * share * clock.left()
            width = max(1, int(planned / clock.cost([first_round])))
            paced = stage == "beam" and variant in SINGLE_BEAM  # not France: see pacer
            r = clock.run(variant, width, seed, pf[0], stage, stop, start=start,
                          pace=planned if paced else None)
            record(stage, r, width, 0, first_round)
            found.append((r, 0))
    else:
        # ----- strategy groups ------------------------------------------------------------
        group_end = clock.used() + GROUP_SHARE[variant] * clock.left()
        groups = max(1, min(GROUPS, len(pf), int(SAFETY * (group_end - clock.used())
                                        / (clock.cost([first_round]) * MIN_GROUP_WIDTH))))
        chosen = group_weightings(variant, pf, seed, groups)
        for i in range(groups):
            if stopped():
                break
            width = max(1, int(SAFETY * max(0.0, group_end - clock.used())
                               / clock.cost([first_round] * (groups - i))))
            wi = chosen[i]
            r = clock.run(variant, width, seed, pf[wi], f"group {i + 1}/{groups}", stop,
                          start=start)
            record("group", r, width, wi, first_round)
            found.append((r, wi))
    found.sort(key=lambda f: -f[0].score[0])
    best = found[0][0]

    # ----- endgame polish -----------------------------------------------------------------
    e = FastEngine(variant)
    chains = polish_chains(found, GROUPS if variant in SCREENED else POLISH_LINES)
    plan = timed_polish_plan(variant, len(chains))
    ranked: list[int] | None = None  # the chains best first, once the screening is done
    tried: dict[tuple, int] = {}  # (weighting, restart prefix) -> the widest beam run from it
    i = fills = 0
    while not stopped():
        if i < len(plan):
            c, rnd = plan[i]
            if c < 0:
                if ranked is None:
                    ranked = sorted(range(len(chains)), key=lambda x: -chains[x].score)
                c = ranked[-1 - c]
            rest = [r for _, r in plan[i:]]
            label = f"polish {i + 1}/{len(plan)}"
        else:  # time left over: the best line again, from the fill rounds in turn
            if fills >= len(FILL_ROUNDS):
                break
            c = max(range(len(chains)), key=lambda x: chains[x].score)
            rnd = FILL_ROUNDS[fills]
            rest = [rnd]
            fills += 1
            label = f"polish {i + 1}"
        i += 1
        chain = chains[c]
        restart = polish_restart(e, chain.line, rnd, start)
        key = (chain.weighting, tuple(restart[1]))  # another weighting finds another line
        width = max(1, int(SAFETY * clock.left() / clock.cost(rest, "polish")))
        if width < FILL_GAIN * tried.get(key, 0) or (i > len(plan) and width < PROBE_WIDTH):
            continue  # the same restart at about the same width would find the same line
        tried[key] = max(width, tried.get(key, 0))
        r = clock.run(variant, width, seed, pf[chain.weighting], label, stop, start=restart,
                      polish=True, guide=chain.line)
        record("polish", r, width, chain.weighting, max(rnd, first_round))
        chain.take(r)
        if r.score[0] > best.score[0]:
            best = r
    complete = complete and not (stop is not None and stop())
    return SearchResult(variant, best.score, best.line, nodes, layers,
                        time.perf_counter() - t0, complete, trace, [w.name for w in ran])


def timed_polish_plan(variant: str, chains: int) -> list[tuple[int, int]]:
    """The timed polish's restarts in order, as (chain, round) for ``chains`` chains best
    first: chain -1 - k is the k-th best chain once the restarts before it have run. The
    best line's restarts come last, so that time an estimate left over goes to them. In a
    ``SCREENED`` variant every chain restarts from ``SCREEN_ROUND`` (the worst first), then
    the ``POLISH_LINES`` best chains from ``SCREENED_ROUNDS``; otherwise the chains (the
    ``POLISH_LINES`` best lines) restart from ``POLISH_ROUNDS``."""
    if variant not in SCREENED:
        return [(c, rnd) for c in reversed(range(chains)) for rnd in POLISH_ROUNDS]
    return ([(c, SCREEN_ROUND) for c in reversed(range(chains))]
            + [(-1 - k, rnd) for k in reversed(range(min(POLISH_LINES, chains)))
               for rnd in SCREENED_ROUNDS])


def single_weighting(variant: str) -> Weighting | None:
    """The weighting of the default schedule's single wide beam: the variant's adopted
    fitted table (France), else its portfolio's leader where ``SINGLE_BEAM`` says so,
    else None (the strategy groups)."""
    table = table_named(variant)
    if table is not None:
        return table[0]
    return default_named(variant)[0] if variant in SINGLE_BEAM else None


def _until(deadline: float, stop):
    """``stop`` that also returns true from ``deadline`` (a perf_counter time) on."""
    def stopped() -> bool:
        return (stop is not None and stop()) or time.perf_counter() >= deadline
    return stopped


def warm_up(variant: str, seed: int) -> None:
    """Load (or compile) every kernel the beam uses, so that compiling is not timed as search:
    one layer of a width-1 beam, then its greedy finish."""
    calls = [0]

    def after_one_layer() -> bool:
        calls[0] += 1
        return calls[0] > 1

    run_beam(variant, 1, seed, None, None, KEEP_PER_PARENT, PORTFOLIO[0],
             stop=after_one_layer)
