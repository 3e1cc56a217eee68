"""A hired building's owner chooses which clergyman goes there (RULES §9): ``CHOOSE_CLERGY``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import ChooseClergyFrame
from ..state import LAY_BROTHER, PRIOR

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = ChooseClergyFrame


def legal(state: State, f: ChooseClergyFrame) -> list[int]:
    """A lay brother or the prior (the frame is pushed only when both are at home)."""
    return [A.make("CHOOSE_CLERGY", flag=LAY_BROTHER), A.make("CHOOSE_CLERGY", flag=PRIOR)]


def apply(state: State, f: ChooseClergyFrame, a: Action, payer: Payer) -> None:
    """Place the chosen clergyman on the hired building."""
    moves.expect(a, ("CHOOSE_CLERGY",), "the owner of the hired building chooses which "
                 "clergyman goes there (CHOOSE_CLERGY, RULES §9)")
    owner = state.g.owners[f.owner]
    ci = owner.free_clergy(a.flag)
    if ci is None:
        raise RuleError("that clergyman is not at home")
    state.g.frames.pop()
    owner.clergy[ci] = list(f.loc)
