"""A free use granted by a building (Priory, Cloister Garden, Cottage, Palace, Grand Manor,
Hospice, ...): ``FREE_USE b`` of one of the frame's targets, or ``SKIP``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import FreeUseFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = FreeUseFrame


def legal(state: State, f: FreeUseFrame) -> list[int]:
    """``SKIP`` and one ``FREE_USE`` per target."""
    return [A.make("SKIP")] + [A.make("FREE_USE", t[0]) for t in f.targets]


def apply(state: State, f: FreeUseFrame, a: Action, payer: Payer) -> None:
    """Skip, or open the chosen target's options (continuing the chain of free uses)."""
    moves.expect(a, ("FREE_USE", "SKIP"), "choose a building to use for free, or SKIP")
    if a.kind == "SKIP":
        state.g.frames.pop()
        return
    for t in f.targets:
        if t[0] == a.building:
            state.g.frames.pop()
            moves.push_option(state, f.user, t[0], t[1], "free", f.chain)
            return
    raise RuleError(f"{a.building} cannot be used for free here: the choice is "
                    f"{', '.join(t[0] for t in f.targets)}")
