"""Paying for things (RULES §2, §8.2, goods.md §3): exact goods, coins, and picked payments.

Three kinds of price:

* exact goods (building materials, converter inputs): a missing straw is flipped from grain;
* coins: 1-coin pieces first, then 5-coin pieces are broken (change is kept); wine and whiskey
  are spent as coins only when the profile says so (D34), otherwise the player converts first;
* a *picked* payment of food, energy, points or distinct goods: the player hands over tiles
  one at a time (``PAY`` actions) until every amount is covered. Tiles are offered in goods-id
  order (never a lower id after a higher one) and only while they still pay something, so every
  payment in which no tile is superfluous is reachable exactly once; a payment with a tile that
  pays nothing is not offered (it is the same payment plus a wasted tile).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import goods as G


@dataclass
class Cost:
    """What one option of a building function (or a build, a settlement) costs."""

    goods: dict[int, int] = field(default_factory=dict)  # exact goods
    coins: int = 0  # money
    food: int = 0  # picked: food value at least this
    energy2: int = 0  # picked: energy (half units) at least this
    points: int = 0  # picked: point value at least this
    distinct: int = 0  # picked: this many tiles of different goods

    @property
    def picked(self) -> bool:
        """True if part of the price is picked tile by tile."""
        return bool(self.food or self.energy2 or self.points or self.distinct)

    def need(self) -> dict:
        return {"food": self.food, "energy2": self.energy2, "points": self.points,
                "distinct": self.distinct}

    def describe(self) -> str:
        parts = []
        if any(self.goods.values()):
            parts.append(G.goods_string(self.goods))
        if self.coins:
            parts.append(f"{self.coins} coins")
        if self.food:
            parts.append(f"{self.food} food")
        if self.energy2:
            parts.append(f"{self.energy2 / 2:g} energy")
        if self.points:
            parts.append(f"goods worth {self.points} points")
        if self.distinct:
            parts.append(f"{self.distinct} different goods")
        return " + ".join(parts) or "nothing"


def can_pay_goods(goods: list[int], need: dict[int, int]) -> bool:
    """Exact goods affordable (straw may come from grain)."""
    grain_left = goods[G.GRAIN]
    for g, n in need.items():
        if g == G.STRAW:
            short = max(0, n - goods[G.STRAW])
            if short > grain_left - need.get(G.GRAIN, 0):
                return False
        elif goods[g] < n:
            return False
    return True


def pay_goods(goods: list[int], need: dict[int, int]) -> None:
    """Take exact goods (flipping grain for missing straw). Caller checked affordability."""
    for g, n in need.items():
        if g == G.STRAW and goods[G.STRAW] < n:
            goods[G.GRAIN] -= n - goods[G.STRAW]
            goods[G.STRAW] = 0
        else:
            goods[g] -= n


def coin_value(goods: list[int], with_drinks: bool) -> int:
    """Money available for a coin price."""
    v = goods[G.COIN] + 5 * goods[G.NICKEL]
    if with_drinks:
        v += goods[G.WINE] + 2 * goods[G.WHISKEY]
    return v


def pay_coins(goods: list[int], n: int, with_drinks: bool) -> None:
    """Pay ``n`` coins: 1-coins, then break 5-coins; with_drinks: then wine, then whiskey.

    With drinks this is kennerspiel's coin-price routine (NOTATION §2.5): wine only if it covers
    the whole rest, then whiskey (a whiskey paying 1 leaves 1 coin change).
    """
    take = min(goods[G.COIN], n)
    goods[G.COIN] -= take
    n -= take
    while n > 0 and goods[G.NICKEL] > 0:
        goods[G.NICKEL] -= 1
        goods[G.COIN] += 5
        take = min(goods[G.COIN], n)
        goods[G.COIN] -= take
        n -= take
    if n > 0 and with_drinks and goods[G.WINE] >= n:
        goods[G.WINE] -= n
        n = 0
    while n > 0 and with_drinks and goods[G.WHISKEY] > 0:
        goods[G.WHISKEY] -= 1
        if n == 1:
            goods[G.COIN] += 1
            n = 0
        else:
            n -= 2
    if n > 0:
        raise AssertionError("pay_coins called without enough money")


def payable_goods(goods: list[int], wonders_are_goods: bool) -> list[int]:
    """The goods a picked payment may take tiles from: all of them, or (profile field
    ``wonders_are_goods`` False) a copy without the wonders."""
    if wonders_are_goods or not goods[G.WONDER]:
        return goods
    out = list(goods)
    out[G.WONDER] = 0
    return out


def contributes(g: int, need: dict) -> bool:
    """Does one tile of good ``g`` pay towards a still-open amount?"""
    return ((need["food"] > 0 and G.FOOD[g] > 0) or (need["energy2"] > 0 and G.ENERGY2[g] > 0)
            or (need["points"] > 0 and G.POINTS[g] > 0) or need["distinct"] > 0)


def after_pick(need: dict, g: int) -> dict:
    """The open amounts after one tile of ``g`` is given."""
    return {"food": max(0, need["food"] - G.FOOD[g]),
            "energy2": max(0, need["energy2"] - G.ENERGY2[g]),
            "points": max(0, need["points"] - G.POINTS[g]),
            "distinct": max(0, need["distinct"] - 1)}


def satisfied(need: dict) -> bool:
    return not any(need.values())


def feasible(goods: list[int], need: dict, start: int, strict: bool) -> bool:
    """Can the open amounts still be covered with tiles of id >= start (> start if strict)?"""
    lo = start + 1 if strict else start
    food = sum(goods[g] * G.FOOD[g] for g in range(lo, G.N_GOODS))
    energy = sum(goods[g] * G.ENERGY2[g] for g in range(lo, G.N_GOODS))
    points = sum(goods[g] * G.POINTS[g] for g in range(lo, G.N_GOODS))
    kinds = sum(1 for g in range(lo, G.N_GOODS) if goods[g] > 0)
    return (food >= need["food"] and energy >= need["energy2"] and points >= need["points"]
            and kinds >= need["distinct"])


def pick_candidates(goods: list[int], need: dict, last: int) -> list[int]:
    """Goods that may be given next in a picked payment (see module docstring)."""
    distinct = need["distinct"] > 0
    out = []
    for g in range(last + 1 if distinct else max(last, 0), G.N_GOODS):
        if goods[g] <= 0 or not contributes(g, need):
            continue
        goods[g] -= 1
        ok = feasible(goods, after_pick(need, g), g, distinct)
        goods[g] += 1
        if ok:
            out.append(g)
    return out


def affordable(goods: list[int], cost: Cost, with_drinks: bool) -> bool:
    """Can the whole cost be paid from these goods?"""
    if not can_pay_goods(goods, cost.goods):
        return False
    rest = list(goods)
    pay_goods(rest, cost.goods)
    if coin_value(rest, with_drinks) < cost.coins:
        return False
    if cost.coins:
        pay_coins(rest, cost.coins, with_drinks)
    return feasible(rest, cost.need(), 0, False)
