"""What beam search and MCTS share: the result of a search and the hash of a wide state.

``state_hash`` is compiled (the beam's expansion deduplicates children with it inside Numba
code); MCTS uses it from Python as its transposition key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from solver.fast import layout as L

_P = np.uint64(1099511628211)


@njit(cache=True, _nrt=False)
def _fnv_lanes(W, lo, hi, h0, h1, h2, h3):
    """Fold the words lo.. of W into four FNV-style lanes, four words a round; return the
    lanes and the first word left over (fewer than four remain before ``hi``)."""
    i = lo
    while i + 4 <= hi:
        h0 = (h0 ^ np.uint64(W[i] & 0xFFFFFFFF)) * _P
        h1 = (h1 ^ np.uint64(W[i + 1] & 0xFFFFFFFF)) * _P
        h2 = (h2 ^ np.uint64(W[i + 2] & 0xFFFFFFFF)) * _P
        h3 = (h3 ^ np.uint64(W[i + 3] & 0xFFFFFFFF)) * _P
        i += 4
    return h0, h1, h2, h3, i


@njit(cache=True, _nrt=False)
def state_hash(W):
    """64-bit hash of a wide state (TERR is left out: it is derived from LAND).

    Four independent FNV-style lanes (words i, i+1, i+2, i+3), then a splitmix finaliser: the
    lanes let the multiplications overlap, which made hashing (a third of a late-game
    expansion's time with one serial lane) about three times faster.
    """
    h0, h1, h2, h3, i = _fnv_lanes(W, 0, L.TERR, np.uint64(1469598103934665603),
                                   np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9),
                                   np.uint64(0x94D049BB133111EB))
    while i < L.TERR:
        h0 = (h0 ^ np.uint64(W[i] & 0xFFFFFFFF)) * _P
        i += 1
    h0, h1, h2, h3, i = _fnv_lanes(W, L.STATUS, L.W_SIZE, h0, h1, h2, h3)
    while i < L.W_SIZE:
        h1 = (h1 ^ np.uint64(W[i] & 0xFFFFFFFF)) * _P
        i += 1
    h = h0
    for x in (h1, h2, h3):
        h = (h ^ (h >> np.uint64(31))) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= x
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@dataclass
class SearchResult:
    """The best line a search found."""

    variant: str
    score: tuple[int, int, int, int]  # total, goods, economic, dwelling
    line: list[int]  # canonical action ids from the initial state
    nodes: int  # children generated
    layers: int
    seconds: float
    complete: bool = True
    trace: list[dict] = field(default_factory=list)
