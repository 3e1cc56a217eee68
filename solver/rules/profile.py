"""Rule profiles: every disputed rule is one named field (DECISIONS.md, DISAGREEMENTS.md).

``rulebook`` (the default) follows the verdicts of DISAGREEMENTS.md with the changes of
DECISIONS.md. ``kennerspiel`` reproduces kennerspiel @8a87263 where it changes a recorded
game's outcome. Code never tests a profile's name; it reads these fields.

Two kennerspiel defects of DECISIONS.md quirk 18 have no field, because no state the engine can
reach differs by them:

* F04 Windmill, "grain not checked": kennerspiel converts grain the player does not hold, so
  the stock goes negative. No engine state holds a negative amount (invariants.py), and
  buildings.md tells importers to validate the grain: an imported ``USE F04 Gn...`` naming
  grain not held is rejected under every profile (the Windmill's options stop at the grain
  held), as it would be with a field.
* I36 Camera, "straw/wood strings do nothing": only kennerspiel's move generator proposes
  ``USE I36 SwWo``; its action ignores the string, so the move is a placement without effect,
  which is what the importer already makes of it under every profile (no book/ceramic named:
  option 0, nothing taken) and what option 0 is in the engine's own moves.

Several quirks are reachable only through imported kennerspiel moves, which name their goods
(``solver.rules.effects`` ``quirks`` options, accepted by ``State.apply_explicit`` alone): the
engine's own legal moves never offer a defect's extra gains.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class RuleProfile:
    """The rule options of one profile. Field comments name the item they settle."""

    name: str = "rulebook"
    # D1: the round at whose start solo settlement C happens (21; the engines say 22)
    solo_phase_c_round: int = 21
    # D2/D3: solo rounds, and whether round 32 ends with the neutral build and settlement E
    solo_rounds: int = 32
    solo_final_phase: bool = True
    # D4/D32: settlement phases happen before the rotation of the round they open (KS)
    settlement_before_rotation: bool = False
    # D6: neutral-phase contract targets: "just_built" (rule) or "any" unoccupied (KS handler)
    neutral_contract_targets: str = "just_built"
    # D9: a neutral cloister building that covers another must still touch a cloister (WL)
    neutral_cover_needs_adjacency: bool = False
    # D23: fell trees / cut peat allowed with no card left (gives nothing)
    empty_fell_cut: bool = True
    # D25: a district may connect through a mountain plot in its row (rule reading, WL); KS
    # looks at the wrong column there, so only the heartland/districts or a coast plot connect
    district_via_mountain_plot: bool = True
    # D24: landscape purchases: "round" (one per round + one per settlement phase) or "turn"
    land_purchase_per: str = "round"
    # D26: a Houseboat on water counts its own dwelling value instead of the water's 3
    houseboat_replaces_water: bool = True
    # D34: coin payments may spend wine/whiskey automatically (KS) or only when converted
    auto_spend_wine_whiskey: bool = False
    # DECISIONS: I35 Round Tower dwelling value (2; printed value unresolved, 9 elsewhere)
    round_tower_dwelling: int = 2
    # DECISIONS: I21 Whiskey Distillery is built for free (KS data defect)
    whiskey_distillery_free: bool = False
    # buildings.md I31: the Coal Harbor converts peat coal (rule) or peat (KS)
    coal_harbor_input: str = "coal"
    # buildings.md I37: Bulwark's free landscapes come off the stacks (rule) or not (KS)
    bulwark_consumes_stacks: bool = True
    # RULES §8.1: after a build, the prior's bonus use may go to any own building (KS)
    prior_bonus_any_building: bool = False
    # G41 House of the Brotherhood points per cloister in solo (buildings-notes §6)
    brotherhood_rate_solo: float = 1.0
    # G41 rate in the printed 2-player game (engines' "short") and in the 2-player long
    # variant (buildings-notes §6: 1.5 printed; which 2-player game it belongs to is open;
    # kennerspiel gives 2 in its short game, quirk 18)
    brotherhood_rate_2p_short: float = 1.5
    brotherhood_rate_2p_long: float = 1.5
    # RULES §13 / D17-D18: safety cap on the open-ended 2-player games (the display normally
    # ends them long before; a game that never builds would otherwise never end)
    two_player_max_rounds: int = 80
    # D18: the 2-player long variant uses every card except F10/F29/F31 (WL) instead of the
    # 24-card 2-player set
    two_long_full_set: bool = False

    # ----- kennerspiel quirks (DECISIONS.md "Quirks the kennerspiel profile must reproduce")
    # tools/kenner (docs/fidelity.md "Differential play"): a solo settlement phase opens with the
    # all-placed clergy return (the neutral's and the player's), so a neutral whose three
    # clergymen are all out takes them back before it builds and its prior can take the
    # phase's contract (SOLO §4.2 returns the neutral's after the contract, step 5, and the
    # player's at the next round's start)
    solo_phase_returns_clergy_first: bool = False
    # tools/kenner: the Palace / Grand Manor's free use may go to the Palace (Grand Manor)
    # itself, occupied by the clergyman just placed (kennerspiel offers every occupied building)
    palace_may_use_itself: bool = False
    # tools/kenner: the solo settlement phase's one landscape purchase may already be made
    # while the neutral builds (kennerspiel allows it throughout its settlement frame)
    land_in_neutral_phase: bool = False
    # tools/kenner: the free use of the building hired in a solo settlement phase may wait
    # until after the SETTLE, anywhere in the settlement turn (kennerspiel keeps it usable in
    # its settlement frame until COMMIT; SOLO §4.2 step 4 has it used at once, before step 6);
    # so is a free use that building grants (a Cloister Garden's neighbour)
    solo_hired_use_after_settle: bool = False
    # tools/kenner: in solo, once the joker has left the wheel (SOLO §2: removed past 10), a
    # Shipping Company / Cooperage use yields 0 and puts the joker back on the wheel at the
    # arm (kennerspiel resets the joker there whether or not it was on the wheel); rule: the
    # joker stays out
    joker_product_restores_joker: bool = False
    # tools/kenner: a free use (Priory, Hospice, Palace, ...) may go to a building used earlier
    # in the same chain of free uses (kennerspiel offers its targets whatever came before; rule
    # reading: a chain never returns to a building it used), except to a Cloister Garden or
    # Cottage used earlier in the turn (kennerspiel marks those unusable until the turn ends)
    free_use_repeats_chain: bool = False
    # tools/kenner: a wonder tile may be given in a picked payment of different goods (G02
    # Cloister Courtyard, F08 Market, ...) or of points (I35 Round Tower), as one of the goods
    # tiles (RULES §1); kennerspiel keeps wonders as a count outside its goods, so no payment
    # of it can take one (its move parameters have no wonder code)
    wonders_are_goods: bool = True
    # quirk 3 / D15: short games hand out the round goods of a settlement round after the phase
    short_round_goods_after_settlement: bool = False
    # quirk 4 / D13: short games use the long games' building lists (3p: 33, 4p: 41)
    short_uses_long_lists: bool = False
    # quirk 5 / D12: 3-4p long games introduce grapes/stone before the entry round's rotation,
    # and the 3-player grapes round
    long_tokens_before_rotation: bool = False
    grapes_round_3p_long: int = 8
    # quirk 6 / D18: 2-player long end check: "round_end" (rule: end of the round in which the
    # display is down to 3) or "third_turn" (KS: start of each round's third turn, from the
    # second round after D)
    two_long_end_check: str = "round_end"
    # quirk 7 / D24: in a settlement turn the landscape purchase may also follow the settlement
    land_after_settle: bool = False
    # quirk 8 / D34: change-making when a named goods payment lacks coins or straw:
    # "rulebook" (break 5-coin pieces, flip grain) or "kennerspiel" (NOTATION §2.5: nickels,
    # then whiskey, then wine; straw from grain)
    goods_payment_change: str = "rulebook"
    # quirk 9 / NOTATION §6.8: a work contract pays its whole payment string and only the
    # 1-coin pieces in it reach the owner
    contract_pennies_only: bool = False
    # quirk 10 / NOTATION §6.11: CONVERT takes grain, wine, nickels and whiskey unchecked
    convert_unchecked: bool = False
    # quirk 11 / NOTATION §6.3: WITH_PRIOR between BUILD X and USE X is a no-op (importer)
    with_prior_after_build_noop: bool = False
    # quirk 12 / NOTATION §6.2: USE does not re-check that the building is unoccupied
    use_ignores_occupied: bool = False
    # tools/kenner: a clergyman placed on an occupied building (quirk 12 above, the bonus round)
    # takes the space; the one standing there leaves the board, still counted as placed,
    # until its clergy return (rule: both stand there, RULES §12)
    occupied_use_displaces: bool = False
    # quirk 13 / D6 / NOTATION §6.12: in a solo settlement turn an imported SETTLE skips the
    # terrain check until a USE (the neutral-phase contract) is made
    solo_settle_skips_terrain: bool = False
    # quirk 17 / buildings.md §2: an explicit payment (a kennerspiel parameter) is taken whole,
    # even beyond what the building converts, with no change; otherwise only what the chosen
    # option costs is taken from it
    explicit_payment_takes_all: bool = False
    # quirk 8 (change-making) / NOTATION §7: building income of 5 or more coins arrives as
    # "pennies" (1-coin pieces, score-neutral choice) or as "nickels" (5-coin pieces plus the
    # rest, as kennerspiel pays the converters listed in effects._NICKEL_INCOME)
    coin_income: str = "pennies"
    # quirk 18 / buildings.md: per-card kennerspiel defects (F04 Windmill and I36 Camera have
    # none: see the module docstring)
    cloister_church_without_wine: bool = False  # F24: bread alone pays out (2 wine assumed)
    # G26: an imported use exchanges wood / 2 times with no cap (``WoWoWoWo``: 2 ornaments, 2
    # 5-coin pieces); an odd wood count would give half goods and is rejected
    shipyard_uncapped: bool = False
    # G34: an imported use naming any of book/ceramic/ornament/reliquary buys the wonder, and a
    # bare imported use takes a wonder out of the supply for nothing (rejected once it is empty)
    sacristy_any_good: bool = False
    # G01: of the priors on one landscape only the first, row by row, is offered as a target
    priory_one_prior_per_landscape: bool = False
    # I33: an imported use naming 3+ wood but no product (``BeWoWoWo``) pays the wood and
    # resets the joker, yielding nothing
    cooperage_one_param_nothing: bool = False

    def describe(self) -> dict:
        """All fields as a plain dict (for results records)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


RULEBOOK = RuleProfile()
KENNERSPIEL = replace(
    RULEBOOK,
    name="kennerspiel",
    solo_phase_c_round=22,
    solo_rounds=31,
    solo_final_phase=False,
    settlement_before_rotation=True,
    neutral_contract_targets="any",
    # D9: kennerspiel's BUILD handler checks cloister adjacency when the neutral covers a
    # building too (only its move list skips the check); tools/kenner evidence in docs/fidelity.md
    neutral_cover_needs_adjacency=True,
    land_purchase_per="turn",
    district_via_mountain_plot=False,
    auto_spend_wine_whiskey=True,
    whiskey_distillery_free=True,
    coal_harbor_input="peat",
    bulwark_consumes_stacks=False,
    prior_bonus_any_building=True,
    brotherhood_rate_2p_short=2.0,
    # kennerspiel has no round cap: its 2-player games go on until the display empties
    two_player_max_rounds=1000,
    solo_phase_returns_clergy_first=True,
    land_in_neutral_phase=True,
    solo_hired_use_after_settle=True,
    joker_product_restores_joker=True,
    free_use_repeats_chain=True,
    wonders_are_goods=False,
    palace_may_use_itself=True,
    short_round_goods_after_settlement=True,
    short_uses_long_lists=True,
    long_tokens_before_rotation=True,
    grapes_round_3p_long=9,
    two_long_end_check="third_turn",
    land_after_settle=True,
    goods_payment_change="kennerspiel",
    contract_pennies_only=True,
    convert_unchecked=True,
    with_prior_after_build_noop=True,
    use_ignores_occupied=True,
    occupied_use_displaces=True,
    solo_settle_skips_terrain=True,
    explicit_payment_takes_all=True,
    coin_income="nickels",
    cloister_church_without_wine=True,
    shipyard_uncapped=True,
    sacristy_any_good=True,
    priory_one_prior_per_landscape=True,
    cooperage_one_param_nothing=True,
)
PROFILES = {"rulebook": RULEBOOK, "kennerspiel": KENNERSPIEL}


def get_profile(profile: str | RuleProfile) -> RuleProfile:
    """Look up a profile by name (or pass a RuleProfile through)."""
    if isinstance(profile, RuleProfile):
        return profile
    try:
        return PROFILES[profile]
    except KeyError:
        raise ValueError(
            f"unknown rule profile {profile!r}: choose one of {', '.join(PROFILES)}"
        ) from None
