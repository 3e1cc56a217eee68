"""The evaluation (solver/search/evaluation/features.py: the one-pass evaluation against the
score-based one, the wonder terms) and the weightings a search starts from (weights.py: the
schedule's groups draw their weightings by seed)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.fast.kernels.api import score
from solver.search.evaluation import features as E
from solver.search.evaluation.features import PORTFOLIO, chamber_progress, evaluate, wonder_path
from solver.search.evaluation.weights import (
    GROUP_POOL,
    HAND_SET_MEANS,
    default_portfolio,
    group_weightings,
    perturbed,
    portfolio_with,
)
from tests.search.helpers import playout_states


def _reference_evaluate(T, W, w):
    """The evaluation as it was written on kernels.api.score (two passes, allocating)."""
    sc = np.zeros(4, dtype=np.int64)
    score(T, W, sc)
    if W[L.DONE]:
        return float(sc[0])
    left = max(0.0, (32.0 - W[L.ROUND] + 1.0) / 32.0) ** w[E.W_FADE]
    pot = 0.0
    for g in range(L.N_GOODS):
        n = float(W[L.GOODS + g])
        if w[E.W_KNEE] > 0 and n > w[E.W_KNEE]:  # the stock's shape: bent at the knee
            n = w[E.W_KNEE] + w[E.W_SLOPE] * (n - w[E.W_KNEE])
        pot += w[g] * n
    pot += w[E.W_HOPE] * (int(W[L.SETTL]) & 0xFF).bit_count()
    space = feats = 0
    for x in range(L.N_CELLS):
        t = W[L.TERR + x]
        if t in (L.T_NONE, L.T_FILLER, L.T_WATER):
            continue
        c = W[L.GRID + x]
        space += c == L.C_EMPTY
        feats += c in (L.C_FOREST, L.C_MOOR)
    pot += w[E.W_SPACE] * space + w[E.W_FEATURE] * feats
    if w[E.W_WONDER_HOPE] != 0.0 and W[L.WONDERS] > 0:
        pot += w[E.W_WONDER_HOPE] * chamber_progress(T, W)
    if w[E.W_WONDER_PATH] != 0.0 and W[L.WONDERS] > 0:
        pot += w[E.W_WONDER_PATH] * wonder_path(T, W)
    return float(sc[0]) + left * pot


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_one_pass_evaluation_equals_the_score_based_one_bit_for_bit(variant):
    e, states = playout_states(variant)
    with_path = PORTFOLIO[0].copy()
    with_path[28] = 12.0  # the wonder-path term on (the hand-set weightings leave it off)
    bent = PORTFOLIO[0].copy()
    bent[E.W_KNEE], bent[E.W_SLOPE] = 2.0, 0.5  # a knee low enough to bend playout stocks
    for w in (PORTFOLIO[0], PORTFOLIO[2], with_path, bent):
        for W in states:
            assert evaluate(e.T, W, w) == _reference_evaluate(e.T, W, w)



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


def test_seed_0_runs_the_leader_then_the_best_measured_weightings():
    pf = [w.copy() for w in PORTFOLIO]  # France's default: hand-set only
    chosen = group_weightings("france", pf, 0, 6)
    means = HAND_SET_MEANS["france"]
    assert chosen[0] == 0
    best = sorted(range(1, len(pf)), key=lambda i: -means[i])[:5]
    assert chosen[1:] == best


def test_other_seeds_draw_different_groups_from_the_best_pool():
    pf = default_portfolio("ireland")
    draws = {s: group_weightings("ireland", pf, s, 6) for s in range(1, 9)}
    assert all(d[0] == 0 and len(set(d)) == 6 for d in draws.values())
    assert len({tuple(d) for d in draws.values()}) == len(draws)  # each seed its own plan
    pool = set(group_weightings("ireland", pf, 0, GROUP_POOL + 1)[1:])
    assert all(set(d[1:]) <= pool for d in draws.values())
    assert group_weightings("ireland", pf, 5, 6) == draws[5]  # a seed draws the same again


def test_a_given_leader_stays_first_and_groups_wrap_around():
    w = np.full(len(PORTFOLIO[0]), 1.0)
    pf = portfolio_with(w)
    assert group_weightings("france", pf, 3, 4)[0] == 0
    many = group_weightings("france", pf, 0, len(pf) + 2)
    assert many[:len(pf)] == [0] + sorted(
        range(1, len(pf)), key=lambda i: -HAND_SET_MEANS["france"][i - 1])
    assert many[len(pf):] == many[:2]


def test_a_perturbation_scales_each_weight_alike_in_every_round_and_keeps_the_fading():
    """weights.perturbed: the same seed gives the same weighting, another seed another; a
    table's rows are all scaled by one factor per weight; a vector keeps its fading
    exponent; sigma 0 changes nothing."""
    v = PORTFOLIO[0]
    a, b, c = perturbed(v, 0.1, [3, 2]), perturbed(v, 0.1, [3, 2]), perturbed(v, 0.1, [4, 2])
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert a[E.W_FADE] == v[E.W_FADE] and np.array_equal(perturbed(v, 0.0, 7), v)
    assert (a[E.W_KNEE], a[E.W_SLOPE]) == (v[E.W_KNEE], v[E.W_SLOPE])  # the stock's shape
    factor = a / np.where(v == 0, 1, v)
    assert np.all((factor[v != 0] > 0.5) & (factor[v != 0] < 2.0))
    t = E.as_table(v)
    pt = perturbed(t, 0.1, [3, 2]).reshape(E.TABLE_ROWS, E.N_WEIGHTS)
    rows = t.reshape(E.TABLE_ROWS, E.N_WEIGHTS)
    ratio = pt[rows != 0] / rows[rows != 0]
    expect = np.broadcast_to(factor, rows.shape)[rows != 0]  # (a table's fading column is 0)
    assert np.allclose(ratio, expect)


def test_the_stock_knee_counts_each_tile_above_it_at_the_slope_and_0_turns_it_off():
    i = FastEngine("ireland")
    W = i.initial_wide()
    W[L.GOODS:L.GOODS + L.N_GOODS] = 0
    W[L.ROUND] = 1  # the potential counts in full
    w = np.zeros(E.N_WEIGHTS)
    w[0] = 2.0  # wood
    w[E.W_FADE] = 1.0
    base = evaluate(i.T, W, w)
    W[L.GOODS + 0] = 40
    assert evaluate(i.T, W, w) - base == 80.0  # no knee: linear
    w[E.W_KNEE], w[E.W_SLOPE] = 15.0, 0.5
    assert evaluate(i.T, W, w) - base == 2.0 * (15 + 0.5 * 25)
    W[L.GOODS + 0] = 15
    assert evaluate(i.T, W, w) - base == 30.0  # up to the knee every tile counts
    table = E.as_table(w)  # a table keeps the knee and slope unfaded in every round
    rows = table.reshape(E.TABLE_ROWS, E.N_WEIGHTS)
    assert (rows[:, E.W_KNEE] == 15.0).all() and (rows[:, E.W_SLOPE] == 0.5).all()


def test_irelands_default_weightings_bend_their_stock_and_keep_their_groups():
    """The variant's stock shape (weights.STOCK_SHAPE) goes on every default weighting,
    France's stay linear, and the groups' ranking by held-out means still finds each
    hand-set weighting (a regression: ranking compared whole vectors)."""
    from solver.search.evaluation.weights import STOCK_SHAPE

    for w in default_portfolio("ireland"):
        assert (w[E.W_KNEE], w[E.W_SLOPE]) == STOCK_SHAPE["ireland"]
    assert all(w[E.W_KNEE] == 0 for w in default_portfolio("france"))
    pf = default_portfolio("ireland")
    linear = [w.copy() for w in pf]
    for w in linear:
        w[E.W_KNEE], w[E.W_SLOPE] = 0.0, 1.0
    for seed in (0, 1, 7):
        assert group_weightings("ireland", pf, seed, 6) == group_weightings(
            "ireland", linear, seed, 6)


def test_irelands_groups_run_its_leader_without_the_stock_shape_second_on_every_seed():
    """weights.group_portfolio: Ireland's groups add the leader with a linear stock right
    after the shaped one, and group_weightings runs it as group 1 whatever the seed, the
    other groups drawn as without it; France (no stock shape) has no twin."""
    from solver.search.evaluation.weights import group_portfolio

    shaped, pf = default_portfolio("ireland"), group_portfolio("ireland")
    assert len(pf) == len(shaped) + 1 and pf[1][E.W_KNEE] == 0 and pf[0][E.W_KNEE] > 0
    values = [i for i in range(E.N_WEIGHTS) if i not in (E.W_KNEE, E.W_SLOPE)]
    assert np.array_equal(pf[1][values], pf[0][values])
    assert all(np.array_equal(a, b) for a, b in zip(pf[2:], shaped[1:]))
    for seed in (0, 1, 3, 7):
        chosen = group_weightings("ireland", pf, seed, 6)
        assert chosen[:2] == [0, 1] and 1 not in chosen[2:]
        assert chosen[2:] == [i + 1 for i in group_weightings("ireland", shaped, seed, 5)[1:]]
    assert all(np.array_equal(a, b)
               for a, b in zip(group_portfolio("france"), default_portfolio("france")))
    assert len(group_portfolio("france")) == len(default_portfolio("france"))
