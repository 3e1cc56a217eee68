"""The decisions of the game, one module per frame kind, registered by frame type.

Each module names its ``FRAME`` type and has ``legal(state, frame)`` (the action ids it
offers, unsorted, possibly repeated) and ``apply(state, frame, action, payer)`` (raise
:class:`~solver.rules.errors.RuleError`, or change the state). :func:`legal` and
:func:`apply` dispatch on the type of the frame; the State calls nothing else.

Conversions (``CONVERT``) are extra actions of a turn or settlement turn only (RULES §8.2):
:func:`apply` takes them itself and refuses them in every other decision.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from .. import frames as F
from .. import moves
from ..errors import RuleError
from ..payers import AUTOMATIC
from . import (
    choose_clergy,
    free_use,
    grant_build,
    grant_fell_cut,
    grant_land,
    grant_settle,
    neutral_build,
    neutral_contract,
    option,
    pay,
    pick_cells,
    prior_bonus,
    settle,
    turn,
)

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

DECISIONS: dict[type[F.Frame], ModuleType] = {m.FRAME: m for m in (
    turn, option, pay, free_use, prior_bonus, choose_clergy, grant_build, grant_settle,
    grant_fell_cut, grant_land, pick_cells, neutral_build, neutral_contract, settle)}
assert set(DECISIONS) == set(F.FRAME_TYPES), "every frame type needs one decision module"

#: the decisions that take extra actions (conversions; landscape purchases are their own)
TURN_LEVEL = (F.TurnFrame, F.SettleFrame)


def legal(state: State, f: F.Frame) -> list[int]:
    """The action ids the decision ``f`` offers (unsorted)."""
    return DECISIONS[type(f)].legal(state, f)


def apply(state: State, f: F.Frame, a: Action, payer: Payer = AUTOMATIC) -> None:
    """Apply ``a`` to the decision ``f`` (RuleError naming the rule if it is illegal)."""
    if a.kind == "CONVERT":
        if not isinstance(f, TURN_LEVEL):
            raise RuleError("conversions are extra actions of your turn or settlement turn "
                            "(RULES §8.2), not part of another decision")
        moves.convert(state, f.seat, a.flag)
        return
    DECISIONS[type(f)].apply(state, f, a, payer)
