"""MCTS's beam playouts (solver/search/playouts/beam_playouts.py) and the playout width
schedule."""

from __future__ import annotations

import json
from pathlib import Path

import numba
import numpy as np
import pytest

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search.beam import state_at_round
from solver.search.beam.selection import select_distinct
from solver.search.common import MAX_LINE, seed_words
from solver.search.mcts import GAME_TURNS, FastTurnGame, playout_width
from solver.search.playouts import beam_playouts, softmax_playouts

RESULTS = Path(__file__).resolve().parent.parent / "results"


def _late_start(variant="ireland", rnd=29):
    line = json.loads((RESULTS / f"{variant}-beam2000-seed0.json").read_text())["line"]
    return state_at_round(FastEngine(variant), line, rnd)


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


def _playout(variant, W, width, salt=1, noise=0.0, w=0):
    g = FastTurnGame(variant)
    line = np.zeros(MAX_LINE, dtype=np.int64)
    sc, n, gen = beam_playouts.beam_playout(g.e.T, W.copy(), g.weights[w], width, noise,
                                            np.uint64(salt), line)
    return int(sc), line[:n].tolist(), int(gen)


def _replayed(variant, W, line):
    e = FastEngine(variant)
    X = W.copy()
    for a in line:
        e.step_wide(X, a)
    return X, e.score_wide(X)[0]


def test_width_one_playout_is_the_greedy_line():
    W, _ = _late_start("france", 27)
    g = FastTurnGame("france")
    lines = np.zeros((1, MAX_LINE), dtype=np.int64)
    lens = np.zeros(1, dtype=np.int64)
    scores = np.zeros(1, dtype=np.int64)
    softmax_playouts.playouts(g.e.T, W[None, :].copy(), g.weights, np.zeros(1, dtype=np.int64),
                              1, 0.0, np.ones(1, dtype=np.uint64), lines, lens, scores)
    sc, line, _ = _playout("france", W, 1)
    assert line == lines[0, :lens[0]].tolist() and sc == scores[0]


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_beam_playout_line_replays_to_its_score_and_wider_searches_more(variant):
    W, _ = _late_start(variant)
    sc4, line4, gen4 = _playout(variant, W, 4)
    _, _, gen1 = _playout(variant, W, 1)
    X, total = _replayed(variant, W, line4)
    assert X[L.DONE] == 1 and total == sc4
    assert gen4 > 2 * gen1
    W2 = W.copy()
    assert _playout(variant, W2, 4) == (sc4, line4, gen4) and (W2 == W).all()  # W unchanged


def test_beam_playouts_do_not_depend_on_the_thread_count():
    W, _ = _late_start("ireland", 30)
    g = FastTurnGame("ireland", width=3)
    seeds = [int(s) for s in seed_words(4, 6)]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = g.playouts([W] * 6, seeds)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = g.playouts([W] * 6, seeds)
    finally:
        numba.set_num_threads(before)
    assert one == many
    assert len({r[0] for r in one}) > 1 or len({tuple(r[1]) for r in one}) > 1


def test_playout_width_grows_as_the_game_shortens():
    assert playout_width(6, GAME_TURNS) == 6
    assert playout_width(6, GAME_TURNS // 2) == 12
    assert playout_width(6, 1) == beam_playouts.MAX_WIDTH
    widths = [playout_width(4, t) for t in range(GAME_TURNS + 10, 0, -1)]
    assert widths == sorted(widths) and min(widths) >= 1


def test_playout_width_out_of_range_is_refused():
    with pytest.raises(ValueError, match="width"):
        FastTurnGame("ireland", width=0)
