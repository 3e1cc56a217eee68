"""Nested rollout policy adaptation (solver/search/nrpa.py): on a hand-built puzzle with a
known optimum, and on the engine from a late round of a committed line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from solver.search import nrpa
from solver.search.nrpa import NRPA, MoveGame, Moves, Sequence, nrpa_search
from tests.search.helpers import assert_replays

RESULTS = Path(__file__).resolve().parents[2] / "results"


class Combination(MoveGame):
    """A hand-built puzzle: choose one of four digits at each of eight turns. A line scores
    the number of digits matching a hidden target, and 100 if all match (the known optimum);
    the prior bias points to the digit 0 everywhere, which is wrong at half the turns."""

    TARGET = (3, 1, 0, 2, 0, 3, 1, 0)

    def root(self):
        return ()

    def terminal(self, s):
        return len(s) == len(self.TARGET)

    def score(self, s):
        hits = sum(a == b for a, b in zip(s, self.TARGET))
        return 100.0 if hits == len(self.TARGET) else float(hits)

    def moves(self, states):
        out = []
        for s in states:
            codes = np.array([(len(s) * 4 + a + 1) * 0x9E3779B97F4A7C15 % (1 << 64)
                              for a in range(4)], dtype=np.uint64)
            out.append(Moves(codes, np.array([0.5, 0.0, 0.0, 0.0]), [0, 1, 2, 3]))
        return out

    def play(self, s, a):
        return s + (a,), [a]

    def sequence(self, line):
        seq = Sequence(self.score(tuple(line)), list(line))
        for i, a in enumerate(line):
            mv = self.moves([tuple(line[:i])])[0]
            seq.turns.append((mv.codes, mv.bias, a))
        return seq


class Repriored(Combination):
    """The puzzle with two priors: the bias points to digit 0, or (the second) to the
    target's digit; ``runs`` lists the top-level runs the search announced."""

    def __init__(self):
        self.runs, self.prior = [], 0

    def reprior(self, run):
        self.runs.append(run)
        self.prior = (run - 1) % 2
        return True

    def moves(self, states):
        out = super().moves(states)
        if self.prior == 1:
            for s, mv in zip(states, out):
                if len(s) < len(self.TARGET):
                    mv.bias[:] = 0.0
                    mv.bias[self.TARGET[len(s)]] = 3.0
        return out


def test_nrpa_restarts_take_the_next_prior_and_rebuild_the_best_lines_moves():
    game = Repriored()
    # a deadline makes the search restart; it stops as the fourth run begins
    n = NRPA(game, seed=0, iterations=2, parallel=1, seed_line=[0] * 8,
             deadline=time.perf_counter() + 600, stop=lambda: len(game.runs) >= 3)
    n.search(1)
    assert game.runs == [2, 3, 4] and n.restarts == 4 and game.prior == 1
    # the restart's best line is the same line, its moves those of the prior in force
    assert n.start.line == n.best.line
    assert [t[1].tolist() for t in n.start.turns] == \
        [mv.bias.tolist() for mv in game.moves([tuple(n.best.line[:i]) for i in range(8)])]


def test_nrpa_finds_the_optimum_of_a_small_puzzle():
    n = NRPA(Combination(), seed=0, iterations=30, parallel=2)
    best = n.search(2)
    assert best.score == 100.0 and tuple(best.line) == Combination.TARGET
    # far fewer playouts than the 4 ** 8 lines
    assert n.playouts <= 2 * 30 * 30


def test_nrpa_is_deterministic_and_keeps_its_seed_line():
    def run(seed, line=None):
        n = NRPA(Combination(), seed=seed, iterations=3, parallel=2, seed_line=line)
        best = n.search(1)
        return best.score, best.line, n.playouts

    assert run(4) == run(4)
    good = [3, 1, 0, 2, 0, 3, 1, 1]  # 7 hits: better than 3 playouts find
    assert run(4, good)[:2] == (7.0, good)


def test_nrpa_level_stops_once_it_only_replays_its_best_line():
    target = list(Combination.TARGET)
    n = NRPA(Combination(), seed=1, iterations=1000, parallel=2, seed_line=target)
    best = n.search(1)
    assert best.line == target and n.finished == 1
    # the level stopped after CONVERGED copies of the line in a row, long before 1000
    assert n.playouts < 2 * 200
    last = [t["score"] for t in n.trace[-nrpa.CONVERGED:]]
    assert last == [100.0] * nrpa.CONVERGED


def test_nrpa_restarts_from_its_best_line_until_the_deadline():
    import time

    n = NRPA(Combination(), seed=0, iterations=3, parallel=2,
             deadline=time.perf_counter() + 0.5)
    best = n.search(1)
    assert n.restarts > 1 and n.finished >= 1
    # every run that finished left its iterations in the trace (the last may have none)
    assert set(range(1, n.finished + 1)) <= {t["restart"] for t in n.trace} \
        <= set(range(1, n.restarts + 1))
    assert best.score == max(t["best"] for t in n.trace)
    # bounded: every iteration of the first run, then one entry per finished restart and only
    # the restarts' iterations that beat the best line (a 3600 s France record listed 226,660
    # iterations, 33 MB)
    first = [t for t in n.trace if t["restart"] == 1]
    assert [t["iteration"] for t in first] == list(range(1, len(first) + 1))
    assert [t["restart"] for t in n.trace if t["stage"] == "restart"] == \
        list(range(2, n.finished + 1))
    later = [t for t in n.trace if t["restart"] > 1 and t["stage"] == "iteration"]
    assert all(t["score"] == t["best"] for t in later)
    one = NRPA(Combination(), seed=0, iterations=3, parallel=2)
    one.search(1)
    assert one.restarts == one.finished == 1  # without a deadline: one run


def test_nrpa_adapt_moves_the_policy_towards_the_sequence():
    g = Combination()
    pol = np.zeros(1 << nrpa.POLICY_BITS)
    seq = g.sequence(list(Combination.TARGET))
    before = [nrpa.probabilities(pol, c, b)[k] for c, b, k in seq.turns]
    nrpa.adapt(pol, seq)
    after = [nrpa.probabilities(pol, c, b)[k] for c, b, k in seq.turns]
    assert all(x > y for x, y in zip(after, before))


def test_nrpa_on_the_engine_from_a_late_round_of_a_line():
    line = json.loads((RESULTS / "france-beam2000-seed0.json").read_text())["line"]
    args = {"level": 1, "iterations": 2, "seed": 1, "seed_line": line, "from_round": 31}
    a = nrpa_search("france", **args)
    b = nrpa_search("france", **args)
    assert (a.line, a.score, a.nodes) == (b.line, b.score, b.nodes)
    assert a.score[0] >= 512 and a.line[:100] == line[:100]  # the seed line is kept
    assert_replays("france", a, "nrpa", seed=1)


def test_nrpa_with_a_time_limit_returns_its_seed_line():
    line = json.loads((RESULTS / "ireland-beam2000-seed0.json").read_text())["line"]
    r = nrpa_search("ireland", level=2, iterations=50, seed_line=line, from_round=29,
                    time_limit=1e-6)
    assert not r.complete and r.line == line and r.score[0] == 503 and r.nodes == 0
