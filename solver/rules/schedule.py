"""The flow script of a game: the fixed sequence of steps a mode plays (RULES §7, §11, SOLO §2-5).

Like kennerspiel's frame tables, each mode is a list of steps, generated from the mode tables
and the rule profile:

* ``("round", r)``: start of round r: clergy return, wheel rotation (RULES §7.1 steps 1-2);
* ``("neutral_build", L)``, ``("neutral_contract", L)``, ``("neutral_return", L)``: the solo
  neutral player's part of settlement phase L (SOLO §4.2 steps 3-5);
* ``("settle", L, seat)``: a player's settlement turn (buy one landscape, build one settlement);
* ``("arrivals", L)``: the phase's settlement card and next building stack arrive;
* ``("turn", seat)``: one action turn (a main action plus extra actions);
* ``("end",)``.
"""

from __future__ import annotations

from .cards import GAME
from .profile import RuleProfile

PHASES = "ABCDE"


def solo_settlement_rounds(profile: RuleProfile) -> list[int]:
    """Rounds at whose start phases A-D happen (SOLO §4.1; C is profile field D1)."""
    a, b, _, d = GAME["modes"]["1-long"]["settlements"]
    return [a, b, profile.solo_phase_c_round, d]


def _phase_steps(letter: str, seats: range, neutral: bool) -> list[tuple]:
    steps: list[tuple] = []
    if neutral:
        steps += [("neutral_build", letter), ("neutral_contract", letter),
                  ("neutral_return", letter)]
    steps += [("settle", letter, s) for s in seats]
    if letter != "E":
        steps.append(("arrivals", letter))
    return steps


def solo_script(profile: RuleProfile) -> list[tuple]:
    """SOLO.md §2-5: 32 rounds of 2 actions, phases A-D at the start of rounds, E at the end."""
    phase_at = dict(zip(solo_settlement_rounds(profile), "ABCD"))
    steps: list[tuple] = []
    for r in range(1, profile.solo_rounds + 1):
        if r in phase_at and profile.settlement_before_rotation:
            steps += _phase_steps(phase_at[r], range(1), True)
        steps.append(("round", r))
        if r in phase_at and not profile.settlement_before_rotation:
            steps += _phase_steps(phase_at[r], range(1), True)
        steps += [("turn", 0), ("turn", 0)]
    if profile.solo_final_phase:
        steps += _phase_steps("E", range(1), True)
    steps.append(("end",))
    return steps


def script(players: int, length: str, profile: RuleProfile) -> list[tuple]:
    """The flow script of a mode."""
    if players == 1:
        return solo_script(profile)
    raise NotImplementedError(
        f"{players}-player games are not implemented yet: the reference engine plays solo")
