"""The action turn (RULES §8): one main action, extra actions, ``COMMIT``; and the bonus-round
turn (RULES §12): build, or the prior on any building."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import TurnFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = TurnFrame

#: the main actions that pay nothing a payer chooses (a work contract does: see apply)
_MAIN = {"USE": moves.use, "FELL_TREES": moves.fell_or_cut, "CUT_PEAT": moves.fell_or_cut,
         "BUILD": moves.build}


def legal(state: State, f: TurnFrame) -> list[int]:
    """``COMMIT``, the main actions until one is taken, one landscape, conversions."""
    seat = f.seat
    out = [A.make("COMMIT")]
    if f.bonus:
        if not f.main:
            out += moves.bonus_uses(state, seat)
            out += moves.builds(state, seat)
    elif not f.main:
        out += moves.uses(state, seat)
        out += moves.contracts(state, seat)
        out += moves.fell_cut(state, seat, "FELL_TREES")
        out += moves.fell_cut(state, seat, "CUT_PEAT")
        out += moves.builds(state, seat)
    if not state.g.owners[seat].bought_land:
        out += moves.land(state, seat, free=False)
    out += moves.converts(state, seat)
    return out


def apply(state: State, f: TurnFrame, a: Action, payer: Payer) -> None:
    """End the turn, buy a landscape (once per round, RULES §5.8) or take the main action."""
    seat = f.seat
    if a.kind == "COMMIT":
        state.g.frames.pop()
        return
    if a.kind in ("BUY_DISTRICT", "BUY_PLOT"):
        if state.g.owners[seat].bought_land:
            raise RuleError("only one landscape may be bought per round (RULES §5.8)")
        moves.buy_land(state, seat, a, free=False)
        state.g.owners[seat].bought_land = True
        return
    if f.bonus:
        moves.expect(a, ("USE", "BUILD"), "a bonus-round turn: build, or place your prior "
                     "on any building (USE), buy a landscape, convert or COMMIT (RULES §12)")
    moves.expect(a, ("USE", "WORK_CONTRACT", "FELL_TREES", "CUT_PEAT", "BUILD"),
                 "your turn takes a main action, a landscape purchase, a conversion or "
                 "COMMIT")
    if f.main:
        raise RuleError("the turn's main action is already used (RULES §8)")
    if a.kind == "WORK_CONTRACT":
        moves.work_contract(state, seat, a, payer)
    elif f.bonus and a.kind == "USE":
        moves.bonus_use(state, seat, a)
    else:
        _MAIN[a.kind](state, seat, a)
    f.main = True
