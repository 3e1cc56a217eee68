"""A picked payment (solver/rules/payment.py): food, energy, points or distinct kinds paid one
tile at a time (``PAY good``, in goods order), then the paid move goes on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import goods as G
from .. import moves
from ..errors import RuleError
from ..frames import PayFrame
from ..payment import after_pick, payable_goods, pick_candidates, satisfied

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = PayFrame


def legal(state: State, f: PayFrame) -> list[int]:
    """Every held tile that pays towards what is still owed, from the last good on."""
    goods = payable_goods(state.g.owners[f.user].goods, state.profile.wonders_are_goods)
    return [A.make("PAY", flag=gd) for gd in pick_candidates(goods, f.need, f.last)]


def apply(state: State, f: PayFrame, a: Action, payer: Payer) -> None:
    """Give one tile; once the price is met, run the frame's continuation."""
    moves.expect(a, ("PAY",), "a payment is being made: give a tile (PAY)")
    goods = state.g.owners[f.user].goods
    if a.flag not in pick_candidates(payable_goods(goods, state.profile.wonders_are_goods),
                                     f.need, f.last):
        raise RuleError(f"cannot give {G.NAMES[a.flag] if a.flag < G.N_GOODS else a.flag} "
                        f"now: it is not held or pays nothing towards what is still owed "
                        f"({f.need}); tiles go in goods order")
    goods[a.flag] -= 1
    f.need = after_pick(f.need, a.flag)
    f.last = a.flag
    f.paid.append(a.flag)
    if satisfied(f.need):
        state.g.frames.pop()
        moves.resume(state, f.then)
