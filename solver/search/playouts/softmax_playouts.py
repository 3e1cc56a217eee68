"""NRPA's moves: whole turns of the beam's turn expansion, their move codes, and compiled
softmax playouts over them.

A **turn** here is one beam layer: the decisions of one state until the game's flow moves on
(beam/expansion.py's ``expand``, with its search policy and its deduplication of children by state
hash). The children of a state are its moves; each comes with its action path and the
evaluation (evaluation/features.py) of the state it reaches.

**Move codes** (NRPA's policy keys, :func:`move_code`): a move is identified by its context,
the flow step it starts in (``W[STEP]``, which fixes the round, the phase and whose turn it
is in the round's flow), and by what it does, its action path (canonical action ids). The
code is a 64-bit FNV-style hash of (step, path). Two different positions at the same flow
step that take the same actions share a code, so what NRPA learns about a move carries over
to the neighbouring positions that other lines reach; the full state is not part of the code
(a code per state would never generalise beyond the one line that reached it).

Playouts (:func:`playout`) pick a child at each turn from the softmax of the evaluations at
temperature ``tau`` (0: the best child, ties to the first generated), and :func:`playouts`
runs a batch of them in parallel, one seeded RNG each, so a batch's results do not depend on
the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.kernels.api import score, step, xorshift

from ..beam.expansion import MAXD, expand

_P = np.uint64(1099511628211)


@njit(cache=True)
def move_code(stp, path, n):
    """64-bit code of the move ``path[:n]`` played at flow step ``stp`` (module docstring)."""
    h = (np.uint64(1469598103934665603) ^ np.uint64(stp)) * _P
    for i in range(n):
        h = (h ^ np.uint64(path[i] + 1)) * _P
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(32))


@njit(cache=True)
def move_codes(stp, paths, lens):
    """move_code of each row of ``paths`` (``lens`` actions each), all at flow step stp."""
    out = np.empty(paths.shape[0], dtype=np.uint64)
    for i in range(paths.shape[0]):
        out[i] = move_code(stp, paths[i], lens[i])
    return out


@njit(cache=True)
def rand01(rng):
    """A uniform float in [0, 1) from the kernels' xorshift state."""
    return float(xorshift(rng) >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def softmax_pick(vals, n, tau, rng):
    """Index of a child drawn with probability proportional to exp(vals / tau) (tau 0: the
    first best)."""
    best = 0
    for i in range(1, n):
        if vals[i] > vals[best]:
            best = i
    if tau <= 0.0 or n == 1:
        return best
    tot = 0.0
    for i in range(n):
        tot += np.exp((vals[i] - vals[best]) / tau)
    r = rand01(rng) * tot
    for i in range(n):
        r -= np.exp((vals[i] - vals[best]) / tau)
        if r <= 0.0:
            return i
    return best


@njit(cache=True)
def playout(T, W, weights, keep, tau, rng, line, start):
    """Play W to the end in place, a softmax(tau) child of ``expand`` each turn; the actions
    go to line[start:]. Returns the line's length (the final score is ``score(T, W)``)."""
    paths = np.zeros((keep, MAXD), dtype=np.int64)
    lens = np.zeros(keep, dtype=np.int64)
    evals = np.empty(keep, dtype=np.float64)
    hashes = np.zeros(keep, dtype=np.uint64)
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    k = start
    while W[L.DONE] == 0:
        n = expand(T, W, weights, keep, paths, lens, evals, hashes, 0.0, np.uint64(0))
        c = softmax_pick(evals, n, tau, rng)
        for i in range(lens[c]):
            a = paths[c, i]
            step(T, W, a, scratch)
            line[k] = a
            k += 1
    return k


@njit(cache=True, parallel=True)
def playouts(T, starts, weights, wsel, keep, tau, seeds, lines, lens, scores):
    """playout() of every row of ``starts`` (in place), in parallel: row b uses weighting
    ``weights[wsel[b]]`` and RNG seed ``seeds[b]``; writes its actions, their number and the
    final score."""
    for b in prange(starts.shape[0]):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = seeds[b] | np.uint64(1)
        lens[b] = playout(T, starts[b], weights[wsel[b]], keep, tau, rng, lines[b], 0)
        sc = np.zeros(4, dtype=np.int64)
        score(T, starts[b], sc)
        scores[b] = sc[0]
