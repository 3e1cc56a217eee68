"""Evaluation tables by round (features.as_table, weights' table files) and their fit
(solver/search/evaluation/fit.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver.fast import layout as L
from solver.search.beam.expansion import KEEP_PER_PARENT
from solver.search.beam.run import run_beam
from solver.search.beam.stages import beam_search
from solver.search.evaluation import features as E
from solver.search.evaluation import fit
from solver.search.evaluation import weights as WF
from solver.search.evaluation.features import N_WEIGHTS, TABLE_ROWS, as_table, evaluate
from tests.search.helpers import playout_states


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_a_vector_as_a_table_evaluates_as_the_vector(variant):
    e, states = playout_states(variant)
    for w in WF.default_portfolio(variant)[:3]:  # Ireland's leader fades with 1.08, not 1
        t = as_table(w)
        assert t.shape == (TABLE_ROWS * N_WEIGHTS,)
        for W in states:
            assert evaluate(e.T, W, t) == pytest.approx(evaluate(e.T, W, w), abs=1e-9)


def test_a_table_weighs_a_position_by_its_own_round_not_its_parents():
    # regression: choosing the row by the layer's parents' round scored a beam under the
    # leader's own table 40 points below the leader in Ireland (docs/experiments.md)
    e, states = playout_states("ireland")
    W = next(s for s in states if s[L.DONE] == 0 and s[L.GOODS + 0] > 0)
    r = int(W[L.ROUND])
    t = np.zeros((TABLE_ROWS, N_WEIGHTS))
    t[r, 0] = 10.0  # wood is worth 10 a tile in W's round only
    base = evaluate(e.T, W, np.zeros(TABLE_ROWS * N_WEIGHTS))
    assert evaluate(e.T, W, t.ravel()) == base + 10.0 * W[L.GOODS + 0]
    t[r], t[r - 1] = 0.0, t[r]
    t[r - 1, 0] = 10.0
    assert evaluate(e.T, W, t.ravel()) == base


def test_a_table_file_round_trips_exactly_and_bad_ones_say_what_is_wrong():
    t = np.random.default_rng(3).random(TABLE_ROWS * N_WEIGHTS)
    data = json.loads(json.dumps(WF.make_table_file("france", t, {"ridge": 1.0})))
    assert np.array_equal(WF.parse_table(data, "f.json", "france").values, t)
    with pytest.raises(WF.WeightsError, match="holds france weights, not ireland"):
        WF.parse_table(data, "f.json", "ireland")
    bad = json.loads(json.dumps(data))
    bad["by_round"]["wood"] = bad["by_round"]["wood"][:-1]
    with pytest.raises(WF.WeightsError, match="'wood' must list 34 values"):
        WF.parse_table(bad, "f.json")
    bad = json.loads(json.dumps(data))
    bad["by_round"]["beer"][5] = -1.0
    with pytest.raises(WF.WeightsError, match="'beer' in round 5 is -1.0"):
        WF.parse_table(bad, "f.json")
    bad = json.loads(json.dumps(data))
    del bad["by_round"]["space"]
    with pytest.raises(WF.WeightsError, match="must name the 31 weights"):
        WF.parse_table(bad, "f.json")
    old = json.loads(json.dumps(data))  # written before the stock's shape: read as linear
    del old["by_round"]["stock_knee"], old["by_round"]["stock_slope"]
    rows = WF.parse_table(old, "f.json").values.reshape(TABLE_ROWS, N_WEIGHTS)
    assert (rows[:, E.W_KNEE] == 0).all() and (rows[:, E.W_SLOPE] == 1).all()
    assert np.array_equal(np.delete(rows, [E.W_KNEE, E.W_SLOPE], axis=1),
                          np.delete(t.reshape(TABLE_ROWS, N_WEIGHTS), [E.W_KNEE, E.W_SLOPE],
                                    axis=1))
    with pytest.raises(WF.WeightsError, match="a table by round is format 2"):
        WF.parse_table(data | {"format": 1}, "f.json")


def test_a_fixed_width_france_beam_is_one_beam_under_its_table_where_it_won_held_out():
    path = WF.Path(WF.__file__).parent / "tuned" / "france-by-round.json"
    data = json.loads(path.read_text())
    holdout = data["fitting"]["holdout"]
    table = WF.fitted_default("france")
    assert (table is not None) == holdout["beats_beam_search"]
    assert WF.fitted_default("ireland") is None  # Ireland's fit lost to its tuned leader
    if table is None:
        return
    assert holdout["beam_search"]["mean"] < holdout["table"]["mean"]
    assert not set(data["fitting"]["seeds"]) & set(holdout["seeds"])
    assert not set(holdout["seeds"]) & {0, 1, 2}  # never the reporting seeds
    r = beam_search("france", 6, seed=1)
    alone = run_beam("france", 6, 1, None, None, KEEP_PER_PARENT, table.values)
    assert r.line == alone.line and r.score == alone.score
    # the timed search, MCTS and NRPA keep the vector portfolio
    assert all(len(w) == N_WEIGHTS for w in WF.default_portfolio("france"))


def test_a_fit_shrunk_all_the_way_is_the_leaders_own_table_and_clamping_bounds_it():
    e, states = playout_states("france", games=2)
    states = np.array([W for W in states if W[L.DONE] == 0])
    leader = WF.default_portfolio("france")[0]
    labels = np.arange(len(states)) * 7 % 90 + 300  # any values: the prior wins
    table, report = fit.fit_table("france", states, labels, leader, ridge=1e12)
    assert report["states"] == len(states)
    rows = as_table(leader).reshape(TABLE_ROWS, N_WEIGHTS)  # the leader's fade is 1
    assert np.allclose(table[1:], rows[1:], atol=1e-6)  # (row 0: no position has round 0)
    wild = table * 0 + 100.0
    clamped = fit.clamp_table(wild, leader, 2.0).reshape(TABLE_ROWS, N_WEIGHTS)
    left = np.maximum(0.0, (33 - np.arange(TABLE_ROWS)) / 32)
    assert np.allclose(clamped[:, 0], 2.0 * leader[0] * left)
    assert np.allclose(clamped[:, E.W_WONDER_PATH], 30.0 * left)  # the leader's is 0
    low = fit.clamp_table(-wild, leader, 2.0).reshape(TABLE_ROWS, N_WEIGHTS)
    assert (np.delete(low, E.W_FADE, axis=1) == 0).all()  # (a fit's fade column is 0)


def test_frances_table_members_are_the_table_and_the_table_with_the_stock_knee():
    """weights.table_members: the fitted table, then the same table with TABLE_TWIN_SHAPE's
    knee and slope in every round and every other weight unchanged; none without a table."""
    table = WF.fitted_default("france")
    if table is None:
        pytest.skip("France has no adopted fitted table")
    plain, shaped = WF.table_members("france")
    assert np.array_equal(plain, table.values)
    t, s = (np.asarray(m).reshape(E.TABLE_ROWS, N_WEIGHTS) for m in (plain, shaped))
    assert (s[:, [E.W_KNEE, E.W_SLOPE]] == WF.TABLE_TWIN_SHAPE["france"]).all()
    assert (t[:, E.W_KNEE] == 0).all()  # the table itself is linear
    assert np.array_equal(np.delete(s, [E.W_KNEE, E.W_SLOPE], axis=1),
                          np.delete(t, [E.W_KNEE, E.W_SLOPE], axis=1))
    assert WF.table_members("ireland") is None  # Ireland has no adopted table


def test_a_record_names_the_table_its_beam_ran_under(monkeypatch):
    """Regression: France's `--beam 2000` record at 625c737 said "hand-set portfolio" while its
    beam ran under the fitted table."""
    from solver.search.solo import SoloJob

    table = WF.fitted_default("france")
    if table is None:
        pytest.skip("France has no adopted fitted table")
    for job, role in ((SoloJob("france", width=2000), "seeded perturbations of each chain's"),
                      # weights.table_members: the table with the stock's knee, a second beam
                      (SoloJob("france", width=2000), "weighting 1) runs it with the stock's knee"),
                      (SoloJob("france", time_limit=60.0), "only weighting"),
                      # regression: width 100 has no polish, so no perturbed passes to claim
                      (SoloJob("france", width=100), "only weighting")):
        assert ("knee" in job.weights_used()["role"]) == (job.width == 2000)
        used = job.weights_used()
        assert used["file"].endswith("tuned/france-by-round.json")
        assert len(used["by_round_sha256"]) == 64 and "values" not in used
        assert role in used["role"]
    mcts = SoloJob("france", simulations=4).weights_used()
    assert "by_round_sha256" not in mcts and len(mcts["values"]) == N_WEIGHTS
    assert "leads the portfolio" in SoloJob("ireland", time_limit=60.0).weights_used()["role"]
    assert "leads the portfolio" in SoloJob("ireland", width=2000).weights_used()["role"]
    # the fixed-width groups' linear twin (weights.group_portfolio), not the timed schedule's
    assert "without the stock's shape" in SoloJob("ireland", width=2000).weights_used()["role"]
    assert "without the stock" not in SoloJob("ireland", time_limit=60.0).weights_used()["role"]
    assert "without the stock" not in SoloJob("ireland", width=100).weights_used()["role"]
    from solver.search.beam import schedule

    monkeypatch.setattr(schedule, "SINGLE_BEAM", ("ireland",))  # empty now
    assert "only weighting" in SoloJob("ireland", time_limit=60.0).weights_used()["role"]
