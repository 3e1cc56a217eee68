"""Felling trees and/or cutting peat granted by a building function: each at most once, in
either order, or ``SKIP`` for what is left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import GrantFellCutFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = GrantFellCutFrame


def legal(state: State, f: GrantFellCutFrame) -> list[int]:
    """``SKIP`` and the fell/cut moves not yet taken."""
    out = [A.make("SKIP")]
    if f.fell:
        out += moves.fell_cut(state, f.user, "FELL_TREES")
    if f.cut:
        out += moves.fell_cut(state, f.user, "CUT_PEAT")
    return out


def apply(state: State, f: GrantFellCutFrame, a: Action, payer: Payer) -> None:
    """Skip, or fell/cut (RULES §8.1.2); the frame closes once both are taken."""
    moves.expect(a, ("FELL_TREES", "CUT_PEAT", "SKIP"),
                 "you may fell trees and/or cut peat now, or SKIP")
    if a.kind == "SKIP":
        state.g.frames.pop()
        return
    fell = a.kind == "FELL_TREES"
    if not (f.fell if fell else f.cut):
        raise RuleError(f"{a.kind} was already taken from this grant")
    moves.fell_or_cut(state, f.user, a)
    if fell:
        f.fell = False
    else:
        f.cut = False
    if not f.fell and not f.cut:
        state.g.frames.pop()
