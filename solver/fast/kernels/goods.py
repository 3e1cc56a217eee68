"""Goods and payments: coins, exact goods (straw from grain), the canonical payment rule
(canonical.pay_rule), goods points (RULES §2, §8.2, §14.1), and the largest point mix.
"""

from __future__ import annotations

from numba import njit

from .. import ids as I
from .. import layout as L


#: the point goods of a mix (Festival Ground, House of the Brotherhood), in canonical order
MIX_GOODS = (I.BOOK, I.CERAMIC, I.ORNAMENT, I.RELIQUARY)
#: the goods whose points never depend on grouping (coins, wine and whiskey do)
FIXED_POINT_GOODS = MIX_GOODS + (I.WONDER,)


@njit(cache=True, _nrt=False)
def coin_value(g):
    """Money held as coins: 1-coin and 5-coin pieces (payment.coin_value)."""
    return g[I.COIN] + 5 * g[I.NICKEL]


@njit(cache=True, _nrt=False)
def pay_coins(g, n):
    """Pay n coins: 1-coins first, then break 5-coins (payment.pay_coins)."""
    take = min(g[I.COIN], n)
    g[I.COIN] -= take
    n -= take
    while n > 0 and g[I.NICKEL] > 0:
        g[I.NICKEL] -= 1
        g[I.COIN] += 5
        take = min(g[I.COIN], n)
        g[I.COIN] -= take
        n -= take


@njit(cache=True, _nrt=False)
def can_pay_goods(g, cost):
    """Are the exact goods of a cost vector affordable, straw from grain (payment.can_pay_goods)?"""
    for i in range(L.N_GOODS):
        n = cost[i]
        if n == 0:
            continue
        if i == I.STRAW:
            short = n - g[I.STRAW]
            if short > 0 and short > g[I.GRAIN] - cost[I.GRAIN]:
                return False
        elif g[i] < n:
            return False
    return True


@njit(cache=True, _nrt=False)
def pay_goods(g, cost):
    """Take the exact goods of a cost vector, flipping grain for straw (payment.pay_goods)."""
    for i in range(L.N_GOODS):
        n = cost[i]
        if n == 0:
            continue
        if i == I.STRAW and g[I.STRAW] < n:
            g[I.GRAIN] -= n - g[I.STRAW]
            g[I.STRAW] = 0
        else:
            g[i] -= n


@njit(cache=True, _nrt=False)
def feasible(T, g, food, energy2, points, distinct):
    """Do the goods cover a picked price of food, energy, points and distinct goods?"""
    f = 0
    e = 0
    p = 0
    k = 0
    for i in range(L.N_GOODS):
        f += g[i] * T[I.R_VALUES + 0, i]
        e += g[i] * T[I.R_VALUES + 1, i]
        p += g[i] * T[I.R_VALUES + 2, i]
        if g[i] > 0:
            k += 1
    return f >= food and e >= energy2 and p >= points and k >= distinct


@njit(cache=True, _nrt=False)
def affordable(T, W, cost, rest):
    """Can the player pay cost (a COST_SIZE vector)? ``rest``: 23 ints of work space."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if not can_pay_goods(g, cost):
        return False
    for i in range(L.N_GOODS):  # (a loop: a slice copy would need the NRT)
        rest[i] = g[i]
    pay_goods(rest, cost)
    if coin_value(rest) < cost[I.C_COINS]:
        return False
    pay_coins(rest, cost[I.C_COINS])
    return feasible(T, rest, cost[I.C_FOOD], cost[I.C_ENERGY], cost[I.C_POINTS], cost[I.C_DISTINCT])


@njit(cache=True, _nrt=False)
def pay_rule(T, g, food, energy2, points, distinct, got):
    """canonical.pay_rule: cheapest first in fixed orders, then hand back superfluous tiles."""
    if distinct > 0:
        taken = 0
        for j in range(L.N_GOODS):
            gi = T[I.R_ORDERS + 3, j]
            if gi < 0 or taken == distinct:
                break
            if g[gi] > 0:
                g[gi] -= 1
                taken += 1
        return
    for dim in range(3):
        need = food if dim == 0 else (energy2 if dim == 1 else points)
        if need <= 0:
            continue
        got[:] = 0
        total = 0
        last = -1
        for j in range(L.N_GOODS):
            gi = T[I.R_ORDERS + dim, j]
            if gi < 0:
                break
            while total < need and g[gi] > 0:
                g[gi] -= 1
                got[gi] += 1
                total += T[I.R_VALUES + dim, gi]
            last = j
            if total >= need:
                break
        for j in range(last, -1, -1):
            gi = T[I.R_ORDERS + dim, j]
            while got[gi] > 0 and total - T[I.R_VALUES + dim, gi] >= need:
                got[gi] -= 1
                g[gi] += 1
                total -= T[I.R_VALUES + dim, gi]
            # keep the remaining tiles of this good


@njit(cache=True, _nrt=False)
def mix_largest(T, limit, b0, c0, o0, r0, out):
    """canonical._mix_largest into out[0:4] (book, ceramic, ornament, reliquary); returns
    False for None."""
    r = I.R_VALUES + 2  # the points row
    out[0], out[1], out[2], out[3] = b0, c0, o0, r0
    left = limit
    for j, gi in enumerate(MIX_GOODS):
        left -= out[j] * T[r, gi]
    if left < 0:
        return False
    for j in range(3, -1, -1):  # the most valuable first
        v = T[r, MIX_GOODS[j]]
        n = left // v
        out[j] += n
        left -= v * n
    return out[0] + out[1] + out[2] + out[3] > 0


@njit(cache=True, _nrt=False)
def goods_points(T, g):
    """RULES §14.1: points of the goods, coins, wine and whiskey grouped at best
    (goods.goods_points)."""
    fixed = 0
    for gi in FIXED_POINT_GOODS:
        fixed += g[gi] * T[I.R_VALUES + 2, gi]
    coins = g[I.COIN] + 5 * g[I.NICKEL]
    best = 0
    for w in range(g[I.WINE] + 1):
        for h in range(g[I.WHISKEY] + 1):
            pts = 2 * ((coins + w + 2 * h) // 5) + (g[I.WINE] - w) + (g[I.WHISKEY] - h)
            best = max(best, pts)
    return fixed + best
