"""``beam_search``: beams of one width in two stages, strategy groups then the endgame polish.

The stages (the measurements behind them are in ``beam_search``'s docstring): narrow groups
under different evaluation weightings (the plans), then an endgame polish in which a wide beam
restarts from late rounds of the best lines (in France from round 16 first, then again under
perturbed weightings), keeping the line it polishes (run.py's guide). ``schedule.py`` runs
the same stages fitted to a time budget, with the endgame rounds only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from ..common import SearchResult
from ..evaluation.weights import (
    arrays,
    fitted_default,
    group_named,
    group_portfolio,
    group_weightings,
    named,
    perturbed,
    table_members,
    table_named,
)
from .expansion import KEEP_PER_PARENT
from .run import run_beam, state_at_round, wide_start

GROUP_WIDTH = 100
POLISHED_WIDTH = 2 * GROUP_WIDTH  # a search this wide or wider is polished
MAX_GROUPS = 6  # strategy groups at most (schedule.GROUPS is this too)
POLISH_ROUNDS = (28, 22, 25, 28)  # the endgame polish restarts from these rounds ...
POLISH_LINES = 2  # ... of this many of the best lines the groups found
POLISH_SHARE = 1.0  # ... with a beam this share of the whole width
# rounds a fixed-width chain restarts from before the endgame's, by variant: France's group
# lines gain from a whole-width restart at round 16, Ireland's lost (docs/experiments.md,
# 2026-12-06, eleventh session)
DEEP_ROUNDS = {"ireland": (), "france": (16,)}
# then a large-neighbourhood search: this many more passes over PERTURBED_ROUNDS, each under
# the chain's weighting perturbed (weights.perturbed, PERTURB_SIGMA, seeded by the seed and
# the pass). A restart under the same weighting from a state already tried finds the same
# line; a perturbed one searches another neighbourhood of it, guided, so it never loses
# (docs/experiments.md, 2026-12-06, sixteenth session). Not in Ireland: there they cost
# 3.4-4 times the children for +1.5 a seed (seeds 3 and 5; 2026-12-07)
PERTURBED_PASSES = {"ireland": 0, "france": 2}
PERTURBED_ROUNDS = (16, 22, 25, 28)
PERTURB_SIGMA = 0.1


def polish_rounds(variant: str) -> tuple[int, ...]:
    """The rounds each chain of ``beam_search``'s polish restarts from, in order, before its
    perturbed passes."""
    return DEEP_ROUNDS[variant] + POLISH_ROUNDS


def polish_plan(variant: str) -> list[tuple[int, int]]:
    """Each restart of a chain of ``beam_search``'s polish in order, as (pass, round): pass
    0 under the chain's own weighting, pass p > 0 under its perturbation p."""
    return ([(0, r) for r in polish_rounds(variant)]
            + [(p, r) for p in range(1, PERTURBED_PASSES[variant] + 1)
               for r in PERTURBED_ROUNDS])


def polish_weighting(w: np.ndarray, seed: int, p: int) -> np.ndarray:
    """The weighting of a polish restart in pass ``p`` of a chain under ``w``."""
    return w if p == 0 else perturbed(w, PERTURB_SIGMA, [seed, p + 1])


def group_count(width: int, weightings: int) -> int:
    """How many strategy groups ``beam_search`` splits a beam of ``width`` into."""
    return min(weightings, MAX_GROUPS, max(1, width // GROUP_WIDTH))


def polish_width(width: int) -> int:
    """The width of ``beam_search``'s polish beam: ``POLISH_SHARE`` x ``width``."""
    return max(1, int(width * POLISH_SHARE))


def search_shape(variant: str, width: int, weightings: int | None = None) -> tuple[int, int]:
    """(strategy groups, lines polished) of ``beam_search`` at ``width`` with a portfolio of
    ``weightings`` (None: the default search). The default search of a variant with an
    adopted fitted table (France) runs a beam of the whole width under each of its
    ``weights.table_members`` from ``POLISHED_WIDTH`` on, and polishes each beam's line;
    narrower, one beam under the table. Otherwise the portfolio's groups share the width,
    and ``POLISH_LINES`` of their lines are polished from ``POLISHED_WIDTH`` on. A narrower
    search is not polished (it would cost several times as much)."""
    if whole_width_groups(variant, weightings):
        if width < POLISHED_WIDTH:
            return 1, 0
        members = len(table_members(variant))
        return members, min(members, POLISH_LINES)
    n = len(group_portfolio(variant)) if weightings is None else weightings
    groups = group_count(width, n)
    return groups, POLISH_LINES if groups > 1 else 0


def whole_width_groups(variant: str, weightings: int | None = None) -> bool:
    """Whether each group of ``beam_search`` (with a portfolio of ``weightings``, None: the
    default search) is a beam of the whole width: the fitted table's members are; the
    portfolio's strategy groups share it."""
    return weightings is None and fitted_default(variant) is not None


def beam_work(variant: str, width: int, weightings: int | None = None,
              from_round: int = 1) -> int:
    """The relative cost of ``beam_search`` at ``width`` from ``from_round`` with a portfolio
    of ``weightings`` (None: the default search): the width of each of its beams times the
    rounds it searches (a layer's cost grows about with its width). Its polish restarts
    make a polished search several times dearer than one that is not: Ireland's one-turn
    openings took about 7.8 s a job at width 100 and 50 s at width 200 (docs/research.md).
    A restart the polish skips (the same line again) is counted, so this is an upper bound
    on the shape, not a forecast."""
    def rounds(r: int) -> int:
        return max(0, 33 - max(r, from_round))

    groups, lines = search_shape(variant, width, weightings)
    beams = groups if whole_width_groups(variant, weightings) else 1
    return (beams * width * rounds(from_round)
            + lines * polish_width(width) * sum(rounds(r) for _, r in polish_plan(variant)))


def beam_search(variant: str = "ireland", width: int = 2000, seed: int = 0,
                time_limit: float | None = None, progress=None, keep: int = KEEP_PER_PARENT,
                weights: np.ndarray | None = None, stop=None,
                start: tuple[np.ndarray, list[int]] | None = None,
                portfolio: list | None = None) -> SearchResult:
    """Beam search of total width ``width``; returns the best complete line found.

    With the default evaluation the search has two stages:

    1. **Strategy groups.** The beam is split into at most ``MAX_GROUPS`` groups of at least
       ``GROUP_WIDTH`` states, each steered by its own weighting, chosen as in the timed
       search (``weights.group_weightings``: the leader, then the best-measured
       weightings for seed 0 or a seeded draw from them), from ``weights.group_portfolio``:
       in Ireland the leader also runs without the stock's shape, as group 1. The
       weightings favour different plans, and which plan wins is hard to tell early, so the
       groups keep many plans alive; six wider groups beat one group of 100 per weighting
       (docs/experiments.md, 2026-12-04).
    2. **Endgame polish.** From the ``POLISH_LINES`` best distinct lines of stage 1, a single
       beam of ``POLISH_SHARE`` x ``width`` restarts at each round of ``polish_rounds``
       (France first from round 16, ``DEEP_ROUNDS``; then ``POLISH_ROUNDS``). In
       the last rounds the score itself dominates the evaluation and a wide beam plays the
       ending far better than the narrow group that found the line. A restart that scores
       more replaces the line for the next restarts of its chain; a restart from a state
       already tried is skipped (it would find the same line). Each chain is polished under
       the weighting whose group found its line. The polish beam is as wide as the whole
       beam: at width 2000 that scored more than half as wide (France seeds 3-6 519.25
       against 509.25, Ireland 538 against 527), and more than spending the same children
       on a wider beam with the half-width polish (docs/experiments.md, 2026-12-06).
       Then ``PERTURBED_PASSES`` more passes over ``PERTURBED_ROUNDS`` (France), each under
       a seeded perturbation of the chain's weighting (``polish_weighting``), so that
       restarts from states already tried search new neighbourhoods of the line.

    ``weights`` gives one weighting to a single plain beam of the whole width instead. Without
    ``weights`` or ``portfolio``, a variant with an adopted fitted table by round
    (``weights.fitted_default``: France) runs one beam of the whole width under it, then
    polishes its line as above (from ``POLISHED_WIDTH`` on). One beam under France's
    fitted table outscored the groups and the polish at width 2000 on held-out seeds at a
    fraction of their time; its polish added 9.75 on seeds 3-6 (521.00 to 530.75), about
    what the same time buys as a wider beam (docs/experiments.md, 2026-12-06). From
    ``POLISHED_WIDTH`` on, a second beam of the whole width runs the table with a stock
    shape (``weights.table_members``), and its line is polished as a second chain under it:
    the two open on different plans (docs/experiments.md, 2026-12-07, twenty-second
    session).
    ``portfolio`` gives the groups' weightings in order (group i: entry i mod len; a polish
    chain: its group's) instead of the default, ``weights.group_named(variant)`` chosen by
    ``group_weightings``: vectors, or ``weights.Weighting``s. The result's ``weightings``
    names the entries its trace's ``weighting`` indexes (a bare vector by its index).
    ``stop`` (a callable) ends the search at the next layer once it returns true: the stage
    under way finishes its best state greedily and the stages after it are skipped.
    ``start`` (a packed or wide state and the line that reached it from the initial state)
    searches on from that position: every stage starts there or later, and the returned line
    begins with that prefix.
    """
    if width < 1:
        raise ValueError("beam width must be at least 1")
    if start is not None:
        start = wide_start(variant, start)
    if weights is not None:
        return run_beam(variant, width, seed, time_limit, progress, keep, weights, stop=stop,
                        start=start)
    members = table_named(variant) if portfolio is None else None
    ran = (members if members is not None else named(portfolio) if portfolio is not None
           else group_named(variant))
    pf = arrays(ran)
    groups, lines = search_shape(variant, width, None if portfolio is None else len(pf))
    whole = members is not None  # the table's members each run the whole width
    chosen = (list(range(groups)) if whole
              else group_weightings(variant, pf, seed, groups) if portfolio is None
              else [i % len(pf) for i in range(groups)])
    polish = polish_width(width) if lines else 0
    restarts = polish_plan(variant)
    stages = groups + lines * len(restarts)
    t0 = time.perf_counter()
    found: list[tuple[SearchResult, int]] = []  # each group's result and weighting
    trace: list[dict] = []
    nodes = layers = 0
    complete = True

    def limit(done: int) -> float | None:
        if time_limit is None:
            return None
        return max(0.0, (time_limit - (time.perf_counter() - t0)) / (stages - done))

    def stopped() -> bool:
        return stop is not None and stop()

    for i in range(groups):
        if found and stopped():
            complete = False
            break
        share = width if whole else width // groups + (1 if i < width % groups else 0)
        r = run_beam(variant, share, seed, limit(i), progress, keep,
                     pf[chosen[i]], start=start,
                     label=f"group {i + 1}/{groups}" if stages > 1 else "", stop=stop)
        nodes += r.nodes
        layers += r.layers
        complete = complete and r.complete
        found.append((r, chosen[i]))
        trace.append({"stage": "group", "weighting": chosen[i],
                      "width": share, "from_round": 1 if start is None else int(start[0][L.ROUND]),
                      "score": r.score[0],
                      "seconds": round(r.seconds, 1)})
    found.sort(key=lambda f: -f[0].score[0])
    best = found[0][0]
    if polish and not stopped():
        e = FastEngine(variant)
        done = groups
        chains = polish_chains(found, lines)
        tried = set()
        for chain in chains:
            # each restart polishes the best line of this chain so far
            for p, rnd in restarts:
                if stopped():
                    complete = False
                    break
                restart = polish_restart(e, chain.line, rnd, start)
                # the same restart under the same weighting again: deterministic, skip it
                key = (chain.weighting, p, tuple(restart[1]))
                if key in tried:
                    done += 1
                    continue
                tried.add(key)
                r = run_beam(variant, polish, seed, limit(done), progress, keep,
                             polish_weighting(pf[chain.weighting], seed, p), start=restart,
                             label=f"polish {done + 1 - groups}/{stages - groups}",
                             stop=stop, guide=chain.line)
                done += 1
                nodes += r.nodes
                layers += r.layers
                trace.append({"stage": "polish", "weighting": chain.weighting,
                              "width": polish, "from_round": rnd, "score": r.score[0],
                              "seconds": round(r.seconds, 1)}
                             | ({"perturbation": p} if p else {}))
                complete = complete and r.complete
                chain.take(r)
                if r.score[0] > best.score[0]:
                    best = r
    return SearchResult(variant, best.score, best.line, nodes, layers,
                        time.perf_counter() - t0, complete, trace, [w.name for w in ran])


@dataclass
class Chain:
    """One chain of polish restarts: the best line so far of a line the groups found, its
    score, and the weighting it is polished under (the one whose group found the line: the
    line's plan is the one that weighting values; docs/experiments.md, 2026-12-06)."""

    score: int
    line: list[int]
    weighting: int

    def take(self, r: SearchResult) -> None:
        """Keep ``r``'s line if it scores more: the chain's next restarts polish that line."""
        if r.score[0] > self.score:
            self.line, self.score = list(r.line), r.score[0]


def polish_chains(found: list[tuple[SearchResult, int]],
                  lines: int = POLISH_LINES) -> list[Chain]:
    """The endgame polish's chains: the ``lines`` best distinct lines of ``found``,
    (result, the weighting that found it) pairs sorted best first."""
    chains: list[Chain] = []
    for r, wi in found:
        if len(chains) < lines and all(r.line != c.line for c in chains):
            chains.append(Chain(r.score[0], list(r.line), wi))
    return chains


def polish_restart(e: FastEngine, line: list[int], rnd: int,
                   start: tuple[np.ndarray, list[int]] | None
                   ) -> tuple[np.ndarray, list[int]]:
    """Where a polish restart of ``line`` from round ``rnd`` begins: its state at that round,
    never before the position ``start`` the search began from."""
    restart = state_at_round(e, line, rnd)
    if start is not None and len(restart[1]) < len(start[1]):
        return start
    return restart

