"""Illegal actions: every kind raises RuleError naming the broken rule and leaves the state as it was.

Each case builds a real position from ``fresh()`` (goods handed out with ``give()``), applies one
illegal action id made with ``actions.make`` and checks that
* ``apply_action`` raises ``solver.rules.RuleError`` whose message contains a key word,
* ``to_dict()`` (and the legal actions) are exactly as before,
* the id is not among the legal actions.
"""

from __future__ import annotations

import json

import pytest

from solver.rules import RuleError
from solver.rules.actions import make
from tests.helpers import act, fresh, give, texts


def illegal(s, action: int, *words: str) -> str:
    """Apply an illegal action; check the error, the words and that nothing changed."""
    before = json.dumps(s.to_dict(), sort_keys=True)
    legal = s.legal_actions()
    assert action not in legal, s.action_to_string(action)
    with pytest.raises(RuleError) as exc:
        s.apply_action(action)
    msg = str(exc.value)
    for w in words:
        assert w.lower() in msg.lower(), f"{w!r} not in {msg!r}"
    assert json.dumps(s.to_dict(), sort_keys=True) == before
    assert s.legal_actions() == legal
    return msg


def _step(s):
    f = s.frame["f"]
    if f == "neutral_build":
        s.apply_action(s.legal_actions()[0])
    elif f in ("neutral_contract", "prior_bonus", "free_use"):
        s.apply_action(make("SKIP"))
    else:
        s.apply_action(make("COMMIT"))


def to_frame(s, kind: str, phase: str | None = None):
    while not (s.frame["f"] == kind and (phase is None or s.g.phase == phase)):
        _step(s)


# ===== no action at all ======================================================================
@pytest.mark.parametrize("aid", [0, -1, 19 << 24, 200 << 24, 1 << 40])
def test_int_that_is_no_action(aid):
    s = fresh()
    illegal(s, aid, "not an action id")
    assert s.action_to_string(aid).startswith("<invalid action")


@pytest.mark.parametrize("entry", ["apply_explicit", "apply_extra"])
def test_importer_entry_with_an_id_that_is_no_action_raises_rule_error(entry):
    # regression: apply_extra let decode's ValueError out (apply_action and apply_explicit
    # turned it into a RuleError); the three entries now share one decoding
    s = fresh()
    before = json.dumps(s.to_dict(), sort_keys=True)
    with pytest.raises(RuleError, match="not an action id"):
        getattr(s, entry)(200 << 24)
    assert json.dumps(s.to_dict(), sort_keys=True) == before


def test_any_action_after_the_end():
    s = fresh()
    while not s.is_terminal():
        _step(s)
    illegal(s, make("COMMIT"), "game is over")


# ===== COMMIT / SKIP / kinds out of place ===================================================
def test_commit_during_option_choice():
    s = fresh()
    act(s, "USE LR1 Clay Mound with lay brother")
    assert s.frame["f"] == "option"
    illegal(s, make("COMMIT"), "not possible now", "OPTION")


def test_commit_before_the_neutral_has_built():
    s = fresh()
    to_frame(s, "neutral_build", "A")
    illegal(s, make("COMMIT"), "neutral", "build every display building")


def test_commit_during_payment():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, grain=1, wood=1)
    act(s, "SETTLE S1 Shanty Town at (3, 0)")
    assert s.frame["f"] == "pay"
    illegal(s, make("COMMIT"), "payment", "PAY")


def test_skip_and_foreign_kinds_in_a_turn():
    s = fresh()
    illegal(s, make("SKIP"), "not possible now")
    illegal(s, make("OPTION", flag=0), "not possible now")
    illegal(s, make("PAY", flag=10), "not possible now")
    illegal(s, make("FREE_USE", "LR1"), "not possible now")
    illegal(s, make("USE_PRIOR", "LR1"), "not possible now")
    illegal(s, make("SETTLE", col=3, row=0, flag=1), "not possible now")
    illegal(s, make("NEUTRAL_BUILD", "G01", 1, 1), "not possible now")
    illegal(s, make("PICK_CELL", col=1, row=0), "not possible now")


# ===== USE ==================================================================================
def test_use_building_not_on_your_landscape():
    s = fresh()
    illegal(s, make("USE", "G01", flag=0), "not on your landscape")
    illegal(s, make("USE", "LG1", flag=0), "not on your landscape")  # the neutral's Clay Mound


def test_use_occupied_building():
    s = fresh()
    act(s, "USE LR1 Clay Mound with lay brother")
    act(s, "LR1: place only, use no function")
    act(s, "COMMIT")
    illegal(s, make("USE", "LR1", flag=1), "already stands", "clergyman")


def test_use_with_no_free_clergyman():
    s = fresh()
    act(s, "USE LR1 Clay Mound with lay brother")
    act(s, "LR1: place only, use no function")
    act(s, "COMMIT")
    act(s, "USE LR2 Farmyard with lay brother")
    act(s, "LR2: place only, use no function")
    act(s, "COMMIT")
    assert s.round == 2
    illegal(s, make("USE", "LR3", flag=0), "no lay brother")
    act(s, "USE LR3 Cloister Office with prior")
    act(s, "LR3: place only, use no function")
    act(s, "COMMIT")
    # all three placed: they come back at the start of round 3, so round 2's 2nd turn is empty
    illegal(s, make("USE", "LR3", flag=1), "already stands")


def test_second_main_action_in_a_turn():
    s = fresh()
    act(s, "USE LR1 Clay Mound with lay brother")
    act(s, "LR1: place only, use no function")
    illegal(s, make("USE", "LR2", flag=0), "main action is already used")
    illegal(s, make("FELL_TREES", col=1, row=0), "main action is already used")


# ===== WORK_CONTRACT ========================================================================
def test_work_contract_without_money():
    s = fresh()
    illegal(s, make("WORK_CONTRACT", "G13", flag=0, extra=0), "fee is 1 coins", "less")
    illegal(s, make("WORK_CONTRACT", "LG1", flag=1, extra=1), "no wine")
    illegal(s, make("WORK_CONTRACT", "LG1", flag=1, extra=2), "no whiskey")


def test_work_contract_on_occupied_building():
    s = fresh()
    give(s, coin=2)
    act(s, "WORK_CONTRACT LG1 Clay Mound (lay brother, paying 1 coins)")
    act(s, "LG1: place only, use no function")
    act(s, "COMMIT")
    illegal(s, make("WORK_CONTRACT", "LG1", flag=1, extra=0), "occupied")


def test_work_contract_on_own_or_unbuilt_building():
    s = fresh()
    give(s, coin=2)
    illegal(s, make("WORK_CONTRACT", "LR1", flag=0, extra=0), "not built on another landscape")
    illegal(s, make("WORK_CONTRACT", "G01", flag=0, extra=0), "not built on another landscape")


def test_work_contract_neutral_has_no_free_clergyman_of_that_kind():
    s = fresh()
    give(s, coin=5)
    act(s, "WORK_CONTRACT LG1 Clay Mound (prior, paying 1 coins)")
    act(s, "LG1: place only, use no function")
    act(s, "COMMIT")
    illegal(s, make("WORK_CONTRACT", "LG2", flag=1, extra=0), "no free prior")


def test_neutral_phase_contract_on_a_building_not_just_built():
    s = fresh()
    give(s, coin=3)
    to_frame(s, "neutral_contract", "A")
    illegal(s, make("WORK_CONTRACT", "LG1", flag=1, extra=0), "just built")
    built = s.g.neutral_built[0]
    illegal(s, make("WORK_CONTRACT", built, flag=0, extra=0), "just built")


# ===== FELL_TREES / CUT_PEAT =================================================================
def test_fell_trees_without_forest():
    s = fresh()
    illegal(s, make("FELL_TREES", col=3, row=0), "no forest")
    illegal(s, make("FELL_TREES", col=0, row=0), "no forest")   # a moor
    illegal(s, make("FELL_TREES", col=4, row=9), "no forest")   # no land
    illegal(s, make("FELL_TREES", flag=2), "only allowed with no forest left")


def test_cut_peat_without_moor():
    s = fresh()
    illegal(s, make("CUT_PEAT", col=1, row=0), "no moor")       # a forest
    illegal(s, make("CUT_PEAT", col=2, row=1), "no moor")       # the Farmyard
    illegal(s, make("CUT_PEAT", flag=2), "only allowed with no moor left")


# ===== BUILD ================================================================================
def test_build_wrong_terrain():
    s = fresh()
    give(s, wood=2, clay=1)
    illegal(s, make("BUILD", "I08", 3, 0), "terrain")           # False Lighthouse: coast only
    illegal(s, make("BUILD", "I11", 3, 1), "terrain")           # Houseboat: water only


def test_build_on_occupied_space():
    s = fresh()
    give(s, clay=1)
    illegal(s, make("BUILD", "G07", 2, 1), "not empty")         # the Farmyard
    illegal(s, make("BUILD", "G07", 1, 0), "not empty")         # a forest
    illegal(s, make("BUILD", "G07", 7, 0), "no land")


def test_build_cloister_not_adjacent():
    s = fresh()
    give(s, wood=1, clay=1)
    # (3,0) touches forest (2,0), Clay Mound (4,0), empty (3,1): no cloister building
    illegal(s, make("BUILD", "G01", 3, 0), "cloister")
    act(s, "BUILD G01 Priory at (3, 1)")                        # touches the Cloister Office


def test_build_unaffordable():
    s = fresh()
    illegal(s, make("BUILD", "G07", 3, 0), "costs", "clay")
    give(s, wood=1)
    illegal(s, make("BUILD", "G02", 3, 1), "costs")              # Cloister Courtyard: 2 wood


def test_build_not_in_display():
    s = fresh()
    give(s, stone=5, wood=5, clay=5)
    illegal(s, make("BUILD", "I14", 3, 0), "not in the display")  # an A building
    illegal(s, make("BUILD", "LR1", 3, 0), "not in the display")


# ===== BUY_DISTRICT / BUY_PLOT ===============================================================
def test_buy_land_twice_in_one_round():
    s = fresh()
    give(s, coin=30)
    act(s, "BUY_DISTRICT row -1 PLAINS")
    illegal(s, make("BUY_PLOT", row=0, flag=0), "one landscape")
    illegal(s, make("BUY_DISTRICT", row=2, flag=1), "one landscape")
    act(s, "COMMIT")
    illegal(s, make("BUY_PLOT", row=0, flag=1), "one landscape")     # 2nd turn, same round
    act(s, "COMMIT")
    act(s, "BUY_PLOT rows 0..1 MOUNTAIN")                             # next round: allowed


def test_buy_land_twice_in_a_settlement_phase():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, coin=30)
    act(s, "BUY_DISTRICT row 2 HILLS")
    illegal(s, make("BUY_PLOT", row=0, flag=0), "one landscape")


def test_buy_land_unaffordable():
    s = fresh()
    give(s, coin=6)
    illegal(s, make("BUY_DISTRICT", row=-1, flag=0), "costs 8 coins")
    illegal(s, make("BUY_PLOT", row=0, flag=0), "costs 7 coins")
    give(s, wine=3)   # wine is not money until converted (D34, rulebook)
    illegal(s, make("BUY_PLOT", row=0, flag=0), "costs 7 coins")


def test_buy_land_bad_row():
    s = fresh()
    give(s, coin=30)
    illegal(s, make("BUY_DISTRICT", row=5, flag=0), "row 5")
    illegal(s, make("BUY_DISTRICT", row=0, flag=0), "row 0")         # heartland row
    illegal(s, make("BUY_PLOT", row=4, flag=0), "coast plot")
    illegal(s, make("BUY_PLOT", row=-4, flag=1), "mountain plot")
    act(s, "BUY_PLOT rows 0..1 COAST")
    act(s, "COMMIT")
    act(s, "COMMIT")
    illegal(s, make("BUY_PLOT", row=1, flag=0), "coast plot")        # overlaps the first


# ===== CONVERT ==============================================================================
def test_convert_without_goods():
    s = fresh()
    illegal(s, make("CONVERT", flag=0), "not enough goods")          # grain to straw
    illegal(s, make("CONVERT", flag=2), "not enough goods")          # 5 x 1 coin -> 5 coins
    give(s, coin=4)
    illegal(s, make("CONVERT", flag=2), "not enough goods")
    illegal(s, make("CONVERT", flag=4), "not enough goods")          # whiskey
    illegal(s, make("CONVERT", flag=9), "unknown conversion")


def test_convert_inside_another_decision():
    s = fresh()
    give(s, grain=1)
    act(s, "USE LR1 Clay Mound with lay brother")
    illegal(s, make("CONVERT", flag=0), "extra actions")


# ===== OPTION ===============================================================================
def test_option_out_of_range():
    s = fresh()
    act(s, "USE LR1 Clay Mound with lay brother")
    n = len(s.legal_actions())
    illegal(s, make("OPTION", flag=n), "no option")
    illegal(s, make("OPTION", flag=99), "no option")


# ===== PAY ==================================================================================
def test_pay_good_not_held():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, grain=1, wood=1)
    act(s, "SETTLE S1 Shanty Town at (3, 0)")
    assert texts(s) == ["PAY 1 wood"]
    illegal(s, make("PAY", flag=5), "cannot give meat")               # not held
    illegal(s, make("PAY", flag=2), "cannot give grain")              # held, but wood first
    illegal(s, make("PAY", flag=99), "cannot give")
    act(s, "PAY 1 wood")
    illegal(s, make("PAY", flag=0), "cannot give wood")               # none left


# ===== FREE_USE / USE_PRIOR ==================================================================
def test_free_use_of_a_non_target():
    s = fresh()
    give(s, stone=1, straw=1)
    act(s, "BUILD I10 Cottage at (3, 1)")
    act(s, "USE_PRIOR on I10 Cottage")
    act(s, "I10: take 1 malt, then a free use of a neighbour")
    assert s.frame["f"] == "free_use"
    assert sorted(texts(s)) == ["FREE_USE LR2 Farmyard", "FREE_USE LR3 Cloister Office", "SKIP"]
    illegal(s, make("FREE_USE", "LR1"), "cannot be used for free")   # not a neighbour
    illegal(s, make("FREE_USE", "I10"), "cannot be used for free")   # itself
    illegal(s, make("COMMIT"), "not possible now")


def test_use_prior_on_another_building():
    s = fresh()
    give(s, clay=1)
    act(s, "BUILD G07 Peat Coal Kiln at (3, 0)")
    assert s.frame["f"] == "prior_bonus"
    illegal(s, make("USE_PRIOR", "LR1"), "building just built")


# ===== SETTLE ===============================================================================
def test_settle_settlement_not_held():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, meat=10, wood=10)
    illegal(s, make("SETTLE", col=3, row=0, flag=5), "no settlement S5")  # arrives after A
    illegal(s, make("SETTLE", col=3, row=0, flag=8), "no settlement S8")


def test_settle_wrong_terrain_or_space():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, meat=10, wood=10)
    illegal(s, make("SETTLE", col=3, row=0, flag=4), "needs an empty", "C")  # Fishing Village
    illegal(s, make("SETTLE", col=2, row=1, flag=2), "needs an empty")       # Farmyard
    illegal(s, make("SETTLE", col=1, row=0, flag=2), "needs an empty")       # forest
    illegal(s, make("SETTLE", col=9, row=9, flag=2), "needs an empty")       # no land


def test_settle_unaffordable():
    s = fresh()
    to_frame(s, "settle", "A")
    illegal(s, make("SETTLE", col=3, row=0, flag=1), "costs")
    give(s, meat=2)
    illegal(s, make("SETTLE", col=3, row=0, flag=2), "costs", "energy")  # 3 food 3 energy


def test_settle_twice_in_a_phase():
    s = fresh()
    to_frame(s, "settle", "A")
    give(s, grain=2, wood=2)
    act(s, "SETTLE S1 Shanty Town at (3, 0)")
    act(s, "PAY 1 wood")
    act(s, "PAY 1 grain")
    illegal(s, make("SETTLE", col=3, row=1, flag=2), "only one settlement")
    illegal(s, make("BUY_DISTRICT", row=2, flag=0), "before your settlement")


# ===== NEUTRAL_BUILD ========================================================================
def test_neutral_build_on_a_wrong_space():
    s = fresh()
    to_frame(s, "neutral_build", "A")
    assert "G01" in s.g.display and "G07" in s.g.display
    # a cloister building on an empty space away from the neutral's cloister
    illegal(s, make("NEUTRAL_BUILD", "G01", 1, 1), "cannot build")
    # a non-cloister building covering the Cloister Office
    illegal(s, make("NEUTRAL_BUILD", "G07", 4, 1), "cannot build")
    # outside its heartland
    illegal(s, make("NEUTRAL_BUILD", "G07", 5, 0), "cannot build")
    # not in the display
    illegal(s, make("NEUTRAL_BUILD", "I14", 1, 1), "not in the display")
    # other decisions before the display is empty
    illegal(s, make("SKIP"), "build every display building")


# ===== ids that are not in legal_actions() but are not refused ==================================
_LOOSE = ("engine bug: apply_action() accepts action ids that legal_actions() does not list: "
          "decode() ignores fields a kind does not use and handlers do not range-check flags "
          "(game.py apply_action / _main_use / _contract / _fell_cut)")


def test_regression_commit_with_stray_payload_bits():
    s = fresh()
    illegal(s, make("COMMIT", extra=1))


def test_regression_use_with_clergy_flag_out_of_range():
    s = fresh()
    illegal(s, make("USE", "LR1", flag=2), "lay brother")   # 0 lay brother / 1 prior only


def test_regression_work_contract_with_clergy_flag_out_of_range():
    s = fresh()
    give(s, coin=1)
    illegal(s, make("WORK_CONTRACT", "LG1", flag=3, extra=0))


def test_regression_fell_trees_with_wheel_flag_out_of_range():
    s = fresh()
    illegal(s, make("FELL_TREES", col=1, row=0, flag=3))    # 0 own, 1 joker, 2 empty only


def test_regression_fell_trees_own_indicator_after_it_left_the_wheel():
    s = fresh()
    act(s, "FELL_TREES at (1, 0) with the joker")       # keeps the joker on the wheel
    while not (s.frame["f"] == "turn" and s.round == 13):
        _step(s)
    assert "wood" not in s.g.wheel.tokens and "joker" in s.g.wheel.tokens
    illegal(s, make("FELL_TREES", col=2, row=0, flag=0), "wood")


def test_regression_neutral_build_with_stray_flag():
    s = fresh()
    to_frame(s, "neutral_build", "A")
    good = s.legal_actions()[0]
    illegal(s, good | (5 << 2))
