"""FastEngine: the one Python entry point of the fast solo engine.

``FastEngine(variant)`` holds the variant's ``Tables`` and the scratch buffers the kernels
write into, validates what Python hands it, and exposes the packed-state API used by search
and the CLI: ``initial()``, ``legal(P)``, ``step(P, a)``, ``score(P)``, ``is_terminal(P)``,
``rollout(P, seed)``. The ``*_wide`` methods work on a wide working array (layout.py) in
place, for callers that step many times. The kernels themselves (kernels/) take plain arrays;
compiled search code may call them directly with ``engine.T`` (``engine.tables.array``).
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from .ids import MAX_LEGAL
from .kernels import api as K
from .tables import Tables, build_tables

VARIANTS = ("ireland", "france")


def seed_rng(seed: int) -> np.ndarray:
    """The kernels' xorshift RNG state for a seed (a 1-word uint64 array, never 0)."""
    return np.array([(seed * 0x9E3779B97F4A7C15 + 1) % (1 << 64) | 1], dtype=np.uint64)


def _check_wide(W: np.ndarray) -> np.ndarray:
    if not isinstance(W, np.ndarray) or W.dtype != np.int64 or W.shape != (L.W_SIZE,):
        got = (W.dtype, W.shape) if isinstance(W, np.ndarray) else type(W).__name__
        raise ValueError(f"a wide state is an int64 array of shape ({L.W_SIZE},), got {got}")
    return W


class FastEngine:
    """The fast solo engine of one variant (rulebook profile)."""

    def __init__(self, variant: str = "ireland"):
        if variant not in VARIANTS:
            raise ValueError(f"variant must be 'ireland' or 'france', not {variant!r}")
        self.variant = variant
        self.tables: Tables = build_tables(variant)
        self.T = self.tables.array  # the one table argument of every kernel
        self.buf = np.zeros(MAX_LEGAL, dtype=np.int64)
        self.scratch = np.zeros(MAX_LEGAL, dtype=np.int64)
        self._score = np.zeros(4, dtype=np.int64)

    # ----- wide <-> packed ------------------------------------------------------------------
    def wide(self, P: np.ndarray) -> np.ndarray:
        """Unpack a packed state into a fresh wide working array."""
        P = np.asarray(P, dtype=np.uint64)
        if P.shape != (L.PACKED_WORDS,):
            raise ValueError(f"a packed state has {L.PACKED_WORDS} uint64 words, got {P.shape}")
        W = np.zeros(L.W_SIZE, dtype=np.int64)
        K.unpack(self.T, P, W)
        return W

    def packed(self, W: np.ndarray) -> np.ndarray:
        """Pack a wide state into a fresh array of PACKED_WORDS uint64 words."""
        out = np.zeros(L.PACKED_WORDS, dtype=np.uint64)
        K.pack(self.T, _check_wide(W), out)
        return out

    # ----- API ------------------------------------------------------------------------------
    def initial_wide(self) -> np.ndarray:
        """A fresh wide initial state (at its first decision)."""
        W = np.zeros(L.W_SIZE, dtype=np.int64)
        K.init(self.T, W, self.scratch)
        return W

    def initial(self) -> np.ndarray:
        """Packed initial state (at its first decision)."""
        return self.packed(self.initial_wide())

    def legal_wide(self, W: np.ndarray) -> np.ndarray:
        """Sorted canonical legal actions of a wide state (a fresh array)."""
        n = K.legal(self.T, _check_wide(W), self.buf)
        return self.buf[:n].copy()

    def legal(self, P: np.ndarray) -> np.ndarray:
        """Sorted canonical legal actions."""
        return self.legal_wide(self.wide(P))

    def step_wide(self, W: np.ndarray, a: int) -> None:
        """Apply canonical action ``a`` to a wide state in place (the caller knows it is legal)."""
        K.step(self.T, _check_wide(W), int(a), self.scratch)

    def step(self, P: np.ndarray, a: int) -> np.ndarray:
        """Packed state after canonical action ``a`` (ValueError if it is not legal)."""
        W = self.wide(P)
        if int(a) not in set(self.legal_wide(W).tolist()):
            raise ValueError(f"canonical action {a} is not legal in this state")
        self.step_wide(W, a)
        return self.packed(W)

    def score_wide(self, W: np.ndarray) -> tuple[int, int, int, int]:
        """(total, goods, economic, dwelling) of a wide state."""
        K.score(self.T, _check_wide(W), self._score)
        return tuple(int(v) for v in self._score)

    def score(self, P: np.ndarray) -> tuple[int, int, int, int]:
        """(total, goods, economic, dwelling)."""
        return self.score_wide(self.wide(P))

    def is_terminal(self, P: np.ndarray) -> bool:
        """True once the game is over."""
        return bool(self.wide(P)[L.DONE])

    def rollout_wide(self, W: np.ndarray, seed: int) -> tuple[int, int]:
        """Seeded uniformly random playout of a wide state in place: (final total, steps)."""
        return K.rollout(self.T, _check_wide(W), seed_rng(seed), self.buf, self.scratch)

    def rollout(self, P: np.ndarray, seed: int) -> tuple[int, int]:
        """Seeded uniformly random playout from P: (final total, steps)."""
        return self.rollout_wide(self.wide(P), seed)

    def rollout_record_wide(self, W: np.ndarray, seed: int, actions: np.ndarray,
                            branching: np.ndarray) -> int:
        """rollout_wide that records each action and the number of legal actions; the steps."""
        for name, a in (("actions", actions), ("branching", branching)):
            if not isinstance(a, np.ndarray) or a.dtype != np.int64 or a.ndim != 1:
                raise ValueError(f"{name} must be a 1-d int64 array")
        if actions.shape != branching.shape:
            raise ValueError("actions and branching must have the same length")
        return K.rollout_record(self.T, _check_wide(W), seed_rng(seed), self.buf,
                                self.scratch, actions, branching)
