"""Unit tests of every G building (same card in both variants) used in the solo game.

Each test runs in both variants. Heartland of seat 0: moors (0,0),(0,1); forests (1,0),(2,0),
(1,1); Clay Mound LR1 (4,0) hillside; Farmyard LR2 (2,1); Cloister Office LR3 (4,1); empty
plains (3,0),(3,1). Neutral (owner 1): Builders' Market G13 at (0,0), LG1 (4,0), LG2 (2,1),
LG3 (4,1).
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
)

VARIANTS = pytest.mark.parametrize("variant", ["france", "ireland"])












# ----- G01 Priory -----------------------------------------------------------------------------
@VARIANTS
def test_priory_free_use_of_building_with_a_prior_lay_brothers_do_not_count(variant):
    s = fresh(variant)
    place(s, "G01", 3, 1)
    s.g.owners[0].clergy[PR] = [0, 4, 0]  # own prior on the Clay Mound
    s.g.owners[0].clergy[1] = [0, 2, 1]  # own lay brother on the Farmyard: not a target
    s.g.owners[1].clergy[LB] = [1, 0, 0]  # neutral lay brother: not a target
    act(s, "USE G01 Priory with lay brother")
    act(s, "free use of a building with a prior on it")
    assert free_targets(s) == ["LR1"]
    act(s, "FREE_USE LR1")
    act(s, "LR1: take 2 clay")
    assert goods_of(s) == {"clay": 2}
    assert s.g.owners[0].clergy == [[0, 3, 1], [0, 2, 1], [0, 4, 0]]  # nobody moved
    back_at_turn(s)


@VARIANTS
def test_priory_with_own_prior_reaches_the_neutral_prior_not_itself(variant):
    s = fresh(variant)
    place(s, "G01", 3, 1)
    give(s, coin=2)
    s.g.owners[1].clergy[PR] = [1, 0, 0]  # neutral prior on the Builders' Market
    act(s, "USE G01 Priory with prior")
    act(s, "free use of a building with a prior on it")
    assert free_targets(s) == ["G13"]
    act(s, "FREE_USE G13")
    act(s, "pay 2 coins, take 2 wood")
    assert goods_of(s) == {"wood": 2, "clay": 2, "stone": 1, "straw": 1}
    assert s.g.owners[1].clergy == [None, None, [1, 0, 0]]


@VARIANTS
def test_priory_with_no_other_prior_placed_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G01", 3, 1)
    act(s, "USE G01 Priory with prior")  # only the Priory itself carries a prior
    assert options(s) == [PLACE_ONLY]


# ----- G02 Cloister Courtyard -----------------------------------------------------------------
@VARIANTS
def test_cloister_courtyard_three_different_goods_for_six_of_a_basic_good(variant):
    s = fresh(variant)
    place(s, "G02", 3, 1)
    give(s, wood=2, grain=1, straw=1, coin=1)
    act(s, "USE G02 Cloister Courtyard with lay brother")
    outs = sorted(o.split("take 6 ")[1].split(",")[0] for o in options(s)[1:])
    assert outs == sorted(["peat", "sheep", "wood", "clay", "coin", "grain"])
    act(s, "take 6 grain")
    pay(s, "wood")
    assert "PAY 1 wood" not in texts(s)
    pay(s, "grain", "straw")  # grain and straw are different goods; output may be an input
    assert goods_of(s) == {"wood": 1, "grain": 6, "coin": 1}


@VARIANTS
def test_cloister_courtyard_two_kinds_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G02", 3, 1)
    give(s, wood=5, grain=5)
    act(s, "USE G02 Cloister Courtyard with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G06 Fuel Merchant ----------------------------------------------------------------------
@VARIANTS
def test_fuel_merchant_six_energy_tier_gives_eight_coins(variant):
    s = fresh(variant)
    place(s, "G06", 3, 0)
    give(s, peat_coal=2, straw=1)  # 6.5 energy: tiers 3 and 6 only
    act(s, "USE G06 Fuel Merchant with lay brother")
    assert options(s) == [PLACE_ONLY, "3 energy for 5 coins, paying 3 energy",
                          "6 energy for 8 coins, paying 6 energy"]
    act(s, "6 energy for 8 coins")
    pay(s, "peat coal", "peat coal")
    assert goods_of(s) == {"straw": 1, "coin": 8}


@VARIANTS
def test_fuel_merchant_nine_energy_ten_coins_surplus_lost(variant):
    s = fresh(variant)
    place(s, "G06", 3, 0)
    give(s, peat=5)
    act(s, "USE G06 Fuel Merchant with lay brother")
    act(s, "9 energy for 10 coins")
    pay(s, "peat", "peat", "peat", "peat", "peat")  # 10 energy for 9
    assert goods_of(s) == {"coin": 10}


@VARIANTS
def test_fuel_merchant_under_three_energy_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G06", 3, 0)
    give(s, peat=1, straw=1)
    act(s, "USE G06 Fuel Merchant with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G07 Peat Coal Kiln ---------------------------------------------------------------------
@VARIANTS
def test_peat_coal_kiln_coal_and_coin_plus_chosen_peat_converted(variant):
    s = fresh(variant)
    place(s, "G07", 3, 0)
    give(s, peat=3)
    act(s, "USE G07 Peat Coal Kiln with lay brother")
    assert len(options(s)) == 1 + 4  # convert 0..3
    act(s, "convert 2 peat")
    assert goods_of(s) == {"peat": 1, "peat coal": 3, "coin": 1}


@VARIANTS
def test_peat_coal_kiln_without_peat_still_gives_coal_and_coin(variant):
    s = fresh(variant)
    place(s, "G07", 3, 0)
    act(s, "USE G07 Peat Coal Kiln with lay brother")
    assert options(s) == [PLACE_ONLY, "take 1 peat coal + 1 coin, convert 0 peat"]
    act(s, "convert 0 peat")
    assert goods_of(s) == {"peat coal": 1, "coin": 1}


# ----- G12 Stone Merchant ---------------------------------------------------------------------
@VARIANTS
def test_stone_merchant_one_meat_and_one_peat_pay_for_two_stone(variant):
    s = fresh(variant)
    place(s, "G12", 3, 0)
    give(s, meat=1, peat=1)
    act(s, "USE G12 Stone Merchant with lay brother")
    assert options(s) == [PLACE_ONLY, "1 stone, paying 2 food + 1 energy",
                          "2 stone, paying 4 food + 2 energy"]
    act(s, "2 stone")
    pay(s, "meat", "peat")
    assert goods_of(s) == {"stone": 2}


@VARIANTS
def test_stone_merchant_at_most_five_stone(variant):
    s = fresh(variant)
    place(s, "G12", 3, 0)
    give(s, meat=4, peat_coal=4)
    act(s, "USE G12 Stone Merchant with lay brother")
    opts = options(s)
    assert [o.split(",")[0] for o in opts[1:]] == [f"{k} stone" for k in range(1, 6)]
    act(s, "5 stone")
    pay(s, "meat", "meat", "peat coal", "peat coal")
    assert goods_of(s) == {"meat": 2, "peat coal": 2, "stone": 5}


@VARIANTS
def test_stone_merchant_food_without_energy_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G12", 3, 0)
    give(s, meat=3)
    act(s, "USE G12 Stone Merchant with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G13 Builders' Market (neutral, by work contract) ---------------------------------------
@VARIANTS
def test_builders_market_work_contract_fee_then_two_coins(variant):
    s = fresh(variant)
    give(s, coin=3)
    act(s, "WORK_CONTRACT G13 Builders' Market (lay brother, paying 1 coins)")
    assert goods_of(s) == {"coin": 2}  # the fee goes to no one
    assert s.g.owners[1].clergy == [[1, 0, 0], None, None]
    act(s, "pay 2 coins, take 2 wood, 2 clay, 1 stone, 1 straw")
    assert goods_of(s) == {"wood": 2, "clay": 2, "stone": 1, "straw": 1}
    assert s.g.owners[0].clergy == [None, None, None]
    back_at_turn(s)


@VARIANTS
def test_builders_market_contract_with_neutral_prior(variant):
    s = fresh(variant)
    give(s, coin=3)
    act(s, "WORK_CONTRACT G13 Builders' Market (prior, paying 1 coins)")
    assert s.g.owners[1].clergy == [None, None, [1, 0, 0]]
    act(s, "pay 2 coins")
    assert goods_of(s) == {"wood": 2, "clay": 2, "stone": 1, "straw": 1}


@VARIANTS
def test_builders_market_with_only_the_fee_offers_place_only(variant):
    s = fresh(variant)
    give(s, coin=2)
    act(s, "WORK_CONTRACT G13 Builders' Market (lay brother, paying 1 coins)")
    assert options(s) == [PLACE_ONLY]


@VARIANTS
def test_builders_market_no_contract_without_money(variant):
    s = fresh(variant)
    give(s, wood=3)
    assert not any(t.startswith("WORK_CONTRACT") for t in texts(s))


# ----- G16 Cloister Chapter House -------------------------------------------------------------
@VARIANTS
def test_cloister_chapter_house_one_of_each_basic_good(variant):
    s = fresh(variant)
    place(s, "G16", 3, 1)
    act(s, "USE G16 Cloister Chapter House with lay brother")
    assert options(s) == [PLACE_ONLY, "take 1 each of clay, wood, peat, sheep, grain, coin"]
    act(s, "take 1 each")
    assert goods_of(s) == {"clay": 1, "wood": 1, "peat": 1, "sheep": 1, "grain": 1, "coin": 1}


# ----- G18 Cloister Workshop ------------------------------------------------------------------
@VARIANTS
def test_cloister_workshop_three_ceramics_and_one_ornament_at_most(variant):
    s = fresh(variant)
    place(s, "G18", 3, 1)
    give(s, clay=4, stone=2, peat_coal=1, wood=1)
    act(s, "USE G18 Cloister Workshop with lay brother")
    opts = options(s)
    assert len(opts) == 1 + 7  # (0..3 clay) x (0..1 stone), not both zero
    assert not any(o.startswith("4 clay") or "2 stone" in o for o in opts)
    act(s, "3 clay to ceramic, 1 stone to ornament")
    pay(s, "wood", "peat coal")
    assert goods_of(s) == {"clay": 1, "stone": 1, "ceramic": 3, "ornament": 1}


@VARIANTS
def test_cloister_workshop_one_peat_coal_pays_three_conversions(variant):
    s = fresh(variant)
    place(s, "G18", 3, 1)
    give(s, clay=3, peat_coal=1)
    act(s, "USE G18 Cloister Workshop with lay brother")
    act(s, "3 clay to ceramic, 0 stone")
    pay(s, "peat coal")
    assert goods_of(s) == {"ceramic": 3}


@VARIANTS
def test_cloister_workshop_lone_straw_pays_no_conversion(variant):
    s = fresh(variant)
    place(s, "G18", 3, 1)
    give(s, clay=2, straw=1)
    act(s, "USE G18 Cloister Workshop with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G19 Slaughterhouse ---------------------------------------------------------------------
@VARIANTS
def test_slaughterhouse_sheep_and_straw_to_meat_grain_flipped(variant):
    s = fresh(variant)
    place(s, "G19", 3, 0)
    give(s, sheep=3, straw=1, grain=1)
    act(s, "USE G19 Slaughterhouse with lay brother")
    assert len(options(s)) == 1 + 2
    act(s, "2 sheep + 2 straw")
    assert goods_of(s) == {"sheep": 1, "meat": 2}


@VARIANTS
def test_slaughterhouse_without_straw_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G19", 3, 0)
    give(s, sheep=3)
    act(s, "USE G19 Slaughterhouse with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G22 Quarry -----------------------------------------------------------------------------
@VARIANTS
def test_quarry_in_solo_works_only_with_the_joker(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")
    place(s, "G22", 6, 0)
    set_joker(s, 4)
    assert "stone" not in s.g.wheel.tokens
    assert not any(step[:2] == ("introduce", "stone") for step in s.flow)  # never enters
    act(s, "USE G22 Quarry with lay brother")
    assert options(s) == [PLACE_ONLY, "take 5 stone with the joker"]
    act(s, "take 5 stone with the joker")
    assert goods_of(s) == {"stone": 5}
    assert s.g.wheel.yield_of("joker") == 0


@VARIANTS
def test_quarry_with_the_joker_gone_yields_nothing(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")
    place(s, "G22", 6, 0)
    del s.g.wheel.tokens["joker"]
    act(s, "USE G22 Quarry with lay brother")
    assert options(s) == [PLACE_ONLY, "take 0 stone"]
    act(s, "take 0 stone")
    assert goods_of(s) == {}


# ----- G26 Shipyard ---------------------------------------------------------------------------
@VARIANTS
def test_shipyard_two_wood_to_ornament_and_five_coin_piece_once(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "COAST")
    place(s, "G26", -1, 0)
    give(s, wood=4)
    act(s, "USE G26 Shipyard with lay brother")
    assert options(s) == [PLACE_ONLY,
                          "2 wood to 1 ornament + a 5-coin piece, paying 2 wood"]
    act(s, "2 wood to 1 ornament")
    assert goods_of(s) == {"wood": 2, "ornament": 1, "5 coins": 1}


@VARIANTS
def test_shipyard_one_wood_offers_place_only(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "COAST")
    place(s, "G26", -1, 1)
    give(s, wood=1)
    act(s, "USE G26 Shipyard with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G28 Castle -----------------------------------------------------------------------------
@VARIANTS
def test_castle_grants_a_settlement_paid_in_food_and_energy(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")
    place(s, "G28", 5, 0)
    give(s, wood=1, sheep=2, peat=1)  # 4 food, 3 energy
    act(s, "USE G28 Castle with lay brother")
    act(s, "build a settlement")
    assert s.frame["f"] == "grant_settle"
    settle = [t for t in texts(s) if t.startswith("SETTLE")]
    assert not any("Fishing Village" in t for t in settle)  # coast only; no coast here
    assert not any("Market Town" in t for t in settle)  # 7 food: too expensive
    assert not any("(6, 0)" in t for t in settle)  # never on the mountain
    act(s, "SETTLE S2 Farming Village at (3, 0)")
    pay(s, "wood", "sheep", "sheep", "peat")
    me = s.g.owners[0]
    assert me.land.content((3, 0)) == "S2"
    assert "S2" not in me.settlements
    assert goods_of(s) == {}
    back_at_turn(s)


@VARIANTS
def test_castle_settlement_may_be_declined(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")
    place(s, "G28", 6, 0)
    give(s, meat=1, wood=1)
    act(s, "USE G28 Castle with lay brother")
    act(s, "build a settlement")
    act(s, "SKIP")
    assert goods_of(s) == {"meat": 1, "wood": 1}
    assert s.g.owners[0].land.settlements() == []
    back_at_turn(s)


@VARIANTS
def test_castle_fishing_village_only_on_coast(variant):
    s = fresh(variant)
    s.g.owners[0].land.add_plot(0, "MOUNTAIN")
    s.g.owners[0].land.add_plot(0, "COAST")
    place(s, "G28", 5, 1)
    give(s, meat=2, peat_coal=1)  # 10 food, 3 energy
    act(s, "USE G28 Castle with lay brother")
    act(s, "build a settlement")
    fishing = sorted(t for t in texts(s) if "Fishing Village" in t)
    assert fishing == ["SETTLE S4 Fishing Village at (-1, 0)",
                       "SETTLE S4 Fishing Village at (-1, 1)"]
    act(s, "SETTLE S4 Fishing Village at (-1, 1)")
    pay(s, "meat", "meat", "peat coal")
    assert s.g.owners[0].land.content((-1, 1)) == "S4"
    assert goods_of(s) == {}


@VARIANTS
def test_castle_by_work_contract_settles_on_the_users_landscape(variant):
    s = fresh(variant)
    place(s, "G28", 3, 0, owner=1)
    give(s, coin=1, sheep=1, wood=1)  # 1 food (+1 coin fee), 1 energy
    act(s, "WORK_CONTRACT G28 Castle (lay brother, paying 1 coins)")
    act(s, "build a settlement")
    act(s, "SETTLE S1 Shanty Town at (3, 1)")
    pay(s, "wood", "sheep")
    assert s.g.owners[0].land.content((3, 1)) == "S1"
    assert s.g.owners[1].land.settlements() == []


# ----- G34 Sacristy ---------------------------------------------------------------------------
@VARIANTS
def test_sacristy_four_point_goods_for_a_wonder_from_the_supply(variant):
    s = fresh(variant)
    place(s, "G34", 3, 1)
    give(s, book=1, ceramic=1, ornament=1, reliquary=2)
    act(s, "USE G34 Sacristy with lay brother")
    act(s, "take a wonder")
    assert goods_of(s) == {"reliquary": 1, "wonder": 1}
    assert s.g.wonders_left == 7


@VARIANTS
def test_sacristy_missing_one_good_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G34", 3, 1)
    give(s, book=2, ceramic=2, reliquary=2)
    act(s, "USE G34 Sacristy with lay brother")
    assert options(s) == [PLACE_ONLY]


@VARIANTS
def test_sacristy_empty_wonder_supply_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G34", 3, 1)
    give(s, book=1, ceramic=1, ornament=1, reliquary=1)
    s.g.wonders_left = 0
    act(s, "USE G34 Sacristy with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G39 Estate -----------------------------------------------------------------------------
@VARIANTS
def test_estate_two_repetitions_paid_differently(variant):
    s = fresh(variant)
    place(s, "G39", 3, 0)
    give(s, meat=2, peat_coal=2)  # 10 food, 6 energy
    act(s, "USE G39 Estate with lay brother")
    opts = [o.split(", paying")[0] for o in options(s)[1:]]
    assert sorted(opts) == sorted(["0 x 6 energy + 1 x 10 food to 1 book + ornament",
                                   "1 x 6 energy + 0 x 10 food to 1 book + ornament",
                                   "1 x 6 energy + 1 x 10 food to 2 book + ornament"])
    act(s, "1 x 6 energy + 1 x 10 food")
    pay(s, "meat", "meat", "peat coal", "peat coal")
    assert goods_of(s) == {"book": 2, "ornament": 2}


@VARIANTS
def test_estate_at_most_two_repetitions(variant):
    s = fresh(variant)
    place(s, "G39", 3, 0)
    give(s, peat_coal=6)  # 18 energy
    act(s, "USE G39 Estate with lay brother")
    assert max(int(o.split(" to ")[1].split()[0]) for o in options(s)[1:]) == 2
    act(s, "2 x 6 energy + 0 x 10 food")
    pay(s, "peat coal", "peat coal", "peat coal", "peat coal")
    assert goods_of(s) == {"peat coal": 2, "book": 2, "ornament": 2}


@VARIANTS
def test_estate_cannot_mix_food_and_energy_in_one_repetition(variant):
    s = fresh(variant)
    place(s, "G39", 3, 0)
    give(s, peat_coal=1, meat=1)  # 3 energy + 5 food
    act(s, "USE G39 Estate with lay brother")
    assert options(s) == [PLACE_ONLY]


# ----- G41 House of the Brotherhood -----------------------------------------------------------
@VARIANTS
def test_brotherhood_solo_one_point_per_cloister_office_and_house_count(variant):
    s = fresh(variant)
    place(s, "G41", 3, 1)  # cloisters: Cloister Office + the House = 2 points
    give(s, coin=5)
    act(s, "USE G41 House of the Brotherhood with lay brother")
    assert options(s) == [PLACE_ONLY, "pay 5 coins, take 1 book, paying 5 coins"]
    act(s, "take 1 book")
    assert goods_of(s) == {"book": 1}


@VARIANTS
def test_brotherhood_three_cloisters_three_points(variant):
    s = fresh(variant)
    place(s, "G41", 3, 1)
    place(s, "G02", 3, 0)  # a third cloister
    give(s, **{"5_coins": 1})
    act(s, "USE G41 House of the Brotherhood with lay brother")
    takes = sorted(o.split("take ")[1].split(", paying")[0] for o in options(s)[1:])
    assert takes == ["1 book", "1 ceramic"]
    act(s, "take 1 ceramic")
    assert goods_of(s) == {"ceramic": 1}


@VARIANTS
def test_brotherhood_under_five_coins_offers_place_only(variant):
    s = fresh(variant)
    place(s, "G41", 3, 1)
    give(s, coin=4)
    act(s, "USE G41 House of the Brotherhood with lay brother")
    assert options(s) == [PLACE_ONLY]


@VARIANTS
def test_brotherhood_by_work_contract_counts_the_users_cloisters(variant):
    # On the neutral landscape: the user's cloisters count (own Cloister Office + own G02 + own
    # G16 = 3 points), not the neutral's House.
    s = fresh(variant)
    place(s, "G41", 3, 1, owner=1)
    place(s, "G02", 3, 1)
    place(s, "G16", 3, 0)
    give(s, coin=6)
    act(s, "WORK_CONTRACT G41 House of the Brotherhood (lay brother, paying 1 coins)")
    takes = sorted(o.split("take ")[1].split(", paying")[0] for o in options(s)[1:])
    assert takes == ["1 book", "1 ceramic"]


# ----- illegal actions ------------------------------------------------------------------------
@VARIANTS
def test_rule_error_option_out_of_range_leaves_state_unchanged(variant):
    s = fresh(variant)
    place(s, "G16", 3, 1)
    act(s, "USE G16 Cloister Chapter House with lay brother")
    bad = A.make("OPTION", flag=5)
    assert bad not in s.legal_actions()
    before = s.to_dict()
    with pytest.raises(RuleError):
        s.apply_action(bad)
    assert s.to_dict() == before


@VARIANTS
def test_rule_error_free_use_of_non_target_leaves_state_unchanged(variant):
    s = fresh(variant)
    place(s, "G01", 3, 1)
    s.g.owners[0].clergy[PR] = [0, 4, 0]
    act(s, "USE G01 Priory with lay brother")
    act(s, "free use of a building with a prior on it")
    bad = A.make("FREE_USE", "LR3")  # no prior stands on the Cloister Office
    before = s.to_dict()
    with pytest.raises(RuleError):
        s.apply_action(bad)
    assert s.to_dict() == before
