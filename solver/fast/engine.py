"""Public wrappers of the fast solo engine: validated entry points over the kernels.

``FastEngine(variant)`` holds the variant's tables and scratch buffers and exposes the packed
state API used by search and the CLI: ``initial()``, ``legal(P)``, ``step(P, a)``,
``score(P)``, ``is_terminal(P)``, ``rollout(P, seed)``. Kernels themselves live in kernels.py
and take plain arrays.
"""

from __future__ import annotations

import numpy as np

from . import kernels as K
from . import layout as L
from .tables import build_tables


def seed_rng(seed: int) -> np.ndarray:
    """The kernels' xorshift RNG state for a seed (a 1-word uint64 array, never 0)."""
    return np.array([(seed * 0x9E3779B97F4A7C15 + 1) % (1 << 64) | 1], dtype=np.uint64)


class FastEngine:
    """The fast solo engine of one variant (rulebook profile)."""

    def __init__(self, variant: str = "ireland"):
        if variant not in ("ireland", "france"):
            raise ValueError(f"variant must be 'ireland' or 'france', not {variant!r}")
        self.variant = variant
        self.tables = build_tables(variant)
        t = self.tables
        self.TB, self.TS, self.TG, self.TO = t.buildings, t.settlements, t.goods, t.orders
        self.TW, self.TL, self.TF, self.TM = t.wheel, t.land, t.script, t.misc
        self.buf = np.zeros(K.MAX_LEGAL, dtype=np.int64)
        self.scratch = np.zeros(K.MAX_LEGAL, dtype=np.int64)

    # ----- wide <-> packed ------------------------------------------------------------------
    def wide(self, P: np.ndarray) -> np.ndarray:
        """Unpack a packed state into a fresh wide working array."""
        P = np.asarray(P, dtype=np.uint64)
        if P.shape != (L.PACKED_WORDS,):
            raise ValueError(f"a packed state has {L.PACKED_WORDS} uint64 words, got {P.shape}")
        W = np.zeros(L.W_SIZE, dtype=np.int64)
        K.unpack(P, L.FIELDS, self.TL, W)
        return W

    def packed(self, W: np.ndarray) -> np.ndarray:
        out = np.zeros(L.PACKED_WORDS, dtype=np.uint64)
        K.pack(W, L.FIELDS, out)
        return out

    # ----- API ------------------------------------------------------------------------------
    def initial_wide(self) -> np.ndarray:
        W = np.zeros(L.W_SIZE, dtype=np.int64)
        K.init(W, self.TB, self.TS, self.TG, self.TO, self.TW, self.TL, self.TF, self.TM,
               self.scratch)
        return W

    def initial(self) -> np.ndarray:
        """Packed initial state (at its first decision)."""
        return self.packed(self.initial_wide())

    def legal_wide(self, W: np.ndarray) -> np.ndarray:
        n = K.legal(W, self.TB, self.TS, self.TG, self.TL, self.TM, self.buf)
        return self.buf[:n].copy()

    def legal(self, P: np.ndarray) -> np.ndarray:
        """Sorted canonical legal actions."""
        return self.legal_wide(self.wide(P))

    def step_wide(self, W: np.ndarray, a: int) -> None:
        K.step(W, self.TB, self.TS, self.TG, self.TO, self.TW, self.TL, self.TF, self.TM,
               int(a), self.scratch)

    def step(self, P: np.ndarray, a: int) -> np.ndarray:
        """Packed state after canonical action ``a`` (ValueError if it is not legal)."""
        W = self.wide(P)
        if int(a) not in set(self.legal_wide(W).tolist()):
            raise ValueError(f"canonical action {a} is not legal in this state")
        self.step_wide(W, a)
        return self.packed(W)

    def score_wide(self, W: np.ndarray) -> tuple[int, int, int, int]:
        out = np.zeros(4, dtype=np.int64)
        K.score(W, self.TB, self.TS, out)
        return tuple(int(v) for v in out)

    def score(self, P: np.ndarray) -> tuple[int, int, int, int]:
        """(total, goods, economic, dwelling)."""
        return self.score_wide(self.wide(P))

    def is_terminal(self, P: np.ndarray) -> bool:
        return bool(self.wide(P)[L.DONE])

    def rollout_wide(self, W: np.ndarray, seed: int) -> tuple[int, int]:
        rng = seed_rng(seed)
        return K.rollout(W, self.TB, self.TS, self.TG, self.TO, self.TW, self.TL, self.TF,
                         self.TM, rng, self.buf, self.scratch)

    def rollout(self, P: np.ndarray, seed: int) -> tuple[int, int]:
        """Seeded uniformly random playout from P: (final total, steps)."""
        return self.rollout_wide(self.wide(P), seed)
