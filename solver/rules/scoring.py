"""Final scoring (RULES §14): goods points, economic value, dwelling value."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import goods as G
from .cards import BUILDINGS, SETTLEMENTS
from .profile import RuleProfile


@dataclass(frozen=True)
class Score:
    """A player's score breakdown."""

    total: int
    goods: int
    economic: int
    dwelling: int

    def as_dict(self) -> dict:
        return asdict(self)

    def __getitem__(self, key: str) -> int:
        return getattr(self, key)


def dwelling_of(item: str | None, profile: RuleProfile) -> int:
    """Dwelling value of a building or settlement id (0 for anything else)."""
    if item in SETTLEMENTS:
        return SETTLEMENTS[item].dwelling
    if item in BUILDINGS:
        if item == "I35":
            return profile.round_tower_dwelling
        return BUILDINGS[item].dwelling
    return 0


def settlement_value(land, cell, profile: RuleProfile) -> int:
    """RULES §14.3: a settlement's own dwelling value plus its orthogonal neighbours'."""
    total = dwelling_of(land.content(cell), profile)
    for n in land.neighbours(cell):
        terrain, content = land.cells[n]
        if terrain == "W" and (content is None or not profile.houseboat_replaces_water):
            total += 3
        total += dwelling_of(content, profile)
    return total


def economic_value(land) -> int:
    """RULES §14.2: shields of every building and settlement on the landscape."""
    total = 0
    for _, item in land.buildings():
        total += BUILDINGS[item].economic
    for _, item in land.settlements():
        total += SETTLEMENTS[item].economic
    return total


def score_owner(owner, profile: RuleProfile) -> Score:
    """Score one player (the neutral player is never scored)."""
    goods = G.goods_points(owner.goods)
    economic = economic_value(owner.land)
    dwelling = sum(settlement_value(owner.land, cell, profile)
                   for cell, _ in owner.land.settlements())
    return Score(goods + economic + dwelling, goods, economic, dwelling)
