"""Shared fixtures: the fast engine's kernels, compiled (or loaded from the cache) once per
test session."""

from __future__ import annotations

import pytest

from solver.fast.engine import VARIANTS, FastEngine


@pytest.fixture(scope="session")
def engines() -> dict[str, FastEngine]:
    """One warm FastEngine per variant: every public kernel has run once."""
    out = {}
    for v in VARIANTS:
        e = FastEngine(v)
        P = e.initial()
        e.step(P, int(e.legal(P)[0]))
        e.score(P)
        e.rollout(P, 1)
        out[v] = e
    return out
