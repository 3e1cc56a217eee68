"""Solo settlement phase, SOLO §4.2 step 3: the neutral builds every display building, where
the player chooses (``NEUTRAL_BUILD b col row``) until the display is empty."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..frames import NeutralBuildFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = NeutralBuildFrame


def legal(state: State, f: NeutralBuildFrame) -> list[int]:
    """Every display building on every neutral space it may go."""
    n = state.g.owners[state.neutral_index]
    out = []
    for bid in state.g.display:
        for cell in moves.neutral_cells(state, n.land, bid):
            out.append(A.make("NEUTRAL_BUILD", bid, cell[0], cell[1]))
    return out


def apply(state: State, f: NeutralBuildFrame, a: Action, payer: Payer) -> None:
    """Build one; the frame closes with the display empty."""
    moves.expect(a, ("NEUTRAL_BUILD",), "the neutral player must build every display "
                                         "building first (SOLO §4.2)")
    moves.neutral_build(state, a)
    if not state.g.display:
        state.g.frames.pop()
