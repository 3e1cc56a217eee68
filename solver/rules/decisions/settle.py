"""A settlement turn (RULES §11.2): buy one landscape (before the settlement, unless profile
``land_after_settle``), build one settlement, convert, ``COMMIT``; under profile
``solo_hired_use_after_settle`` also the hired use of the solo phase's contract (``FREE_USE``,
before or after the settlement, and the free use that building grants; ``COMMIT`` forgoes
them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import SettleFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = SettleFrame


def legal(state: State, f: SettleFrame) -> list[int]:
    """``COMMIT``, one landscape, one settlement, conversions."""
    seat = f.seat
    out = [A.make("COMMIT")]
    if not f.bought and (not f.settled or state.profile.land_after_settle):
        out += moves.land(state, seat, free=False)
    if not f.settled:
        out += moves.settlements(state, seat)
    out += moves.converts(state, seat)
    if f.hired:
        out.append(A.make("FREE_USE", f.hired[0]))
    if f.free:
        out += [A.make("FREE_USE", t[0]) for t in f.free[0]]
    return out


def apply(state: State, f: SettleFrame, a: Action, payer: Payer) -> None:
    """End the turn, buy the landscape, or settle (RULES §11.3)."""
    seat = f.seat
    if a.kind == "COMMIT":
        state.g.frames.pop()
        return
    if a.kind == "FREE_USE":
        if f.hired and a.building == f.hired[0]:
            bid, loc = f.hired
            f.hired = None
            moves.push_option(state, seat, bid, loc, "contract", [])
            return
        for bid, loc in (f.free or [[], []])[0]:
            if bid == a.building:
                chain, f.free = f.free[1], None
                moves.push_option(state, seat, bid, loc, "free", chain)
                return
        raise RuleError(f"no use of {a.building} is pending in this settlement turn")
    if a.kind in ("BUY_DISTRICT", "BUY_PLOT"):
        if f.bought or (f.settled and not state.profile.land_after_settle):
            raise RuleError("in a settlement phase you may buy one landscape, before your "
                            "settlement (RULES §11.2)")
        moves.buy_land(state, seat, a, free=False)
        f.bought = True
        return
    moves.expect(a, ("SETTLE",), "a settlement turn: buy a landscape, SETTLE, convert or "
                                  "COMMIT")
    if f.settled:
        raise RuleError("only one settlement per settlement phase (RULES §11.2)")
    f.settled = True
    moves.settle(state, seat, a, payer, any_terrain=solo_settle_skips_terrain(state, payer))


def solo_settle_skips_terrain(state: State, payer: Payer) -> bool:
    """Quirk 13 (NOTATION §6.12, profile ``solo_settle_skips_terrain``): an imported
    ``SETTLE`` of a solo settlement turn skips the terrain check while kennerspiel's neutral
    building phase is still active, i.e. no ``USE`` was made in that turn. The only ``USE`` a
    solo settlement turn has is the neutral-phase work contract, so: no ``WORK_CONTRACT`` in
    the history since the last ``COMMIT`` (the end of the previous turn). Never for the
    engine's own moves (the automatic payer)."""
    if not (state.solo and state.profile.solo_settle_skips_terrain and payer.imported):
        return False
    for item in reversed(state.g.history):
        aid = item.get("action", item.get("extra")) if isinstance(item, dict) else item
        kind = A.decode(aid).kind
        if kind == "COMMIT":
            break
        if kind == "WORK_CONTRACT":
            return False
    return True
