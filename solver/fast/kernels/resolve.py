"""Building functions, resolving: outputs and follow-up decisions after the cost is paid
(effects.py's ``resolve``), free-use targets, and ``do_option``.

An effect that only hands out a fixed set of goods adds its ``gains`` row (tables.py), a fixed
menu's option that does its menu row's gains; the others are handled here: goods computed
from the option's data, and functions that change the board, the wheel or the decision stack.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import ids as I
from .. import layout as L
from .board import is_building, neighbours, nneighbours, occupied, return_clergy
from .frames import in_chain, push
from .goods import pay_coins, pay_goods, pay_rule
from .options import option_data, priory_target
from .wheel import wheel_take

TOKEN_GOOD = np.array(I.TOKEN_GOOD, dtype=np.int64)


@njit(cache=True, _nrt=False)
def free_targets(T, W, src, loc, work):
    """Free-use targets granted by building src standing at loc, outside the current chain,
    into work[W_TARGETS:]; returns their number."""
    out = work[I.W_TARGETS:I.W_NB]
    eff = T[I.R_BUILDINGS + src, I.BC_EFFECT]
    n = 0
    if eff == I.E_PRIORY:
        for owner in range(2):
            t = priory_target(T, W, owner)
            if t >= 0:
                out[n] = t
                n += 1
    elif eff == I.E_GARDEN or eff == I.E_COTTAGE:
        if loc < 0:
            return 0
        nb = work[I.W_NB:I.W_NB + 5]
        if loc >= L.NEUTRAL_LOC:
            m = nneighbours(loc - L.NEUTRAL_LOC, nb)
            for i in range(m):
                c = W[L.NGRID + nb[i]]
                if is_building(c) and not occupied(W, L.NEUTRAL_LOC + nb[i]):
                    out[n] = c - L.C_BUILDING
                    n += 1
        else:
            m = neighbours(W, loc, nb)
            for i in range(m):
                c = W[L.GRID + nb[i]]
                if is_building(c) and not occupied(W, nb[i]):
                    out[n] = c - L.C_BUILDING
                    n += 1
    elif eff == I.E_PALACE or eff == I.E_MANOR:
        for x in range(L.N_CELLS):
            c = W[L.GRID + x]
            if is_building(c) and occupied(W, x) and c - L.C_BUILDING != src:
                out[n] = c - L.C_BUILDING
                n += 1
        for x in range(L.N_NCELLS):
            c = W[L.NGRID + x]
            if is_building(c) and occupied(W, L.NEUTRAL_LOC + x) and c - L.C_BUILDING != src:
                out[n] = c - L.C_BUILDING
                n += 1
    elif eff == I.E_HOSPICE:
        for bb in range(L.N_BUILDINGS):
            if W[L.STATUS + bb] == L.S_DISPLAY:
                out[n] = bb
                n += 1
    # drop chain members
    m = 0
    for i in range(n):
        if not in_chain(W, out[i]):
            out[m] = out[i]
            m += 1
    return m


@njit(cache=True, _nrt=False)
def grant_free_use(T, W, src, loc, work):
    """Push a free-use decision if building src at loc has a target outside the chain."""
    if free_targets(T, W, src, loc, work) > 0:
        push(W, L.K_FREE_USE, src, loc, 0)


@njit(cache=True, _nrt=False)
def resolve(T, W, b, loc, o, data, work):
    """Outputs and follow-ups of building b's function (option o, its data) after its cost is
    paid."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    eff = T[I.R_BUILDINGS + b, I.BC_EFFECT]
    if T[I.R_EFFECTS + eff, I.EF_GAINS]:
        for i in range(L.N_GOODS):
            g[i] += T[I.R_GAINS + eff, i]
    elif T[I.R_EFFECTS + eff, I.EF_MENU_GAINS]:
        r = I.R_MENUS + T[I.R_EFFECTS + eff, I.EF_MENU_ROW] + o - 1
        for i in range(L.N_GOODS):
            g[i] += T[r, I.MC_GAINS + i]
    elif not _resolve_products(T, g, eff, data):
        _resolve_actions(T, W, g, eff, b, loc, data, work)


@njit(cache=True, _nrt=False)
def _resolve_products(T, g, eff, data):
    """Goods computed from the option's data; False if eff is not one of these."""
    if eff == I.E_WINDMILL:
        g[I.FLOUR] += data[0]
        g[I.STRAW] += data[0]
    elif eff == I.E_MALTHOUSE:
        g[I.MALT] += data[0]
        g[I.STRAW] += data[0]
    elif eff == I.E_BAKERY:
        g[I.BREAD] += data[0] - data[1]
        g[I.COIN] += T[I.R_EFFECTS + eff, I.EF_RATES] * data[1]
    elif eff == I.E_BREWERY:
        g[I.BEER] += data[0] - data[1]
        g[I.COIN] += T[I.R_EFFECTS + eff, I.EF_RATES] * data[1]
    elif eff == I.E_WINERY:
        g[I.WINE] += data[0] - data[1]
        g[I.COIN] += T[I.R_EFFECTS + eff, I.EF_RATES] * data[1]
    elif eff == I.E_KILN:
        g[I.COAL] += 1 + data[0]
        g[I.COIN] += 1
    elif eff == I.E_SPINNING:
        s = g[I.SHEEP]
        rates = T[I.R_EFFECTS + eff, I.EF_RATES:]  # few, coins, some, coins, coins for more
        if s > 0:
            g[I.COIN] += rates[1] if s <= rates[0] else (rates[3] if s <= rates[2] else rates[4])
    elif eff == I.E_LIBRARY:
        g[I.BOOK] += data[0] - data[1]
        g[I.MEAT] += data[1]
        g[I.WINE] += data[1]
    elif eff == I.E_SLAUGHTER:
        g[I.MEAT] += data[0]
    elif eff == I.E_DISTILLERY:
        g[I.WHISKEY] += T[I.R_EFFECTS + eff, I.EF_RATES] * data[0]
    elif eff == I.E_FORGER:
        g[I.RELIQUARY] += data[0]
    elif eff == I.E_REFECTORY:
        g[I.BEER] += 1
        g[I.MEAT] += 1 - data[0]
        g[I.CERAMIC] += data[0]
    elif eff == I.E_PILGRIMAGE or eff == I.E_FESTIVAL or eff == I.E_BROTHERHOOD:
        g[I.BOOK] += data[0]
        g[I.CERAMIC] += data[1]
        g[I.ORNAMENT] += data[2]
        g[I.RELIQUARY] += data[3]
    elif eff == I.E_DORMITORY:
        g[I.CERAMIC] += 1
        g[I.BOOK] += data[0]
    else:
        return False
    return True


@njit(cache=True, _nrt=False)
def _resolve_actions(T, W, g, eff, b, loc, data, work):
    """Functions that take from the wheel, change the board or push a follow-up decision."""
    if (eff == I.E_CLAY_MOUND or eff == I.E_OFFICE or eff == I.E_QUARRY or eff == I.E_GRAPEVINE
            or eff == I.E_FARMYARD):
        t = data[0]
        g[TOKEN_GOOD[t]] += wheel_take(T, W, t, data[1])
    elif eff == I.E_PRIORY or eff == I.E_PALACE or eff == I.E_MANOR or eff == I.E_HOSPICE:
        grant_free_use(T, W, b, loc, work)
    elif eff == I.E_GARDEN or eff == I.E_COTTAGE:
        g[I.GRAPES if eff == I.E_GARDEN else I.MALT] += 1
        grant_free_use(T, W, b, loc, work)
    elif eff == I.E_BATHHOUSE:
        g[I.BOOK] += 1
        g[I.CERAMIC] += 1
        return_clergy(W, 0)
    elif eff == I.E_LOCUTORY:
        W[L.CLERGY + 2] = -1
        push(W, L.K_GRANT_BUILD, -1, -1, 0)
    elif eff == I.E_CHAMBER or eff == I.E_SACRISTY or eff == I.E_ROUND_TOWER:
        W[L.WONDERS] -= 1
        g[I.WONDER] += 1
    elif eff == I.E_CASTLE:
        push(W, L.K_GRANT_SETTLE, -1, -1, 0)
    elif eff == I.E_FOREST_HUT:
        W[L.GRID + data[0]] = L.C_EMPTY
        g[I.SHEEP] += 2
        g[I.WOOD] += 2
        g[I.STONE] += 1
    elif eff == I.E_CALEFACTORY:
        push(W, L.K_GRANT_FELL_CUT, -1, -1, 3)
    elif eff == I.E_SHIPPING or eff == I.E_COOPERAGE:
        n = 0
        if W[L.TOK + I.T_JOKER] >= 0:
            n = wheel_take(T, W, I.T_JOKER, 1)
        g[data[0]] += n
    elif eff == I.E_BULWARK:
        aux = 0
        if W[L.NDIST] < 9:
            aux |= 1
        if W[L.NPLOT] < 9:
            aux |= 2
        push(W, L.K_GRANT_LAND, -1, -1, aux)
    elif eff == I.E_PRINTING:
        k = data[0]
        for x in range(L.N_CELLS):
            if k == 0:
                break
            if W[L.GRID + x] == L.C_FOREST:
                W[L.GRID + x] = L.C_EMPTY
                k -= 1
        g[I.BOOK] += data[0]


@njit(cache=True, _nrt=False)
def do_option(T, W, b, loc, o, work):
    """Pay for and resolve canonical option o (0 = nothing) of building b (``work``: the work
    space, ids.WORK0)."""
    if o == 0:
        return
    data = work[I.W_DATA:I.W_DATA + 4]
    cost = work[I.W_COST:I.W_COST + I.COST_SIZE]
    option_data(T, W, b, loc, o, data, cost)
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    pay_goods(g, cost)
    if cost[I.C_COINS] > 0:
        pay_coins(g, cost[I.C_COINS])
    if cost[I.C_FOOD] or cost[I.C_ENERGY] or cost[I.C_POINTS] or cost[I.C_DISTINCT]:
        pay_rule(T, g, cost[I.C_FOOD], cost[I.C_ENERGY], cost[I.C_POINTS], cost[I.C_DISTINCT],
                 work[I.W_GOT:I.W_GOT + L.N_GOODS])
    resolve(T, W, b, loc, o, data, work)
