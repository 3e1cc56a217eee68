"""The game's sequencing: the automatic steps of the flow script (solver/rules/schedule.py).

:func:`advance` runs steps until a decision is pending or the game is over. Each step kind
of the script is one function below, registered in :data:`STEPS` by the name the script uses:
round starts (clergy return, wheel rotation), action turns and bonus-round turns, the solo
neutral player's part of a settlement phase, settlement turns, arrivals of settlement cards
and building stacks, wheel introductions, the short game's round goods, the 2-player dynamic
end and the end itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import frames as F
from . import goods as G
from .cards import GAME, SETTLEMENTS
from .moves import neutral_contract_targets

if TYPE_CHECKING:
    from .game import State


def advance(state: State) -> None:
    """Run automatic steps until a decision is pending or the game ends."""
    g = state.g
    while not g.frames and not g.done:
        if g.end_after is not None and g.step >= g.end_after:
            g.step = len(state.flow) - 1  # the final ("end",) step
            g.end_after = None
        step = state.flow[g.step]
        g.step += 1
        STEPS[step[0]](state, *step[1:])


def round_start(state: State, r: int) -> None:
    """RULES §7.1 / SOLO §2: return clergy (all-three rule), rotate, reset purchases."""
    g = state.g
    g.round = r
    for o in g.owners:
        if o.all_placed():
            o.clergy = [None] * len(o.clergy)
        o.bought_land = False
    g.wheel.rotate(solo=state.solo)


def turn(state: State, seat: int) -> None:
    """RULES §8: one action turn (with ``land_purchase_per`` = turn, a fresh purchase)."""
    if state.profile.land_purchase_per == "turn":
        state.g.owners[seat].bought_land = False
    state.g.frames.append(F.TurnFrame(seat=seat))


def neutral_build(state: State, letter: str) -> None:
    """SOLO §4.2 step 3: the neutral builds every display building where you choose."""
    state.g.neutral_built = []
    state.g.phase = letter
    if state.g.display:
        state.g.frames.append(F.NeutralBuildFrame(seat=0))


def neutral_contract(state: State, letter: str) -> None:
    """SOLO §4.2 step 4: optional paid contract with the neutral prior."""
    n = state.g.owners[state.neutral_index]
    if (state.g.neutral_built and n.clergy[n.prior] is None
            and neutral_contract_targets(state)):
        state.g.frames.append(F.NeutralContractFrame(seat=0))


def neutral_return(state: State, letter: str) -> None:
    """SOLO §4.2 step 5: the neutral takes its clergy back if all three are placed. Under
    profile ``solo_phase_returns_clergy_first`` this opens the phase and, as kennerspiel's
    settlement frame does, the player takes theirs back too if all are placed."""
    g = state.g
    who = g.owners if state.profile.solo_phase_returns_clergy_first else [
        g.owners[state.neutral_index]]
    for o in who:
        if o.all_placed():
            o.clergy = [None] * len(o.clergy)


def settle(state: State, letter: str, seat: int) -> None:
    """RULES §11.2: a player's settlement turn of phase ``letter``."""
    state.g.phase = letter
    bought = state.g.neutral_phase_bought  # profile land_in_neutral_phase (State.apply_extra)
    state.g.neutral_phase_bought = False
    hired, state.g.neutral_hired = state.g.neutral_hired, None  # solo_hired_use_after_settle
    state.g.frames.append(F.SettleFrame(seat=seat, bought=bought, hired=hired))


def arrivals(state: State, letter: str) -> None:
    """SOLO §4.2 step 7 / RULES §11.2 step 3: new settlement card, next stack on display."""
    g = state.g
    for o in g.owners:
        if not o.neutral:
            o.settlements += [s for s, x in SETTLEMENTS.items() if x.arrives == letter]
    g.display += g.stacks.pop(letter, [])


def end(state: State) -> None:
    """RULES §13: the game is over."""
    state.g.done = True
    state.g.frames = []


def introduce(state: State, token: str) -> None:
    """RULES §6.5: grapes (France only) and stone enter the wheel on space 0."""
    if token == "grapes" and state.g.variant != "france":
        return
    state.g.wheel.introduce(token)


def round_goods(state: State, r: int) -> None:
    """RULES §7.3: every player takes the goods printed for round r (short game)."""
    for name in GAME["short_round_goods"]["goods"][r - 1]:
        good = G.NICKEL if name == "nickel" else G.BY_NAME[name]
        for o in state.g.owners:
            o.goods[good] += 1


def bonus_round(state: State, r: int) -> None:
    """RULES §12 / D28 / D31: every prior comes home, then the wheel turns."""
    g = state.g
    g.round = r
    g.bonus_round = True
    for o in g.owners:
        o.clergy[o.prior] = None
        o.bought_land = False
    g.wheel.rotate(solo=False)


def bonus_turn(state: State, seat: int) -> None:
    """RULES §12: one action: build, or the prior on any built building for free."""
    if state.profile.land_purchase_per == "turn":
        state.g.owners[seat].bought_land = False
    state.g.frames.append(F.TurnFrame(seat=seat, bonus=True))


def end_check(state: State, limit: int, k: int) -> None:
    """RULES §13: with at most ``limit`` display buildings left, k more steps, then end."""
    if len(state.g.display) <= limit:
        state.g.end_after = state.g.step + k


#: step name of the flow script -> the function that runs it
STEPS: dict[str, Callable[..., None]] = {
    "round": round_start, "turn": turn, "neutral_build": neutral_build,
    "neutral_contract": neutral_contract, "neutral_return": neutral_return, "settle": settle,
    "arrivals": arrivals, "end": end, "introduce": introduce, "round_goods": round_goods,
    "bonus_round": bonus_round, "bonus_turn": bonus_turn, "end_check": end_check,
}
