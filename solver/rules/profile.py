"""Rule profiles: every disputed rule is one named field (DECISIONS.md, DISAGREEMENTS.md).

``rulebook`` (the default) follows the verdicts of DISAGREEMENTS.md with the changes of
DECISIONS.md. ``kennerspiel`` reproduces kennerspiel @8a87263 where it changes a recorded
game's outcome. Code never tests a profile's name; it reads these fields.
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
    land_purchase_per="turn",
    auto_spend_wine_whiskey=True,
    whiskey_distillery_free=True,
    coal_harbor_input="peat",
    bulwark_consumes_stacks=False,
    prior_bonus_any_building=True,
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
