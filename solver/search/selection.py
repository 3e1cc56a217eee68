"""Which children a beam layer keeps: the one order of the beam search and its playouts.

A layer's children sit in slots ``p * keep + i`` (``i < counts[p]``) of the expansion's
arrays, parent ``p`` writing its own ``keep`` slots. :func:`select_distinct` keeps the best
``width`` of them: best evaluation first, ties by the smaller state hash, and a state reached
from two parents kept once (its copies have one hash and one evaluation, so they are adjacent
in that order: the first, from the lower slot, is kept). beam.layer (the beam search) and
rollout.beam_playout (MCTS's playouts) both choose with it, so a playout of width ``w`` keeps
what a beam of width ``w`` keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def select_distinct(evals, hashes, counts, keep, width, chosen):
    """The best ``width`` distinct children (slots of ``counts``' parents) into ``chosen``,
    best first; returns their number."""
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
    ranked = by_hash[np.argsort(-evals[by_hash], kind="mergesort")]
    n = 0
    for j in range(m):
        s = ranked[j]
        if j > 0 and hashes[s] == hashes[ranked[j - 1]]:
            continue
        if n == width:
            break
        chosen[n] = s
        n += 1
    return n


@njit(cache=True)
def select_capped(evals, hashes, counts, keep, width, plans, cap, chosen):
    """select_distinct with no plan in more than ``cap`` of the ``width`` places: children
    are taken best first while their plan (``plans``: a dense plan id per slot) has room,
    then the best of those passed over fill what is left, so the layer is as wide as
    select_distinct's. Returns their number."""
    m = 0
    for p in range(counts.shape[0]):
        m += counts[p]
    slots = np.empty(m, dtype=np.int64)
    m = 0
    for p in range(counts.shape[0]):
        for i in range(counts[p]):
            slots[m] = p * keep + i
            m += 1
    by_hash = slots[np.argsort(hashes[slots], kind="mergesort")]
    ranked = by_hash[np.argsort(-evals[by_hash], kind="mergesort")]
    per_plan = np.zeros(plans.max() + 1 if plans.shape[0] else 1, dtype=np.int64)
    passed = np.empty(m, dtype=np.int64)
    n = 0
    k = 0
    for j in range(m):
        s = ranked[j]
        if j > 0 and hashes[s] == hashes[ranked[j - 1]]:
            continue
        if n == width:
            break
        if per_plan[plans[s]] >= cap:
            passed[k] = s
            k += 1
            continue
        per_plan[plans[s]] += 1
        chosen[n] = s
        n += 1
    for j in range(k):
        if n == width:
            break
        chosen[n] = passed[j]
        n += 1
    return n
