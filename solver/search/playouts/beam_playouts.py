"""Narrow beam playouts for MCTS: a playout is a small beam of the beam search's turns.

A **beam playout** of width ``k`` from a state plays the game to its end the way beam/run.py's
``run_beam`` does, but compiled as one kernel and narrow: each layer expands every live state
with the beam's turn expansion (``expansion.expand_into``: its search policy, its deduplication
inside a turn), keeps the best ``k`` distinct children of the layer (the beam's own choice,
selection.select_distinct: best evaluation first, ties by state hash, a child reached from
two parents kept once) and stops when every state is finished. The playout's result is its
best finished line: its score and its actions. Width 1 is the greedy playout (the best child
each turn).

Each playout gets one evaluation weighting (MCTS draws it from the portfolio per
simulation) and a salt that perturbs the evaluation by less than ``noise`` (seeded
tie-breaking, so two playouts of one state under one weighting can differ).

:func:`beam_playouts` runs a batch of playouts in parallel, one per thread at a time; each
playout depends on its own arguments only, so the batch's results do not depend on the
number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.kernels.api import score, step

from ..beam.expansion import MAXD, expand_into, scratch_arrays
from ..beam.selection import select_distinct

MAX_LAYERS = 160  # turns in one game (about 80 are played)
MAX_WIDTH = 128  # widest playout beam (the last turns' playouts)


@njit(cache=True)
def beam_playout(T, W, weights, width, noise, salt, line):
    """A beam playout of ``width`` from W (not changed); its best line goes to ``line``.
    Returns (final score, length of the line, number of children generated)."""
    keep = width
    beam = np.empty((width, L.W_SIZE), dtype=np.int64)
    nxt = np.empty((width, L.W_SIZE), dtype=np.int64)
    beam[0] = W
    nb = 1
    par = np.zeros((MAX_LAYERS, width), dtype=np.int64)
    plen = np.zeros((MAX_LAYERS, width), dtype=np.int64)
    pth = np.zeros((MAX_LAYERS, width, MAXD), dtype=np.int64)
    paths = np.zeros((width * keep, MAXD), dtype=np.int64)
    lens = np.zeros(width * keep, dtype=np.int64)
    evals = np.full(width * keep, -1e18)
    hashes = np.zeros(width * keep, dtype=np.uint64)
    counts = np.zeros(width, dtype=np.int64)
    chosen = np.zeros(width, dtype=np.int64)
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    ws = scratch_arrays()
    best, best_layer, best_j = -1, -1, 0
    if W[L.DONE] != 0:
        score(T, W, sc)
        return sc[0], 0, 0
    generated = 0
    layer = 0
    live = 1
    while live > 0:
        if layer == MAX_LAYERS:
            raise ValueError("a playout ran past MAX_LAYERS turns")
        for p in range(nb):
            counts[p] = 0
            if beam[p, L.DONE] == 0:
                lo = p * keep
                counts[p] = expand_into(T, beam[p], weights, keep, paths[lo:lo + keep],
                                        lens[lo:lo + keep], evals[lo:lo + keep],
                                        hashes[lo:lo + keep], noise, salt, ws, None)
                generated += counts[p]
        n = select_distinct(evals, hashes, counts[:nb], keep, width, chosen)
        live = 0
        for j in range(n):
            s = chosen[j]
            nxt[j] = beam[s // keep]
            par[layer, j] = s // keep
            plen[layer, j] = lens[s]
            for i in range(lens[s]):
                pth[layer, j, i] = paths[s, i]
                step(T, nxt[j], paths[s, i], scratch)
            if nxt[j, L.DONE] != 0:
                score(T, nxt[j], sc)
                if sc[0] > best:
                    best, best_layer, best_j = sc[0], layer, j
            else:
                live += 1
        beam, nxt = nxt, beam
        nb = n
        layer += 1
    # the best line, walked back through the parents
    m = 0
    j = best_j
    for d in range(best_layer, -1, -1):
        m += plen[d, j]
        j = par[d, j]
    k = m
    j = best_j
    for d in range(best_layer, -1, -1):
        k -= plen[d, j]
        for i in range(plen[d, j]):
            line[k + i] = pth[d, j, i]
        j = par[d, j]
    return best, m, generated


@njit(cache=True, parallel=True)
def beam_playouts(T, starts, weights, wsel, width, noise, salts, lines, lens, scores, gen):
    """beam_playout() of every row of ``starts``, in parallel: row b under weighting
    ``weights[wsel[b]]`` with salt ``salts[b]``; writes its line, the line's length, its
    score and the children it generated."""
    for b in prange(starts.shape[0]):
        scores[b], lens[b], gen[b] = beam_playout(T, starts[b], weights[wsel[b]], width,
                                                  noise, salts[b], lines[b])
