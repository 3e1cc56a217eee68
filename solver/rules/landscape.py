"""A player's landscape (RULES §5): terrain grid, what stands where, land purchases, adjacency.

Spaces are addressed ``(col, row)`` exactly as kennerspiel does (RULES §5.3): columns −2..6,
rows 0 and 1 the heartland, negative rows above, larger rows below. ``cells`` maps each space
with land to ``[terrain, content]``: terrain one of W C P H M and ``.`` (the mountain's lower
half, not a space); content ``None``, ``"forest"``, ``"moor"``, a building id or a settlement id
(``S1``..``S8``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import BUILDINGS, GAME, SETTLEMENTS

Cell = tuple[int, int]
FEATURES = ("forest", "moor")
SIDES_DISTRICT = ("PLAINS", "HILLS")
SIDES_PLOT = ("COAST", "MOUNTAIN")


class LandscapeError(ValueError):
    """An illegal placement or purchase; the message names the rule."""


@dataclass
class Landscape:
    """Terrain and contents of one player's (or the neutral player's) land."""

    cells: dict[Cell, list] = field(default_factory=dict)

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def heartland(cls, colour: str, *, neutral: bool = False, short: bool = False) -> Landscape:
        """RULES §5.2 heartland of a colour; the solo neutral's has no moor or forest."""
        land = cls()
        names = {"clay_mound": f"L{colour}1", "farmyard": f"L{colour}2",
                 "cloister_office": f"L{colour}3"}
        for spec in GAME["landscape"]["heartland"]:
            content = spec.get("feature")
            if content in FEATURES and (neutral or (short and (spec["col"], spec["row"]) in
                                                    ((0, 0), (1, 0)))):
                content = None
            land.cells[(spec["col"], spec["row"])] = [TERRAIN_CODE[spec["terrain"]],
                                                      names.get(content, content)]
        return land

    # ----- queries ------------------------------------------------------------------------
    def terrain(self, cell: Cell) -> str | None:
        """Terrain code of a space, or None where there is no land."""
        c = self.cells.get(cell)
        return None if c is None else c[0]

    def content(self, cell: Cell):
        """What stands on a space (None if empty or no land)."""
        c = self.cells.get(cell)
        return None if c is None else c[1]

    def is_empty(self, cell: Cell) -> bool:
        """Land with nothing on it (and not the mountain's filler)."""
        c = self.cells.get(cell)
        return c is not None and c[0] != "." and c[1] is None

    def rows(self) -> tuple[int, int]:
        """Smallest and largest row with land."""
        rs = [r for (_, r) in self.cells]
        return min(rs), max(rs)

    def find(self, item: str) -> Cell | None:
        """The space holding a building/settlement/feature id (first in row order)."""
        for cell in sorted(self.cells, key=lambda x: (x[1], x[0])):
            if self.cells[cell][1] == item:
                return cell
        return None

    def buildings(self) -> list[tuple[Cell, str]]:
        """All buildings on this landscape, in row-major order."""
        return [(cell, c[1]) for cell, c in sorted(self.cells.items(), key=_rowmajor)
                if c[1] in BUILDINGS]

    def settlements(self) -> list[tuple[Cell, str]]:
        """All settlements on this landscape, in row-major order."""
        return [(cell, c[1]) for cell, c in sorted(self.cells.items(), key=_rowmajor)
                if c[1] in SETTLEMENTS]

    def features(self, kind: str) -> list[Cell]:
        """Spaces holding a forest or a moor card, row-major."""
        return sorted((cell for cell, c in self.cells.items() if c[1] == kind),
                      key=lambda x: (x[1], x[0]))

    def neighbours(self, cell: Cell) -> list[Cell]:
        """RULES §5.6 orthogonal neighbours that are spaces with land (mountain rule included)."""
        col, row = cell
        if col == 5:
            cand = [(5, row - 1), (5, row + 1), (4, row), (6, row), (6, row - 1)]
        elif col == 6:
            cand = [(5, row), (5, row + 1)]
        else:
            cand = [(col, row - 1), (col, row + 1), (col - 1, row), (col + 1, row)]
        return [c for c in cand if c in self.cells and self.cells[c][0] != "."]

    def touches_cloister(self, cell: Cell) -> bool:
        """RULES §5.7: a cloister building stands on a neighbouring space."""
        for n in self.neighbours(cell):
            b = BUILDINGS.get(self.cells[n][1])
            if b is not None and b.cloister:
                return True
        return False

    # ----- land purchases (RULES §5.4, §5.5) ----------------------------------------------
    def district_rows(self, via_mountain: bool = True) -> list[int]:
        """Rows where a new district may be placed (RULES §5.4, D25 rulebook reading; without
        ``via_mountain`` a mountain plot alone does not connect it: profile
        ``district_via_mountain_plot``)."""
        lo, hi = self.rows()
        out = []
        for row in range(lo - 1, hi + 2):
            if any((c, row) in self.cells for c in range(5)):
                continue
            if (any((c, row - 1) in self.cells for c in range(5))
                    or any((c, row + 1) in self.cells for c in range(5))
                    or (-1, row) in self.cells or (via_mountain and (5, row) in self.cells)):
                out.append(row)
        return out

    def plot_rows(self, side: str) -> list[int]:
        """Top rows where a coast/mountain plot may be placed (RULES §5.5)."""
        lo, hi = self.rows()
        inner, outer = (-1, -2) if side == "COAST" else (5, 6)
        edge = 0 if side == "COAST" else 4
        out = []
        for row in range(lo - 2, hi + 2):
            if any((c, r) in self.cells for c in (inner, outer) for r in (row, row + 1)):
                continue
            if ((edge, row) in self.cells or (edge, row + 1) in self.cells
                    or (inner, row - 1) in self.cells or (inner, row + 2) in self.cells):
                out.append(row)
        return out

    def add_district(self, row: int, side: str, via_mountain: bool = True) -> None:
        """Place a district strip in ``row`` (raises LandscapeError if not allowed)."""
        if side not in SIDES_DISTRICT:
            raise LandscapeError(f"a district side is PLAINS or HILLS, not {side!r}")
        if row not in self.district_rows(via_mountain):
            raise LandscapeError(
                f"cannot place a district in row {row}: it must fill an empty row that touches "
                "the heartland, another district, or a plot in that row (RULES §5.4)")
        spec = GAME["landscape"]["district_hills" if side == "HILLS" else "district_plains"]
        for col, (terrain, feature) in enumerate(spec):
            self.cells[(col, row)] = [TERRAIN_CODE[terrain], feature or None]

    def add_plot(self, row: int, side: str) -> None:
        """Place a coast or mountain plot with top row ``row``."""
        if side not in SIDES_PLOT:
            raise LandscapeError(f"a plot side is COAST or MOUNTAIN, not {side!r}")
        if row not in self.plot_rows(side):
            raise LandscapeError(
                f"cannot place a {side.lower()} plot at rows {row}..{row + 1}: the two rows must "
                "be free on that side and touch the heartland or a plot of that side (RULES §5.5)")
        if side == "COAST":
            for r in (row, row + 1):
                self.cells[(-2, r)] = ["W", None]
                self.cells[(-1, r)] = ["C", None]
        else:
            self.cells[(5, row)] = ["H", None]
            self.cells[(5, row + 1)] = ["H", None]
            self.cells[(6, row)] = ["M", None]
            self.cells[(6, row + 1)] = [".", None]

    # ----- serialisation ------------------------------------------------------------------
    def to_list(self) -> list:
        return [[c, r, t, x] for (c, r), (t, x) in sorted(self.cells.items(), key=_rowmajor)]

    @classmethod
    def from_list(cls, items: list) -> Landscape:
        return cls(cells={(c, r): [t, x] for c, r, t, x in items})

    def render(self) -> str:
        """ASCII picture, one line per row (used in error messages and displays)."""
        lo, hi = self.rows()
        lines = []
        for row in range(lo, hi + 1):
            parts = []
            for col in range(-2, 7):
                c = self.cells.get((col, row))
                if c is None:
                    parts.append("      ")
                else:
                    x = c[1] or ""
                    x = {"forest": "F", "moor": "M"}.get(x, x)
                    parts.append(f"{c[0]}:{x:<4}")
            lines.append(f"{row:>3} " + " ".join(parts))
        return "\n".join(lines)


TERRAIN_CODE = {"water": "W", "coast": "C", "plains": "P", "hillside": "H", "mountain": "M"}


def _rowmajor(item):
    (col, row), _ = item
    return (row, col)
