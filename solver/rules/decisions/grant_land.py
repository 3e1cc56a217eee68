"""A free district and/or plot granted by a building function (Bulwark): each at most once,
or ``SKIP`` for what is left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import GrantLandFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = GrantLandFrame


def legal(state: State, f: GrantLandFrame) -> list[int]:
    """``SKIP`` and the free placements not yet taken."""
    return [A.make("SKIP")] + moves.land(state, f.user, True, f.district, f.plot)


def apply(state: State, f: GrantLandFrame, a: Action, payer: Payer) -> None:
    """Skip, or place a free district/plot (RULES §5.8); closes once both are placed."""
    moves.expect(a, ("BUY_DISTRICT", "BUY_PLOT", "SKIP"),
                 "you may place a free district and/or plot now, or SKIP")
    if a.kind == "SKIP":
        state.g.frames.pop()
        return
    district = a.kind == "BUY_DISTRICT"
    if not (f.district if district else f.plot):
        raise RuleError(f"the free {'district' if district else 'plot'} was already placed")
    moves.buy_land(state, f.user, a, free=True)
    if district:
        f.district = False
    else:
        f.plot = False
    if not f.district and not f.plot:
        state.g.frames.pop()
