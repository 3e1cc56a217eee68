"""Which children a beam layer keeps: the one order of the beam search and its playouts.

A layer's children sit in slots ``p * keep + i`` (``i < counts[p]``) of the expansion's
arrays, parent ``p`` writing its own ``keep`` slots. :func:`select_distinct` keeps the best
``width`` of them: best evaluation first, ties by the smaller state hash, and a state reached
from two parents kept once (its copies have one hash and one evaluation, so they are adjacent
in that order: the first, from the lower slot, is kept). run.layer (the beam search) and
playouts/beam_playouts.py (MCTS's playouts) both choose with it, so a playout of width ``w`` keeps
what a beam of width ``w`` keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.fast import ids as I
from solver.fast import layout as L


@njit(cache=True)
def _ranked(evals, hashes, counts, keep):
    """Every filled slot, best evaluation first, ties by the smaller hash (copies of one
    state adjacent, the lower slot first)."""
    m = 0
    for p in range(counts.shape[0]):
        m += counts[p]
    slots = np.empty(m, dtype=np.int64)
    m = 0
    for p in range(counts.shape[0]):
        for i in range(counts[p]):
            slots[m] = p * keep + i
            m += 1
    # two stable sorts: by hash, then by evaluation (descending) = lexsort((hash, -eval))
    by_hash = slots[np.argsort(hashes[slots], kind="mergesort")]
    return by_hash[np.argsort(-evals[by_hash], kind="mergesort")]


@njit(cache=True)
def select_distinct(evals, hashes, counts, keep, width, chosen):
    """The best ``width`` distinct children (slots of ``counts``' parents) into ``chosen``,
    best first; returns their number."""
    ranked = _ranked(evals, hashes, counts, keep)
    n = 0
    for j in range(ranked.shape[0]):
        s = ranked[j]
        if j > 0 and hashes[s] == hashes[ranked[j - 1]]:
            continue
        if n == width:
            break
        chosen[n] = s
        n += 1
    return n



@njit(cache=True)
def plan_keys(parents, paths, lens, counts, keep, words):
    """The plan of every child slot (``p * keep + i``): the sum of ``words[b]`` over the
    buildings b on its parent's spaces and those its path builds (a set's hash)."""
    keys = np.zeros(counts.shape[0] * keep, dtype=np.uint64)
    for p in range(counts.shape[0]):
        base = np.uint64(0)
        for y in range(L.N_CELLS):
            c = parents[p, L.GRID + y]
            if L.C_BUILDING <= c < L.C_SETTLEMENT:
                base += words[c - L.C_BUILDING]
        for i in range(counts[p]):
            s = p * keep + i
            k = base
            for d in range(lens[s]):
                a = paths[s, d]
                if I.BUILD0 <= a < I.SETTLE0:
                    k += words[(a - I.BUILD0) // L.N_CELLS]
            keys[s] = k
    return keys


@njit(cache=True)
def select_capped(evals, hashes, counts, keep, width, plans, cap, chosen):
    """select_distinct with no plan in more than ``cap`` of the ``width`` places: children
    are taken best first while their plan (``plans``: a key per slot) has room, then the
    best of those passed over fill what is left, so the layer is as wide as
    select_distinct's. Returns their number."""
    ranked = _ranked(evals, hashes, counts, keep)
    m = ranked.shape[0]
    # open addressing on the plans of the chosen (at most ``width`` of them)
    size = 1
    while size < 4 * width + 4:
        size *= 2
    table = np.zeros(size, dtype=np.uint64)
    taken = np.zeros(size, dtype=np.int64)
    used = np.zeros(size, dtype=np.bool_)
    passed = np.empty(m, dtype=np.int64)
    n = 0
    k = 0
    for j in range(m):
        s = ranked[j]
        if j > 0 and hashes[s] == hashes[ranked[j - 1]]:
            continue
        if n == width:
            break
        key = plans[s]
        h = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
        x = np.int64(h) & (size - 1)
        while used[x] and table[x] != key:
            x = (x + 1) & (size - 1)
        if not used[x]:
            used[x] = True
            table[x] = key
        if taken[x] >= cap:
            passed[k] = s
            k += 1
            continue
        taken[x] += 1
        chosen[n] = s
        n += 1
    for j in range(k):
        if n == width:
            break
        chosen[n] = passed[j]
        n += 1
    return n
