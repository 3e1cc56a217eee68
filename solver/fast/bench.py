"""``ora-solve bench``: speed of the fast engine against the reference engine, in one run.

Fast: seeded random canonical playouts with the kernels warm, on one core. Reference: the first
few of the same playouts (same action lists) replayed through the reference engine's
canonical layer, legal-move generation included. Prints playouts/s and steps/s of both, their
ratio, the packed state size and the branching statistics of the fast playouts. The numbers
other than timings are deterministic for given arguments.
"""

from __future__ import annotations

import time

import numpy as np

from solver.rules import canonical as C

from . import layout as L
from .engine import FastEngine


def run(variant: str = "ireland", games: int = 20000, reference_games: int = 10, seed: int = 0
        ) -> dict:
    """Measure and return the bench figures as a dict."""
    e = FastEngine(variant)
    actions = np.zeros(4096, dtype=np.int64)
    branching = np.zeros(4096, dtype=np.int64)
    # warm the kernels (compile or load from cache) outside the timing
    W = e.initial_wide()
    e.rollout_record_wide(W, seed, actions, branching)
    e.rollout_wide(e.initial_wide(), seed)
    # branching statistics and the action lists the reference will replay
    lines = []
    branch_all = []
    for g in range(max(reference_games, 200)):
        W = e.initial_wide()
        n = e.rollout_record_wide(W, seed + g, actions, branching)
        branch_all.append(branching[:n].copy())
        if g < reference_games:
            lines.append(actions[:n].copy())
    branch = np.concatenate(branch_all)
    # fast playouts, timed
    start = e.initial_wide()
    steps = 0
    scores = 0
    t0 = time.perf_counter()
    for g in range(games):
        W = start.copy()
        sc, st = e.rollout_wide(W, seed + g)
        steps += st
        scores += sc
    fast_s = time.perf_counter() - t0
    # reference: the same playouts
    t0 = time.perf_counter()
    ref_steps = 0
    for line in lines:
        st = C.canonical_initial_state(variant)
        for a in line:
            legal = C.canonical_legal_actions(st)
            assert int(a) in legal
            C.apply_canonical(st, int(a))
            ref_steps += 1
    ref_s = time.perf_counter() - t0
    fast_pps = games / fast_s
    ref_pps = len(lines) / ref_s
    return {
        "variant": variant,
        "games": games,
        "reference_games": len(lines),
        "fast_playouts_per_s": round(fast_pps, 1),
        "fast_steps_per_s": round(steps / fast_s, 1),
        "reference_playouts_per_s": round(ref_pps, 3),
        "reference_steps_per_s": round(ref_steps / ref_s, 1),
        "ratio": round(fast_pps / ref_pps, 1),
        "state_bytes": L.PACKED_WORDS * 8,
        "mean_random_score": round(scores / games, 2),
        "steps_per_game": round(steps / games, 2),
        "branching_mean": round(float(branch.mean()), 2),
        "branching_p99": int(np.percentile(branch, 99)),
        "branching_max": int(branch.max()),
    }
