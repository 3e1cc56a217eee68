"""After a build, the prior may go to the new building at once (RULES §8.1.3): ``USE_PRIOR``
or ``SKIP`` (profile ``prior_bonus_any_building``: any own building)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import PriorBonusFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = PriorBonusFrame


def legal(state: State, f: PriorBonusFrame) -> list[int]:
    """``SKIP``, and ``USE_PRIOR`` while the prior is at home."""
    out = [A.make("SKIP")]
    me = state.g.owners[f.user]
    if me.clergy[me.prior] is None:
        if state.profile.prior_bonus_any_building:
            out += [A.make("USE_PRIOR", bid) for cell, bid in me.land.buildings()
                    if state.occupant(f.user, cell) is None
                    or state.profile.use_ignores_occupied]
        else:
            out.append(A.make("USE_PRIOR", f.building))
    return out


def apply(state: State, f: PriorBonusFrame, a: Action, payer: Payer) -> None:
    """Skip, or place the prior and open the building's options."""
    moves.expect(a, ("USE_PRIOR", "SKIP"),
                 f"you may place your prior on {f.building} at once (USE_PRIOR) or SKIP")
    state.g.frames.pop()
    if a.kind == "SKIP":
        return
    if a.building != f.building and not state.profile.prior_bonus_any_building:
        raise RuleError(f"the prior's bonus use is for {f.building}, the building just built "
                        "(RULES §8.1.3)")
    me = state.g.owners[f.user]
    cell = me.land.find(a.building)
    if me.clergy[me.prior] is not None or cell is None or (
            state.occupant(f.user, cell) is not None
            and not state.profile.use_ignores_occupied):
        raise RuleError(f"the prior cannot go to {a.building} now")
    moves.displace(state, (f.user, cell[0], cell[1]))
    me.clergy[me.prior] = [f.user, cell[0], cell[1]]
    moves.push_option(state, f.user, a.building, (f.user, cell[0], cell[1]), "clergy", [])
