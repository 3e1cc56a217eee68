"""A line's data for the page: every round replayed on the reference engine, with its named
actions, the goods and score after it and the landscapes' spaces that changed in it.

The page draws each round from these rows alone (no engine in the browser), so everything it
shows was read off the reference engine when the page was written. A sweep's page holds
hundreds of lines: the texts go through one shared `Strings` table and each round keeps only
the spaces that changed, which keeps a 282-line page a few megabytes.
"""

from __future__ import annotations

from solver.rules import canonical as C

from ..landscape import cells, name_lines
from ..show import replay_parts

START = "start"  # the first row: the landscapes before any action


class Strings:
    """Texts interned once per page: each row refers to them by index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.items: list[str] = []

    def __call__(self, text: str) -> int:
        if text not in self.index:
            self.index[text] = len(self.items)
            self.items.append(text)
        return self.index[text]


def _spaces(state) -> dict[tuple, tuple]:
    """(owner, col, row) -> (terrain, item, clergy, bought) of every landscape in the
    state."""
    return {(c.owner, c.col, c.row): (c.terrain, c.item or "", ",".join(c.clergy), int(c.bought))
            for owner in range(len(state.g.owners)) for c in cells(state, owner)}


def _items(state, items: dict) -> None:
    """Record the kind, name and name lines of every item standing in the state."""
    for owner in range(len(state.g.owners)):
        for c in cells(state, owner):
            if c.item and c.item not in items:
                items[c.item] = [c.kind, c.name, name_lines(c.name)]


def line_data(variant: str, line: list[int], strings: Strings, items: dict) -> dict:
    """The line's rows for the page (``items`` collects the names of what stands anywhere).

    Each row: ``w`` when (round or settlement phase), ``a`` its actions (indices into
    ``strings``), ``g`` the player's goods counts (in goods.NAMES order), ``s`` the score so
    far (total, goods, economic, dwelling), ``d`` the spaces that changed
    ([owner, col, row, terrain, item, clergy, bought]), ``n`` actions played by its end.
    ``error``: the first action the reference engine refused (the rows stop before it)."""
    st = C.canonical_initial_state(variant)
    before = _spaces(st)
    _items(st, items)
    rows = [{"w": START, "a": [], "g": list(st.g.owners[0].goods),
             "s": [0, 0, 0, 0], "d": [list(k) + list(v) for k, v in before.items()], "n": 0}]
    out = {"rows": rows, "players": [o.colour for o in st.g.owners], "error": None,
           "terminal": st.is_terminal()}
    parts = replay_parts(variant, line)
    while True:
        try:
            view, state = next(parts)
        except StopIteration:
            break
        except Exception as e:  # RuleError, or a malformed id (as records.verify_record)
            out["error"] = f"the reference engine refused an action after row {len(rows)}: {e}"
            break
        now = _spaces(state)
        _items(state, items)
        sc = view.score
        rows.append({"w": view.when, "a": [strings(t) for t in view.actions],
                     "g": list(state.g.owners[0].goods),
                     "s": [sc["total"], sc["goods"], sc["economic"], sc["dwelling"]],
                     "d": [list(k) + list(v) for k, v in now.items() if before.get(k) != v],
                     "n": view.actions_done})
        before = now
        out["terminal"] = state.is_terminal()
    return out

