"""Unit tests of every France-only building effect used in the solo game (buildings.md §4).

Each test sets up a position directly (tests/helpers.py), drives the engine through its real
actions (USE / WORK_CONTRACT / OPTION / PAY / FREE_USE / ...) and asserts the exact result.
Heartland layout of seat 0: moors (0,0),(0,1); forests (1,0),(2,0),(1,1); Clay Mound LR1 (4,0)
hillside; Farmyard LR2 (2,1); Cloister Office LR3 (4,1); empty plains (3,0),(3,1).
Neutral (owner 1): Builders' Market G13 (0,0), LG1 (4,0), LG2 (2,1), LG3 (4,1).
"""

from __future__ import annotations

import pytest

from solver.rules import RuleError
from solver.rules import actions as A
from tests.helpers import (
    LB,
    PLACE_ONLY,
    PR,
    act,
    back_at_turn,
    free_targets,
    fresh,
    give,
    goods_of,
    options,
    pay,
    place,
    set_joker,
    texts,
    to_display,
)


def coast(s) -> None:
    s.g.owners[0].land.add_plot(0, "COAST")  # coast at (-1,0), (-1,1)


def mountain(s) -> None:
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")  # hillside (5,0),(5,1), mountain (6,0)


# ----- F03 Grain Storage --------------------------------------------------------------------
def test_grain_storage_pays_one_coin_for_six_grain():
    s = fresh("france")
    place(s, "F03", 3, 0)
    give(s, coin=2)
    act(s, "USE F03 Grain Storage with lay brother")
    assert options(s) == [PLACE_ONLY, "pay 1 coin, take 6 grain, paying 1 coins"]
    act(s, "take 6 grain")
    assert goods_of(s) == {"grain": 6, "coin": 1}
    assert s.g.owners[0].clergy[LB] == [0, 3, 0]
    back_at_turn(s)


def test_grain_storage_breaks_a_five_coin_piece_and_keeps_change():
    s = fresh("france")
    place(s, "F03", 3, 0)
    give(s, **{"5_coins": 1})
    act(s, "USE F03 Grain Storage with prior")
    act(s, "take 6 grain")
    assert goods_of(s) == {"grain": 6, "coin": 4}
    assert s.g.owners[0].clergy[PR] == [0, 3, 0]


def test_grain_storage_without_money_offers_place_only():
    s = fresh("france")
    place(s, "F03", 3, 0)
    give(s, grain=1)
    act(s, "USE F03 Grain Storage with lay brother")
    assert options(s) == [PLACE_ONLY]
    act(s, "place only")
    assert goods_of(s) == {"grain": 1}
    assert s.g.owners[0].clergy[LB] == [0, 3, 0]
    back_at_turn(s)


# ----- F04 Windmill ---------------------------------------------------------------------------
def test_windmill_converts_at_most_seven_grain():
    s = fresh("france")
    mountain(s)
    place(s, "F04", 5, 0)
    give(s, grain=9)
    act(s, "USE F04 Windmill with lay brother")
    opts = options(s)
    assert opts[1:] == [f"{k} grain to {k} flour + {k} straw, paying {k} grain"
                        for k in range(1, 8)]
    assert not any(o.startswith("8 grain") for o in opts)
    act(s, "7 grain to 7 flour")
    assert goods_of(s) == {"grain": 2, "flour": 7, "straw": 7}


def test_windmill_on_coast_partial_conversion():
    s = fresh("france")
    coast(s)
    place(s, "F04", -1, 1)
    give(s, grain=3)
    act(s, "USE F04 Windmill with lay brother")
    assert len(options(s)) == 4  # place only + 1..3
    act(s, "2 grain to 2 flour")
    assert goods_of(s) == {"grain": 1, "flour": 2, "straw": 2}


def test_windmill_without_grain_offers_place_only():
    s = fresh("france")
    mountain(s)
    place(s, "F04", 5, 1)
    give(s, straw=3)
    act(s, "USE F04 Windmill with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F05 Bakery -----------------------------------------------------------------------------
def test_bakery_energy_is_totalled_wood_pays_two_bakings_straw_one():
    s = fresh("france")
    place(s, "F05", 3, 0)
    give(s, flour=3, wood=1, straw=1)
    act(s, "USE F05 Bakery with lay brother")
    act(s, "bake 3 bread, sell 0,")
    pay(s, "wood", "straw")
    assert goods_of(s) == {"bread": 3}
    back_at_turn(s)


def test_bakery_sells_freshly_baked_bread_surplus_energy_lost():
    s = fresh("france")
    place(s, "F05", 3, 0)
    give(s, flour=2, peat=1)
    act(s, "USE F05 Bakery with lay brother")
    act(s, "bake 2 bread, sell 2,")
    pay(s, "peat")  # 2 energy pays 1 needed; the rest is lost
    assert goods_of(s) == {"coin": 8}


def test_bakery_sells_at_most_two_bread():
    s = fresh("france")
    place(s, "F05", 3, 0)
    give(s, bread=5)
    act(s, "USE F05 Bakery with lay brother")
    opts = options(s)
    assert opts == [PLACE_ONLY, "bake 0 bread, sell 1", "bake 0 bread, sell 2"]
    act(s, "bake 0 bread, sell 2")
    assert goods_of(s) == {"bread": 3, "coin": 8}


def test_bakery_lone_straw_cannot_pay_two_bakings():
    s = fresh("france")
    place(s, "F05", 3, 0)
    give(s, flour=2, straw=1)
    act(s, "USE F05 Bakery with lay brother")
    opts = options(s)
    assert any(o.startswith("bake 1 bread, sell 0") for o in opts)
    assert not any(o.startswith("bake 2 bread") for o in opts)


# ----- F08 Market -----------------------------------------------------------------------------
def test_market_takes_four_different_goods_one_tile_each():
    s = fresh("france")
    place(s, "F08", 3, 0)
    give(s, wood=2, grain=1, sheep=1, clay=1, coin=1)
    act(s, "USE F08 Market with lay brother")
    act(s, "give 4 different goods")
    pay(s, "wood")
    assert "PAY 1 wood" not in texts(s)  # a second wood is not a different good
    pay(s, "grain", "sheep", "clay")
    assert goods_of(s) == {"wood": 1, "coin": 8, "bread": 1}
    back_at_turn(s)


def test_market_with_three_kinds_offers_place_only():
    s = fresh("france")
    place(s, "F08", 3, 0)
    give(s, wood=5, grain=5, clay=5)
    act(s, "USE F08 Market with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F09 Cloister Garden --------------------------------------------------------------------
def test_cloister_garden_grape_then_free_use_of_unoccupied_neighbour():
    s = fresh("france")
    place(s, "F09", 3, 1)
    place(s, "F03", 3, 0)
    give(s, coin=1)
    s.g.owners[0].clergy[PR] = [0, 4, 1]  # prior on the Cloister Office: not offered
    act(s, "USE F09 Cloister Garden with lay brother")
    act(s, "take 1 grapes")
    assert goods_of(s) == {"coin": 1, "grapes": 1}
    assert free_targets(s) == ["F03", "LR2"]
    act(s, "FREE_USE F03")
    act(s, "take 6 grain")
    assert goods_of(s) == {"grain": 6, "grapes": 1}
    # the free use placed no clergyman
    assert s.g.owners[0].clergy == [[0, 3, 1], None, [0, 4, 1]]
    back_at_turn(s)


def test_cloister_garden_free_use_may_be_declined():
    s = fresh("france")
    place(s, "F09", 3, 1)
    act(s, "USE F09 Cloister Garden with lay brother")
    act(s, "take 1 grapes")
    assert free_targets(s) == ["LR2", "LR3"]
    act(s, "SKIP")
    assert goods_of(s) == {"grapes": 1}
    back_at_turn(s)


def test_cloister_garden_chain_cannot_come_back_through_garden():
    # Garden (own prior on it) -> Priory neighbour -> buildings with a prior: the Garden is
    # excluded, the neutral prior's Clay Mound is offered.
    s = fresh("france")
    place(s, "F09", 3, 1)
    place(s, "G01", 3, 0)
    s.g.owners[1].clergy[PR] = [1, 4, 0]
    act(s, "USE F09 Cloister Garden with prior")
    act(s, "take 1 grapes")
    assert "G01" in free_targets(s)
    act(s, "FREE_USE G01")
    act(s, "free use of a building with a prior")
    assert free_targets(s) == ["LG1"]
    act(s, "FREE_USE LG1")
    act(s, "LG1: take 2 clay")
    assert goods_of(s) == {"clay": 2, "grapes": 1}


def test_cloister_garden_by_work_contract_uses_neutral_neighbours_for_the_contractor():
    s = fresh("france")
    place(s, "F09", 3, 1, owner=1)
    give(s, coin=1)
    act(s, "WORK_CONTRACT F09 Cloister Garden (lay brother, paying 1 coins)")
    act(s, "take 1 grapes")
    assert free_targets(s) == ["LG2", "LG3"]
    act(s, "FREE_USE LG3")
    act(s, "LG3: take 2 coin")
    assert goods_of(s) == {"coin": 2, "grapes": 1}
    assert s.g.owners[1].clergy[LB] == [1, 3, 1]
    assert s.g.owners[0].clergy == [None, None, None]
    assert s.g.wheel.yield_of("coin") == 0


def test_cloister_garden_mountain_neighbour_qualifies_settlement_does_not():
    s = fresh("france")
    mountain(s)
    place(s, "F09", 5, 1)  # touches the Cloister Office at (4, 1)
    place(s, "G22", 6, 0)  # the mountain neighbours both hillside spaces
    s.g.owners[0].land.cells[(5, 0)][1] = "S1"  # a settlement is not a building
    set_joker(s, 2)
    act(s, "USE F09 Cloister Garden with lay brother")
    act(s, "take 1 grapes")
    assert free_targets(s) == ["G22", "LR3"]
    act(s, "FREE_USE G22")
    act(s, "take 3 stone with the joker")
    assert goods_of(s) == {"grapes": 1, "stone": 3}


# ----- F11 Harbor Promenade -------------------------------------------------------------------
def test_harbor_promenade_gives_wood_wine_coin_ceramic():
    s = fresh("france")
    coast(s)
    place(s, "F11", -1, 0)
    act(s, "USE F11 Harbor Promenade with lay brother")
    assert options(s) == [PLACE_ONLY, "take 1 wood, 1 wine, 1 coin, 1 ceramic"]
    act(s, "take 1 wood, 1 wine")
    assert goods_of(s) == {"wood": 1, "wine": 1, "coin": 1, "ceramic": 1}


# ----- F15 Financed Estate --------------------------------------------------------------------
def test_financed_estate_coin_for_book_bread_grapes_flour():
    s = fresh("france")
    place(s, "F15", 3, 0)
    give(s, coin=1)
    act(s, "USE F15 Financed Estate with lay brother")
    act(s, "pay 1 coin, take 1 book")
    assert goods_of(s) == {"book": 1, "bread": 1, "grapes": 2, "flour": 2}


def test_financed_estate_without_coin_offers_place_only():
    s = fresh("france")
    place(s, "F15", 3, 0)
    give(s, grain=3)
    act(s, "USE F15 Financed Estate with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F17 Cloister Library -------------------------------------------------------------------
def test_cloister_library_buys_at_most_three_books_and_trades_a_fresh_one():
    s = fresh("france")
    place(s, "F17", 3, 1)
    give(s, coin=5)
    act(s, "USE F17 Cloister Library with lay brother")
    opts = options(s)
    assert len(opts) == 1 + 3 * 2
    assert not any(o.startswith("buy 4") for o in opts)
    assert not any("trade 2" in o for o in opts)
    act(s, "buy 3 books, trade 1 book")
    assert goods_of(s) == {"coin": 2, "book": 2, "meat": 1, "wine": 1}


def test_cloister_library_trade_only_with_a_held_book():
    s = fresh("france")
    place(s, "F17", 3, 1)
    give(s, book=1)
    act(s, "USE F17 Cloister Library with lay brother")
    assert options(s) == [PLACE_ONLY, "buy 0 books, trade 1 book for meat + wine"]
    act(s, "trade 1 book")
    assert goods_of(s) == {"meat": 1, "wine": 1}


def test_cloister_library_by_work_contract_on_neutral():
    s = fresh("france")
    place(s, "F17", 3, 1, owner=1)
    give(s, coin=2)
    act(s, "WORK_CONTRACT F17 Cloister Library (prior, paying 1 coins)")
    assert s.g.owners[1].clergy[PR] == [1, 3, 1]
    opts = options(s)
    assert not any(o.startswith("buy 2") for o in opts)  # 1 coin left after the fee
    act(s, "buy 1 books, trade 0")
    assert goods_of(s) == {"book": 1}
    assert s.g.owners[0].clergy == [None, None, None]


# ----- F20 Inn --------------------------------------------------------------------------------
def test_inn_seven_food_and_one_wine_to_thirteen_coins():
    s = fresh("france")
    place(s, "F20", 3, 0)
    give(s, meat=1, bread=1, wine=1)
    act(s, "USE F20 Inn with lay brother")
    opts = options(s)
    assert not any(o.startswith("8 food") for o in opts)
    assert not any("2 wine" in o for o in opts)
    act(s, "7 food to 7 coins, 1 wine to 6 coins")
    pay(s, "meat", "bread")  # 8 food for 7: one food is lost
    assert goods_of(s) == {"coin": 13}


def test_inn_wine_only():
    s = fresh("france")
    place(s, "F20", 3, 0)
    give(s, wine=1, grain=2)
    act(s, "USE F20 Inn with lay brother")
    act(s, "0 food to 0 coins, 1 wine to 6 coins")
    assert goods_of(s) == {"coin": 6, "grain": 2}


def test_inn_without_food_or_wine_offers_place_only():
    s = fresh("france")
    place(s, "F20", 3, 0)
    give(s, wood=3)
    act(s, "USE F20 Inn with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F21 Winery -----------------------------------------------------------------------------
def test_winery_presses_any_number_and_sells_one():
    s = fresh("france")
    place(s, "F21", 3, 0)
    give(s, grapes=3)
    act(s, "USE F21 Winery with lay brother")
    opts = options(s)
    assert "press 3 wine, sell 1, paying 3 grapes" in opts
    assert not any("sell 2" in o for o in opts)
    act(s, "press 3 wine, sell 1")
    assert goods_of(s) == {"wine": 2, "coin": 7}


def test_winery_sells_held_wine_without_grapes():
    s = fresh("france")
    place(s, "F21", 3, 0)
    give(s, wine=2)
    act(s, "USE F21 Winery with lay brother")
    assert options(s) == [PLACE_ONLY, "press 0 wine, sell 1"]
    act(s, "press 0 wine, sell 1")
    assert goods_of(s) == {"wine": 1, "coin": 7}


def test_winery_built_raises_work_contract_fee_to_two_coins():
    s = fresh("france")
    to_display(s, "F21")
    give(s, clay=2, straw=2, coin=3)
    assert s.fee() == 1
    assert "WORK_CONTRACT G13 Builders' Market (lay brother, paying 1 coins)" in texts(s)
    act(s, "BUILD F21 Winery at (3, 0)")
    act(s, "SKIP")  # no prior bonus use
    act(s, "COMMIT")
    assert s.fee() == 2
    contracts = [t for t in texts(s) if t.startswith("WORK_CONTRACT G13")]
    assert contracts == ["WORK_CONTRACT G13 Builders' Market (lay brother, paying 2 coins)",
                         "WORK_CONTRACT G13 Builders' Market (prior, paying 2 coins)"]
    act(s, "WORK_CONTRACT G13 Builders' Market (lay brother, paying 2 coins)")
    assert goods_of(s) == {"coin": 1}


def test_winery_fee_can_still_be_paid_with_wine():
    s = fresh("france")
    place(s, "F21", 3, 0)  # helper marks the fee raised, as a build does
    give(s, wine=1)
    assert s.fee() == 2
    act(s, "WORK_CONTRACT LG1 Clay Mound (lay brother, paying wine)")
    assert goods_of(s) == {}
    assert s.frame["f"] == "option"


def test_winery_built_by_neutral_raises_fee_for_settlement_phase_contract():
    s = fresh("france")
    s.g.display[:] = ["F21"]
    give(s, coin=5, grapes=2)
    while s.frame["f"] == "turn":  # pass rounds 1-11
        act(s, "COMMIT")
    assert s.round == 12 and s.frame["f"] == "neutral_build"
    act(s, "NEUTRAL_BUILD F21 Winery at (3, 0)")
    assert s.g.owners[1].land.content((3, 0)) == "F21"
    assert s.fee() == 2
    assert s.frame["f"] == "neutral_contract"
    assert [t for t in texts(s) if t.startswith("WORK_CONTRACT")] == [
        "WORK_CONTRACT F21 Winery (prior, paying 2 coins)"]
    act(s, "WORK_CONTRACT F21 Winery (prior, paying 2 coins)")
    act(s, "press 2 wine, sell 1")
    assert goods_of(s) == {"coin": 10, "wine": 1}
    assert s.g.owners[1].clergy[PR] == [1, 3, 0]


# ----- F23 Bathhouse --------------------------------------------------------------------------
def test_bathhouse_returns_all_clergy_including_the_one_placed():
    s = fresh("france")
    place(s, "F23", 3, 1)
    give(s, coin=1)
    s.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s, "USE F23 Bathhouse with lay brother")
    act(s, "pay 1 coin, take 1 book")
    assert goods_of(s) == {"book": 1, "ceramic": 1}
    assert s.g.owners[0].clergy == [None, None, None]
    back_at_turn(s)
    act(s, "COMMIT")  # second turn of the round: clergy are available again
    assert "USE F23 Bathhouse with prior" in texts(s)
    assert "USE LR1 Clay Mound with lay brother" in texts(s)


def test_bathhouse_without_coin_no_goods_no_recall():
    s = fresh("france")
    place(s, "F23", 3, 1)
    s.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s, "USE F23 Bathhouse with lay brother")
    assert options(s) == [PLACE_ONLY]
    act(s, "place only")
    assert s.g.owners[0].clergy == [[0, 3, 1], None, [0, 4, 0]]
    assert goods_of(s) == {}


def test_bathhouse_by_work_contract_recalls_user_clergy_only():
    s = fresh("france")
    place(s, "F23", 3, 1, owner=1)
    give(s, coin=2)
    s.g.owners[0].clergy[LB] = [0, 4, 0]
    s.g.owners[0].clergy[PR] = [0, 2, 1]
    act(s, "WORK_CONTRACT F23 Bathhouse (lay brother, paying 1 coins)")
    act(s, "pay 1 coin, take 1 book")
    assert goods_of(s) == {"book": 1, "ceramic": 1}
    assert s.g.owners[0].clergy == [None, None, None]
    assert s.g.owners[1].clergy == [[1, 3, 1], None, None]


# ----- F24 Cloister Church --------------------------------------------------------------------
def test_cloister_church_at_most_two_reliquaries():
    s = fresh("france")
    place(s, "F24", 3, 1)
    give(s, bread=3, wine=3)
    act(s, "USE F24 Cloister Church with lay brother")
    assert options(s) == [PLACE_ONLY,
                          "1 bread + 1 wine to 1 reliquary, paying 1 bread, 1 wine",
                          "2 bread + 2 wine to 2 reliquary, paying 2 bread, 2 wine"]
    act(s, "2 bread + 2 wine")
    assert goods_of(s) == {"bread": 1, "wine": 1, "reliquary": 2}


def test_cloister_church_needs_wine_as_well_as_bread():
    s = fresh("france")
    place(s, "F24", 3, 1)
    give(s, bread=2)
    act(s, "USE F24 Cloister Church with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F25 Chamber of Wonders -----------------------------------------------------------------
THIRTEEN = ("wood", "grain", "straw", "sheep", "clay", "peat", "coin", "book", "stone",
            "grapes", "wine", "flour", "bread")


def test_chamber_of_wonders_thirteen_different_goods_for_a_wonder():
    s = fresh("france")
    place(s, "F25", 3, 0)
    give(s, **{g: 1 for g in THIRTEEN})
    give(s, wood=1)
    act(s, "USE F25 Chamber of Wonders with lay brother")
    act(s, "give 13 different goods, take a wonder")
    pay(s, *THIRTEEN)
    assert goods_of(s) == {"wood": 1, "wonder": 1}
    assert s.g.wonders_left == 7


def test_chamber_of_wonders_twelve_kinds_offers_place_only():
    s = fresh("france")
    place(s, "F25", 3, 0)
    give(s, **{g: 3 for g in THIRTEEN[:12]})
    act(s, "USE F25 Chamber of Wonders with lay brother")
    assert options(s) == [PLACE_ONLY]


def test_chamber_of_wonders_empty_wonder_supply_offers_place_only():
    s = fresh("france")
    place(s, "F25", 3, 0)
    give(s, **{g: 1 for g in THIRTEEN})
    s.g.wonders_left = 0
    act(s, "USE F25 Chamber of Wonders with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F27 Palace -----------------------------------------------------------------------------
def test_palace_wine_for_free_use_of_an_occupied_building_neutral_included():
    s = fresh("france")
    mountain(s)
    place(s, "F27", 5, 0)
    give(s, wine=2, coin=2)
    s.g.owners[0].clergy[LB] = [0, 4, 0]  # own lay brother on the Clay Mound
    s.g.owners[1].clergy[LB] = [1, 0, 0]  # neutral lay brother on the Builders' Market
    act(s, "USE F27 Palace with lay brother")
    act(s, "free use of an occupied building, paying 1 wine")
    assert goods_of(s) == {"wine": 1, "coin": 2}
    assert free_targets(s) == ["G13", "LR1"]  # not the Palace itself, not unoccupied ones
    act(s, "FREE_USE G13")
    act(s, "pay 2 coins")
    assert goods_of(s) == {"wine": 1, "wood": 2, "clay": 2, "stone": 1, "straw": 1}
    assert s.g.owners[1].clergy == [[1, 0, 0], None, None]


def test_palace_without_wine_offers_place_only():
    s = fresh("france")
    mountain(s)
    place(s, "F27", 5, 1)
    give(s, coin=5)
    s.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s, "USE F27 Palace with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F30 Town Estate ------------------------------------------------------------------------
def test_town_estate_ceramic_for_twelve_coins():
    s = fresh("france")
    place(s, "F30", 3, 0)
    give(s, ceramic=2)
    act(s, "USE F30 Town Estate with lay brother")
    act(s, "pay 1 ceramic, take 12 coins")
    assert goods_of(s) == {"ceramic": 1, "coin": 12}


def test_town_estate_without_ceramic_offers_place_only():
    s = fresh("france")
    place(s, "F30", 3, 0)
    give(s, clay=3)
    act(s, "USE F30 Town Estate with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F32 Calefactory ------------------------------------------------------------------------
def test_calefactory_fell_and_cut_after_one_coin():
    s = fresh("france")
    place(s, "F32", 3, 1)
    give(s, coin=1)
    set_joker(s, 4)  # joker yields 5
    act(s, "USE F32 Calefactory with lay brother")
    act(s, "pay 1 coin, then fell trees")
    assert s.frame["f"] == "grant_fell_cut"
    act(s, "FELL_TREES at (1, 0)")  # own wood token: 2
    assert not any(t.startswith("FELL_TREES") for t in texts(s))
    act(s, "CUT_PEAT at (0, 1) with the joker")
    land = s.g.owners[0].land
    assert land.content((1, 0)) is None and land.content((0, 1)) is None
    assert land.content((2, 0)) == "forest" and land.content((0, 0)) == "moor"
    assert goods_of(s) == {"wood": 2, "peat": 5}
    assert s.g.wheel.yield_of("joker") == 0 and s.g.wheel.yield_of("wood") == 0
    assert s.g.wheel.yield_of("peat") == 2  # the joker was used, not the peat token
    back_at_turn(s)


def test_calefactory_cut_only_then_skip():
    s = fresh("france")
    place(s, "F32", 3, 1)
    give(s, coin=1)
    act(s, "USE F32 Calefactory with lay brother")
    act(s, "pay 1 coin")
    act(s, "CUT_PEAT at (0, 0)")
    assert any(t.startswith("FELL_TREES") for t in texts(s))
    act(s, "SKIP")
    assert goods_of(s) == {"peat": 2}
    assert len(s.g.owners[0].land.features("forest")) == 3
    back_at_turn(s)


def test_calefactory_without_coin_offers_place_only():
    s = fresh("france")
    place(s, "F32", 3, 1)
    act(s, "USE F32 Calefactory with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F33 Shipping Company -------------------------------------------------------------------
def test_shipping_company_three_energy_for_joker_value_of_bread():
    s = fresh("france")
    coast(s)
    place(s, "F33", -1, 0)
    give(s, peat_coal=1)
    set_joker(s, 4)
    act(s, "USE F33 Shipping Company with lay brother")
    assert options(s)[1:] == [f"3 energy for 5 {g} (joker), paying 3 energy"
                              for g in ("meat", "bread", "wine")]
    act(s, "5 bread")
    pay(s, "peat coal")
    assert goods_of(s) == {"bread": 5}
    assert s.g.wheel.yield_of("joker") == 0


def test_shipping_company_with_joker_gone_energy_buys_nothing():
    s = fresh("france")
    coast(s)
    place(s, "F33", -1, 1)
    give(s, wood=3)
    del s.g.wheel.tokens["joker"]
    act(s, "USE F33 Shipping Company with lay brother")
    act(s, "0 meat")
    pay(s, "wood", "wood", "wood")
    assert goods_of(s) == {}


def test_shipping_company_under_three_energy_offers_place_only():
    s = fresh("france")
    coast(s)
    place(s, "F33", -1, 0)
    give(s, peat=1, straw=1)  # 2.5 energy
    act(s, "USE F33 Shipping Company with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F35 Forger's Workshop ------------------------------------------------------------------
def test_forgers_workshop_5_15_25_coins():
    s = fresh("france")
    place(s, "F35", 3, 0)
    give(s, coin=25)
    act(s, "USE F35 Forger's Workshop with lay brother")
    assert options(s) == [PLACE_ONLY, "1 reliquaries for 5 coins, paying 5 coins",
                          "2 reliquaries for 15 coins, paying 15 coins",
                          "3 reliquaries for 25 coins, paying 25 coins"]
    act(s, "3 reliquaries for 25 coins")
    assert goods_of(s) == {"reliquary": 3}


def test_forgers_workshop_fifteen_coins_in_five_coin_pieces_two_reliquaries():
    s = fresh("france")
    place(s, "F35", 3, 0)
    give(s, **{"5_coins": 3})
    act(s, "USE F35 Forger's Workshop with lay brother")
    act(s, "2 reliquaries for 15 coins")
    assert goods_of(s) == {"reliquary": 2}


def test_forgers_workshop_24_coins_buy_two_and_keep_change():
    s = fresh("france")
    place(s, "F35", 3, 0)
    give(s, **{"5_coins": 4, "coin": 4})
    act(s, "USE F35 Forger's Workshop with lay brother")
    assert not any(o.startswith("3 reliquaries") for o in options(s))
    act(s, "2 reliquaries for 15 coins")
    g = goods_of(s)
    assert g["reliquary"] == 2
    assert g.get("coin", 0) + 5 * g.get("5 coins", 0) == 9


def test_forgers_workshop_under_five_coins_offers_place_only():
    s = fresh("france")
    place(s, "F35", 3, 0)
    give(s, coin=4)
    act(s, "USE F35 Forger's Workshop with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F36 Pilgrimage Site --------------------------------------------------------------------
def test_pilgrimage_site_second_upgrade_may_use_the_first_result():
    s = fresh("france")
    place(s, "F36", 3, 0)
    give(s, book=1)
    act(s, "USE F36 Pilgrimage Site with lay brother")
    assert options(s) == [PLACE_ONLY, "upgrade book", "upgrade book then ceramic"]
    act(s, "upgrade book then ceramic")
    assert goods_of(s) == {"ornament": 1}


def test_pilgrimage_site_at_most_two_upgrades():
    s = fresh("france")
    place(s, "F36", 3, 0)
    give(s, book=1, ornament=1)
    act(s, "USE F36 Pilgrimage Site with lay brother")
    opts = options(s)[1:]
    assert sorted(opts) == sorted(["upgrade book", "upgrade ornament",
                                   "upgrade book then ceramic", "upgrade book then ornament"])
    act(s, "upgrade book then ornament")
    assert goods_of(s) == {"ceramic": 1, "reliquary": 1}


def test_pilgrimage_site_two_different_single_upgrades():
    s = fresh("france")
    place(s, "F36", 3, 0)
    give(s, book=2)
    act(s, "USE F36 Pilgrimage Site with lay brother")
    opts = options(s)[1:]
    assert "upgrade book then book" in opts
    act(s, "upgrade book then book")
    assert goods_of(s) == {"ceramic": 2}


def test_pilgrimage_site_nothing_to_upgrade_offers_place_only():
    s = fresh("france")
    place(s, "F36", 3, 0)
    give(s, reliquary=2, coin=6)
    act(s, "USE F36 Pilgrimage Site with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F37 Dormitory --------------------------------------------------------------------------
def test_dormitory_bare_use_still_gives_ceramic():
    s = fresh("france")
    place(s, "F37", 3, 1)
    act(s, "USE F37 Dormitory with lay brother")
    assert options(s) == [PLACE_ONLY, "take 1 ceramic, 0 straw + wood to book"]
    act(s, "take 1 ceramic, 0 straw")
    assert goods_of(s) == {"ceramic": 1}


def test_dormitory_straw_and_wood_to_books_grain_flipped():
    s = fresh("france")
    place(s, "F37", 3, 1)
    give(s, straw=1, grain=1, wood=3)
    act(s, "USE F37 Dormitory with lay brother")
    opts = options(s)
    assert not any("3 straw" in o for o in opts)
    act(s, "take 1 ceramic, 2 straw + wood")
    assert goods_of(s) == {"wood": 1, "ceramic": 1, "book": 2}


# ----- F38 Printing Office --------------------------------------------------------------------
def test_printing_office_removes_chosen_forests_for_books():
    s = fresh("france")
    place(s, "F38", 3, 0)
    act(s, "USE F38 Printing Office with lay brother")
    assert options(s)[1:] == [f"remove {k} forests for {k} books" for k in (1, 2, 3)]
    act(s, "remove 2 forests")
    assert s.frame["f"] == "pick_cells"
    act(s, "PICK_CELL (2, 0)")
    assert texts(s) == ["PICK_CELL (1, 1)"]
    act(s, "PICK_CELL (1, 1)")
    land = s.g.owners[0].land
    assert land.features("forest") == [(1, 0)]
    assert land.content((2, 0)) is None and land.content((1, 1)) is None
    assert land.features("moor") == [(0, 0), (0, 1)]
    assert goods_of(s) == {"book": 2}


def test_printing_office_at_most_four_forests():
    s = fresh("france")
    s.g.owners[0].land.add_district(-1, "HILLS")  # 2 more forests: 5 in all
    place(s, "F38", 3, 0)
    assert len(s.g.owners[0].land.features("forest")) == 5
    act(s, "USE F38 Printing Office with lay brother")
    opts = options(s)
    assert opts[-1] == "remove 4 forests for 4 books"
    assert not any(o.startswith("remove 5") for o in opts)
    act(s, "remove 4 forests")
    for _ in range(4):
        act(s, texts(s)[0])
    assert len(s.g.owners[0].land.features("forest")) == 1
    assert goods_of(s) == {"book": 4}


def test_printing_office_by_work_contract_removes_the_users_forests():
    s = fresh("france")
    place(s, "F38", 3, 0, owner=1)
    give(s, coin=1)
    act(s, "WORK_CONTRACT F38 Printing Office (lay brother, paying 1 coins)")
    act(s, "remove 1 forests")
    act(s, "PICK_CELL (1, 1)")
    assert s.g.owners[0].land.content((1, 1)) is None
    assert goods_of(s) == {"book": 1}


def test_printing_office_without_forest_offers_place_only():
    s = fresh("france")
    place(s, "F38", 3, 0)
    for c in s.g.owners[0].land.features("forest"):
        s.g.owners[0].land.cells[c][1] = None
    act(s, "USE F38 Printing Office with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- F40 Hospice ----------------------------------------------------------------------------
def test_hospice_free_use_of_an_unbuilt_display_building_which_stays():
    s = fresh("france")
    place(s, "F40", 3, 1)
    give(s, coin=1)
    display = sorted(s.g.display)
    act(s, "USE F40 Hospice with lay brother")
    act(s, "free use of a display building")
    assert free_targets(s) == display
    assert "G13" not in free_targets(s)  # the neutral's Builders' Market is never displayed
    act(s, "FREE_USE F03")
    act(s, "take 6 grain")
    assert goods_of(s) == {"grain": 6}
    assert "F03" in s.g.display
    assert s.g.owners[0].clergy == [[0, 3, 1], None, None]


def test_hospice_unbuilt_cloister_garden_gives_only_the_grape():
    s = fresh("france")
    place(s, "F40", 3, 1)
    act(s, "USE F40 Hospice with lay brother")
    act(s, "free use of a display building")
    act(s, "FREE_USE F09")
    act(s, "take 1 grapes")
    assert goods_of(s) == {"grapes": 1}
    back_at_turn(s)  # no neighbour free use follows


def test_hospice_unbuilt_winery_does_not_raise_the_fee():
    s = fresh("france")
    place(s, "F40", 3, 1)
    to_display(s, "F21")
    give(s, grapes=1)
    act(s, "USE F40 Hospice with lay brother")
    act(s, "free use of a display building")
    act(s, "FREE_USE F21")
    act(s, "press 1 wine, sell 0")
    assert goods_of(s) == {"wine": 1}
    assert s.fee() == 1 and "F21" in s.g.display


def test_hospice_unbuilt_palace_still_costs_wine():
    s = fresh("france")
    place(s, "F40", 3, 1)
    to_display(s, "F27")
    s.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s, "USE F40 Hospice with lay brother")
    act(s, "free use of a display building")
    act(s, "FREE_USE F27")
    assert options(s) == [PLACE_ONLY]  # no wine
    s2 = fresh("france")
    place(s2, "F40", 3, 1)
    to_display(s2, "F27")
    give(s2, wine=1)
    s2.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s2, "USE F40 Hospice with lay brother")
    act(s2, "free use of a display building")
    act(s2, "FREE_USE F27")
    act(s2, "paying 1 wine")
    # occupied: LR1 and the Hospice itself, but a chain never reuses a building
    assert free_targets(s2) == ["LR1"]
    act(s2, "FREE_USE LR1")
    act(s2, "LR1: take 2 clay")
    assert goods_of(s2) == {"clay": 2}


def test_hospice_unbuilt_priory_passes_on_its_free_use():
    s = fresh("france")
    place(s, "F40", 3, 1)
    s.g.owners[1].clergy[PR] = [1, 2, 1]  # neutral prior on its Farmyard
    act(s, "USE F40 Hospice with lay brother")
    act(s, "free use of a display building")
    act(s, "FREE_USE G01")
    act(s, "free use of a building with a prior")
    assert free_targets(s) == ["LG2"]
    act(s, "FREE_USE LG2")
    act(s, "LG2: take 2 sheep")
    assert goods_of(s) == {"sheep": 2}


def test_hospice_with_empty_display_offers_place_only():
    s = fresh("france")
    place(s, "F40", 3, 1)
    s.g.display.clear()
    act(s, "USE F40 Hospice with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- illegal actions ------------------------------------------------------------------------
def test_rule_error_using_an_unbuilt_building_leaves_state_unchanged():
    s = fresh("france")
    bad = A.make("USE", "F04", flag=0)
    assert bad not in s.legal_actions()
    before = s.to_dict()
    with pytest.raises(RuleError):
        s.apply_action(bad)
    assert s.to_dict() == before


def test_rule_error_paying_with_a_tile_that_pays_nothing_leaves_state_unchanged():
    s = fresh("france")
    place(s, "G12", 3, 0)
    give(s, meat=1, peat=1, clay=1)
    act(s, "USE G12 Stone Merchant with lay brother")
    act(s, "1 stone")
    before = s.to_dict()
    with pytest.raises(RuleError):
        s.apply_action(A.make("PAY", flag=6))  # clay: neither food nor energy
    assert s.to_dict() == before
