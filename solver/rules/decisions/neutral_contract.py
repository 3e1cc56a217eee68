"""Solo settlement phase, SOLO §4.2 step 4: one paid work contract with the neutral prior on
a building it just built (``WORK_CONTRACT``), or ``SKIP``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from .. import moves
from ..errors import RuleError
from ..frames import NeutralContractFrame
from ..state import PRIOR

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import State
    from ..payers import Payer

FRAME = NeutralContractFrame


def legal(state: State, f: NeutralContractFrame) -> list[int]:
    """``SKIP`` and a contract per target and fee kind the player can pay."""
    fees = moves.fee_choices(state, f.seat)
    return [A.make("SKIP")] + [A.make("WORK_CONTRACT", bid, flag=PRIOR, extra=fee)
                               for bid in moves.neutral_contract_targets(state) for fee in fees]


def apply(state: State, f: NeutralContractFrame, a: Action, payer: Payer) -> None:
    """Skip, or hire the building with the neutral prior (RULES §9)."""
    moves.expect(a, ("WORK_CONTRACT", "SKIP"),
                 "you may hire a building the neutral just built with its prior, or SKIP")
    state.g.frames.pop()
    if a.kind == "SKIP":
        return
    if a.building not in moves.neutral_contract_targets(state) or a.flag != PRIOR:
        raise RuleError(f"the neutral prior may go only to a building it just built, "
                        f"visible and unoccupied (SOLO §4.2 step 4): not {a.building}")
    moves.contract(state, f.seat, state.locate(a.building), a, payer)
    if state.profile.solo_hired_use_after_settle:
        # the use waits for the settlement turn, which offers it until COMMIT (FREE_USE)
        use = state.g.frames.pop()
        state.g.neutral_hired = [use.building, list(use.loc)]
