"""The card tables: buildings and settlements, loaded once from the package data files.

``data/buildings.csv`` (generated from ../shared/reference by tools/gen_data.py) has one row per
building; the three heartland buildings have one row each whose id lists the four colour ids.
Each building is a :class:`Building` keyed by its id; ``BUILDING_IDS`` fixes the numeric index
used in action ids (append-only).
"""

from __future__ import annotations

import csv
import tomllib
from dataclasses import dataclass
from importlib import resources

from . import goods as G

COLOURS = ("R", "G", "B", "W")
TERRAINS = {"water": "W", "coast": "C", "plains": "P", "hillside": "H", "mountain": "M"}


@dataclass(frozen=True)
class Building:
    """One building card side (or a heartland building of one colour)."""

    id: str
    name: str
    variant: str  # G, F or I
    phase: str  # start, A, B, C, D
    players: str  # player counts of the long game it is used in ("1" = solo)
    cost: tuple[tuple[int, int], ...]  # (good, count) materials
    cost_coins: int
    terrain: frozenset[str]  # terrain codes W C P H M
    cloister: bool
    economic: int
    dwelling: int
    solo: bool
    effect: str  # effect key (solver/rules/effects.py)

    @property
    def heartland(self) -> bool:
        """True for the Clay Mound, Farmyard and Cloister Office of some colour."""
        return self.id.startswith("L")

    def __str__(self) -> str:
        return f"{self.id} {self.name}"


@dataclass(frozen=True)
class Settlement:
    """One of the eight settlement cards (RULES §11.4); ids are ``S1``..``S8``."""

    number: int
    name: str
    food: int
    energy: int
    economic: int
    dwelling: int
    terrain: frozenset[str]
    arrives: str  # start, A, B, C, D

    @property
    def id(self) -> str:
        return f"S{self.number}"

    def __str__(self) -> str:
        return f"{self.id} {self.name}"


def _open(name: str):
    return resources.files("solver.rules").joinpath("data").joinpath(name).open("rb")


def _load_buildings() -> dict[str, Building]:
    out: dict[str, Building] = {}
    with resources.files("solver.rules").joinpath("data").joinpath("buildings.csv").open() as f:
        for row in csv.DictReader(f):
            cost = tuple(
                (g, int(row[f"cost_{name}"]))
                for g, name in ((G.WOOD, "wood"), (G.CLAY, "clay"), (G.STONE, "stone"),
                                (G.STRAW, "straw"))
                if int(row[f"cost_{name}"])
            )
            for bid in row["id"].split("|"):
                out[bid] = Building(
                    id=bid,
                    name=row["name"],
                    variant=row["variant"],
                    phase=row["phase"],
                    players=row["players"],
                    cost=cost,
                    cost_coins=int(row["cost_coin"]),
                    terrain=frozenset(TERRAINS[t] for t in row["terrain"].split("|")),
                    cloister=row["cloister"] == "1",
                    economic=int(row["economic"]),
                    dwelling=int(row["dwelling"]),
                    solo=row["solo"] == "1",
                    effect=row["effect_key"],
                )
    return out


def _load_settlements() -> dict[str, Settlement]:
    out = {}
    with resources.files("solver.rules").joinpath("data").joinpath("settlements.csv").open() as f:
        for row in csv.DictReader(f):
            s = Settlement(
                number=int(row["number"]),
                name=row["name"],
                food=int(row["food"]),
                energy=int(row["energy"]),
                economic=int(row["economic"]),
                dwelling=int(row["dwelling"]),
                terrain=frozenset(TERRAINS[t] for t in row["terrain"].split("|")),
                arrives=row["arrives"],
            )
            out[s.id] = s
    return out


with _open("game.toml") as _f:
    GAME = tomllib.load(_f)

BUILDINGS: dict[str, Building] = _load_buildings()
SETTLEMENTS: dict[str, Settlement] = _load_settlements()
#: numeric index of every building id, used inside action ids (append-only order)
BUILDING_IDS: list[str] = sorted(BUILDINGS)
BUILDING_INDEX = {bid: i for i, bid in enumerate(BUILDING_IDS)}


def heartland_ids(colour: str) -> tuple[str, str, str]:
    """Clay Mound, Farmyard and Cloister Office ids of a colour, e.g. ``LR1 LR2 LR3``."""
    return (f"L{colour}1", f"L{colour}2", f"L{colour}3")


def building_set(variant: str, players: int, length: str, short_uses_long_lists: bool = False
                 ) -> list[str]:
    """RULES §4.3: ids of the cards used in a mode (heartland excluded), in card order.

    Solo keeps cards marked 1 (the Builders' Market among them; the caller moves it to the
    neutral heartland). Short games use the 2p set with 3 players and the 3p set with 4.
    """
    letter = variant[0].upper()
    count = players
    if length == "short" and players >= 3 and not short_uses_long_lists:
        count = players - 1
    out = []
    for bid in BUILDING_IDS:
        b = BUILDINGS[bid]
        if b.heartland or b.variant not in ("G", letter):
            continue
        if str(count) in b.players:
            out.append(bid)
    out.sort(key=lambda i: (int(i[1:]), i))
    return out
