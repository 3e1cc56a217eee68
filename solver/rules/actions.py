"""Action ids of the reference engine: one int per full-detail decision.

An action id is ``kind << 24 | payload``. The payload packs the kind's fields (building index
from ``cards.BUILDING_IDS``, column + 2, row + 32, small flags). Ids are plain Python ints, so
``legal_actions()`` is a sorted list of ints as OpenSpiel expects.

Kinds (see solver/rules/game.py for when each is offered):

=================  ==============================================================
COMMIT             end the current turn / settlement turn
SKIP               decline an optional step (a free use, a granted build, ...)
USE                main action: place a clergyman (``prior`` flag) on an own building
WORK_CONTRACT      main action: hire an unoccupied building of another landscape
FELL_TREES         main action: remove a forest at (col, row), wood from the wheel
CUT_PEAT           main action: remove a moor at (col, row), peat from the wheel
BUILD              main action (or granted build): building at (col, row)
BUY_DISTRICT       extra action: district at row, side 0 PLAINS / 1 HILLS
BUY_PLOT           extra action: plot with top row, side 0 COAST / 1 MOUNTAIN
CONVERT            extra action: one exchange (see CONVERSIONS)
OPTION             choose option ``index`` of the building function being used
PAY                give one tile of a good towards a food/energy/points/distinct payment
FREE_USE           use a building for free (granted by Priory, Garden, Palace, ...)
USE_PRIOR          the prior's bonus use of the building just built
SETTLE             build settlement S<number> at (col, row)
NEUTRAL_BUILD      solo settlement phase: the neutral builds a display building at (col, row)
PICK_CELL          choose a space (forests to remove for the Printing Office)
CHOOSE_CLERGY      a contracted owner chooses which of its clergymen goes (prior flag)
=================  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from . import goods as G
from .cards import BUILDING_IDS, BUILDING_INDEX

KINDS = ("NONE", "COMMIT", "SKIP", "USE", "WORK_CONTRACT", "FELL_TREES", "CUT_PEAT", "BUILD",
         "BUY_DISTRICT", "BUY_PLOT", "CONVERT", "OPTION", "PAY", "FREE_USE", "USE_PRIOR",
         "SETTLE", "NEUTRAL_BUILD", "PICK_CELL", "CHOOSE_CLERGY")
K = {name: i for i, name in enumerate(KINDS)}

#: CONVERT payloads: (name, goods given, goods received)
CONVERSIONS = (
    ("grain to straw", {G.GRAIN: 1}, {G.STRAW: 1}),
    ("5 coins to 5 x 1 coin", {G.NICKEL: 1}, {G.COIN: 5}),
    ("5 x 1 coin to 5 coins", {G.COIN: 5}, {G.NICKEL: 1}),
    ("wine to 1 coin", {G.WINE: 1}, {G.COIN: 1}),
    ("whiskey to 2 coins", {G.WHISKEY: 1}, {G.COIN: 2}),
)
FEES = ("coins", "wine", "whiskey")
#: kinds whose payload is one wide number (an option index, a good, a conversion)
WIDE_KINDS = ("OPTION", "PAY", "CONVERT")


@dataclass(frozen=True)
class Action:
    """Decoded action: kind name plus its fields (unused fields are 0)."""

    kind: str
    building: str | None = None
    col: int = 0
    row: int = 0
    flag: int = 0  # prior flag / side / conversion / fee / good / option index / settlement
    extra: int = 0  # second small field (work-contract fee)


def _pack(kind: str, b: int = 0, col: int = 0, row: int = 0, flag: int = 0, extra: int = 0
          ) -> int:
    return (K[kind] << 24) | (b << 16) | ((col + 2) << 12) | ((row + 32) << 6) | (flag << 2) | extra


def encode(a: Action) -> int:
    """Action -> int id."""
    b = BUILDING_INDEX[a.building] if a.building else 0
    if a.kind in WIDE_KINDS:
        # a wide flag: an index into a list (options can be many)
        return (K[a.kind] << 24) | a.flag
    return _pack(a.kind, b, a.col, a.row, a.flag, a.extra)


def decode(aid: int) -> Action:
    """int id -> Action (raises ValueError for an id that is no action)."""
    kind_i = aid >> 24
    if not 0 < kind_i < len(KINDS):
        raise ValueError(f"{aid} is not an action id")
    kind = KINDS[kind_i]
    if kind in WIDE_KINDS:
        return Action(kind, flag=aid & 0xFFFFFF)
    b = (aid >> 16) & 0xFF
    col = ((aid >> 12) & 0xF) - 2
    row = ((aid >> 6) & 0x3F) - 32
    flag = (aid >> 2) & 0xF
    extra = aid & 0x3
    building = BUILDING_IDS[b] if kind in ("USE", "WORK_CONTRACT", "BUILD", "FREE_USE",
                                           "USE_PRIOR", "NEUTRAL_BUILD") else None
    return Action(kind, building, col, row, flag, extra)


def make(kind: str, building: str | None = None, col: int = 0, row: int = 0, flag: int = 0,
         extra: int = 0) -> int:
    """Shorthand: build and encode an action."""
    return encode(Action(kind, building, col, row, flag, extra))
