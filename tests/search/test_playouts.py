"""The compiled playouts (solver/search/playouts/): MCTS's beam playouts replay to their score
and do not depend on the thread count, and at width one play the greedy line, as NRPA's
softmax playouts do."""

from __future__ import annotations

import json
from pathlib import Path

import numba
import numpy as np
import pytest

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search.beam import state_at_round
from solver.search.common import MAX_LINE, seed_words
from solver.search.mcts import FastTurnGame
from solver.search.playouts import beam_playouts, softmax_playouts

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _late_start(variant="ireland", rnd=29):
    line = json.loads((RESULTS / f"{variant}-beam2000-seed0.json").read_text())["line"]
    return state_at_round(FastEngine(variant), line, rnd)


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
