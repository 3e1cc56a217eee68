"""Single-player MCTS over whole turns (solver/search/mcts.py): on a hand-built game, on the
engine from a late round of a committed line, and the playout width schedule."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solver.fast.engine import FastEngine
from solver.search.beam import state_at_round
from solver.search.mcts import GAME_TURNS, MCTS, FastTurnGame, TurnGame, mcts_search, playout_width
from solver.search.playouts import beam_playouts
from tests.search.helpers import assert_replays

RESULTS = Path(__file__).resolve().parents[2] / "results"


class TwoWays(TurnGame):
    """A hand-built game of two turns: after turn 1 every line scores 12; after turn 2 lines
    score 0-9, but three of the ten score 30. The better continuation is 2 (its best line is
    worth 30), although its average is about the same."""

    def key(self, s):
        return s

    def terminal(self, s):
        return len(s) == 2

    def reward(self, s):
        if s[0] == 1:
            return 12.0
        return 30.0 if s[1] in (2, 5, 8) else float(s[1])

    def children(self, s):
        return [((a,), s + (a,), 0.0) for a in ([1, 2] if s == () else range(10))]

    def playouts(self, states, seeds):
        out = []
        for s, seed in zip(states, seeds):
            rng = random.Random(seed)
            tail = []
            while not self.terminal(s):
                a = rng.choice([p[0] for p, _, _ in self.children(s)])
                s = s + (a,)
                tail.append(a)
            out.append((self.reward(s), tail))
        return out

    def next_turn(self, s, actions):
        return (actions[0],), s + (actions[0],)


def test_mcts_picks_the_continuation_with_the_better_best_line():
    m = MCTS(TwoWays(), seed=3)
    m.run((), [], 60)
    path, state = m.commit((), [])
    assert path == (2,) and state == (2,)  # max backup: a line worth 30 beats a sure 12
    assert m.best[0] == 30.0 and m.best[1][0] == 2
    assert m.nodes[(2,)].best == 30.0 and m.nodes[(1,)].best == 12.0


def test_mcts_prefers_the_better_side_when_no_outlier():
    class NoOutlier(TwoWays):
        def reward(self, s):
            return 10.0 + s[1] if s[0] == 1 else float(s[1])

    m = MCTS(NoOutlier(), seed=1)
    m.run((), [], 60)
    assert m.commit((), [])[0] == (1,)


def test_mcts_is_deterministic_for_a_seed():
    def stats(seed):
        m = MCTS(TwoWays(), seed=seed)
        m.run((), [], 13)
        return m.best, {k: (n.visits, n.total, n.best) for k, n in m.nodes.items()}

    assert stats(5) == stats(5)
    assert len({repr(stats(s)) for s in range(6)}) > 1  # the seed drives the playouts


def _late_start(variant="ireland", rnd=31):
    line = json.loads((RESULTS / f"{variant}-beam2000-seed0.json").read_text())["line"]
    return state_at_round(FastEngine(variant), line, rnd)


def test_turn_mcts_on_the_engine_is_deterministic_and_replays():
    start = _late_start()
    a = mcts_search("ireland", budget=3, seed=2, start=start)
    b = mcts_search("ireland", budget=3, seed=2, start=start)
    assert a.line == b.line and a.score == b.score and a.complete
    assert a.line[: len(start[1])] == start[1]
    assert_replays("ireland", a, "mcts", seed=2)


def test_mcts_with_a_time_limit_follows_its_best_line_to_the_end():
    r = mcts_search("france", budget=50, seed=1, time_limit=1e-6)
    assert not r.complete and r.nodes == 1  # one playout, then its line is played out
    assert_replays("france", r, "mcts", seed=1)


def test_playout_width_grows_as_the_game_shortens():
    assert playout_width(6, GAME_TURNS) == 6
    assert playout_width(6, GAME_TURNS // 2) == 12
    assert playout_width(6, 1) == beam_playouts.MAX_WIDTH
    widths = [playout_width(4, t) for t in range(GAME_TURNS + 10, 0, -1)]
    assert widths == sorted(widths) and min(widths) >= 1


def test_playout_width_out_of_range_is_refused():
    with pytest.raises(ValueError, match="width"):
        FastTurnGame("ireland", width=0)
