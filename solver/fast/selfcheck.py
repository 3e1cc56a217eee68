"""Differential test of the fast engine against the reference engine (``ora-solve selfcheck``).

Both engines play the same seeded random canonical game side by side; after every step the
sorted canonical legal actions, the packed states and the scores must be equal. On a mismatch
the report names the seed, the step, the action history and the first differing field.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from solver.rules import canonical as C

from . import codec
from . import layout as L
from .engine import FastEngine

# named ranges of the wide state, for mismatch reports
_RANGES = [
    ("goods", L.GOODS, L.N_GOODS), ("arm", L.ARM, 1), ("tokens", L.TOK, L.N_TOK),
    ("round", L.ROUND, 1), ("step", L.STEP, 1), ("phase", L.PHASE, 1), ("done", L.DONE, 1),
    ("bought", L.BOUGHT, 1), ("fee_raised", L.FEE_RAISED, 1), ("wonders", L.WONDERS, 1),
    ("districts", L.NDIST, 1), ("plots", L.NPLOT, 1), ("settlements", L.SETTL, 1),
    ("clergy", L.CLERGY, 6), ("neutral_built", L.NBUILT, L.N_NBUILT),
    ("chain", L.CHAIN, L.N_CHAIN), ("frame_depth", L.FDEPTH, 1),
    ("frames", L.FRAMES, L.FRAME_SIZE * L.MAX_FRAMES), ("land", L.LAND, 4),
    ("grid", L.GRID, L.N_CELLS), ("neutral_grid", L.NGRID, L.N_NCELLS),
    ("terrain", L.TERR, L.N_CELLS), ("status", L.STATUS, L.N_BUILDINGS),
]


@dataclass
class Mismatch:
    """Where the two engines first disagreed."""

    variant: str
    seed: int
    step: int
    history: list[int]
    what: str

    def __str__(self) -> str:
        hist = " ".join(str(a) for a in self.history)
        return (f"mismatch: variant {self.variant}, seed {self.seed}, step {self.step}: "
                f"{self.what}\n  canonical history: {hist}")


@dataclass
class Result:
    games: int = 0
    steps: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    branching: list[int] = field(default_factory=list)


def first_difference(ref_wide: np.ndarray, fast_wide: np.ndarray) -> str:
    """Name the first wide-state field where two states differ."""
    for name, off, n in _RANGES:
        a = ref_wide[off:off + n]
        b = fast_wide[off:off + n]
        if not np.array_equal(a, b):
            i = int(np.nonzero(a != b)[0][0])
            return (f"field {name}[{i}]: reference {int(a[i])}, fast {int(b[i])} "
                    f"(reference {list(map(int, a))}, fast {list(map(int, b))})")
    return "packed states differ outside the named fields"


def check_game(engine: FastEngine, seed: int, result: Result, max_steps: int = 100000
               ) -> Mismatch | None:
    """Play one random game in both engines; return the first mismatch or None."""
    variant = engine.variant
    rng = random.Random(seed)
    ref = C.canonical_initial_state(variant)
    W = engine.initial_wide()
    history: list[int] = []
    for stepno in range(max_steps + 1):
        problem = _compare(ref, W, engine)
        if problem:
            return Mismatch(variant, seed, stepno, history, problem)
        if ref.is_terminal():
            result.steps += stepno
            return None
        legal = C.canonical_legal_actions(ref)
        result.branching.append(len(legal))
        a = rng.choice(legal)
        history.append(a)
        try:
            C.apply_canonical(ref, a)
        except Exception as e:  # the reference refused its own legal action
            return Mismatch(variant, seed, stepno, history, f"reference raised {e!r}")
        try:
            engine.step_wide(W, a)
        except Exception as e:
            return Mismatch(variant, seed, stepno, history, f"fast engine raised {e!r}")
    return Mismatch(variant, seed, max_steps, history, "game did not end")


def _compare(ref, W, engine: FastEngine) -> str | None:
    ref_legal = C.canonical_legal_actions(ref)
    fast_legal = engine.legal_wide(W).tolist()
    if ref_legal != fast_legal:
        only_ref = sorted(set(ref_legal) - set(fast_legal))
        only_fast = sorted(set(fast_legal) - set(ref_legal))
        return ("legal actions differ: only in reference "
                f"{[C.describe_id(a) for a in only_ref[:8]]}, only in fast "
                f"{[C.describe_id(a) for a in only_fast[:8]]} (frame {ref.frame})")
    try:
        ref_wide = codec.to_wide(ref).astype(np.int64)
    except codec.CodecError as e:
        return f"reference state cannot be packed: {e}"
    P_ref = engine.packed(ref_wide)
    P_fast = engine.packed(W)
    if not np.array_equal(P_ref, P_fast):
        return first_difference(ref_wide, W)
    rs = ref.score()[0]
    fs = engine.score_wide(W)
    if (rs.total, rs.goods, rs.economic, rs.dwelling) != fs:
        return f"score differs: reference {rs}, fast {fs}"
    return None


def run(variant: str, games: int, seed: int, progress=None) -> Result:
    """Selfcheck ``games`` games (game i uses seed + i); stops at the first mismatch."""
    engine = FastEngine(variant)
    result = Result()
    for i in range(games):
        m = check_game(engine, seed + i, result)
        result.games += 1
        if progress is not None:
            progress(1)
        if m is not None:
            result.mismatches.append(m)
            break
    return result
