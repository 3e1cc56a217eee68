"""Helpers shared by the search tests."""

from __future__ import annotations

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine


def playout_states(variant, games=6, every=7):
    """States along seeded random playouts (every few steps)."""
    e = FastEngine(variant)
    rng = np.random.default_rng(1)
    out = []
    for _ in range(games):
        W = e.initial_wide()
        k = 0
        while W[L.DONE] == 0:
            acts = e.legal_wide(W)
            e.step_wide(W, int(acts[rng.integers(len(acts))]))
            k += 1
            if k % every == 0:
                out.append(W.copy())
        out.append(W.copy())
    return e, out
