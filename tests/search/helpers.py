"""Helpers shared by the search tests."""

from __future__ import annotations

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search import records


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


def assert_replays(variant: str, result, algorithm: str = "beam", seed: int = 0) -> None:
    """``result``'s line, written as a record, replays on the reference engine to the
    score the search claimed for it."""
    rec = records.make_record(command="test", variant=variant, algorithm=algorithm,
                              params={}, seed=seed, nodes=result.nodes,
                              seconds=result.seconds, score=tuple(result.score),
                              line=result.line)
    ok, message, score = records.verify_record(rec)
    assert ok, message
    assert score["total"] == result.score[0]
