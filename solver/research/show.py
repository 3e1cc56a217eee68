"""`ora-solve show`: a line round by round and the landscape as a text map.

Each round lists its actions with building names, the goods held after it and the score so
far (goods, economic, dwelling), all read off the reference engine replaying the line. The
text map draws one row of the landscape per line, a column per space (``draw.py`` makes the
picture).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from solver.rules import canonical as C
from solver.rules import goods as G
from solver.rules.game import State
from solver.rules.names import action_text

from .landscape import COLS, HEARTLAND_ROWS, cells

CELL = 7  # characters per space in the text map
FEATURE = {"forest": "Fo", "moor": "Mo"}  # short labels of the text map


@dataclass
class RoundView:
    """One round (or settlement phase) of a line: its actions and the position after it."""

    when: str
    round: int
    actions: list[str]
    goods: str
    score: dict  # total, goods, economic, dwelling after this part
    actions_done: int  # actions of the line played by the end of this part


SETTLEMENT_STEPS = ("neutral_build", "neutral_contract", "neutral_return", "settle", "arrivals")


def _when(state: State) -> str:
    """The part of the game the state's flow step belongs to: a round or a settlement phase."""
    step = state.flow[state.g.step - 1] if 0 < state.g.step <= len(state.flow) else ("",)
    if step[0] in SETTLEMENT_STEPS:
        return f"round {state.round}, settlement {step[1]}"
    return f"round {state.round}"


def replay_parts(variant: str, line: list[int]) -> Iterator[tuple[RoundView, State]]:
    """The line replayed on the reference engine, one round or settlement phase at a time:
    its view and the live state at its end (read it before the next step: it moves on)."""
    st = C.canonical_initial_state(variant)
    cur: tuple[str, int, list[str]] | None = None

    def close(k: int) -> tuple[RoundView, State]:
        sc = st.score()[0].as_dict()
        return RoundView(cur[0], cur[1], cur[2], G.goods_string(st.g.owners[0].goods), sc,
                         k), st

    for k, cid in enumerate(line):
        when = _when(st)
        if cur is None or cur[0] != when:
            if cur is not None:
                yield close(k)
            cur = (when, int(st.round), [])
        cur[2].append(action_text(st, cid))
        C.apply_canonical(st, cid)
    if cur is not None:
        yield close(len(line))


def rounds(variant: str, line: list[int]) -> list[RoundView]:
    """The line replayed on the reference engine, grouped by round and settlement phase."""
    return [view for view, _ in replay_parts(variant, line)]


def state_after(variant: str, line: list[int]) -> State:
    """The reference state after the line's actions."""
    st = C.canonical_initial_state(variant)
    for cid in line:
        C.apply_canonical(st, cid)
    return st


def cell_label(item) -> str:
    """Short text of what stands on a space: building / settlement id, forest, moor."""
    if item is None:
        return ""
    return FEATURE.get(item, item)


def land_parts(state: State, owner: int = 0) -> list[str]:
    """The bought districts and plots of an owner's landscape, described by row."""
    land = state.g.owners[owner].land
    lo, hi = land.rows()
    parts = []
    for row in range(lo, hi + 1):
        if row not in HEARTLAND_ROWS and (0, row) in land.cells:
            side = "hills" if land.cells[(0, row)][0] == "H" else "plains"
            parts.append(f"district row {row} ({side})")
    coast = sorted(r for (c, r) in land.cells if c == -1)
    for r in coast[::2]:  # each plot is two rows; plots never overlap
        parts.append(f"coast plot rows {r}..{r + 1}")
    for (c, r), (terrain, _) in sorted(land.cells.items(), key=lambda x: x[0][1]):
        if c == 6 and terrain == "M":
            parts.append(f"mountain plot rows {r}..{r + 1}")
    return parts


def text_map(state: State, owner: int = 0) -> str:
    """One line per landscape row: each space as ``T:CONTENT`` (terrain code, then what stands
    there), ``*`` marking a space with a clergyman on it; a legend of the buildings follows."""
    land = state.g.owners[owner].land
    spaces = {(c.col, c.row): c for c in cells(state, owner)}
    lo, hi = land.rows()
    head = "r\\c " + "".join(f"{c:^{CELL}}" for c in COLS)  # rows down, columns across
    lines = [head]
    for row in range(lo, hi + 1):
        parts = []
        for col in COLS:
            c = spaces.get((col, row))
            if c is None:
                parts.append(" " * CELL)
                continue
            mark = "*" if c.clergy else ""
            parts.append(f"{c.terrain}:{cell_label(c.item)}{mark}"[:CELL].ljust(CELL))
        lines.append(f"{row:>3} " + "".join(parts).rstrip())
    named = sorted({(c.item, c.name) for c in spaces.values()
                    if c.kind in ("building", "cloister", "settlement")})
    legend = [f"  {i}: {name}" for i, name in named]
    here = [f"  ({c.col}, {c.row}): " + ", ".join(c.clergy)
            for c in sorted(spaces.values(), key=lambda c: (c.col, c.row)) if c.clergy]
    lines.append("terrain: W water, C coast, P plains, H hillside, M mountain; Fo forest, "
                 "Mo moor; * clergy on the space; spaces are (column, row)")
    return "\n".join(lines + (["buildings and settlements:"] + legend if legend else [])
                     + (["clergy on this landscape:"] + here if here else []))
