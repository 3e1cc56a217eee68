"""Readable text of actions in their context (``State.action_to_string``) and of a position
(``State.render``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import frames as F
from . import goods as G
from .actions import CONVERSIONS, FEES, Action
from .cards import BUILDINGS, SETTLEMENTS
from .moves import options
from .state import PRIOR

if TYPE_CHECKING:
    from .game import State


def building_name(bid: str | None) -> str:
    """``F04 Windmill``-style name of a building id (the id itself if unknown)."""
    b = BUILDINGS.get(bid or "")
    return str(b) if b else str(bid)


def describe(state: State, a: Action) -> str:
    """Readable text of an action in this state's context (options named by their label)."""
    k = a.kind
    if k == "COMMIT":
        return "COMMIT (end turn)"
    if k == "SKIP":
        return "SKIP"
    if k == "USE":
        who = "prior" if a.flag == PRIOR else "lay brother"
        return f"USE {building_name(a.building)} with {who}"
    if k == "WORK_CONTRACT":
        who = "prior" if a.flag == PRIOR else "lay brother"
        fee = f"{state.fee()} coins" if a.extra == 0 else FEES[a.extra]
        return f"WORK_CONTRACT {building_name(a.building)} ({who}, paying {fee})"
    if k in ("FELL_TREES", "CUT_PEAT"):
        if a.flag == 2:
            return f"{k} (nothing left)"
        return f"{k} at ({a.col}, {a.row})" + (" with the joker" if a.flag else "")
    if k in ("BUILD", "NEUTRAL_BUILD"):
        return f"{k} {building_name(a.building)} at ({a.col}, {a.row})"
    if k == "BUY_DISTRICT":
        return f"BUY_DISTRICT row {a.row} {('PLAINS', 'HILLS')[a.flag % 2]}"
    if k == "BUY_PLOT":
        return f"BUY_PLOT rows {a.row}..{a.row + 1} {('COAST', 'MOUNTAIN')[a.flag % 2]}"
    if k == "CONVERT":
        return f"CONVERT {CONVERSIONS[a.flag][0]}" if a.flag < len(CONVERSIONS) else k
    if k == "OPTION":
        f = state.frame
        if isinstance(f, F.OptionFrame):
            opts = options(state, f)
            if a.flag < len(opts):
                return f"{f.building}: {opts[a.flag].describe()}"
        return f"OPTION {a.flag}"
    if k == "PAY":
        return f"PAY 1 {G.NAMES[a.flag]}" if a.flag < G.N_GOODS else k
    if k == "FREE_USE":
        return f"FREE_USE {building_name(a.building)}"
    if k == "USE_PRIOR":
        return f"USE_PRIOR on {building_name(a.building)}"
    if k == "SETTLE":
        s = SETTLEMENTS.get(f"S{a.flag}")
        return f"SETTLE {s} at ({a.col}, {a.row})"
    if k == "PICK_CELL":
        return f"PICK_CELL ({a.col}, {a.row})"
    if k == "CHOOSE_CLERGY":
        return "CHOOSE_CLERGY " + ("prior" if a.flag == PRIOR else "lay brother")
    return k


def render(state: State) -> str:
    """Readable dump of the position (for the CLI and error messages)."""
    g = state.g
    lines = [f"{g.variant} {g.players}p {g.length}, round {g.round}, phase {g.phase or '-'}",
             f"wheel arm {g.wheel.arm}: " + ", ".join(
                 f"{t} {g.wheel.yield_of(t)}" for t in g.wheel.tokens),
             "display: " + " ".join(g.display)]
    for i, o in enumerate(g.owners):
        who = "neutral" if o.neutral else f"seat {i}"
        lines.append(f"{who} ({o.colour}) clergy {o.clergy}")
        if not o.neutral:
            lines.append("  goods: " + G.goods_string(o.goods))
        lines.append(o.land.render())
    return "\n".join(lines)
