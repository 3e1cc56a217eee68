"""Every call this package makes into the beam search's internals, in one place.

The beam's turn expansion (``expand``, over the engine's one table argument ``T``), the
shared state hash (solver/search/common.py) and the layer helpers (solver/search/beam/) are
internals of the search; when they change, only this module changes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search import beam as B
from solver.search.beam import expansion as X
from solver.search import common as C
from solver.search.evaluation.features import PORTFOLIO
from solver.search.evaluation.weights import portfolio_with

ALL_CHILDREN = 20000  # room for every child of one turn (the most seen is a few thousand)


@lru_cache(maxsize=2)
def engine(variant: str) -> FastEngine:
    """The fast engine of a variant (cached per process)."""
    return FastEngine(variant)


def next_turns(variant: str, W: np.ndarray) -> list[tuple[list[int], np.ndarray, int]]:
    """Every distinct child of W in the beam's expansion unit (one turn, settlement turn or
    neutral build, under the beam's search policy), duplicates merged by state hash:
    (actions, wide child state, hash), sorted by actions."""
    e = engine(variant)
    if W[L.DONE]:
        return []
    keep = ALL_CHILDREN
    paths = np.zeros((keep, X.MAXD), dtype=np.int64)
    lens = np.zeros(keep, dtype=np.int64)
    evals = np.full(keep, -1e18)
    hashes = np.zeros(keep, dtype=np.uint64)
    w = np.asarray(PORTFOLIO[0], dtype=np.float64)
    n = X.expand(e.T, np.asarray(W, dtype=np.int64), w, keep, paths, lens, evals, hashes, 0.0,
                 np.uint64(0))
    if n >= keep:
        raise RuntimeError(f"a turn has more than {keep} distinct children")
    out = []
    for i in range(n):
        path = paths[i, : lens[i]].tolist()
        child = np.array(W, dtype=np.int64)
        for a in path:
            e.step_wide(child, a)
        out.append((path, child, int(hashes[i])))
    out.sort(key=lambda t: t[0])
    return out


def state_hash(W: np.ndarray) -> int:
    """The beam's 64-bit hash of a wide state (the key duplicates are merged by)."""
    return int(C.state_hash(np.asarray(W, dtype=np.int64)))


# the interchangeable clergy slots: the player's two lay brothers, the neutral's two
_LAY_PAIRS = ((L.CLERGY, L.CLERGY + 1), (L.CLERGY + 3, L.CLERGY + 4))


def position_key(W: np.ndarray) -> int:
    """The hash of a wide state up to the order of its lay brothers.

    The two lay brothers of a player are interchangeable, but the wide state keeps them in
    slots: two openings that place them on the same spaces in the other order reach states
    that differ only in slot order (and play on identically). Sorting each pair first merges
    such transpositions (bug: an openings sweep listed ``USE LR1; USE LR2 ShJo`` and
    ``USE LR2 ShJo; USE LR1`` as two candidates with the same scores on every seed)."""
    W = np.array(W, dtype=np.int64)
    for a, b in _LAY_PAIRS:
        if W[a] > W[b]:
            W[a], W[b] = W[b], W[a]
    return state_hash(W)


def state_at_round(variant: str, line: list[int], rnd: int) -> tuple[np.ndarray, list[int]]:
    """The wide state and prefix of ``line`` at its first beam layer of round ``rnd`` or later
    (the whole line if it never gets there)."""
    return B.state_at_round(engine(variant), list(line), rnd)


def turn_of(variant: str, W: np.ndarray, line: list[int]) -> list[int]:
    """The leading actions of ``line`` that make up one turn (beam layer) from W."""
    e = engine(variant)
    W = np.array(W, dtype=np.int64)
    step0 = W[L.STEP]
    for k, a in enumerate(line):
        e.step_wide(W, a)
        if W[L.STEP] != step0 or W[L.DONE]:
            return list(line[: k + 1])
    return list(line)


def search(variant: str, width: int, seed: int, time_limit: float | None,
           start: tuple[np.ndarray, list[int]] | None, progress=None, weights=None):
    """``beam_search`` from ``start`` (a state and its prefix line), or the initial state;
    ``weights`` (a vector) leads the portfolio (weights.portfolio_with)."""
    portfolio = None if weights is None else portfolio_with(weights)
    return B.beam_search(variant, width, seed, time_limit, progress, start=start,
                         portfolio=portfolio)


def warm(variant: str) -> None:
    """Load (or compile) every kernel the beam uses in this process."""
    B.warm_up(variant, 0)


def wide_round(W: np.ndarray) -> int:
    """The round a wide state is in."""
    return int(W[L.ROUND])
