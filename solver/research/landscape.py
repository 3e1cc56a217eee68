"""What a landscape holds, space by space: the one description both pictures draw from.

`cells` reads a state into plain `Cell` rows (terrain, what stands there with its name,
whose landscape, clergy); `draw.py` renders them with matplotlib (`show`'s PNG and SVG) and
the report's page with its own script (SVG in the browser), so the names, colours and marks
agree. The colours and terrain names live here for the same reason.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from solver.rules.cards import BUILDINGS, SETTLEMENTS
from solver.rules.game import State

COLS = tuple(range(-2, 7))
HEARTLAND_ROWS = (0, 1)
TERRAIN_COLOUR = {"W": "#7fb3e6", "C": "#e8d9a0", "P": "#b9dc8c", "H": "#8fb464",
                  "M": "#a3a3a3", ".": "#c8c8c8"}
TERRAIN_NAME = {"W": "water", "C": "coast", "P": "plains", "H": "hillside", "M": "mountain"}
OWNER_COLOUR = {"R": "#c0302b", "G": "#2e8b3a", "B": "#2d5fb0", "W": "#f4f4f4"}
ITEM_COLOUR = {"building": "#fdf6e3", "cloister": "#c9a27a", "settlement": "#f2c14e",
               "forest": "#2f6b2f", "moor": "#6b4a2f"}


@dataclass(frozen=True)
class Cell:
    """One space of a landscape and what stands on it."""

    col: int
    row: int
    owner: int  # whose landscape: 0 the player, 1 the solo neutral
    terrain: str  # W, C, P, H, M
    item: str | None  # building or settlement id, "forest", "moor", or None
    kind: str  # "building", "cloister" (a cloister building), "settlement", "forest",
    # "moor" or "" (empty)
    name: str  # the building's or settlement's printed name, else the item or ""
    bought: bool  # outside the starting heartland: a bought district or plot
    clergy: tuple[str, ...]  # "R prior", "R lay brother", ... standing on the space


def name_lines(name: str, width: int = 12) -> list[str]:
    """A building's name in lines that fit a space (at most three: "Cloister Chapter House"
    needs them all, and a cut name would not match the text)."""
    return textwrap.wrap(name, width, break_long_words=False)[:3]


def clergy_at(state: State) -> dict[tuple[int, int, int], list[str]]:
    """(owner, col, row) -> clergy standing there ("R prior", "G lay brother"), of every
    owner."""
    out: dict[tuple[int, int, int], list[str]] = {}
    for o in state.g.owners:
        for i, pos in enumerate(o.clergy):
            if pos is not None:
                kind = "prior" if i == o.prior else "lay brother"
                out.setdefault(tuple(pos), []).append(f"{o.colour} {kind}")
    return out


def _item(item: str | None) -> tuple[str, str]:
    """(kind, name) of what stands on a space."""
    if item in BUILDINGS:
        b = BUILDINGS[item]
        return ("cloister" if b.cloister else "building"), b.name
    if item in SETTLEMENTS:
        return "settlement", SETTLEMENTS[item].name
    if item in ("forest", "moor"):
        return item, item
    return "", ""


def cells(state: State, owner: int = 0) -> list[Cell]:
    """The spaces of an owner's landscape, ordered by row then column."""
    land = state.g.owners[owner].land
    clergy = clergy_at(state)
    out = []
    for (col, row), (terrain, item) in sorted(land.cells.items(), key=lambda x: x[0][::-1]):
        kind, name = _item(item)
        out.append(Cell(col, row, owner, terrain, item, kind, name,
                        row not in HEARTLAND_ROWS or not 0 <= col <= 4,
                        tuple(clergy.get((owner, col, row), ()))))
    return out
