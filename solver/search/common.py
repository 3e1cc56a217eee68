"""What the searches share: the result of a search, the hash of a wide state, RNG seeds and
the longest line.

``state_hash`` is compiled (the beam's expansion deduplicates children with it inside Numba
code); MCTS uses it from Python as its transposition key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from solver.fast import layout as L

MAX_LINE = 2000  # canonical actions in one game (about 270 are played)


def splitmix_words(x: int, n: int) -> np.ndarray:
    """n odd uint64 words of the splitmix64 stream whose state starts at ``x``."""
    out = np.empty(n, dtype=np.uint64)
    mask = (1 << 64) - 1
    for i in range(n):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out[i] = (z ^ (z >> 31)) | 1
    return out


def seed_words(seed: int, n: int, salt: int = 0) -> np.ndarray:
    """n distinct nonzero uint64 RNG seeds derived from (seed, salt) (splitmix64)."""
    return splitmix_words((seed * 0x9E3779B97F4A7C15 + salt * 0xD1B54A32D192ED03) % (1 << 64), n)


# one odd multiplier per word of the wide state (TERR's are never read), the same on every
# machine and in every run
_M = splitmix_words(0x0123456789ABCDEF, L.W_SIZE)


@njit(cache=True, _nrt=False)
def state_hash(W):
    """64-bit hash of a wide state (TERR is left out: it is derived from LAND).

    A sum of products, word i (its low 32 bits) times an odd multiplier of its own, then a
    splitmix finaliser. The words are independent, so the loop vectorises: a hash takes about
    half the time of the four serial FNV lanes before it (docs/experiments.md). A change of
    one word always changes the hash: its term changes by d * m with m odd and
    0 < |d| < 2^32, never 0 modulo 2^64, and the finaliser is a bijection.
    """
    h = np.uint64(0)
    for i in range(L.TERR):
        h += np.uint64(W[i] & 0xFFFFFFFF) * _M[i]
    for i in range(L.STATUS, L.W_SIZE):
        h += np.uint64(W[i] & 0xFFFFFFFF) * _M[i]
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
    # the names of the portfolio whose entries the trace's ``weighting`` indexes (beam
    # searches with a portfolio; None for the others)
    weightings: list[str] | None = None
