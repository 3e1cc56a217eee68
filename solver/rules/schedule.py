"""The flow script of a game: the fixed sequence of steps a mode plays (RULES §7, §11, SOLO §2-5).

Like kennerspiel's frame tables, each mode is a list of steps, generated from the mode tables
and the rule profile:

* ``("round", r)``: start of round r: clergy return, wheel rotation (RULES §7.1 steps 1-2);
* ``("neutral_build", L)``, ``("neutral_contract", L)``, ``("neutral_return", L)``: the solo
  neutral player's part of settlement phase L (SOLO §4.2 steps 3-5);
* ``("settle", L, seat)``: a player's settlement turn (buy one landscape, build one settlement);
* ``("arrivals", L)``: the phase's settlement card and next building stack arrive;
* ``("turn", seat)``: one action turn (a main action plus extra actions);
* ``("introduce", token)``: the grapes (France only) or stone indicator enters the wheel
  (RULES §6.5);
* ``("round_goods", r)``: every player takes round r's printed goods (3-4p short, RULES §7.3);
* ``("bonus_round", r)``: priors come home, the wheel turns (RULES §12, D28, D31);
* ``("bonus_turn", seat)``: one bonus-round action (build, or the prior on any building);
* ``("end_check", limit, k)``: the 2-player games' dynamic end (RULES §13): if at most
  ``limit`` buildings are left in the display, play the next ``k`` steps and then end;
* ``("end",)``.

Seats are numbered 0..N-1 clockwise from the round-1 start player, so round r's start player is
seat (r-1) mod N (RULES §7.1); every settlement phase goes clockwise from that round's start
player (RULES §11.2), phase E from seat 0.
"""

from __future__ import annotations

from .cards import GAME
from .profile import RuleProfile

PHASES = "ABCDE"


def solo_settlement_rounds(profile: RuleProfile) -> list[int]:
    """Rounds at whose start phases A-D happen (SOLO §4.1; C is profile field D1)."""
    a, b, _, d = GAME["modes"]["1-long"]["settlements"]
    return [a, b, profile.solo_phase_c_round, d]


def _phase_steps(letter: str, seats: range, neutral: bool, return_first: bool = False
                 ) -> list[tuple]:
    steps: list[tuple] = []
    if neutral and return_first:
        # profile solo_phase_returns_clergy_first: the return opens the phase, and the next is
        # the following round's (so the hired building stays occupied through the settlement
        # turn, where profile solo_hired_use_after_settle lets its use wait)
        steps += [("neutral_return", letter), ("neutral_build", letter),
                  ("neutral_contract", letter)]
    elif neutral:
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
        first = profile.solo_phase_returns_clergy_first
        if r in phase_at and profile.settlement_before_rotation:
            steps += _phase_steps(phase_at[r], range(1), True, first)
        steps.append(("round", r))
        if r in phase_at and not profile.settlement_before_rotation:
            steps += _phase_steps(phase_at[r], range(1), True, first)
        steps += [("turn", 0), ("turn", 0)]
    if profile.solo_final_phase:
        steps += _phase_steps("E", range(1), True, profile.solo_phase_returns_clergy_first)
    steps.append(("end",))
    return steps


def _settle_phase(letter: str, first: int, players: int) -> list[tuple]:
    """RULES §11.2: every player's settlement turn clockwise from ``first``, then arrivals."""
    return _phase_steps(letter, [(first + i) % players for i in range(players)], False)


def _intro_steps(r: int, grapes: int, stone: int) -> list[tuple]:
    steps = []
    if r == grapes:
        steps.append(("introduce", "grapes"))
    if r == stone:
        steps.append(("introduce", "stone"))
    return steps


def multi_script(players: int, length: str, profile: RuleProfile) -> list[tuple]:
    """RULES §7.1, §7.3, §11, §12: 3-4 players, long or short."""
    mode = GAME["modes"][f"{players}-{length}"]
    phase_at = dict(zip(mode["settlements"], "ABCD"))
    grapes, stone = mode["grapes"], mode["stone"]
    if length == "long" and players == 3:
        grapes = profile.grapes_round_3p_long
    tokens_early = length == "long" and profile.long_tokens_before_rotation
    short = length == "short"
    before = profile.settlement_before_rotation
    steps: list[tuple] = []
    for r in range(1, mode["rounds"] + 1):
        s = (r - 1) % players
        phase = _settle_phase(phase_at[r], s, players) if r in phase_at else []
        if before:
            steps += phase
        if tokens_early:
            steps += _intro_steps(r, grapes, stone)
        steps.append(("round", r))
        goods = [("round_goods", r)] if short else []
        late_goods = bool(phase) and profile.short_round_goods_after_settlement
        if not late_goods:
            steps += goods
        if not tokens_early:
            steps += _intro_steps(r, grapes, stone)
        if not before:
            steps += phase
        if late_goods:
            steps += goods
        steps += [("turn", (s + i) % players) for i in range(players)] + [("turn", s)]
    steps.append(("bonus_round", mode["rounds"] + 1))
    steps += [("bonus_turn", i) for i in range(players)]
    steps += _phase_steps("E", range(players), False)
    steps.append(("end",))
    return steps


def two_player_script(length: str, profile: RuleProfile) -> list[tuple]:
    """RULES §7.2 / §13: the printed 2-player game (short) and the long variant (D18).

    Printed game: every "round" is one player's turn (rotation + 2 actions); from the turn
    after the one that follows phase D, if at most 1 building is left after the rotation, that
    turn has 1 action and the game ends. Long variant: rounds of s, s, other; the game ends at
    the end of the round in which the display is down to 3 (profile ``two_long_end_check``).
    The profile's ``two_player_max_rounds`` caps a game that never empties the display.
    """
    mode = GAME["modes"][f"2-{length}"]
    phase_at = dict(zip(mode["settlements"], "ABCD"))
    last_phase = max(phase_at)
    before = profile.settlement_before_rotation
    steps: list[tuple] = []
    for r in range(1, profile.two_player_max_rounds + 1):
        s = (r - 1) % 2
        phase = _settle_phase(phase_at[r], s, 2) if r in phase_at else []
        if before:
            steps += phase
        steps.append(("round", r))
        steps += _intro_steps(r, mode["grapes"], mode["stone"])
        if not before:
            steps += phase
        if length == "short":
            if r > last_phase:
                steps.append(("end_check", 1, 1))
            steps += [("turn", s), ("turn", s)]
        else:
            steps += [("turn", s), ("turn", s)]
            if profile.two_long_end_check == "third_turn" and r > last_phase:
                steps.append(("end_check", 3, 1))
            steps.append(("turn", 1 - s))
            if profile.two_long_end_check == "round_end" and r >= last_phase:
                steps.append(("end_check", 3, 0))
    steps.append(("end",))
    return steps


def script(players: int, length: str, profile: RuleProfile) -> list[tuple]:
    """The flow script of a mode."""
    if players == 1:
        return solo_script(profile)
    if players == 2:
        return two_player_script(length, profile)
    return multi_script(players, length, profile)
