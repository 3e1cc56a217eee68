"""A build granted by a building function (Carpentry, ...): ``BUILD`` or ``SKIP``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..frames import GrantBuildFrame

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = GrantBuildFrame


def legal(state: State, f: GrantBuildFrame) -> list[int]:
    """``SKIP`` and every legal build."""
    return [A.make("SKIP")] + moves.builds(state, f.user)


def apply(state: State, f: GrantBuildFrame, a: Action, payer: Payer) -> None:
    """Skip, or build (RULES §8.1.3)."""
    moves.expect(a, ("BUILD", "SKIP"), "you may build one building now (BUILD) or SKIP")
    state.g.frames.pop()
    if a.kind == "BUILD":
        moves.build(state, f.user, a)
