"""Resource strings (NOTATION §2.5: ``GnGnWo``) and kennerspiel's names of the goods.

Owns the parsing and writing of goods strings, the good groups the parameter codecs read
(energy, money, points goods), the food / energy / money values of a parsed string, and the
goods names of kennerspiel's state (the records' commit snapshots).
"""

from __future__ import annotations

from collections import Counter

from .. import goods as G

ENERGY_GOODS = (G.WOOD, G.PEAT, G.COAL, G.STRAW)
MONEY_GOODS = (G.COIN, G.NICKEL, G.WINE, G.WHISKEY)
POINT_MIX = (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)
FLAGS = ("Jo", "Bp")
_COIN_VALUE = {G.COIN: 1, G.NICKEL: 5, G.WINE: 1, G.WHISKEY: 2}


def parse_goods(text: str) -> Counter:
    """A resource string (``GnGnWo``) as a Counter of good ids; ``Jo``/``Bp`` are skipped.

    Unlike kennerspiel (which ignores unknown pairs), an unknown pair is an error.
    """
    out: Counter = Counter()
    if len(text) % 2:
        raise ValueError(f"resource string {text!r} has an odd length")
    for i in range(0, len(text), 2):
        code = text[i:i + 2]
        if code in FLAGS:
            continue
        if code not in G.BY_CODE:
            raise ValueError(f"unknown resource code {code!r} in {text!r}")
        out[G.BY_CODE[code]] += 1
    return out


def goods_text(goods) -> str:
    """Counter / dict of good ids as a resource string, in goods-id order."""
    return "".join(G.CODES[g] * n for g, n in sorted(dict(goods).items()) if n > 0)


def only(c: Counter, keep) -> dict:
    """The part of ``c`` made of the goods in ``keep``."""
    return {g: n for g, n in c.items() if g in keep and n}


def energy2(c) -> int:
    """Twice the energy of a goods count (straw is worth a half)."""
    return sum(G.ENERGY2[g] * n for g, n in c.items())


def food(c) -> int:
    """The food value of a goods count."""
    return sum(G.FOOD[g] * n for g, n in c.items())


def money(c) -> int:
    """The coin value of a goods count (coins, 5-coin pieces, wine 1, whiskey 2)."""
    return sum(n * _COIN_VALUE.get(g, 0) for g, n in c.items())


#: kennerspiel's names of the goods in its state and the records' snapshots (wonders apart)
KS_GOOD_NAMES = {
    G.WOOD: "wood", G.WHISKEY: "whiskey", G.GRAIN: "grain", G.STRAW: "straw",
    G.SHEEP: "sheep", G.MEAT: "meat", G.CLAY: "clay", G.CERAMIC: "ceramic", G.PEAT: "peat",
    G.COAL: "coal", G.COIN: "penny", G.BOOK: "book", G.NICKEL: "nickel",
    G.RELIQUARY: "reliquary", G.STONE: "stone", G.ORNAMENT: "ornament", G.GRAPES: "grape",
    G.WINE: "wine", G.FLOUR: "flour", G.BREAD: "bread", G.MALT: "malt", G.BEER: "beer",
}


def ks_goods(goods: list[int]) -> dict[str, int]:
    """A player's goods under kennerspiel's names, non-zero only (as in commit snapshots)."""
    return {KS_GOOD_NAMES[g]: n for g, n in enumerate(goods) if n and g in KS_GOOD_NAMES}
