"""Which function of a building to use (``OPTION i``): option 0 places the clergyman only
(buildings.md §1); the others are the building's affordable options (solver/rules/effects.py).
The payer picks the option and pays its price (solver/rules/payers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..frames import OptionFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = OptionFrame


def legal(state: State, f: OptionFrame) -> list[int]:
    """One ``OPTION`` per listed option."""
    return [A.make("OPTION", flag=i) for i in range(len(moves.options(state, f)))]


def apply(state: State, f: OptionFrame, a: Action, payer: Payer) -> None:
    """Take the option, pay its price, then run the building's function."""
    moves.expect(a, ("OPTION",), f"choose how to use {f.building} (OPTION)")
    opt = payer.choose_option(state, f, a)
    state.g.frames.pop()
    if opt is None:
        payer.decline(state, f.user)
        return
    payer.pay(state, f.user, opt.cost, moves.resolve_use(f, opt.data))
