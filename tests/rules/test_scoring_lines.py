"""Scripted solo lines played to the end, with their final scores worked out by hand (RULES §14).

Each line starts from ``fresh()``, goes through the engine's own actions (goods are handed out
with ``give()`` to keep the lines short), fast-forwards through the rest of the game by
committing every turn and letting the neutral build wherever is first legal, and ends after
round 32 and settlement phase E. The expected breakdown is written out as arithmetic:
each settlement's own dwelling value plus each neighbour, goods points, economic sum.

The second half unit-tests solver/rules/scoring.py on hand-built landscapes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.rules import actions as A
from solver.rules import goods as G
from solver.rules.landscape import Landscape
from solver.rules.profile import KENNERSPIEL, RULEBOOK
from solver.rules.scoring import Score, dwelling_of, economic_value, score_owner, settlement_value
from solver.rules.state import Owner
from tests.helpers import act, fresh, give, goods_of, texts


# ===== fast-forward helper =================================================================
def _step(s) -> None:
    """One 'do nothing' step: COMMIT turns/settlement turns, SKIP optional neutral steps,
    the neutral builds each display building on its first legal space."""
    f = s.frame["f"]
    if f == "neutral_build":
        s.apply_action(s.legal_actions()[0])
    elif f in ("neutral_contract", "prior_bonus", "free_use"):
        s.apply_action(A.make("SKIP"))
    elif f in ("turn", "settle"):
        s.apply_action(A.make("COMMIT"))
    else:  # an option / pay frame would need a real decision
        raise AssertionError(f"cannot fast-forward through a {f!r} frame")


def to_turn(s, rnd: int) -> None:
    """Fast-forward to the first turn of round ``rnd``."""
    while not (s.frame and s.frame["f"] == "turn" and s.round == rnd):
        assert not s.is_terminal(), f"the game ended before round {rnd}"
        _step(s)


def to_settle(s, letter: str) -> None:
    """Fast-forward to the player's settlement turn of phase ``letter`` (A-E)."""
    while not (s.frame and s.frame["f"] == "settle" and s.g.phase == letter):
        assert not s.is_terminal(), f"the game ended before settlement phase {letter}"
        _step(s)


def finish(s) -> None:
    """Fast-forward to the end of the game (round 32 + settlement phase E)."""
    while not s.is_terminal():
        _step(s)


def pay_all(s) -> None:
    """Resolve a pay frame where the goods held leave exactly one way to pay."""
    while s.frame["f"] == "pay":
        legal = s.legal_actions()
        assert len(legal) == 1, texts(s)
        s.apply_action(legal[0])


def assert_final(s, total: int, goods: int, economic: int, dwelling: int) -> None:
    assert s.is_terminal()
    assert s.round == 32 and s.g.phase == "E"
    assert s.current_player() == -4
    assert s.legal_actions() == []
    assert s.score()[0] == Score(total, goods, economic, dwelling)
    assert total == goods + economic + dwelling
    assert s.returns() == [float(total)]


# ===== (a) a settlement beside water =======================================================
def test_line_coast_fishing_village_and_shanty_town_beside_water():
    s = fresh()
    give(s, coin=7)
    act(s, "BUY_PLOT rows 0..1 COAST")          # solo plot stack: 7 first
    assert goods_of(s) == {}
    assert s.g.owners[0].land.terrain((-2, 0)) == "W"
    assert s.g.owners[0].land.terrain((-1, 1)) == "C"

    to_settle(s, "A")
    assert s.round == 12
    give(s, meat=1, grain=3, wood=3)               # 8 food, 3 energy
    act(s, "SETTLE S4 Fishing Village at (-1, 0)")
    play_pay = ["PAY 1 wood"] * 3 + ["PAY 1 grain"] * 3 + ["PAY 1 meat"]
    for t in play_pay:
        act(s, t)
    assert s.frame["f"] == "settle" and goods_of(s) == {}
    act(s, "COMMIT")

    to_settle(s, "B")
    assert s.round == 16
    give(s, grain=1, wood=1)                       # 1 food, 1 energy
    act(s, "SETTLE S1 Shanty Town at (-1, 1)")
    act(s, "PAY 1 wood")
    act(s, "PAY 1 grain")
    act(s, "COMMIT")
    finish(s)

    # Fishing Village (-1,0): own 6 + water (-2,0) 3 + Shanty Town (-1,1) -3
    #                         + moor (0,0) 0 + no land (-1,-1) 0            = 6
    # Shanty Town (-1,1):     own -3 + water (-2,1) 3 + Fishing Village 6
    #                         + moor (0,1) 0 + no land (-1,2) 0             = 6
    # dwelling 6 + 6 = 12; economic: Fishing Village 4 + Shanty Town 0 = 4; goods 0
    assert_final(s, total=16, goods=0, economic=4, dwelling=12)


# ===== (b) settlements next to a mountain ==================================================
def test_line_mountain_quarry_counts_for_both_hillsides():
    s = fresh()
    give(s, coin=7)
    act(s, "BUY_PLOT rows 0..1 MOUNTAIN")
    land = s.g.owners[0].land
    assert [land.terrain(c) for c in ((5, 0), (5, 1), (6, 0), (6, 1))] == ["H", "H", "M", "."]

    to_settle(s, "A")
    give(s, grain=3, wood=3)                       # 3 food, 3 energy
    act(s, "SETTLE S2 Farming Village at (5, 0)")
    pay_all(s)
    act(s, "COMMIT")

    to_settle(s, "B")
    give(s, meat=1, grain=2)                       # 7 food
    act(s, "SETTLE S3 Market Town at (5, 1)")
    pay_all(s)
    act(s, "COMMIT")

    to_turn(s, 16)                                 # the B buildings are on display now
    assert "G22" in s.g.display
    give(s, coin=5)
    assert [t for t in texts(s) if t.startswith("BUILD G22")] == ["BUILD G22 Quarry at (6, 0)"]
    act(s, "BUILD G22 Quarry at (6, 0)")
    act(s, "SKIP")                                 # no prior bonus use
    assert goods_of(s) == {}
    finish(s)

    # Farming Village (5,0): own 1 + Clay Mound (4,0) 3 + Market Town (5,1) 2
    #                        + Quarry (6,0) -4 (east)                   = 2
    # Market Town (5,1):     own 2 + Cloister Office (4,1) 2 + Farming Village (5,0) 1
    #                        + Quarry (6,0) -4 (north-east); filler (6,1) 0   = 1
    # dwelling 2 + 1 = 3; economic: Farming Village 1 + Market Town 2 + Quarry 7 = 10
    assert_final(s, total=13, goods=0, economic=10, dwelling=3)


# ===== (c) negative dwelling neighbours ====================================================
def test_line_shanty_town_between_peat_coal_kiln_and_slaughterhouse():
    s = fresh()
    act(s, "FELL_TREES at (2, 0)")                 # wheel: wood 2 in round 1
    assert goods_of(s) == {"wood": 2}
    act(s, "COMMIT")
    give(s, clay=1)
    act(s, "BUILD G07 Peat Coal Kiln at (3, 1)")
    act(s, "SKIP")
    act(s, "COMMIT")

    to_settle(s, "A")
    give(s, grain=1)                               # 1 food; the energy is 1 wood
    act(s, "SETTLE S1 Shanty Town at (3, 0)")
    act(s, "PAY 1 wood")
    act(s, "PAY 1 grain")
    act(s, "COMMIT")
    assert goods_of(s) == {"wood": 1}

    to_turn(s, 12)                                 # the A buildings are on display now
    give(s, wood=1, clay=2)
    act(s, "BUILD G19 Slaughterhouse at (2, 0)")
    act(s, "SKIP")
    assert goods_of(s) == {}
    finish(s)

    # Shanty Town (3,0): own -3 + Slaughterhouse (2,0) -3 + Clay Mound (4,0) 3
    #                    + Peat Coal Kiln (3,1) -2 + no land (3,-1) 0        = -5
    # economic: Peat Coal Kiln 4 + Slaughterhouse 8 + Shanty Town 0 = 12; goods 0
    assert_final(s, total=7, goods=0, economic=12, dwelling=-5)


def test_line_lone_shanty_town_scores_its_own_minus_three():
    s = fresh()
    act(s, "FELL_TREES at (1, 0)")                 # round 1: wood yields 2
    act(s, "COMMIT")
    to_turn(s, 2)
    act(s, "FELL_TREES at (2, 0)")                 # round 2: the reset indicator yields 2
    act(s, "COMMIT")
    assert goods_of(s) == {"wood": 4}
    to_settle(s, "A")
    give(s, grain=1)
    act(s, "SETTLE S1 Shanty Town at (1, 0)")
    act(s, "PAY 1 wood")
    act(s, "PAY 1 grain")
    act(s, "COMMIT")
    finish(s)
    # Shanty Town (1,0): own -3 + moor (0,0) 0 + felled (2,0) 0 + forest (1,1) 0 = -3
    # economic 0; goods: 3 wood = 0
    assert goods_of(s) == {"wood": 3}
    assert_final(s, total=-3, goods=0, economic=0, dwelling=-3)


# ===== (d) coins grouped for points ========================================================
def test_line_ireland_whiskey_completes_a_coin_group():
    s = fresh()
    act(s, "USE LR3 Cloister Office with prior")
    act(s, "LR3: take 2 coin")
    assert goods_of(s) == {"coin": 2}
    act(s, "COMMIT")
    give(s, coin=1, whiskey=1, book=1)
    finish(s)
    # goods: 3 coins + whiskey as 2 coins = 5 -> one 5-coin group = 2 (keeping the whiskey: 1)
    #        + book 2 = 4; economic 0; dwelling 0 (no settlement)
    assert goods_of(s) == {"coin": 3, "whiskey": 1, "book": 1}
    assert_final(s, total=4, goods=4, economic=0, dwelling=0)


def test_line_france_four_coins_and_wine_make_two_points():
    s = fresh("france")
    act(s, "USE LR3 Cloister Office with lay brother")
    act(s, "LR3: take 2 coin")
    act(s, "COMMIT")
    give(s, coin=2, wine=1)
    finish(s)
    # goods: 4 coins + wine as 1 coin = 5 -> 2 points (4 coins + wine kept = 0 + 1 = 1)
    assert_final(s, total=2, goods=2, economic=0, dwelling=0)


def test_line_france_seven_coins_and_converted_five_coin_piece():
    s = fresh("france")
    give(s, coin=7)
    act(s, "CONVERT 5 x 1 coin to 5 coins")
    assert goods_of(s) == {"coin": 2, "5 coins": 1}
    act(s, "COMMIT")
    give(s, wine=2)
    finish(s)
    # goods: 7 coins = one group of 5 -> 2, 2 coins left over;
    #        2 wines: converting both gives 9 coins (still one group) = 2 + 0,
    #        keeping both gives 2 + 1 + 1 = 4; converting one: 8 coins = 2 + 1 = 3 -> best 4
    assert_final(s, total=4, goods=4, economic=0, dwelling=0)


# ===== scoring functions on hand-built landscapes ===========================================
def _land(*items) -> Landscape:
    """A heartland with extra plots/districts; items are (col, row, content) placements."""
    land = Landscape.heartland("R")
    for col, row, content in items:
        land.cells[(col, row)][1] = content
    return land


def test_dwelling_of_values():
    assert dwelling_of("S1", RULEBOOK) == -3
    assert dwelling_of("S8", RULEBOOK) == 8
    assert dwelling_of("G07", RULEBOOK) == -2
    assert dwelling_of("G19", RULEBOOK) == -3
    assert dwelling_of("G22", RULEBOOK) == -4
    assert dwelling_of("LR1", RULEBOOK) == 3
    assert dwelling_of("LR3", RULEBOOK) == 2
    assert dwelling_of("forest", RULEBOOK) == 0
    assert dwelling_of(None, RULEBOOK) == 0
    assert dwelling_of("I35", RULEBOOK) == RULEBOOK.round_tower_dwelling == 2
    assert dwelling_of("I35", replace(RULEBOOK, round_tower_dwelling=9)) == 9


def test_settlement_value_heartland_neighbours():
    land = _land((3, 0, "S3"), (3, 1, "S2"))
    # Market Town (3,0): 2 + forest (2,0) 0 + Clay Mound (4,0) 3 + Farming Village (3,1) 1 = 6
    assert settlement_value(land, (3, 0), RULEBOOK) == 6
    # Farming Village (3,1): 1 + Farmyard (2,1) 2 + Cloister Office (4,1) 2 + Market Town 2 = 7
    assert settlement_value(land, (3, 1), RULEBOOK) == 7
    assert economic_value(land) == 2 + 1


def test_settlement_value_coast_water_and_houseboat():
    land = _land()
    land.add_plot(0, "COAST")
    land.cells[(-1, 0)][1] = "S4"
    land.cells[(-1, 1)][1] = "S5"
    land.cells[(-2, 1)][1] = "I11"  # Houseboat on the water beside the Artists' Colony
    # Fishing Village (-1,0): 6 + water 3 + Artists' Colony 5 + moor 0 = 14
    assert settlement_value(land, (-1, 0), RULEBOOK) == 14
    # Artists' Colony (-1,1): 5 + Houseboat 6 (replaces the water's 3, D26) + FV 6 + moor 0 = 17
    assert settlement_value(land, (-1, 1), RULEBOOK) == 17
    assert settlement_value(land, (-1, 1), KENNERSPIEL) == 17
    # without D26 the water's 3 and the Houseboat's 6 both count
    assert settlement_value(land, (-1, 1), replace(RULEBOOK, houseboat_replaces_water=False)) == 20
    # economic: Fishing Village 4 + Artists' Colony -1 + Houseboat 4 = 7
    assert economic_value(land) == 7


def test_settlement_value_mountain_rule():
    land = _land()
    land.add_plot(0, "MOUNTAIN")
    land.cells[(5, 0)][1] = "S6"
    land.cells[(5, 1)][1] = "S8"
    land.cells[(6, 0)][1] = "G28"  # Castle: dwelling 7, counts for both hillsides
    # Hamlet (5,0): 4 + Clay Mound 3 + Hilltop Village 8 + Castle 7 = 22
    assert settlement_value(land, (5, 0), RULEBOOK) == 22
    # Hilltop Village (5,1): 8 + Cloister Office 2 + Hamlet 4 + Castle 7 (NE) = 21
    assert settlement_value(land, (5, 1), RULEBOOK) == 21
    assert sorted(land.neighbours((6, 0))) == [(5, 0), (5, 1)]
    assert (6, 1) not in land.neighbours((5, 1))


def test_settlement_value_stacked_mountain_plots():
    land = _land()
    land.add_plot(0, "MOUNTAIN")
    land.add_plot(2, "MOUNTAIN")
    land.cells[(6, 0)][1] = "G22"   # Quarry of the upper plot: -4
    land.cells[(6, 2)][1] = "G28"   # Castle of the lower plot: 7
    land.cells[(5, 1)][1] = "S2"
    land.cells[(5, 2)][1] = "S3"
    # Farming Village (5,1): 1 + Quarry (6,0) -4 + Cloister Office 2 + Market Town (5,2) 2;
    #   the filler (6,1) is nothing and the lower Castle is not its neighbour = 1
    assert settlement_value(land, (5, 1), RULEBOOK) == 1
    # Market Town (5,2): 2 + Castle (6,2) 7 + Farming Village 1 + no land (4,2) 0;
    #   its NE (6,1) is the upper plot's filler, not the Quarry = 10
    assert settlement_value(land, (5, 2), RULEBOOK) == 10


def test_goods_points_grouping():
    def pts(**kw):
        goods = G.empty()
        for name, n in kw.items():
            goods[G.NICKEL if name == "nickel" else G.BY_NAME[name.replace("_", " ")]] += n
        return G.goods_points(goods)

    assert pts() == 0
    assert pts(coin=4) == 0
    assert pts(coin=4, wine=1) == 2          # wine completes a group (not 0 + 1)
    assert pts(coin=7) == 2
    assert pts(coin=10) == 4
    assert pts(coin=3, whiskey=1) == 2       # whiskey worth 2 coins completes a group
    assert pts(coin=4, whiskey=1) == 2       # 6 coins: 2 (keeping it: 1)
    assert pts(coin=4, wine=2) == 3          # one wine converted (2) + one kept (1)
    assert pts(coin=1, whiskey=2) == 2       # 5 coins -> 2, or keep both whiskeys -> 2
    assert pts(coin=2, whiskey=2) == 2
    assert pts(wine=3) == 3
    assert pts(nickel=1, coin=4) == 2 + 0  # a 5-coin piece counts 2, the 4 loose ones 0
    assert pts(nickel=1, coin=5) == 4
    assert pts(book=1, ceramic=1, ornament=1, reliquary=1, wonder=1) == 2 + 3 + 4 + 8 + 30
    assert pts(wood=9, meat=3, beer=2, peat_coal=5, bread=1) == 0


def test_score_owner_breakdown():
    land = _land((3, 0, "S1"), (3, 1, "G07"))
    goods = G.empty()
    goods[G.COIN] = 6
    goods[G.CERAMIC] = 1
    owner = Owner(colour="R", land=land, clergy=[None] * 3, goods=goods)
    # Shanty Town (3,0): -3 + forest (2,0) 0 + Clay Mound 3 + Peat Coal Kiln -2 = -2
    # economic: Peat Coal Kiln 4; goods: 6 coins 2 + ceramic 3 = 5
    assert score_owner(owner, RULEBOOK) == Score(7, 5, 4, -2)
    assert score_owner(owner, RULEBOOK)["total"] == 7
    assert score_owner(owner, RULEBOOK).as_dict() == {"total": 7, "goods": 5, "economic": 4,
                                                     "dwelling": -2}


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_untouched_game_scores_zero(variant):
    s = fresh(variant)
    assert s.returns() == [0.0]
    finish(s)
    assert_final(s, total=0, goods=0, economic=0, dwelling=0)
