"""Which children a beam layer keeps (solver/search/beam/selection.py): the shared selection
against a ranking written out in numpy, and the plan cap (beam/run.py's PLAN_CAP): no plan
fills more than its share of a layer."""

import json
from pathlib import Path

import numpy as np
import pytest

from solver.fast import ids as I
from solver.fast.engine import FastEngine
from solver.search.beam import run as B
from solver.search.beam.expansion import MAXD
from solver.search.beam.selection import plan_keys, select_capped, select_distinct

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _layer_choice(evals, hashes, counts, keep, width):
    """The selection written out in numpy (as beam.layer had it): rank by evaluation then
    hash, drop repeated hashes, cut."""
    slots = np.flatnonzero(np.arange(keep)[None, :] < counts[:, None])
    ranked = slots[np.lexsort((hashes[slots], -evals[slots]))]
    h = hashes[ranked]
    first = np.ones(len(ranked), dtype=bool)
    first[1:] = h[1:] != h[:-1]
    return ranked[first][:width].tolist()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("parents, keep, width, pool", [(5, 6, 4, 12), (40, 64, 300, 900)])
def test_the_shared_selection_keeps_what_the_numpy_ranking_keeps(seed, parents, keep, width,
                                                                  pool):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, keep + 1, parents)
    # few distinct states, so ties and one state reached from two parents are common
    pool_h = rng.choice(2 ** 40, pool, replace=False).astype(np.uint64)
    pool_e = rng.integers(0, 4, pool).astype(np.float64)
    evals = np.full(parents * keep, -1e18)
    hashes = np.zeros(parents * keep, dtype=np.uint64)
    for p in range(parents):
        pick = rng.choice(pool, counts[p], replace=False)  # distinct within a parent
        evals[p * keep:p * keep + counts[p]] = pool_e[pick]
        hashes[p * keep:p * keep + counts[p]] = pool_h[pick]
    chosen = np.zeros(width, dtype=np.int64)
    n = select_distinct(evals, hashes, counts, keep, width, chosen)
    want = _layer_choice(evals, hashes, counts, keep, width)
    # a state from two parents: either copy is the same child (same hash and evaluation)
    assert [(evals[s], hashes[s]) for s in chosen[:n]] == [(evals[s], hashes[s]) for s in want]



def _slots(evals, plans, keep=4):
    """Two parents' slots: evals and plans given for the first len(evals) slots."""
    n = len(evals)
    counts = np.array([min(keep, n), max(0, n - keep)], dtype=np.int64)
    e = np.full(2 * keep, -1e18)
    p = np.zeros(2 * keep, dtype=np.uint64)
    h = np.arange(2 * keep, dtype=np.uint64) + np.uint64(100)
    e[:n], p[:n] = evals, np.asarray(plans, dtype=np.uint64) * np.uint64(0x1234567)
    return e, h, counts, p, keep


def test_a_plan_over_its_cap_gives_way_to_the_next_plan():
    e, h, counts, p, keep = _slots([9, 8, 7, 6, 5, 4], [0, 0, 0, 1, 1, 2])
    chosen = np.empty(3, dtype=np.int64)
    n = select_capped(e, h, counts, keep, 3, p, 1, chosen)
    assert n == 3 and list(chosen) == [0, 3, 5]  # the best of each plan


def test_the_passed_over_fill_the_layer_when_plans_run_out():
    e, h, counts, p, keep = _slots([9, 8, 7, 6], [0, 0, 0, 1])
    chosen = np.empty(4, dtype=np.int64)
    assert select_capped(e, h, counts, keep, 4, p, 1, chosen) == 4
    assert list(chosen) == [0, 3, 1, 2]


def test_a_cap_as_wide_as_the_layer_is_select_distinct():
    rng = np.random.default_rng(1)
    e, h, counts, p, keep = _slots(rng.normal(size=8).round(1), rng.integers(0, 3, 8))
    a = np.empty(5, dtype=np.int64)
    b = np.empty(5, dtype=np.int64)
    assert select_capped(e, h, counts, keep, 5, p, 5, a) == select_distinct(
        e, h, counts, keep, 5, b) == 5
    assert list(a) == list(b)


def test_plan_keys_are_the_buildings_of_parent_and_path():
    e = FastEngine("france")
    line = json.loads((RESULTS / "france-beam2000-seed0.json").read_text())["line"]
    W, _ = B.state_at_round(e, line, 10)
    parents = W[None, :]
    build = [a for a in line if I.BUILD0 <= a < I.SETTLE0][0]
    paths = np.zeros((3, MAXD), dtype=np.int64)
    lens = np.array([0, 1, 1])
    paths[1, 0] = build  # a building the parent already has: a plan of its own key
    paths[2, 0] = 100  # a use: the parent's plan
    counts = np.array([3])
    keys = plan_keys(parents, paths, lens, counts, 3, B.PLAN_WORDS)
    assert keys[0] == keys[2] and keys[1] != keys[0]
