"""Goods: the 23 tile faces, their food/energy/money/point values, and goods arithmetic.

RULES §2 and goods.md. A player's goods are a plain list of counts indexed by the ids below
(append-only). Energy is kept in half units (``ENERGY2``) so straw's ½ stays exact (goods.md §3:
no rounding anywhere).
"""

from __future__ import annotations

# id, name, kennerspiel code, food, energy in half units, money, points
_TABLE = [
    (0, "wood", "Wo", 0, 2, 0, 0),
    (1, "whiskey", "Wh", 2, 0, 2, 1),
    (2, "grain", "Gn", 1, 0, 0, 0),
    (3, "straw", "Sw", 0, 1, 0, 0),
    (4, "sheep", "Sh", 2, 0, 0, 0),
    (5, "meat", "Mt", 5, 0, 0, 0),
    (6, "clay", "Cl", 0, 0, 0, 0),
    (7, "ceramic", "Ce", 0, 0, 0, 3),
    (8, "peat", "Pt", 0, 4, 0, 0),
    (9, "peat coal", "Co", 0, 6, 0, 0),
    (10, "coin", "Pn", 1, 0, 1, 0),
    (11, "book", "Bo", 0, 0, 0, 2),
    (12, "5 coins", "Ni", 5, 0, 5, 2),
    (13, "reliquary", "Rq", 0, 0, 0, 8),
    (14, "stone", "Sn", 0, 0, 0, 0),
    (15, "ornament", "Or", 0, 0, 0, 4),
    (16, "grapes", "Gp", 1, 0, 0, 0),
    (17, "wine", "Wn", 1, 0, 1, 1),
    (18, "flour", "Fl", 1, 0, 0, 0),
    (19, "bread", "Br", 3, 0, 0, 0),
    (20, "malt", "Ma", 1, 0, 0, 0),
    (21, "beer", "Be", 5, 0, 0, 0),
    (22, "wonder", "Wd", 0, 0, 0, 30),
]

N_GOODS = len(_TABLE)
NAMES = [row[1] for row in _TABLE]
CODES = [row[2] for row in _TABLE]
FOOD = [row[3] for row in _TABLE]
ENERGY2 = [row[4] for row in _TABLE]
MONEY = [row[5] for row in _TABLE]
POINTS = [row[6] for row in _TABLE]

(WOOD, WHISKEY, GRAIN, STRAW, SHEEP, MEAT, CLAY, CERAMIC, PEAT, COAL, COIN, BOOK, NICKEL,
 RELIQUARY, STONE, ORNAMENT, GRAPES, WINE, FLOUR, BREAD, MALT, BEER, WONDER) = range(N_GOODS)

BY_NAME = {name: i for i, name in enumerate(NAMES)}
BY_CODE = {code: i for i, code in enumerate(CODES)}
BY_CODE.update({"Po": CERAMIC, "Ho": MALT})  # legacy kennerspiel spellings (goods.md §1)

#: RULES §2 / goods.md: the six basic goods (Cloister Courtyard, Druid's House)
BASIC = (PEAT, SHEEP, WOOD, CLAY, COIN, GRAIN)
#: goods that exist only in one variant (RULES §2)
FRANCE_ONLY = (GRAPES, WINE, FLOUR, BREAD)
IRELAND_ONLY = (MALT, BEER, WHISKEY)
#: the point goods a House of the Brotherhood / Festival Ground hands out
POINT_GOODS = (BOOK, CERAMIC, ORNAMENT, RELIQUARY)


def empty() -> list[int]:
    """A goods vector with nothing in it."""
    return [0] * N_GOODS


def goods_string(goods: list[int] | dict[int, int]) -> str:
    """Readable form, e.g. ``2 wood, 1 grain`` (empty string for nothing)."""
    items = goods.items() if isinstance(goods, dict) else enumerate(goods)
    return ", ".join(f"{n} {NAMES[g]}" for g, n in items if n)


def money(goods: list[int]) -> int:
    """Coins held as coins: 1-coin and 5-coin pieces (wine/whiskey need converting first)."""
    return goods[COIN] + 5 * goods[NICKEL]


def goods_points(goods: list[int]) -> int:
    """RULES §14.1: points of a player's goods, grouping coins, wine and whiskey optimally.

    Loose coins score 2 per full 5; wine and whiskey score 1 each, or their coin value (1, 2)
    when converting them completes more 5-coin groups.
    """
    fixed = sum(goods[g] * POINTS[g] for g in (BOOK, CERAMIC, ORNAMENT, RELIQUARY, WONDER))
    coins = goods[COIN] + 5 * goods[NICKEL]
    best = 0
    for wine in range(goods[WINE] + 1):
        for whiskey in range(goods[WHISKEY] + 1):
            pts = 2 * ((coins + wine + 2 * whiskey) // 5)
            pts += (goods[WINE] - wine) + (goods[WHISKEY] - whiskey)
            best = max(best, pts)
    return fixed + best
