"""Choosing the spaces a building function works on (Printing Office: which forests), one
``PICK_CELL`` at a time in row order, then the function runs with them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import frames as F
from .. import moves
from ..errors import RuleError
from ..frames import PickCellsFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = PickCellsFrame


def legal(state: State, f: PickCellsFrame) -> list[int]:
    """Spaces after the last one picked, from which enough remain to finish."""
    me = state.g.owners[f.user]
    last = tuple(f.picked[-1]) if f.picked else None
    cells = [c for c in me.land.features(f.feature)
             if last is None or (c[1], c[0]) > (last[1], last[0])]
    need = f.count - len(f.picked)
    return [A.make("PICK_CELL", col=c, row=r) for i, (c, r) in enumerate(cells)
            if len(cells) - i >= need]


def apply(state: State, f: PickCellsFrame, a: Action, payer: Payer) -> None:
    """Pick one space; with all picked, run the continuation with them appended."""
    moves.expect(a, ("PICK_CELL",), f"choose a {f.feature} space (PICK_CELL)")
    if A.make("PICK_CELL", col=a.col, row=a.row) not in legal(state, f):
        raise RuleError(f"({a.col}, {a.row}) is not one of your {f.feature} spaces that "
                        "can be chosen now")
    f.picked.append([a.col, a.row])
    if len(f.picked) == f.count:
        state.g.frames.pop()
        then = f.then
        if isinstance(then, F.ResolveUse):
            then = F.ResolveUse(user=then.user, building=then.building, loc=then.loc,
                                via=then.via, chain=then.chain,
                                data=list(then.data) + [f.picked])
        moves.resume(state, then)
