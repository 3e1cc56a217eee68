"""A settlement granted by a building function: ``SETTLE`` or ``SKIP``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..frames import GrantSettleFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = GrantSettleFrame


def legal(state: State, f: GrantSettleFrame) -> list[int]:
    """``SKIP`` and every settlement the player can pay and place."""
    return [A.make("SKIP")] + moves.settlements(state, f.user)


def apply(state: State, f: GrantSettleFrame, a: Action, payer: Payer) -> None:
    """Skip, or settle (RULES §11.3; an imported move's payment named by the payer)."""
    moves.expect(a, ("SETTLE", "SKIP"), "you may build one settlement now (SETTLE) or SKIP")
    state.g.frames.pop()
    if a.kind == "SETTLE":
        moves.settle(state, f.user, a, payer)
