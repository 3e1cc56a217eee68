"""Explicit payments: a move that names the exact tiles it pays (imported kennerspiel records).

The engine's own actions never name tiles for exact-goods or coin prices (they are paid
automatically, D34) and name food/energy/points tiles one ``PAY`` at a time. A kennerspiel
record instead names every tile of a payment in one string (NOTATION §2.5, §6.8, §6.12, §7).
:meth:`solver.rules.game.State.apply_explicit` applies such a move; this module holds its
payment arithmetic:

* :func:`take_named` removes the named tiles from a player's goods, making change for missing
  1-coin pieces and straw with the profile's routine (``goods_payment_change``: ``rulebook``
  breaks 5-coin pieces and flips grain; ``kennerspiel`` breaks 5-coin pieces, then spends
  whiskey, then wine, and flips grain, quirk 8);
* :func:`allocate` checks that a named payment covers a :class:`~solver.rules.payment.Cost`
  (exact goods, then coins from 1-coin, 5-coin, wine, whiskey tiles, then food / energy /
  points / distinct kinds from the rest) and returns what each part used;
* :func:`needed_part` trims a named payment to what the cost needs, for profiles where the
  surplus stays with the player (``explicit_payment_takes_all`` off; quirk 17 takes it all).
"""

from __future__ import annotations

from . import goods as G
from .payment import Cost

MONEY = {G.COIN: 1, G.NICKEL: 5, G.WINE: 1, G.WHISKEY: 2}


class PaymentError(ValueError):
    """A named payment that is not held or does not cover the price."""


def describe(payment: dict[int, int]) -> str:
    """Kennerspiel-style text of a payment (``PnPnGn``), or ``nothing``."""
    return "".join(G.CODES[g] * n for g, n in sorted(payment.items()) if n) or "nothing"


def take_named(goods: list[int], payment: dict[int, int], routine: str) -> None:
    """Remove every named tile from ``goods`` (NOTATION §2.5 goods-payment routine).

    Missing straw is flipped from grain; missing 1-coin pieces come from breaking 5-coin
    pieces (change kept) and, with the ``kennerspiel`` routine, then from whiskey (2 each,
    change kept) and wine (1 each). Anything else not held raises PaymentError; ``goods`` is
    unchanged then.
    """
    g2 = list(goods)
    for g, n in payment.items():
        if n < 0:
            raise PaymentError(f"negative amount of {G.NAMES[g]}")
        if g in (G.COIN, G.STRAW) or not n:
            continue
        if g2[g] < n:
            raise PaymentError(f"pays {n} {G.NAMES[g]} but holds {g2[g]}")
        g2[g] -= n
    straw = payment.get(G.STRAW, 0)
    if straw:
        short = max(0, straw - g2[G.STRAW])
        if short > g2[G.GRAIN]:
            raise PaymentError(f"pays {straw} straw but holds {g2[G.STRAW]} straw and "
                               f"{g2[G.GRAIN]} grain")
        g2[G.STRAW] -= straw - short
        g2[G.GRAIN] -= short
    coins = payment.get(G.COIN, 0)
    if coins:
        while g2[G.COIN] < coins and g2[G.NICKEL] > 0:
            g2[G.NICKEL] -= 1
            g2[G.COIN] += 5
        if routine == "kennerspiel":
            while g2[G.COIN] < coins and g2[G.WHISKEY] > 0:
                g2[G.WHISKEY] -= 1
                g2[G.COIN] += 2
            while g2[G.COIN] < coins and g2[G.WINE] > 0:
                g2[G.WINE] -= 1
                g2[G.COIN] += 1
        if g2[G.COIN] < coins:
            raise PaymentError(f"pays {coins} coins but has less money")
        g2[G.COIN] -= coins
    goods[:] = g2


def allocate(payment: dict[int, int], cost: Cost) -> dict[int, int]:
    """Check that ``payment`` covers ``cost``; return the tiles left after the exact goods and
    coins are taken from it (the part that pays food/energy/points/distinct kinds).

    Raises PaymentError naming what is missing.
    """
    rest = {g: n for g, n in payment.items() if n}
    for g, n in cost.goods.items():
        have = rest.get(g, 0)
        if g == G.STRAW and have < n:
            flip = min(n - have, rest.get(G.GRAIN, 0))
            rest[G.GRAIN] = rest.get(G.GRAIN, 0) - flip
            have += flip
        if have < n:
            raise PaymentError(f"the payment lacks {n - have} {G.NAMES[g]}")
        rest[g] = rest.get(g, 0) - min(n, rest.get(g, 0))
    coins = cost.coins
    for g in (G.COIN, G.NICKEL, G.WINE, G.WHISKEY):
        while coins > 0 and rest.get(g, 0) > 0:
            rest[g] -= 1
            coins -= MONEY[g]
    if coins > 0:
        raise PaymentError(f"the payment lacks {coins} coins")
    rest = {g: n for g, n in rest.items() if n > 0}
    food = sum(G.FOOD[g] * n for g, n in rest.items())
    energy2 = sum(G.ENERGY2[g] * n for g, n in rest.items())
    points = sum(G.POINTS[g] * n for g, n in rest.items())
    if food < cost.food:
        raise PaymentError(f"the payment has {food} food, {cost.food} needed")
    if energy2 < cost.energy2:
        raise PaymentError(f"the payment has {energy2 / 2:g} energy, {cost.energy2 / 2:g} "
                           "needed")
    if points < cost.points:
        raise PaymentError(f"the payment is worth {points} points, {cost.points} needed")
    if len(rest) < cost.distinct:
        raise PaymentError(f"the payment has {len(rest)} different goods, {cost.distinct} "
                           "needed")
    return rest


def needed_part(payment: dict[int, int], cost: Cost) -> dict[int, int]:
    """The part of a covering payment that the cost uses (surplus tiles left out).

    Exact goods and coins as the cost names them (coins from the named money tiles), then
    named tiles in goods order while a food/energy/points/distinct amount is still open.
    """
    rest = allocate(payment, cost)
    used = {g: n - rest.get(g, 0) for g, n in payment.items() if n - rest.get(g, 0) > 0}
    need = dict(cost.need())
    for g in sorted(rest):
        for _ in range(rest[g]):
            if not any(need.values()):
                break
            pays = ((need["food"] > 0 and G.FOOD[g]) or (need["energy2"] > 0 and G.ENERGY2[g])
                    or (need["points"] > 0 and G.POINTS[g])
                    or (need["distinct"] > 0 and not used.get(g)))
            if not pays:
                break
            if need["distinct"] > 0 and not used.get(g):
                need["distinct"] -= 1
            need["food"] = max(0, need["food"] - G.FOOD[g])
            need["energy2"] = max(0, need["energy2"] - G.ENERGY2[g])
            need["points"] = max(0, need["points"] - G.POINTS[g])
            used[g] = used.get(g, 0) + 1
    return used
