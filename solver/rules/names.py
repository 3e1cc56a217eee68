"""Readable action text: building ids shown with their names (``BUILD Peat Coal Kiln (G07)
at (3, 0)``)."""

from __future__ import annotations

import re

from . import canonical as C
from .cards import BUILDINGS
from .game import State

_ID = re.compile(r"\b([A-Z][A-Z]?\d\d|L[RGBW]\d)\b")


def with_names(text: str) -> str:
    """``text`` with every building id replaced by ``Name (ID)``."""
    return _ID.sub(lambda m: f"{BUILDINGS[m.group(1)].name} ({m.group(1)})"
                   if m.group(1) in BUILDINGS else m.group(1), text)


def building_name(bid: str) -> str:
    """The printed name of a building id."""
    return BUILDINGS[bid].name


def action_text(state: State, cid: int) -> str:
    """A canonical action in this state, as text with building names (a neutral build names
    the building it places: ``NEUTRAL BUILD Priory (G06) at (2, 0)``)."""
    return with_names(C.canonical_to_string(state, cid))


def line_text(variant: str, line: list[int], state: State | None = None) -> list[str]:
    """Each action of ``line`` as named text, played from ``state`` (default: the initial
    state; it is not changed)."""
    st = (state.clone() if state is not None else C.canonical_initial_state(variant))
    out = []
    for cid in line:
        out.append(action_text(st, cid))
        C.apply_canonical(st, cid)
    return out
