"""Search: beam and MCTS on tiny budgets, results records, and every record in results/."""

from __future__ import annotations

import json
import time
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search import nrpa, records
from solver.search.beam import beam_search, state_at_round
from solver.search.beam import stages
from solver.search.common import state_hash
from solver.search.evaluation import features as E
from solver.search.mcts import MCTS, TurnGame, mcts_search
from solver.search.nrpa import NRPA, MoveGame, Moves, Sequence, nrpa_search

RESULTS = Path(__file__).resolve().parent.parent / "results"


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_small_beam_beats_random_play(variant):
    e = FastEngine(variant)
    random_best = max(e.rollout(e.initial(), s)[0] for s in range(50))
    result = beam_search(variant, width=4)
    assert result.score[0] > random_best
    assert result.score[0] == sum(result.score[1:])


def test_beam_is_deterministic():
    a = beam_search("france", width=3, seed=5)
    b = beam_search("france", width=3, seed=5)
    assert a.line == b.line and a.score == b.score


def test_beam_line_replays_on_the_reference_engine():
    r = beam_search("ireland", width=3)
    rec = records.make_record(command="test", variant="ireland", algorithm="beam",
                              params={"width": 3}, seed=0, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    ok, message, score = records.verify_record(rec)
    assert ok, message
    assert score["total"] == r.score[0]


def test_beam_with_a_time_limit_still_returns_a_complete_line():
    r = beam_search("ireland", width=50, time_limit=0.01)
    assert not r.complete
    rec = records.make_record(command="test", variant="ireland", algorithm="beam",
                              params={}, seed=0, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    assert records.verify_record(rec)[0]


def test_endgame_polish_keeps_the_best_line_and_restarts_on_its_prefix(monkeypatch):
    """Two groups of width 2, then the polish stage (beam/stages.py): the result is at least as
    good as every group's line, the polish restarts ran, and the line replays on the
    reference."""
    monkeypatch.setattr(stages, "GROUP_WIDTH", 2)
    r = beam_search("france", width=4)
    groups = [t["score"] for t in r.trace if t["stage"] == "group"]
    polish = [t for t in r.trace if t["stage"] == "polish"]
    assert len(groups) == 2 and polish
    assert {t["from_round"] for t in polish} <= set(stages.POLISH_ROUNDS)
    assert r.score[0] >= max(groups) and r.score[0] == max(groups + [t["score"] for t in polish])
    rec = records.make_record(command="test", variant="france", algorithm="beam",
                              params={"width": 4}, seed=0, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    ok, message, score = records.verify_record(rec)
    assert ok, message


def test_state_hash_sees_every_stored_word_but_not_the_derived_terrain():
    W = FastEngine("france").initial_wide()
    h = state_hash(W)
    X = W.copy()
    X[L.TERR:L.TERR + L.N_CELLS] += 1  # derived from LAND: not part of the state's identity
    assert state_hash(X) == h
    # every stored word, by one up and by a change of sign (-1 marks an empty slot)
    for i in [*range(L.TERR), *range(L.STATUS, L.W_SIZE)]:
        for new in (W[i] + 1, -1 - W[i]):
            X = W.copy()
            X[i] = new
            assert state_hash(X) != h, (i, new)


def _with_goods(W, kinds):
    W = W.copy()
    W[L.GOODS:L.GOODS + L.N_GOODS] = 0
    for g in range(kinds):
        W[L.GOODS + g] = 1
    return W


def test_chamber_progress_counts_kinds_of_goods_while_the_chamber_is_in_reach():
    from solver.rules.cards import BUILDING_IDS
    from solver.search.evaluation.features import chamber_progress

    f = FastEngine("france")
    W = f.initial_wide()
    assert chamber_progress(f.T, _with_goods(W, 13)) == 1.0
    assert chamber_progress(f.T, _with_goods(W, 20)) == 1.0  # 13 kinds are all it takes
    assert chamber_progress(f.T, _with_goods(W, 6)) == 36 / 169
    chamber = BUILDING_IDS.index("F25")
    for status, reach in ((L.S_DISPLAY, True), (L.S_MINE, True), (L.S_NEUTRAL, True),
                          (L.S_GONE, False)):
        X = _with_goods(W, 13)
        X[L.STATUS + chamber] = status
        assert (chamber_progress(f.T, X) == 1.0) == reach
    i = FastEngine("ireland")  # no Chamber of Wonders in Ireland
    assert chamber_progress(i.T, _with_goods(i.initial_wide(), 13)) == 0.0


def _sacristy_goods(W, book, ceramic, ornament, reliquary, **more):
    from solver.rules import goods as G

    W = W.copy()
    W[L.GOODS:L.GOODS + L.N_GOODS] = 0
    for g, n in ((G.BOOK, book), (G.CERAMIC, ceramic), (G.ORNAMENT, ornament),
                 (G.RELIQUARY, reliquary)):
        W[L.GOODS + g] = n
    for name, n in more.items():
        W[L.GOODS + G.BY_NAME[name.replace("_", " ")]] = n
    return W


def test_wonder_path_counts_the_sacristy_set_and_the_round_tower_payment_while_in_reach():
    from solver.rules.cards import BUILDING_IDS
    from solver.search.evaluation.features import wonder_path

    f = FastEngine("france")  # the Sacristy only (the Round Tower is Irish)
    W = f.initial_wide()
    assert wonder_path(f.T, _sacristy_goods(W, 1, 1, 1, 1)) == 1.0
    assert wonder_path(f.T, _sacristy_goods(W, 5, 0, 0, 3)) == (2 / 4) ** 2  # kinds, not tiles
    assert wonder_path(f.T, _sacristy_goods(W, 0, 0, 0, 0)) == 0.0
    sacristy = BUILDING_IDS.index("G34")
    for status, reach in ((L.S_DISPLAY, True), (L.S_MINE, True), (L.S_NEUTRAL, True),
                          (L.S_GONE, False)):
        X = _sacristy_goods(W, 1, 1, 1, 1)
        X[L.STATUS + sacristy] = status
        assert (wonder_path(f.T, X) == 1.0) == reach

    i = FastEngine("ireland")
    W = i.initial_wide()
    tower = BUILDING_IDS.index("I35")
    W[L.STATUS + sacristy] = L.S_GONE  # the Round Tower alone
    # 5 coins, a whiskey and 2 reliquaries (16 points): a whole payment
    assert wonder_path(i.T, _sacristy_goods(W, 0, 0, 0, 2, coin=5, whiskey=1)) == 1.0
    # a 5-coin piece counts as 5 coins; 7 of the 14 points: (1 + 1 + 0.5) / 3
    got = wonder_path(i.T, _sacristy_goods(W, 2, 1, 0, 0, **{"5_coins": 1, "whiskey": 1}))
    assert got == pytest.approx((2.5 / 3) ** 2)
    W[L.STATUS + tower] = L.S_GONE
    assert wonder_path(i.T, _sacristy_goods(W, 0, 0, 0, 2, coin=5, whiskey=1)) == 0.0


def test_wonder_path_weight_adds_to_the_evaluation_only_while_wonders_are_left():
    from solver.search.evaluation.features import PORTFOLIO, evaluate

    e = FastEngine("ireland")
    W = _sacristy_goods(e.initial_wide(), 1, 1, 1, 1)
    off = PORTFOLIO[0]
    on = off.copy()
    on[E.W_WONDER_PATH] = 20.0
    left = ((32 - W[L.ROUND] + 1) / 32) ** off[E.W_FADE]
    assert off[E.W_WONDER_PATH] == 0.0  # the hand-set weightings leave the term off
    assert evaluate(e.T, W, on) - evaluate(e.T, W, off) == pytest.approx(left * 20.0)
    none_left = W.copy()
    none_left[L.WONDERS] = 0
    assert evaluate(e.T, none_left, on) == evaluate(e.T, none_left, off)


def test_evaluation_values_a_13th_kind_of_goods_only_while_wonders_are_left():
    from solver.search.evaluation.features import PORTFOLIO, evaluate

    f = FastEngine("france")
    w = PORTFOLIO[0]

    def gain(W):  # the evaluation of 13 kinds of goods (one tile each) over 12 kinds
        return (evaluate(f.T, _with_goods(W, 13), w)
                - evaluate(f.T, _with_goods(W, 12), w))

    W = f.initial_wide()
    none_left = W.copy()
    none_left[L.WONDERS] = 0
    left = ((32 - W[L.ROUND] + 1) / 32) ** w[E.W_FADE]
    assert gain(W) - gain(none_left) == pytest.approx(left * w[E.W_WONDER_HOPE] * (169 - 144)
                                                      / 169)
    assert gain(W) > gain(none_left)


def test_state_at_round_stops_at_a_layer_boundary_of_that_round():
    e = FastEngine("ireland")
    line = beam_search("ireland", width=2).line
    W, prefix = state_at_round(e, line, 22)
    assert W[L.ROUND] == 22 and line[: len(prefix)] == prefix
    # the state is the prefix replayed, and the step before it ended a flow step
    X = e.initial_wide().copy()
    for a in prefix[:-1]:
        e.step_wide(X, a)
    before = X[L.STEP]
    e.step_wide(X, prefix[-1])
    assert (X == W).all() and X[L.STEP] != before


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
    rec = records.make_record(command="test", variant="ireland", algorithm="mcts",
                              params={"simulations_per_decision": 3}, seed=2, nodes=a.nodes,
                              seconds=a.seconds, score=a.score, line=a.line)
    ok, message, _ = records.verify_record(rec)
    assert ok, message


def test_mcts_with_a_time_limit_follows_its_best_line_to_the_end():
    r = mcts_search("france", budget=50, seed=1, time_limit=1e-6)
    assert not r.complete and r.nodes == 1  # one playout, then its line is played out
    rec = records.make_record(command="test", variant="france", algorithm="mcts",
                              params={}, seed=1, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    assert records.verify_record(rec)[0]


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
    rec = records.make_record(command="test", variant="france", algorithm="nrpa",
                              params={"level": 1}, seed=1, nodes=a.nodes, seconds=a.seconds,
                              score=a.score, line=a.line)
    ok, message, _ = records.verify_record(rec)
    assert ok, message


def test_verify_record_rejects_a_wrong_score_and_an_illegal_move(tmp_path):
    r = beam_search("ireland", width=2)
    rec = records.make_record(command="test", variant="ireland", algorithm="beam",
                              params={}, seed=0, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    bad = json.loads(json.dumps(rec))
    bad["score"]["total"] += 1
    ok, message, _ = records.verify_record(bad)
    assert not ok and "differs" in message
    bad = json.loads(json.dumps(rec))
    bad["line"][3] = 99999
    ok, message, _ = records.verify_record(bad)
    assert not ok and "illegal" in message
    path = tmp_path / "r.json"
    path.write_text(json.dumps(bad))
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 1 and "FAILED" in res.output


def test_load_record_names_the_problem(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(records.RecordError, match="not JSON"):
        records.load_record(p)
    p.write_text(json.dumps({"kind": records.KIND, "variant": "ireland", "line": "no"}))
    with pytest.raises(records.RecordError, match="'line'"):
        records.load_record(p)


def test_solo_cli_rejects_bad_arguments():
    runner = CliRunner()
    for args in (["solo", "--variant", "spain"], ["solo", "--variant", "ireland", "--beam", "0"],
                 ["solo", "--variant", "ireland", "--beam", "3", "--mcts", "3"],
                 ["solo", "--variant", "ireland", "--time-limit", "-1"]):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, (args, res.output)


def test_solo_cli_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "line.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--beam", "2", "--out",
                                    str(out), "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output)
    assert json.loads(out.read_text()) == rec
    for key in ("command", "commit", "versions", "profile", "profile_fields", "parameters",
                "seed", "nodes", "wall_seconds", "score", "line", "rounds"):
        assert key in rec
    res = CliRunner().invoke(main, ["replay", str(out)])
    assert res.exit_code == 0 and "confirmed" in res.output


# every line record under results/, recursively (runs/ too): not weights/ (weights files of
# `ora-solve tune`) nor sweeps/ (sweep records, replayed by tests/test_research_sweeps.py)
COMMITTED = sorted((p for p in RESULTS.rglob("*.json")
                    if p.relative_to(RESULTS).parts[0] not in ("weights", "sweeps")),
                   key=lambda p: p.relative_to(RESULTS).as_posix())


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.relative_to(RESULTS).as_posix())
def test_every_committed_result_replays_on_the_reference_engine(path):
    data = records.load_record(path)
    ok, message, _ = records.verify_record(data)
    assert ok, f"{path.relative_to(RESULTS)}: {message}"


def test_cli_mcts_default_is_the_search_default():
    from cli.main import MCTS_DEFAULT
    from solver.search.mcts import DEFAULT_SIMULATIONS

    assert MCTS_DEFAULT == DEFAULT_SIMULATIONS


def test_cli_playout_width_help_and_range_are_the_search_defaults():
    from cli.main import PLAYOUT_MAX
    from solver.search.mcts import PLAYOUT_WIDTH
    from solver.search.playouts.beam_playouts import MAX_WIDTH

    assert PLAYOUT_MAX == MAX_WIDTH
    help_text = CliRunner().invoke(main, ["solo", "--help"]).output
    assert (f"default {PLAYOUT_WIDTH['ireland']} in Ireland, {PLAYOUT_WIDTH['france']} in "
            "France") in " ".join(help_text.split())


def test_solo_cli_playout_width_sets_the_mcts_playouts_and_names_the_record(tmp_path):
    out = tmp_path / "m.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--mcts", "1",
                                    "--playout-width", "1", "--seed", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["parameters"]["playout_width"] == 1 and rec["algorithm"] == "mcts"
    assert "--mcts 1 --playout-width 1 --seed 3" in rec["command"]
    assert records.verify_record(rec)[0]
    for bad, words in ((["--playout-width", "3"], "--playout-width is an option of --mcts"),
                       (["--mcts", "1", "--playout-width", "0"], "--playout-width"),
                       (["--mcts", "1", "--playout-width", "129"], "--playout-width")):
        res = CliRunner().invoke(main, ["solo", "--variant", "france", *bad,
                                        "--out", str(tmp_path / "x.json")])
        assert res.exit_code == 2 and words in res.output, res.output
        assert not (tmp_path / "x.json").exists()


def test_cli_nrpa_iterations_default_is_the_search_default():
    from cli.main import NRPA_ITERATIONS
    from solver.search.nrpa import ITERATIONS

    assert NRPA_ITERATIONS == ITERATIONS


def test_solo_cli_rejects_bad_nrpa_arguments(tmp_path):
    runner = CliRunner()
    for args in (["--nrpa", "0"], ["--nrpa", "1", "--mcts", "3"], ["--iterations", "5"],
                 ["--nrpa", "1", "--at-round", "30"], ["--nrpa", "1", "--iterations", "0"],
                 ["--seed-line", str(RESULTS / "ireland-beam100-seed0.json")]):
        res = runner.invoke(main, ["solo", "--variant", "ireland"] + args)
        assert res.exit_code == 2, (args, res.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    out = tmp_path / "o.json"
    ireland = str(RESULTS / "ireland-beam100-seed0.json")
    for args, message in (
            (["--from", str(bad)], f"{bad}: not a results record or game record"),
            (["--from", str(tmp_path / "none.json")], "cannot read"),
            (["--from", str(RESULTS / "france-beam100-seed0.json")],
             "is a france game, but --variant ireland was given"),
            (["--from", ireland, "--at-round", "40"], "round 40 is past the end of the line"),
            (["--from", ireland, "--opening", "COMMIT"], "not both"),
            (["--from", ireland, "--seed-line", ireland], "--seed-line is the old spelling")):
        res = runner.invoke(main, ["solo", "--variant", "ireland", "--nrpa", "1", "--out",
                                   str(out)] + args)
        assert res.exit_code == 2 and message in res.output, (args, res.output)
    assert not out.exists()


def test_nrpa_seed_line_must_be_a_complete_game(tmp_path):
    from solver.research.positions import PositionError, complete_line

    half = tmp_path / "half.json"
    rec = json.loads((RESULTS / "ireland-beam100-seed0.json").read_text())
    rec["line"] = rec["line"][:40]
    half.write_text(json.dumps(rec))
    with pytest.raises(PositionError, match="its line stops in round 8, before the game ends"):
        complete_line("ireland", str(half))
    full, cut = complete_line("ireland", str(RESULTS / "ireland-beam100-seed0.json"), 31)
    assert full.state.is_terminal() and full.line == cut.line and cut.round == 31
    assert cut.line[:len(cut.prefix)] == cut.prefix and len(cut.prefix) < len(full.line)


def test_nrpa_with_a_time_limit_returns_its_seed_line():
    line = json.loads((RESULTS / "ireland-beam2000-seed0.json").read_text())["line"]
    r = nrpa_search("ireland", level=2, iterations=50, seed_line=line, from_round=29,
                    time_limit=1e-6)
    assert not r.complete and r.line == line and r.score[0] == 503 and r.nodes == 0


def test_solo_cli_nrpa_from_a_seed_line_writes_a_record(tmp_path):
    out = tmp_path / "nrpa.json"
    seed = RESULTS / "france-beam2000-seed0.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nrpa", "1",
                                    "--iterations", "2", "--from", str(seed),
                                    "--at-round", "32", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["algorithm"] == "nrpa" and rec["score"]["total"] >= 512
    assert rec["parameters"] | {} == {"level": 1, "iterations": 2, "time_limit": None,
                                      "tau": nrpa.SEEDED_TAU, "seed_line": str(seed),
                                      "seed_score": 512, "from_round": 32,
                                      "priors": rec["parameters"]["priors"]}
    assert rec["position"]["source"] == f"{seed} at round 32"
    assert rec["line"][:rec["position"]["prefix_actions"]] == \
        json.loads(seed.read_text())["line"][:rec["position"]["prefix_actions"]]
    assert f"--from {seed} --at-round 32" in rec["command"] and records.verify_record(rec)[0]
    # the old spellings are aliases: the same search, the record names the new ones
    out2 = tmp_path / "old.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nrpa", "1",
                                    "--iterations", "2", "--seed-line", str(seed),
                                    "--from-round", "32", "--out", str(out2), "--json"])
    assert res.exit_code == 0, res.output
    old = json.loads(out2.read_text())
    assert (old["line"], old["parameters"], old["command"]) == \
        (rec["line"], rec["parameters"], rec["command"])


def test_a_record_names_the_commit_its_search_started_on(tmp_path, monkeypatch):
    from solver.search.solo import SoloJob, run_solo

    commits = iter(["aaaa-at-the-start", "bbbb-after-the-search"])
    monkeypatch.setattr(records, "git_commit", lambda cwd=None: next(commits))
    rec, _ = run_solo(SoloJob(variant="france", width=2), out=str(tmp_path / "r.json"),
                      command="test", quiet=True)
    assert rec["commit"] == "aaaa-at-the-start"
