"""Unit tests of every Ireland building effect used in solo, plus the three heartland buildings.

Each test sets up a position on the reference engine (variant "ireland", rule profile
"rulebook" unless stated), drives it through the engine's own legal actions and checks the
exact result against /work/shared/reference/buildings.md (and SOLO.md for the neutral player).
"""

from __future__ import annotations

import pytest

from solver.rules import RuleError
from solver.rules import actions as A
from solver.rules.state import LAY_BROTHER, PRIOR
from tests.helpers import act, fresh, give, goods_of, place, play, texts, to_display

NEUTRAL = 1  # owner index of the solo neutral player


# ----- small helpers ----------------------------------------------------------------------
def options(s) -> list[str]:
    """The option texts of the pending option frame (without the building id prefix)."""
    assert s.frame["f"] == "option", s.frame
    return [t.split(": ", 1)[1] for t in texts(s)]


def use(s, bid: str, who: str = "lay brother") -> None:
    """Place an own clergyman (lay brother or prior) on ``bid``: the main action USE."""
    legal = [t for t in texts(s) if t.startswith(f"USE {bid} ") and t.endswith(f"with {who}")]
    assert len(legal) == 1, texts(s)
    act(s, legal[0])


def set_wheel(s, arm: int, **tokens: int | None) -> None:
    """Set the wheel arm and some indicator positions (None removes the indicator)."""
    w = s.g.wheel
    w.arm = arm
    for name, t in tokens.items():
        if t is None:
            w.tokens.pop(name, None)
        else:
            w.tokens[name] = t


def clergy(s, owner: int = 0) -> list:
    return s.g.owners[owner].clergy


def only_place_only(s) -> None:
    assert options(s) == ["place only, use no function"]


def assert_illegal_keeps_state(s, action: int) -> None:
    before = s.to_dict()
    assert action not in s.legal_actions()
    with pytest.raises(RuleError):
        s.apply_action(action)
    assert s.to_dict() == before


# ===== heartland buildings (buildings.md §3) ===============================================
def test_clay_mound_takes_clay_yield_and_resets_only_the_clay_token():
    s = fresh("ireland")
    set_wheel(s, 5, clay=0, joker=2)  # clay yield values[5]=6, joker values[3]=4
    use(s, "LR1")
    assert options(s) == ["place only, use no function", "take 6 clay",
                          "take 4 clay with the joker"]
    act(s, "take 6 clay")
    assert goods_of(s) == {"clay": 6}
    assert s.g.wheel.yield_of("clay") == 0
    assert s.g.wheel.yield_of("joker") == 4
    assert clergy(s) == [[0, 4, 0], None, None]


def test_clay_mound_with_joker_resets_the_joker_and_keeps_the_clay_token():
    s = fresh("ireland")
    set_wheel(s, 5, clay=0, joker=2)
    use(s, "LR1", "prior")
    act(s, "take 4 clay with the joker")
    assert goods_of(s) == {"clay": 4}
    assert s.g.wheel.yield_of("clay") == 6
    assert s.g.wheel.yield_of("joker") == 0
    assert clergy(s) == [None, None, [0, 4, 0]]


def test_clay_mound_yield_grows_as_rounds_pass():
    s = fresh("ireland")
    for _ in range(6):  # rounds 1..3 pass with two empty turns each
        act(s, "COMMIT")
    assert s.round == 4 and s.g.wheel.arm == 4
    use(s, "LR1")
    assert "take 5 clay" in options(s)
    act(s, "LR1: take 5 clay")
    assert goods_of(s) == {"clay": 5}


def test_clay_mound_without_clay_token_offers_only_the_joker():
    s = fresh("ireland")
    set_wheel(s, 7, clay=None, joker=0)
    use(s, "LR1")
    assert options(s) == ["place only, use no function", "take 7 clay with the joker"]
    act(s, "with the joker")
    assert goods_of(s) == {"clay": 7}


def test_clay_mound_with_joker_gone_offers_only_the_clay_token():
    s = fresh("ireland")
    set_wheel(s, 7, clay=1, joker=None)
    use(s, "LR1")
    assert options(s) == ["place only, use no function", "take 6 clay"]


def test_clay_mound_with_clay_and_joker_gone_is_a_legal_zero_use():
    s = fresh("ireland")
    set_wheel(s, 7, clay=None, joker=None)
    use(s, "LR1")
    assert options(s) == ["place only, use no function", "take 0 clay"]
    act(s, "take 0 clay")
    assert goods_of(s) == {}
    assert clergy(s)[0] == [0, 4, 0]


def test_farmyard_offers_sheep_or_grain_each_by_token_or_joker():
    s = fresh("ireland")
    set_wheel(s, 6, sheep=0, grain=4, joker=5)  # sheep 6, grain 3, joker 2
    use(s, "LR2")
    assert options(s) == ["place only, use no function", "take 6 sheep",
                          "take 2 sheep with the joker", "take 3 grain",
                          "take 2 grain with the joker"]
    act(s, "take 6 sheep")
    assert goods_of(s) == {"sheep": 6}
    assert s.g.wheel.yield_of("sheep") == 0
    assert s.g.wheel.yield_of("grain") == 3  # the other good is untouched


def test_farmyard_grain_with_joker_keeps_grain_token():
    s = fresh("ireland")
    set_wheel(s, 6, sheep=0, grain=4, joker=5)
    use(s, "LR2")
    act(s, "take 2 grain with the joker")
    assert goods_of(s) == {"grain": 2}
    assert s.g.wheel.yield_of("grain") == 3
    assert s.g.wheel.yield_of("joker") == 0
    assert s.g.wheel.yield_of("sheep") == 6


def test_cloister_office_takes_coins_by_wheel_or_joker():
    s = fresh("ireland")
    set_wheel(s, 9, coin=0, joker=8)  # coin values[9]=8, joker values[1]=2
    use(s, "LR3")
    assert options(s) == ["place only, use no function", "take 8 coin",
                          "take 2 coin with the joker"]
    act(s, "take 8 coin")
    assert goods_of(s) == {"coin": 8}
    assert s.g.wheel.yield_of("coin") == 0


def test_cloister_office_with_joker():
    s = fresh("ireland")
    set_wheel(s, 9, coin=0, joker=8)
    use(s, "LR3")
    act(s, "with the joker")
    assert goods_of(s) == {"coin": 2}
    assert s.g.wheel.yield_of("coin") == 8


def test_neutral_clay_mound_by_work_contract_gives_the_user_clay_and_places_neutral_clergy():
    s = fresh("ireland")
    give(s, coin=1)
    set_wheel(s, 3, clay=0)
    act(s, "WORK_CONTRACT LG1 Clay Mound (prior, paying 1 coins)")
    act(s, "LG1: take 4 clay")  # values[3]
    assert goods_of(s) == {"clay": 4}  # the coin fee went to no one
    assert clergy(s, NEUTRAL) == [None, None, [NEUTRAL, 4, 0]]
    assert clergy(s) == [None, None, None]


# ===== start buildings =====================================================================
def test_granary_pays_one_coin_for_four_grain_and_a_book():
    s = fresh("ireland")
    place(s, "I03", 3, 1)
    give(s, coin=2)
    use(s, "I03")
    assert options(s) == ["place only, use no function",
                          "pay 1 coin, take 4 grain and 1 book, paying 1 coins"]
    act(s, "take 4 grain")
    assert goods_of(s) == {"coin": 1, "grain": 4, "book": 1}


def test_granary_breaks_a_five_coin_piece_and_keeps_change():
    s = fresh("ireland")
    place(s, "I03", 3, 1)
    give(s, **{"5_coins": 1})
    use(s, "I03")
    act(s, "take 4 grain")
    assert goods_of(s) == {"coin": 4, "grain": 4, "book": 1}


def test_granary_without_money_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I03", 3, 1)
    give(s, whiskey=1)  # rulebook (D34): whiskey must be converted first
    use(s, "I03")
    only_place_only(s)


def test_malthouse_converts_each_grain_to_malt_and_straw():
    s = fresh("ireland")
    place(s, "I04", 3, 1)
    give(s, grain=3)
    use(s, "I04")
    assert options(s) == ["place only, use no function",
                          "1 grain to 1 malt + 1 straw, paying 1 grain",
                          "2 grain to 2 malt + 2 straw, paying 2 grain",
                          "3 grain to 3 malt + 3 straw, paying 3 grain"]
    act(s, "2 grain to 2 malt")
    assert goods_of(s) == {"grain": 1, "straw": 2, "malt": 2}


def test_malthouse_has_no_cap_other_than_grain_held():
    s = fresh("ireland")
    place(s, "I04", 3, 1)
    give(s, grain=11)
    use(s, "I04")
    assert len(options(s)) == 12
    assert not any(o.startswith("12 grain") for o in options(s))
    act(s, "11 grain to 11 malt")
    assert goods_of(s) == {"straw": 11, "malt": 11}


def test_malthouse_without_grain_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I04", 3, 1)
    give(s, straw=2, malt=1)
    use(s, "I04")
    only_place_only(s)


def test_brewery_brews_grain_and_malt_and_may_sell_a_fresh_beer():
    s = fresh("ireland")
    place(s, "I05", 3, 1)
    give(s, grain=3, malt=2)
    use(s, "I05")
    assert options(s) == ["place only, use no function",
                          "brew 1 beer, sell 0, paying 1 grain, 1 malt",
                          "brew 1 beer, sell 1, paying 1 grain, 1 malt",
                          "brew 2 beer, sell 0, paying 2 grain, 2 malt",
                          "brew 2 beer, sell 1, paying 2 grain, 2 malt"]
    act(s, "brew 2 beer, sell 1")
    assert goods_of(s) == {"grain": 1, "coin": 7, "beer": 1}


def test_brewery_sells_only_one_beer():
    s = fresh("ireland")
    place(s, "I05", 3, 1)
    give(s, beer=3)
    use(s, "I05")
    assert options(s) == ["place only, use no function", "brew 0 beer, sell 1"]
    act(s, "sell 1")
    assert goods_of(s) == {"coin": 7, "beer": 2}


def test_brewery_with_nothing_to_brew_or_sell_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I05", 3, 1)
    give(s, grain=4)  # no malt, no beer
    use(s, "I05")
    only_place_only(s)


def test_false_lighthouse_gives_three_coins_and_a_beer():
    s = fresh("ireland")
    place(s, "I08", 3, 1)
    use(s, "I08")
    assert options(s) == ["place only, use no function", "take 3 coins + 1 beer",
                          "take 3 coins + 1 whiskey"]
    act(s, "take 3 coins + 1 beer")
    assert goods_of(s) == {"coin": 3, "beer": 1}


def test_false_lighthouse_gives_three_coins_and_a_whiskey():
    s = fresh("ireland")
    place(s, "I08", 3, 1)
    use(s, "I08")
    act(s, "take 3 coins + 1 whiskey")
    assert goods_of(s) == {"whiskey": 1, "coin": 3}


@pytest.mark.parametrize("sheep,coins", [(1, 3), (4, 3), (5, 5), (8, 5), (9, 6), (15, 6)])
def test_spinning_mill_counts_sheep_without_spending_them(sheep, coins):
    s = fresh("ireland")
    place(s, "I09", 3, 1)
    give(s, sheep=sheep)
    use(s, "I09")
    assert options(s) == ["place only, use no function", f"take {coins} coins for your sheep"]
    act(s, "for your sheep")
    assert goods_of(s) == {"sheep": sheep, "coin": coins}


def test_spinning_mill_without_sheep_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I09", 3, 1)
    give(s, meat=3)
    use(s, "I09")
    only_place_only(s)


def test_cottage_gives_malt_then_free_use_of_an_unoccupied_neighbour():
    s = fresh("ireland")
    place(s, "I10", 3, 1)  # neighbours: LR2 (2,1), LR3 (4,1), (3,0)
    place(s, "I11", 3, 0)
    set_wheel(s, 4, coin=0)
    use(s, "I10")
    act(s, "take 1 malt")
    assert goods_of(s) == {"malt": 1}
    assert texts(s) == ["SKIP", "FREE_USE I11 Houseboat", "FREE_USE LR2 Farmyard",
                        "FREE_USE LR3 Cloister Office"]
    act(s, "FREE_USE LR3 Cloister Office")
    act(s, "LR3: take 5 coin")
    assert goods_of(s) == {"coin": 5, "malt": 1}
    # the free use placed no clergyman; only the lay brother on the Cottage is out
    assert clergy(s) == [[0, 3, 1], None, None]
    assert texts(s)[0] == "COMMIT (end turn)"


def test_cottage_free_use_excludes_occupied_neighbours_and_may_be_skipped():
    s = fresh("ireland")
    place(s, "I10", 3, 1)
    clergy(s)[1] = [0, 4, 1]  # a lay brother already stands on the Cloister Office
    use(s, "I10", "prior")
    act(s, "take 1 malt")
    assert texts(s) == ["SKIP", "FREE_USE LR2 Farmyard"]
    act(s, "SKIP")
    assert goods_of(s) == {"malt": 1}
    assert texts(s)[0] == "COMMIT (end turn)"


def test_cottage_chain_never_comes_back_through_the_cottage():
    # Cottage -> Grand Manor (neighbour) -> occupied buildings: the Cottage itself is occupied
    # (by the lay brother just placed) but may not be used again in the same chain.
    s = fresh("ireland")
    place(s, "I10", 3, 1)
    place(s, "I27", 3, 0)
    clergy(s)[2] = [0, 4, 0]  # prior on the Clay Mound
    give(s, whiskey=1)
    set_wheel(s, 2, clay=0)
    use(s, "I10")
    act(s, "take 1 malt")
    act(s, "FREE_USE I27 Grand Manor")
    act(s, "free use of an occupied building")
    assert texts(s) == ["SKIP", "FREE_USE LR1 Clay Mound"]
    act(s, "FREE_USE LR1")
    act(s, "LR1: take 3 clay")
    assert goods_of(s) == {"clay": 3, "malt": 1}


def test_cottage_with_no_free_neighbour_gives_only_the_malt():
    s = fresh("ireland")
    place(s, "I10", 3, 1)
    clergy(s)[1] = [0, 4, 1]  # Cloister Office occupied
    clergy(s)[2] = [0, 2, 1]  # Farmyard occupied
    use(s, "I10")
    act(s, "take 1 malt")
    assert goods_of(s) == {"malt": 1}
    assert s.frame["f"] == "turn"


def test_cottage_neighbour_on_water_qualifies():
    s = fresh("ireland")
    s.g.owners[0].land.add_plot(0, "COAST")
    place(s, "I10", -1, 0)
    place(s, "I11", -2, 0)
    use(s, "I10")
    act(s, "take 1 malt")
    assert texts(s) == ["SKIP", "FREE_USE I11 Houseboat"]
    act(s, "FREE_USE I11")
    act(s, "take 1 wood")
    assert goods_of(s) == {"wood": 1, "peat": 1, "coin": 1, "malt": 2}


def test_neutral_cottage_by_contract_uses_neighbours_where_the_cottage_stands():
    s = fresh("ireland")
    place(s, "I10", 3, 1, owner=NEUTRAL)  # neutral neighbours: LG2 (2,1), LG3 (4,1)
    give(s, coin=1)
    set_wheel(s, 6, sheep=0)
    act(s, "WORK_CONTRACT I10 Cottage (lay brother, paying 1 coins)")
    act(s, "take 1 malt")
    assert texts(s) == ["SKIP", "FREE_USE LG2 Farmyard", "FREE_USE LG3 Cloister Office"]
    act(s, "FREE_USE LG2 Farmyard")
    act(s, "LG2: take 6 sheep")
    assert goods_of(s) == {"sheep": 6, "malt": 1}
    assert clergy(s, NEUTRAL) == [[NEUTRAL, 3, 1], None, None]


def test_houseboat_gives_wood_malt_coin_and_peat():
    s = fresh("ireland")
    place(s, "I11", 3, 1)
    use(s, "I11")
    assert options(s) == ["place only, use no function", "take 1 wood, 1 malt, 1 coin, 1 peat"]
    act(s, "take 1 wood")
    assert goods_of(s) == {"wood": 1, "peat": 1, "coin": 1, "malt": 1}


# ===== A buildings =========================================================================
@pytest.mark.parametrize("choice,expected", [
    ("2 grain, 1 beer", {"grain": 2, "book": 1, "beer": 1}),
    ("2 grain, 1 whiskey", {"grain": 2, "book": 1, "whiskey": 1}),
    ("2 malt, 1 beer", {"malt": 2, "book": 1, "beer": 1}),
    ("2 malt, 1 whiskey", {"malt": 2, "book": 1, "whiskey": 1}),
])
def test_sacred_site_gives_a_book_and_both_chosen_pairs(choice, expected):
    s = fresh("ireland")
    place(s, "I14", 3, 1)
    use(s, "I14")
    assert len(options(s)) == 5
    act(s, f"take 1 book, {choice}")
    assert goods_of(s) == expected


def test_druids_house_pays_a_book_for_five_and_three_different_basic_goods():
    s = fresh("ireland")
    place(s, "I15", 3, 1)
    give(s, book=2)
    use(s, "I15")
    opts = options(s)
    assert len(opts) == 1 + 30  # 6 x 5 ordered pairs of different basic goods
    assert "pay 1 book, take 5 wood + 3 clay, paying 1 book" in opts
    assert "pay 1 book, take 3 wood + 5 clay, paying 1 book" not in opts
    assert not any("5 wood + 3 wood" in o for o in opts)
    assert not any("stone" in o for o in opts)  # stone is not a basic good
    act(s, "take 5 wood + 3 clay")
    assert goods_of(s) == {"wood": 5, "clay": 3, "book": 1}


def test_druids_house_other_split_five_coins_three_grain():
    s = fresh("ireland")
    place(s, "I15", 3, 1)
    give(s, book=1)
    use(s, "I15")
    act(s, "take 5 coin + 3 grain")
    assert goods_of(s) == {"grain": 3, "coin": 5}


def test_druids_house_without_book_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I15", 3, 1)
    give(s, coin=9)
    use(s, "I15")
    only_place_only(s)


def test_scriptorium_pays_a_coin_for_book_meat_and_whiskey():
    s = fresh("ireland")
    place(s, "I17", 3, 1)
    give(s, coin=1)
    use(s, "I17")
    act(s, "pay 1 coin, take 1 book")
    assert goods_of(s) == {"whiskey": 1, "meat": 1, "book": 1}


def test_scriptorium_without_money_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I17", 3, 1)
    use(s, "I17")
    only_place_only(s)


def test_neutral_scriptorium_by_work_contract_with_neutral_lay_brother():
    s = fresh("ireland")
    place(s, "I17", 3, 0, owner=NEUTRAL)
    give(s, coin=2)
    work = [t for t in texts(s) if t.startswith("WORK_CONTRACT I17")]
    assert work == ["WORK_CONTRACT I17 Scriptorium (lay brother, paying 1 coins)",
                    "WORK_CONTRACT I17 Scriptorium (prior, paying 1 coins)"]
    act(s, "WORK_CONTRACT I17 Scriptorium (lay brother, paying 1 coins)")
    act(s, "take 1 book")
    # 1 coin fee to the supply, 1 coin for the Scriptorium; the user receives everything
    assert goods_of(s) == {"whiskey": 1, "meat": 1, "book": 1}
    assert clergy(s, NEUTRAL) == [[NEUTRAL, 3, 0], None, None]
    assert clergy(s) == [None, None, None]
    # the hired building is now occupied: no second contract on it
    assert not any(t.startswith("WORK_CONTRACT I17") for t in texts(s))


def test_neutral_scriptorium_contract_paid_with_whiskey_present():
    s = fresh("ireland")
    place(s, "I17", 3, 0, owner=NEUTRAL)
    give(s, coin=1, whiskey=1)
    act(s, "WORK_CONTRACT I17 Scriptorium (prior, paying whiskey)")
    act(s, "take 1 book")
    assert goods_of(s) == {"whiskey": 1, "meat": 1, "book": 1}
    assert clergy(s, NEUTRAL) == [None, None, [NEUTRAL, 3, 0]]


# ===== B buildings =========================================================================
def test_alehouse_sells_one_beer_for_8_and_one_whiskey_for_7():
    s = fresh("ireland")
    place(s, "I20", 3, 1)
    give(s, beer=2, whiskey=2)
    use(s, "I20")
    assert options(s) == ["place only, use no function",
                          "sell 0 beer for 8, 1 whiskey for 7, paying 1 whiskey",
                          "sell 1 beer for 8, 0 whiskey for 7, paying 1 beer",
                          "sell 1 beer for 8, 1 whiskey for 7, paying 1 beer, 1 whiskey"]
    act(s, "sell 1 beer for 8, 1 whiskey")
    assert goods_of(s) == {"whiskey": 1, "coin": 15, "beer": 1}


def test_alehouse_with_only_beer_offers_only_the_beer_sale():
    s = fresh("ireland")
    place(s, "I20", 3, 1)
    give(s, beer=1)
    use(s, "I20")
    assert options(s) == ["place only, use no function",
                          "sell 1 beer for 8, 0 whiskey for 7, paying 1 beer"]
    act(s, "sell 1 beer")
    assert goods_of(s) == {"coin": 8}


def test_alehouse_with_nothing_to_sell_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I20", 3, 1)
    give(s, malt=3)
    use(s, "I20")
    only_place_only(s)


def test_whiskey_distillery_turns_malt_wood_peat_into_two_whiskey_each():
    s = fresh("ireland")
    place(s, "I21", 3, 1)
    give(s, malt=3, wood=2, peat=4)
    use(s, "I21")
    assert options(s) == ["place only, use no function",
                          "1 malt + wood + peat to 2 whiskey, paying 1 malt, 1 wood, 1 peat",
                          "2 malt + wood + peat to 4 whiskey, paying 2 malt, 2 wood, 2 peat"]
    act(s, "to 4 whiskey")
    assert goods_of(s) == {"whiskey": 4, "peat": 2, "malt": 1}


def test_whiskey_distillery_missing_an_input_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I21", 3, 1)
    give(s, malt=3, wood=2)
    use(s, "I21")
    only_place_only(s)


def test_building_whiskey_distillery_raises_work_contract_fee_to_two():
    s = fresh("ireland")
    to_display(s, "I21")
    give(s, clay=2, grain=2, coin=3)  # the 2 straw are flipped from grain
    assert s.fee() == 1
    act(s, "BUILD I21 Whiskey Distillery at (3, 1)")
    assert s.g.fee_raised and s.fee() == 2
    assert goods_of(s) == {"coin": 3}
    act(s, "SKIP")  # the prior's bonus use
    act(s, "COMMIT")
    work = [t for t in texts(s) if t.startswith("WORK_CONTRACT LG3")]
    assert work == ["WORK_CONTRACT LG3 Cloister Office (lay brother, paying 2 coins)",
                    "WORK_CONTRACT LG3 Cloister Office (prior, paying 2 coins)"]
    act(s, "WORK_CONTRACT LG3 Cloister Office (lay brother, paying 2 coins)")
    act(s, "LG3: take 2 coin")
    assert goods_of(s) == {"coin": 3}  # paid 2, took 2


def test_whiskey_distillery_fee_two_with_one_coin_leaves_only_the_whiskey_present():
    s = fresh("ireland")
    place(s, "I21", 3, 1)  # helper marks the fee raised, like a real build
    give(s, coin=1, whiskey=1)
    work = [t for t in texts(s) if t.startswith("WORK_CONTRACT LG1")]
    assert work == ["WORK_CONTRACT LG1 Clay Mound (lay brother, paying whiskey)",
                    "WORK_CONTRACT LG1 Clay Mound (prior, paying whiskey)"]


def test_neutral_building_the_whiskey_distillery_raises_the_fee_in_that_phase():
    s = fresh("ireland")
    to_display(s, "I21")
    give(s, coin=5)
    while s.frame["f"] != "neutral_build":
        act(s, "COMMIT")
    assert s.round == 12 and s.fee() == 1
    act(s, "NEUTRAL_BUILD I21 Whiskey Distillery at (1, 1)")
    assert s.fee() == 2
    while s.frame["f"] == "neutral_build":
        s.apply_action(s.legal_actions()[0])
    assert s.frame["f"] == "neutral_contract"
    assert "WORK_CONTRACT I21 Whiskey Distillery (prior, paying 2 coins)" in texts(s)
    assert not any("paying 1 coins" in t for t in texts(s))


def test_locutory_prior_on_it_comes_home_then_builds_and_uses_new_building_with_prior():
    s = fresh("ireland")
    place(s, "I23", 3, 1)
    give(s, coin=3, clay=2, grain=2)
    use(s, "I23", "prior")
    assert options(s) == ["place only, use no function",
                          "pay 2 coins, prior comes home, then build, paying 2 coins"]
    act(s, "prior comes home")
    assert clergy(s) == [None, None, None]
    assert goods_of(s) == {"coin": 1, "clay": 2, "grain": 2}
    assert "SKIP" in texts(s)
    act(s, "BUILD I04 Malthouse at (3, 0)")
    assert goods_of(s) == {"coin": 1, "grain": 2}
    assert texts(s) == ["SKIP", "USE_PRIOR on I04 Malthouse"]
    act(s, "USE_PRIOR on I04 Malthouse")
    act(s, "2 grain to 2 malt")
    assert goods_of(s) == {"coin": 1, "straw": 2, "malt": 2}
    assert clergy(s) == [None, None, [0, 3, 0]]
    assert s.g.owners[0].land.content((3, 0)) == "I04"


def test_locutory_recalls_prior_from_another_building():
    s = fresh("ireland")
    place(s, "I23", 3, 1)
    clergy(s)[2] = [0, 4, 0]  # prior on the Clay Mound
    give(s, coin=2)
    use(s, "I23")
    act(s, "prior comes home")
    assert clergy(s) == [[0, 3, 1], None, None]
    assert goods_of(s) == {}
    act(s, "SKIP")  # may decline the build
    assert s.frame["f"] == "turn" and s.frame["main"]


def test_locutory_with_prior_at_home_still_grants_the_build():
    s = fresh("ireland")
    place(s, "I23", 3, 1)
    give(s, coin=2, clay=1)
    use(s, "I23")
    act(s, "prior comes home")
    assert clergy(s) == [[0, 3, 1], None, None]
    assert texts(s) == ["SKIP", "BUILD G07 Peat Coal Kiln at (3, 0)"]


def test_locutory_by_contract_returns_the_contractors_prior_not_the_neutrals():
    s = fresh("ireland")
    place(s, "I23", 3, 0, owner=NEUTRAL)
    clergy(s)[2] = [0, 4, 0]
    give(s, coin=3)
    act(s, "WORK_CONTRACT I23 Locutory (lay brother, paying 1 coins)")
    act(s, "prior comes home")
    assert clergy(s) == [None, None, None]
    assert clergy(s, NEUTRAL) == [[NEUTRAL, 3, 0], None, None]
    assert goods_of(s) == {}


def test_locutory_without_two_coins_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I23", 3, 1)
    give(s, coin=1, whiskey=1)
    use(s, "I23")
    only_place_only(s)


def test_chapel_buys_a_book_and_up_to_three_reliquaries_not_four():
    s = fresh("ireland")
    place(s, "I24", 3, 1)
    give(s, coin=1, beer=4, whiskey=4)
    use(s, "I24")
    opts = options(s)
    assert len(opts) == 1 + 7  # (b, r) in {0,1} x {0..3} minus (0, 0)
    assert not any("4 beer + whiskey" in o for o in opts)
    act(s, "1 coin to book, 3 beer + whiskey to reliquary")
    assert goods_of(s) == {"whiskey": 1, "book": 1, "reliquary": 3, "beer": 1}


def test_chapel_reliquaries_without_coin():
    s = fresh("ireland")
    place(s, "I24", 3, 1)
    give(s, beer=2, whiskey=1)
    use(s, "I24")
    assert options(s) == ["place only, use no function",
                          "0 coin to book, 1 beer + whiskey to reliquary, paying 1 beer, 1 whiskey"]
    act(s, "1 beer + whiskey to reliquary")
    assert goods_of(s) == {"reliquary": 1, "beer": 1}


def test_chapel_book_only():
    s = fresh("ireland")
    place(s, "I24", 3, 1)
    give(s, coin=2, beer=1)
    use(s, "I24")
    assert len(options(s)) == 2
    assert options(s)[1].startswith("1 coin to book, 0 beer + whiskey to reliquary")
    act(s, "1 coin to book")
    assert goods_of(s) == {"coin": 1, "book": 1, "beer": 1}


def test_regression_chapel_book_only_option_text_names_its_price():
    # bug: Cost.describe printed an empty goods part for an all-zero goods dict

    s = fresh("ireland")
    place(s, "I24", 3, 1)
    give(s, coin=1)
    use(s, "I24")
    assert options(s)[1] == "1 coin to book, 0 beer + whiskey to reliquary, paying 1 coins"


def test_portico_pays_a_reliquary_for_two_each_of_seven_goods():
    s = fresh("ireland")
    place(s, "I25", 3, 1)
    give(s, reliquary=1)
    use(s, "I25")
    act(s, "pay 1 reliquary")
    assert goods_of(s) == {"wood": 2, "grain": 2, "sheep": 2, "clay": 2, "peat": 2,
                           "coin": 2, "stone": 2}


def test_portico_without_reliquary_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I25", 3, 1)
    give(s, ornament=3, **{"5_coins": 2})
    use(s, "I25")
    only_place_only(s)


# ===== C buildings =========================================================================
def test_grand_manor_pays_whiskey_for_free_use_of_an_occupied_building_only():
    s = fresh("ireland")
    place(s, "I27", 3, 1)
    clergy(s)[1] = [0, 4, 0]  # own lay brother on the Clay Mound
    clergy(s, NEUTRAL)[0] = [NEUTRAL, 0, 0]  # neutral lay brother on the Builders' Market
    give(s, whiskey=1, coin=2)
    set_wheel(s, 4, clay=0)
    use(s, "I27", "prior")
    assert options(s) == ["place only, use no function",
                          "free use of an occupied building, paying 1 whiskey"]
    act(s, "free use of an occupied building")
    # occupied only: the user's Clay Mound and the neutral's Builders' Market; not the
    # unoccupied Farmyard/Cloister Office, nor the Grand Manor itself
    assert sorted(texts(s)) == ["FREE_USE G13 Builders' Market", "FREE_USE LR1 Clay Mound",
                                "SKIP"]
    act(s, "FREE_USE G13")
    act(s, "pay 2 coins")
    assert goods_of(s) == {"wood": 2, "straw": 1, "clay": 2, "stone": 1}
    # nobody moved: the neutral lay brother stays, no contract fee was paid
    assert clergy(s, NEUTRAL) == [[NEUTRAL, 0, 0], None, None]
    assert clergy(s) == [None, [0, 4, 0], [0, 3, 1]]


def test_grand_manor_free_use_of_own_occupied_clay_mound():
    s = fresh("ireland")
    place(s, "I27", 3, 1)
    clergy(s)[1] = [0, 4, 0]
    give(s, whiskey=2)
    set_wheel(s, 4, clay=0)
    use(s, "I27")
    act(s, "free use")
    act(s, "FREE_USE LR1")
    act(s, "LR1: take 5 clay")
    assert goods_of(s) == {"whiskey": 1, "clay": 5}


def test_grand_manor_without_whiskey_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I27", 3, 1)
    clergy(s)[1] = [0, 4, 0]
    give(s, coin=10)
    use(s, "I27")
    only_place_only(s)


def test_grand_manor_with_nothing_else_occupied_takes_the_whiskey_for_nothing():
    s = fresh("ireland")
    place(s, "I27", 3, 1)
    give(s, whiskey=1)
    use(s, "I27")
    act(s, "free use")
    assert goods_of(s) == {}
    assert s.frame["f"] == "turn"


@pytest.mark.parametrize("cell", [(1, 0), (2, 0), (1, 1)])
def test_forest_hut_removes_the_chosen_forest_for_sheep_wood_stone(cell):
    s = fresh("ireland")
    place(s, "I29", 3, 1)
    use(s, "I29")
    assert options(s) == ["place only, use no function"] + [
        f"remove the forest at {c}, take 2 sheep, 2 wood, 1 stone"
        for c in [(1, 0), (2, 0), (1, 1)]]
    act(s, f"remove the forest at {cell}")
    land = s.g.owners[0].land
    assert land.content(cell) is None
    assert len(land.features("forest")) == 2
    assert goods_of(s) == {"wood": 2, "sheep": 2, "stone": 1}


def test_forest_hut_without_forest_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I29", 3, 1)
    for c in s.g.owners[0].land.features("forest"):
        s.g.owners[0].land.cells[c][1] = None
    use(s, "I29")
    only_place_only(s)


def test_neutral_forest_hut_by_contract_removes_the_users_forest():
    s = fresh("ireland")
    place(s, "I29", 3, 0, owner=NEUTRAL)
    give(s, coin=1)
    act(s, "WORK_CONTRACT I29 Forest Hut (lay brother, paying 1 coins)")
    act(s, "remove the forest at (2, 0)")
    assert s.g.owners[0].land.content((2, 0)) is None
    assert goods_of(s) == {"wood": 2, "sheep": 2, "stone": 1}


def test_refectory_gives_beer_and_meat_and_converts_up_to_four_meat_incl_fresh():
    s = fresh("ireland")
    place(s, "I30", 3, 1)
    give(s, meat=3)
    use(s, "I30")
    assert options(s) == ["place only, use no function"] + [
        f"take 1 beer + 1 meat, {k} meat to ceramic" for k in range(5)]
    act(s, "4 meat to ceramic")
    assert goods_of(s) == {"ceramic": 4, "beer": 1}


def test_refectory_caps_at_four_conversions():
    s = fresh("ireland")
    place(s, "I30", 3, 1)
    give(s, meat=6)
    use(s, "I30")
    assert not any("5 meat to ceramic" in o for o in options(s))
    act(s, "4 meat to ceramic")
    assert goods_of(s) == {"meat": 3, "ceramic": 4, "beer": 1}


def test_refectory_converts_the_fresh_meat_with_none_held():
    s = fresh("ireland")
    place(s, "I30", 3, 1)
    use(s, "I30")
    assert options(s) == ["place only, use no function",
                          "take 1 beer + 1 meat, 0 meat to ceramic",
                          "take 1 beer + 1 meat, 1 meat to ceramic"]
    act(s, "1 meat to ceramic")
    assert goods_of(s) == {"ceramic": 1, "beer": 1}


def test_refectory_fixed_gain_without_conversion():
    s = fresh("ireland")
    place(s, "I30", 3, 1)
    give(s, meat=1)
    use(s, "I30")
    act(s, "0 meat to ceramic")
    assert goods_of(s) == {"meat": 2, "beer": 1}


def test_coal_harbor_converts_peat_coal_up_to_three_times():
    s = fresh("ireland")
    place(s, "I31", 3, 1)
    give(s, peat_coal=4, peat=5)
    use(s, "I31")
    assert options(s) == ["place only, use no function"] + [
        f"{k} peat coal to {3 * k} coins + {k} whiskey, paying {k} peat coal"
        for k in (1, 2, 3)]
    act(s, "3 peat coal")
    assert goods_of(s) == {"whiskey": 3, "peat": 5, "peat coal": 1, "coin": 9}


def test_coal_harbor_ignores_peat_under_rulebook_profile():
    s = fresh("ireland")
    place(s, "I31", 3, 1)
    give(s, peat=5)
    use(s, "I31")
    only_place_only(s)


def test_coal_harbor_converts_peat_under_kennerspiel_profile():
    s = fresh("ireland", profile="kennerspiel")
    place(s, "I31", 3, 1)
    give(s, peat=2, peat_coal=3)
    use(s, "I31")
    assert options(s) == ["place only, use no function",
                          "1 peat to 3 coins + 1 whiskey, paying 1 peat",
                          "2 peat to 6 coins + 2 whiskey, paying 2 peat"]
    act(s, "2 peat to 6 coins")
    # kennerspiel pays the 6 coins as a 5-coin piece and a penny (tools/kenner/FINDINGS.md)
    assert goods_of(s) == {"whiskey": 2, "peat coal": 3, "coin": 1, "5 coins": 1}


def test_filial_church_takes_five_different_goods_for_a_reliquary():
    s = fresh("ireland")
    place(s, "I32", 3, 1)
    give(s, wood=2, grain=1, sheep=1, clay=1, book=1)
    use(s, "I32")
    act(s, "give 5 different goods, take 1 reliquary")
    assert s.frame["f"] == "pay"
    play(s, "PAY 1 wood", "PAY 1 grain", "PAY 1 sheep", "PAY 1 clay", "PAY 1 book")
    assert goods_of(s) == {"wood": 1, "reliquary": 1}
    assert s.frame["f"] == "turn"


def test_filial_church_with_four_kinds_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I32", 3, 1)
    give(s, wood=5, grain=5, sheep=5, clay=5)
    use(s, "I32")
    only_place_only(s)


def test_cooperage_pays_three_wood_for_joker_yield_of_beer_and_resets_joker():
    s = fresh("ireland")
    place(s, "I33", 3, 1)
    give(s, wood=4)
    set_wheel(s, 8, joker=0, wood=0)  # joker values[8] = 7
    use(s, "I33")
    assert options(s) == ["place only, use no function",
                          "3 wood for 7 beer (joker), paying 3 wood",
                          "3 wood for 7 whiskey (joker), paying 3 wood"]
    act(s, "for 7 beer")
    assert goods_of(s) == {"wood": 1, "beer": 7}
    assert s.g.wheel.yield_of("joker") == 0
    assert s.g.wheel.yield_of("wood") == 7  # no other token moves


def test_cooperage_whiskey_choice():
    s = fresh("ireland")
    place(s, "I33", 3, 1)
    give(s, wood=3)
    set_wheel(s, 3, joker=0)
    use(s, "I33")
    act(s, "for 4 whiskey")
    assert goods_of(s) == {"whiskey": 4}


def test_cooperage_with_joker_gone_takes_the_wood_for_nothing():
    s = fresh("ireland")
    place(s, "I33", 3, 1)
    give(s, wood=3)
    set_wheel(s, 3, joker=None)
    use(s, "I33")
    act(s, "for 0 beer")
    assert goods_of(s) == {}


def test_cooperage_with_two_wood_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I33", 3, 1)
    give(s, wood=2)
    use(s, "I33")
    only_place_only(s)


# ===== D buildings =========================================================================
def test_round_tower_pays_coins_whiskey_and_14_points_for_a_wonder():
    s = fresh("ireland")
    place(s, "I35", 3, 1)
    give(s, coin=5, whiskey=2, reliquary=1, ornament=1, book=1)
    use(s, "I35")
    act(s, "take a wonder")
    assert s.frame["f"] == "pay"
    play(s, "PAY 1 book", "PAY 1 reliquary", "PAY 1 ornament")
    assert goods_of(s) == {"whiskey": 1, "wonder": 1}
    assert s.g.wonders_left == 7


def test_round_tower_counts_a_second_whiskey_as_one_point():
    s = fresh("ireland")
    place(s, "I35", 3, 1)
    give(s, coin=5, whiskey=2, reliquary=1, ceramic=1, book=1)  # 1 + 3 + 2 + 8 = 14
    use(s, "I35")
    act(s, "take a wonder")
    assert texts(s) == ["PAY 1 whiskey"]
    play(s, "PAY 1 whiskey", "PAY 1 ceramic", "PAY 1 book", "PAY 1 reliquary")
    assert goods_of(s) == {"wonder": 1}
    assert s.g.wonders_left == 7


def test_round_tower_coins_come_from_one_coins_so_a_five_coin_piece_scores_two():
    s = fresh("ireland")
    place(s, "I35", 3, 1)
    give(s, coin=5, whiskey=1, reliquary=1, ornament=1, **{"5_coins": 1})  # 2 + 8 + 4
    use(s, "I35")
    act(s, "take a wonder")
    play(s, "PAY 1 5 coins", "PAY 1 reliquary", "PAY 1 ornament")
    assert goods_of(s) == {"wonder": 1}


def test_round_tower_short_of_14_points_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I35", 3, 1)
    give(s, coin=5, whiskey=2, reliquary=1, ornament=1)  # 8 + 4 + 1 (2nd whiskey) = 13
    use(s, "I35")
    only_place_only(s)


def test_round_tower_needs_a_whiskey_and_five_coins():
    for extra in ({"coin": 5}, {"whiskey": 1, "coin": 4}):
        s = fresh("ireland")
        place(s, "I35", 3, 1)
        give(s, reliquary=2, **extra)
        use(s, "I35")
        only_place_only(s)


def test_round_tower_with_no_wonder_left_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I35", 3, 1)
    give(s, coin=5, whiskey=1, reliquary=2)
    s.g.wonders_left = 0
    use(s, "I35")
    only_place_only(s)


def test_camera_converts_book_and_ceramic_at_most_twice():
    s = fresh("ireland")
    place(s, "I36", 3, 1)
    give(s, book=3, ceramic=3)
    use(s, "I36")
    assert options(s) == ["place only, use no function",
                          "1 book + ceramic to coin + clay + reliquary, paying 1 book, 1 ceramic",
                          "2 book + ceramic to coin + clay + reliquary, paying 2 book, 2 ceramic"]
    act(s, "2 book + ceramic")
    assert goods_of(s) == {"clay": 2, "ceramic": 1, "coin": 2, "book": 1, "reliquary": 2}


def test_camera_without_ceramic_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I36", 3, 1)
    give(s, book=3)
    use(s, "I36")
    only_place_only(s)


def test_bulwark_places_free_district_and_plot_from_top_of_the_reversed_stacks():
    s = fresh("ireland")
    place(s, "I37", 3, 1)
    give(s, book=1)
    assert s.g.district_prices[:2] == [8, 7] and s.g.plot_prices[:2] == [7, 6]
    use(s, "I37")
    act(s, "pay 1 book, place a free district and plot")
    assert goods_of(s) == {}
    act(s, "BUY_DISTRICT row 2 HILLS")
    assert s.g.district_prices == [7, 6, 5, 5, 4, 4, 3, 2]
    assert s.frame["f"] == "grant_land"
    assert not any(t.startswith("BUY_DISTRICT") for t in texts(s))
    act(s, "BUY_PLOT rows 0..1 COAST")
    assert s.g.plot_prices == [6, 6, 5, 5, 5, 4, 4, 3]
    land = s.g.owners[0].land
    assert land.terrain((0, 2)) is not None and land.terrain((-1, 0)) == "C"
    assert land.terrain((-2, 1)) == "W"
    # the free landscapes are not the round's purchase
    assert s.frame["f"] == "turn" and not s.g.owners[0].bought_land


def test_bulwark_free_landscapes_may_be_declined():
    s = fresh("ireland")
    place(s, "I37", 3, 1)
    give(s, book=1)
    use(s, "I37")
    act(s, "place a free district")
    act(s, "BUY_PLOT rows 0..1 MOUNTAIN")
    act(s, "SKIP")
    assert s.g.district_prices[0] == 8
    assert s.g.plot_prices[0] == 6
    assert s.g.owners[0].land.terrain((6, 0)) == "M"


def test_bulwark_with_empty_district_stack_offers_only_the_plot():
    s = fresh("ireland")
    place(s, "I37", 3, 1)
    give(s, book=1)
    s.g.district_prices.clear()
    use(s, "I37")
    act(s, "place a free district")
    assert not any(t.startswith("BUY_DISTRICT") for t in texts(s))
    assert any(t.startswith("BUY_PLOT") for t in texts(s))


def test_bulwark_kennerspiel_profile_does_not_consume_the_stacks():
    s = fresh("ireland", profile="kennerspiel")
    place(s, "I37", 3, 1)
    give(s, book=1)
    use(s, "I37")
    act(s, "place a free district")
    act(s, "BUY_DISTRICT row 2 PLAINS")
    act(s, "BUY_PLOT rows 0..1 COAST")
    assert s.g.district_prices[0] == 8 and s.g.plot_prices[0] == 7


def test_bulwark_without_book_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I37", 3, 1)
    give(s, coin=20)
    use(s, "I37")
    only_place_only(s)


FIVE_POINT_MIXES = ["place only, use no function",
                    "pay 1 beer, take 1 book, paying 1 beer",
                    "pay 1 beer, take 2 book, paying 1 beer",
                    "pay 1 beer, take 1 ceramic, paying 1 beer",
                    "pay 1 beer, take 1 book, 1 ceramic, paying 1 beer",
                    "pay 1 beer, take 1 ornament, paying 1 beer"]


def test_festival_ground_limit_is_forests_plus_moors_of_the_user():
    s = fresh("ireland")
    place(s, "I38", 3, 1)
    give(s, beer=1)
    use(s, "I38")  # 3 forests + 2 moors = 5 points
    assert options(s) == FIVE_POINT_MIXES
    act(s, "take 1 book, 1 ceramic")
    assert goods_of(s) == {"ceramic": 1, "book": 1}


def test_festival_ground_limit_drops_when_a_moor_is_cut():
    s = fresh("ireland")
    place(s, "I38", 3, 1)
    give(s, beer=2)
    s.g.owners[0].land.cells[(0, 0)][1] = None  # a moor cut earlier: 4 points
    use(s, "I38")
    opts = options(s)
    assert "pay 1 beer, take 2 book, paying 1 beer" in opts
    assert "pay 1 beer, take 1 ornament, paying 1 beer" in opts
    assert not any("1 book, 1 ceramic" in o for o in opts)


def test_festival_ground_reaches_a_reliquary_with_eight_cards_but_not_seven():
    s = fresh("ireland")
    place(s, "I38", 3, 1)
    give(s, beer=1)
    land = s.g.owners[0].land
    land.add_district(2, "HILLS")  # + 1 moor + 2 forests: 3 + 2 + 3 = 8
    use(s, "I38")
    assert "pay 1 beer, take 1 reliquary, paying 1 beer" in options(s)
    assert not any("1 book, 1 reliquary" in o for o in options(s))  # 10 > 8
    act(s, "take 1 reliquary")
    assert goods_of(s) == {"reliquary": 1}
    t = fresh("ireland")
    place(t, "I38", 3, 1)
    give(t, beer=1)
    t.g.owners[0].land.add_district(2, "HILLS")
    t.g.owners[0].land.cells[(1, 2)][1] = None  # one forest fewer: 7
    use(t, "I38")
    assert not any("reliquary" in o for o in options(t))
    assert "pay 1 beer, take 2 book, 1 ceramic, paying 1 beer" in options(t)


def test_neutral_festival_ground_by_contract_counts_the_users_forests_and_moors():
    s = fresh("ireland")
    place(s, "I38", 3, 0, owner=NEUTRAL)  # the neutral has no forest or moor at all
    give(s, coin=1, beer=1)
    act(s, "WORK_CONTRACT I38 Festival Ground (lay brother, paying 1 coins)")
    assert options(s) == FIVE_POINT_MIXES  # the user's 3 forests + 2 moors
    act(s, "take 1 ornament")
    assert goods_of(s) == {"ornament": 1}


def test_festival_ground_with_no_forest_or_moor_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I38", 3, 1)
    give(s, beer=1)
    land = s.g.owners[0].land
    for c in land.features("forest") + land.features("moor"):
        land.cells[c][1] = None
    use(s, "I38")
    only_place_only(s)


def test_festival_ground_without_beer_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I38", 3, 1)
    give(s, whiskey=3)
    use(s, "I38")
    only_place_only(s)


def test_guesthouse_free_use_of_unbuilt_display_building():
    s = fresh("ireland")
    place(s, "I40", 3, 1)
    give(s, coin=1)
    use(s, "I40")
    act(s, "free use of a display building")
    targets = texts(s)
    assert targets[0] == "SKIP"
    assert {t.split()[1] for t in targets[1:]} == set(s.g.display)
    assert "FREE_USE I14 Sacred Site" not in targets  # still in stack A
    assert not any("G13" in t for t in targets)  # the neutral's Builders' Market
    act(s, "FREE_USE I03 Granary")
    act(s, "take 4 grain")
    assert goods_of(s) == {"grain": 4, "book": 1}
    assert "I03" in s.g.display  # it stays in the display, unbuilt
    assert clergy(s) == [[0, 3, 1], None, None]


def test_guesthouse_unbuilt_cottage_gives_only_the_malt():
    s = fresh("ireland")
    place(s, "I40", 3, 1)
    use(s, "I40")
    act(s, "free use of a display building")
    act(s, "FREE_USE I10 Cottage")
    act(s, "take 1 malt")
    assert goods_of(s) == {"malt": 1}
    assert s.frame["f"] == "turn"  # no neighbour free use


def test_guesthouse_unbuilt_whiskey_distillery_does_not_raise_the_fee():
    s = fresh("ireland")
    place(s, "I40", 3, 1)
    to_display(s, "I21")
    give(s, malt=1, wood=1, peat=1)
    use(s, "I40")
    act(s, "free use of a display building")
    act(s, "FREE_USE I21 Whiskey Distillery")
    act(s, "to 2 whiskey")
    assert goods_of(s) == {"whiskey": 2}
    assert s.fee() == 1


def test_guesthouse_with_empty_display_offers_only_place_only():
    s = fresh("ireland")
    place(s, "I40", 3, 1)
    s.g.display.clear()
    use(s, "I40")
    only_place_only(s)


# ===== illegal actions leave the state unchanged ==========================================
def test_rule_error_for_option_beyond_the_last_keeps_state():
    s = fresh("ireland")
    place(s, "I04", 3, 1)
    give(s, grain=2)
    use(s, "I04")
    assert_illegal_keeps_state(s, A.make("OPTION", flag=3))  # 3 grain is max+1
    act(s, "2 grain")
    assert goods_of(s) == {"straw": 2, "malt": 2}


def test_rule_error_for_free_use_of_an_occupied_neighbour_keeps_state():
    s = fresh("ireland")
    place(s, "I10", 3, 1)
    clergy(s)[1] = [0, 4, 1]
    use(s, "I10", "prior")
    act(s, "take 1 malt")
    assert_illegal_keeps_state(s, A.make("FREE_USE", "LR3"))


def test_rule_error_for_paying_a_repeated_good_at_filial_church_keeps_state():
    s = fresh("ireland")
    place(s, "I32", 3, 1)
    give(s, wood=2, grain=1, sheep=1, clay=1, book=1)
    use(s, "I32")
    act(s, "give 5 different goods")
    act(s, "PAY 1 wood")
    assert_illegal_keeps_state(s, A.make("PAY", flag=0))  # a second wood


def test_rule_error_for_whiskey_present_without_whiskey_keeps_state():
    s = fresh("ireland")
    place(s, "I17", 3, 0, owner=NEUTRAL)
    give(s, coin=3)
    assert_illegal_keeps_state(s, A.make("WORK_CONTRACT", "I17", flag=LAY_BROTHER, extra=2))
    assert_illegal_keeps_state(s, A.make("USE", "I17", flag=PRIOR))  # not the user's building
