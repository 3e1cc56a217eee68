"""Numba kernels of the fast solo engine: init, legal actions, step, score, rollout, pack.

Every kernel is a pure function of plain arrays: the wide state ``W`` (int32, layout.py) and
the tables of tables.py, passed in as arguments (``TB`` buildings, ``TS`` settlements, ``TG``
goods values, ``TO`` payment orders, ``TW`` wheel values, ``TL`` landscape, ``TF`` flow
script, ``TM`` misc). Actions are canonical ids (solver/rules/canonical.py), whose meaning and
folding rules these kernels implement a second time, independently of the reference engine;
``ora-solve selfcheck`` proves the two equal step by step.

``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python for debugging.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L
from .tables import (
    BC_CLAY,
    BC_CLOISTER,
    BC_COINS,
    BC_DWELL,
    BC_ECON,
    BC_EFFECT,
    BC_INGAME,
    BC_NUMBER,
    BC_PHASE,
    BC_STONE,
    BC_STRAW,
    BC_TERR,
    BC_WOOD,
    EFFECT_ID,
    LAND_DPRICE,
    LAND_PPRICE,
    M_BROTHER_RATE2,
    M_DISTILLERY,
    M_DRINK,
    M_MARKET,
    M_NEUTRAL_L1,
    M_PLAYER_L1,
    M_PRIORY,
    M_WINERY,
)

# goods ids (solver.rules.goods)
WOOD, WHISKEY, GRAIN, STRAW, SHEEP, MEAT, CLAY, CERAMIC, PEAT, COAL, COIN, BOOK, NICKEL = range(13)
RELIQUARY, STONE, ORNAMENT, GRAPES, WINE, FLOUR, BREAD, MALT, BEER, WONDER = range(13, 23)
# wheel tokens (layout TOK order)
T_GRAIN, T_SHEEP, T_CLAY, T_COIN, T_WOOD, T_PEAT, T_JOKER, T_GRAPES, T_STONE = range(9)
TOKEN_GOOD = np.array([GRAIN, SHEEP, CLAY, COIN, WOOD, PEAT, -1, GRAPES, STONE], dtype=np.int64)

# canonical id layout (solver/rules/canonical.py)
END, OPT0, N_OPTIONS, CONVERT_WINE, CONVERT_WHISKEY = 0, 1, 63, 64, 65
USE0, CONTRACT0, FREE0, NBUILD0 = 100, 300, 700, 800
FELL0, CUT0, BUILD0, SETTLE0, DISTRICT0, PLOT0 = 1000, 1300, 2000, 14000, 15200, 15300
MAX_LEGAL = 4096

# effect ids
E = EFFECT_ID
E_CLAY_MOUND, E_OFFICE, E_FARMYARD = E["clay_mound"], E["cloister_office"], E["farmyard"]
E_GRAPEVINE, E_QUARRY, E_PRIORY = E["grapevine"], E["quarry"], E["priory"]
E_GARDEN, E_COTTAGE, E_PALACE, E_MANOR = (E["cloister_garden"], E["cottage"], E["palace"],
                                          E["grand_manor"])
E_HOSPICE, E_COURTYARD, E_GRAIN_STORAGE = (E["use_unbuilt_building"], E["cloister_courtyard"],
                                           E["grain_storage"])
E_GRANARY, E_WINDMILL, E_MALTHOUSE, E_BAKERY = (E["granary"], E["windmill"], E["malthouse"],
                                                E["bakery"])
E_BREWERY, E_FUEL, E_KILN, E_MARKET = (E["brewery"], E["fuel_merchant"], E["peat_coal_kiln"],
                                       E["market"])
E_LIGHTHOUSE, E_SPINNING, E_PROMENADE = (E["false_lighthouse"], E["spinning_mill"],
                                         E["harbor_promenade"])
E_HOUSEBOAT, E_STONE_MERCHANT, E_BMARKET = (E["houseboat"], E["stone_merchant"],
                                            E["builders_market"])
E_SACRED, E_FIN_ESTATE, E_DRUID = E["sacred_site"], E["financed_estate"], E["druids_house"]
E_CHAPTER, E_LIBRARY, E_SCRIPTORIUM = (E["cloister_chapter_house"], E["cloister_library"],
                                       E["scriptorium"])
E_WORKSHOP, E_SLAUGHTER, E_INN = E["cloister_workshop"], E["slaughterhouse"], E["inn"]
E_ALEHOUSE, E_WINERY, E_DISTILLERY = E["alehouse"], E["winery"], E["whiskey_distillery"]
E_BATHHOUSE, E_LOCUTORY, E_CHURCH = E["bathhouse"], E["locutory"], E["cloister_church"]
E_CHAPEL, E_CHAMBER, E_PORTICO = E["chapel"], E["chamber_of_wonders"], E["portico"]
E_SHIPYARD, E_CASTLE, E_FOREST_HUT = E["shipyard"], E["castle"], E["forest_hut"]
E_TOWN_ESTATE, E_REFECTORY, E_COAL_HARBOR = (E["town_estate"], E["refectory"],
                                             E["coal_harbor"])
E_CALEFACTORY, E_FILIAL, E_SHIPPING = (E["calefactory"], E["filial_church"],
                                       E["shipping_company"])
E_COOPERAGE, E_SACRISTY, E_FORGER = E["cooperage"], E["sacristy"], E["forgers_workshop"]
E_ROUND_TOWER, E_PILGRIMAGE, E_CAMERA = E["round_tower"], E["pilgrimage_site"], E["camera"]
E_DORMITORY, E_BULWARK, E_PRINTING = E["dormitory"], E["bulwark"], E["printing_office"]
E_FESTIVAL, E_ESTATE, E_BROTHERHOOD = (E["festival_ground"], E["estate"],
                                       E["house_of_the_brotherhood"])

# canonical option counts per effect (solver/rules/canonical.py CANON_OPTIONS)
BASIC = np.array([PEAT, SHEEP, WOOD, CLAY, COIN, GRAIN], dtype=np.int64)

# cost vector layout: 23 exact goods, coins, food, energy2, points, distinct
C_COINS, C_FOOD, C_ENERGY, C_POINTS, C_DISTINCT = 23, 24, 25, 26, 27
COST_SIZE = 28



# ===== small helpers ==========================================================================

@njit(cache=True)
def cell_index(col, row):
    if row < L.ROW_MIN or row >= L.ROW_MIN + L.N_ROWS or col < -2 or col > 6:
        return -1
    return (row - L.ROW_MIN) * 9 + col + 2


@njit(cache=True)
def cell_col(x):
    return x % 9 - 2


@njit(cache=True)
def cell_row(x):
    return x // 9 + L.ROW_MIN


@njit(cache=True)
def has_land(W, col, row):
    x = cell_index(col, row)
    return x >= 0 and W[L.TERR + x] != L.T_NONE


@njit(cache=True)
def _nb(W, col, row, out, n):
    y = cell_index(col, row)
    if y >= 0:
        t = W[L.TERR + y]
        if t != L.T_NONE and t != L.T_FILLER:
            out[n] = y
            return n + 1
    return n


@njit(cache=True)
def neighbours(W, x, out):
    """Player-landscape neighbours with land (RULES §5.6); returns their number."""
    col = cell_col(x)
    row = cell_row(x)
    n = 0
    if col == 5:
        n = _nb(W, 5, row - 1, out, n)
        n = _nb(W, 5, row + 1, out, n)
        n = _nb(W, 4, row, out, n)
        n = _nb(W, 6, row, out, n)
        n = _nb(W, 6, row - 1, out, n)
    elif col == 6:
        n = _nb(W, 5, row, out, n)
        n = _nb(W, 5, row + 1, out, n)
    else:
        n = _nb(W, col, row - 1, out, n)
        n = _nb(W, col, row + 1, out, n)
        n = _nb(W, col - 1, row, out, n)
        n = _nb(W, col + 1, row, out, n)
    return n


@njit(cache=True)
def nneighbours(x, out):
    """Neutral heartland neighbours (2 x 5 grid, index 5 * row + col)."""
    row = x // 5
    col = x % 5
    n = 0
    if row > 0:
        out[n] = x - 5
        n += 1
    if row < 1:
        out[n] = x + 5
        n += 1
    if col > 0:
        out[n] = x - 1
        n += 1
    if col < 4:
        out[n] = x + 1
        n += 1
    return n


@njit(cache=True)
def is_building(code):
    return L.C_BUILDING <= code < L.C_SETTLEMENT


@njit(cache=True)
def _cloister_at(W, TB, col, row):
    y = cell_index(col, row)
    if y < 0:
        return False
    t = W[L.TERR + y]
    if t == L.T_NONE or t == L.T_FILLER:
        return False
    c = W[L.GRID + y]
    return is_building(c) and TB[c - L.C_BUILDING, BC_CLOISTER] == 1


@njit(cache=True)
def touches_cloister(W, TB, x):
    col = cell_col(x)
    row = cell_row(x)
    if col == 5:
        return (_cloister_at(W, TB, 5, row - 1) or _cloister_at(W, TB, 5, row + 1)
                or _cloister_at(W, TB, 4, row) or _cloister_at(W, TB, 6, row)
                or _cloister_at(W, TB, 6, row - 1))
    if col == 6:
        return _cloister_at(W, TB, 5, row) or _cloister_at(W, TB, 5, row + 1)
    return (_cloister_at(W, TB, col, row - 1) or _cloister_at(W, TB, col, row + 1)
            or _cloister_at(W, TB, col - 1, row) or _cloister_at(W, TB, col + 1, row))


@njit(cache=True)
def ntouches_cloister(W, TB, x):
    nb = np.empty(4, dtype=np.int64)
    n = nneighbours(x, nb)
    for i in range(n):
        c = W[L.NGRID + nb[i]]
        if is_building(c) and TB[c - L.C_BUILDING, BC_CLOISTER] == 1:
            return True
    return False


@njit(cache=True)
def occupied(W, loc):
    for i in range(6):
        if W[L.CLERGY + i] == loc:
            return True
    return False


@njit(cache=True)
def building_loc(W, b):
    """Location code of a built building (player space, 200 + neutral space) or -1."""
    code = L.C_BUILDING + b
    if W[L.STATUS + b] == L.S_MINE:
        for x in range(L.N_CELLS):
            if W[L.GRID + x] == code:
                return x
    elif W[L.STATUS + b] == L.S_NEUTRAL:
        for x in range(L.N_NCELLS):
            if W[L.NGRID + x] == code:
                return L.NEUTRAL_LOC + x
    return -1


@njit(cache=True)
def loc_content(W, loc):
    if loc >= L.NEUTRAL_LOC:
        return W[L.NGRID + loc - L.NEUTRAL_LOC]
    return W[L.GRID + loc]


@njit(cache=True)
def free_clergy(W, owner, prior):
    """Index in CLERGY of a free clergyman of that owner (0 player, 1 neutral) and kind."""
    base = L.CLERGY + 3 * owner
    if prior == 1:
        return 2 if W[base + 2] == -1 else -1
    if W[base] == -1:
        return 0
    if W[base + 1] == -1:
        return 1
    return -1


@njit(cache=True)
def all_placed(W, owner):
    base = L.CLERGY + 3 * owner
    return W[base] != -1 and W[base + 1] != -1 and W[base + 2] != -1


@njit(cache=True)
def return_clergy(W, owner):
    base = L.CLERGY + 3 * owner
    for i in range(3):
        W[base + i] = -1


# ----- goods and payments --------------------------------------------------------------------

@njit(cache=True)
def coin_value(g):
    return g[COIN] + 5 * g[NICKEL]


@njit(cache=True)
def pay_coins(g, n):
    take = min(g[COIN], n)
    g[COIN] -= take
    n -= take
    while n > 0 and g[NICKEL] > 0:
        g[NICKEL] -= 1
        g[COIN] += 5
        take = min(g[COIN], n)
        g[COIN] -= take
        n -= take


@njit(cache=True)
def can_pay_goods(g, cost):
    for i in range(L.N_GOODS):
        n = cost[i]
        if n == 0:
            continue
        if i == STRAW:
            short = n - g[STRAW]
            if short > 0 and short > g[GRAIN] - cost[GRAIN]:
                return False
        elif g[i] < n:
            return False
    return True


@njit(cache=True)
def pay_goods(g, cost):
    for i in range(L.N_GOODS):
        n = cost[i]
        if n == 0:
            continue
        if i == STRAW and g[STRAW] < n:
            g[GRAIN] -= n - g[STRAW]
            g[STRAW] = 0
        else:
            g[i] -= n


@njit(cache=True)
def feasible(g, TG, food, energy2, points, distinct):
    f = 0
    e = 0
    p = 0
    k = 0
    for i in range(L.N_GOODS):
        f += g[i] * TG[0, i]
        e += g[i] * TG[1, i]
        p += g[i] * TG[2, i]
        if g[i] > 0:
            k += 1
    return f >= food and e >= energy2 and p >= points and k >= distinct


@njit(cache=True)
def affordable(W, TG, cost):
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if not can_pay_goods(g, cost):
        return False
    rest = g.copy()
    pay_goods(rest, cost)
    if coin_value(rest) < cost[C_COINS]:
        return False
    pay_coins(rest, cost[C_COINS])
    return feasible(rest, TG, cost[C_FOOD], cost[C_ENERGY], cost[C_POINTS], cost[C_DISTINCT])


@njit(cache=True)
def pay_rule(g, TG, TO, food, energy2, points, distinct):
    """canonical.pay_rule: cheapest first in fixed orders, then hand back superfluous tiles."""
    if distinct > 0:
        taken = 0
        for j in range(TO.shape[1]):
            gi = TO[3, j]
            if gi < 0 or taken == distinct:
                break
            if g[gi] > 0:
                g[gi] -= 1
                taken += 1
        return
    got = np.zeros(L.N_GOODS, dtype=np.int64)
    for dim in range(3):
        need = food if dim == 0 else (energy2 if dim == 1 else points)
        if need <= 0:
            continue
        got[:] = 0
        total = 0
        last = -1
        for j in range(TO.shape[1]):
            gi = TO[dim, j]
            if gi < 0:
                break
            while total < need and g[gi] > 0:
                g[gi] -= 1
                got[gi] += 1
                total += TG[dim, gi]
            last = j
            if total >= need:
                break
        for j in range(last, -1, -1):
            gi = TO[dim, j]
            while got[gi] > 0 and total - TG[dim, gi] >= need:
                got[gi] -= 1
                g[gi] += 1
                total -= TG[dim, gi]
            # keep the remaining tiles of this good


# ----- the wheel -----------------------------------------------------------------------------

@njit(cache=True)
def token_yield(W, TW, t):
    pos = W[L.TOK + t]
    if pos < 0:
        return 0
    return TW[(W[L.ARM] - pos) % 13]


@njit(cache=True)
def wheel_choice_ok(W, t, joker):
    """Is (token, joker) among Wheel.choices(token)?"""
    own = W[L.TOK + t] >= 0
    jok = W[L.TOK + T_JOKER] >= 0 and t != T_JOKER
    if joker == 0:
        return own or not jok
    return jok


@njit(cache=True)
def wheel_take(W, TW, t, joker):
    src = -1
    if joker == 0 and W[L.TOK + t] >= 0:
        src = t
    elif W[L.TOK + T_JOKER] >= 0:
        src = T_JOKER
    if src < 0:
        return 0
    n = token_yield(W, TW, src)
    W[L.TOK + src] = W[L.ARM]
    return n


@njit(cache=True)
def rotate(W):
    nxt = (W[L.ARM] + 1) % 13
    for t in range(L.N_TOK):
        if W[L.TOK + t] == nxt:
            W[L.TOK + t] = -1
    W[L.ARM] = nxt


# ----- terrain -------------------------------------------------------------------------------

@njit(cache=True)
def derive_terrain(W, TL):
    for x in range(L.N_CELLS):
        W[L.TERR + x] = L.T_NONE
    for row in range(2):
        for col in range(5):
            W[L.TERR + cell_index(col, row)] = L.T_HILL if (col == 4 and row == 0) else L.T_PLAINS
    dist = W[L.LAND]
    hills = W[L.LAND + 1]
    coast = W[L.LAND + 2]
    mount = W[L.LAND + 3]
    for y in range(L.N_ROWS):
        row = y + L.ROW_MIN
        if (dist >> y) & 1:
            side = (hills >> y) & 1
            for col in range(5):
                W[L.TERR + cell_index(col, row)] = TL[20 * side + 2 * col]
        if (coast >> y) & 1:
            for r in range(row, row + 2):
                W[L.TERR + cell_index(-2, r)] = L.T_WATER
                W[L.TERR + cell_index(-1, r)] = L.T_COAST
        if (mount >> y) & 1:
            W[L.TERR + cell_index(5, row)] = L.T_HILL
            W[L.TERR + cell_index(5, row + 1)] = L.T_HILL
            W[L.TERR + cell_index(6, row)] = L.T_MOUNTAIN
            W[L.TERR + cell_index(6, row + 1)] = L.T_FILLER


@njit(cache=True)
def land_rows(W):
    lo = 99
    hi = -99
    for x in range(L.N_CELLS):
        if W[L.TERR + x] != L.T_NONE:
            r = cell_row(x)
            lo = min(lo, r)
            hi = max(hi, r)
    return lo, hi


@njit(cache=True)
def strip_land(W, row):
    for col in range(5):
        if has_land(W, col, row):
            return True
    return False


@njit(cache=True)
def district_row_ok(W, row, lo, hi):
    """landscape.district_rows (rulebook D25) within the canonical window."""
    if row < L.ROW_MIN or row >= L.ROW_MIN + L.N_ROWS:
        return False
    if row < lo - 1 or row > hi + 1:
        return False
    if strip_land(W, row):
        return False
    return (strip_land(W, row - 1) or strip_land(W, row + 1) or has_land(W, -1, row)
            or has_land(W, 5, row))


@njit(cache=True)
def plot_row_ok(W, row, side, lo, hi):
    """landscape.plot_rows (side 0 coast, 1 mountain) within the canonical window."""
    if row < L.ROW_MIN or row + 1 >= L.ROW_MIN + L.N_ROWS:
        return False
    if row < lo - 2 or row > hi + 1:
        return False
    inner = -1 if side == 0 else 5
    outer = -2 if side == 0 else 6
    edge = 0 if side == 0 else 4
    for r in range(row, row + 2):
        if has_land(W, inner, r) or has_land(W, outer, r):
            return False
    return (has_land(W, edge, row) or has_land(W, edge, row + 1) or has_land(W, inner, row - 1)
            or has_land(W, inner, row + 2))


@njit(cache=True)
def add_district(W, TL, row, side):
    y = row - L.ROW_MIN
    W[L.LAND] |= 1 << y
    if side == 1:
        W[L.LAND + 1] |= 1 << y
    for col in range(5):
        x = cell_index(col, row)
        W[L.TERR + x] = TL[20 * side + 2 * col]
        W[L.GRID + x] = TL[20 * side + 2 * col + 1]


@njit(cache=True)
def add_plot(W, row, side):
    y = row - L.ROW_MIN
    W[L.LAND + 2 + side] |= 1 << y
    if side == 0:
        for r in range(row, row + 2):
            W[L.TERR + cell_index(-2, r)] = L.T_WATER
            W[L.TERR + cell_index(-1, r)] = L.T_COAST
    else:
        W[L.TERR + cell_index(5, row)] = L.T_HILL
        W[L.TERR + cell_index(5, row + 1)] = L.T_HILL
        W[L.TERR + cell_index(6, row)] = L.T_MOUNTAIN
        W[L.TERR + cell_index(6, row + 1)] = L.T_FILLER


# ----- frames --------------------------------------------------------------------------------

@njit(cache=True)
def push(W, kind, b, loc, aux):
    d = W[L.FDEPTH]
    base = L.FRAMES + L.FRAME_SIZE * d
    W[base + L.F_KIND] = kind
    W[base + L.F_B] = b
    W[base + L.F_LOC] = loc
    W[base + L.F_AUX] = aux
    W[L.FDEPTH] = d + 1


@njit(cache=True)
def pop(W):
    d = W[L.FDEPTH] - 1
    base = L.FRAMES + L.FRAME_SIZE * d
    for i in range(L.FRAME_SIZE):
        W[base + i] = 0
    W[base + L.F_B] = -1
    W[base + L.F_LOC] = -1
    W[L.FDEPTH] = d


@njit(cache=True)
def top(W):
    return L.FRAMES + L.FRAME_SIZE * (W[L.FDEPTH] - 1)


@njit(cache=True)
def chain_clear(W):
    for i in range(L.N_CHAIN):
        W[L.CHAIN + i] = -1


@njit(cache=True)
def chain_add(W, b):
    for i in range(L.N_CHAIN):
        if W[L.CHAIN + i] == -1:
            W[L.CHAIN + i] = b
            return


@njit(cache=True)
def in_chain(W, b):
    for i in range(L.N_CHAIN):
        if W[L.CHAIN + i] == b:
            return True
    return False


@njit(cache=True)
def first_display(W, TB):
    best = -1
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] == L.S_DISPLAY:
            if best < 0 or TB[b, BC_NUMBER] < TB[best, BC_NUMBER]:
                best = b
    return best


@njit(cache=True)
def fee(W):
    return 2 if W[L.FEE_RAISED] else 1


# ===== building functions ======================================================================

@njit(cache=True)
def count_features(W, kind):
    n = 0
    for x in range(L.N_CELLS):
        if W[L.GRID + x] == kind:
            n += 1
    return n


@njit(cache=True)
def count_cloisters(W, TB):
    n = 0
    for x in range(L.N_CELLS):
        c = W[L.GRID + x]
        if is_building(c) and TB[c - L.C_BUILDING, BC_CLOISTER] == 1:
            n += 1
    return n


@njit(cache=True)
def mix_largest(limit, b0, c0, o0, r0, out):
    """canonical._mix_largest into out[0:4]; returns False for None."""
    left = limit - (2 * b0 + 3 * c0 + 4 * o0 + 8 * r0)
    if left < 0:
        return False
    out[0], out[1], out[2], out[3] = b0, c0, o0, r0
    n = left // 8
    out[3] += n
    left -= 8 * n
    n = left // 4
    out[2] += n
    left -= 4 * n
    n = left // 3
    out[1] += n
    left -= 3 * n
    n = left // 2
    out[0] += n
    return out[0] + out[1] + out[2] + out[3] > 0


@njit(cache=True)
def n_canon_options(eff):
    """Number of canonical options (1-based ids 1..n) of an effect."""
    if eff == E_FARMYARD:
        return 4
    if eff == E_CLAY_MOUND or eff == E_OFFICE or eff == E_QUARRY or eff == E_GRAPEVINE:
        return 2
    if eff == E_COURTYARD:
        return 6
    if eff == E_MALTHOUSE:
        return 2
    if eff == E_BAKERY:
        return 5
    if eff == E_BREWERY or eff == E_FUEL or eff == E_WINERY:
        return 3
    if eff == E_KILN or eff == E_LIGHTHOUSE:
        return 2
    if eff == E_STONE_MERCHANT:
        return 5
    if eff == E_SACRED:
        return 4
    if eff == E_DRUID:
        return 30
    if eff == E_LIBRARY or eff == E_WORKSHOP or eff == E_CHAPEL:
        return 7
    if eff == E_INN:
        return 15
    if eff == E_ALEHOUSE:
        return 3
    if eff == E_CHURCH or eff == E_CAMERA or eff == E_COOPERAGE or eff == E_DORMITORY:
        return 2
    if eff == E_FESTIVAL or eff == E_BROTHERHOOD:
        return 2
    if eff == E_REFECTORY or eff == E_ESTATE:
        return 5
    if eff == E_COAL_HARBOR or eff == E_SHIPPING:
        return 3
    if eff == E_FORGER or eff == E_PRINTING:
        return 4
    if eff == E_PILGRIMAGE:
        return 9
    return 1


@njit(cache=True)
def _wheel_opt(W, t, j, data):
    if not wheel_choice_ok(W, t, j):
        return False
    data[0] = t
    data[1] = j
    return True


@njit(cache=True)
def option_data(W, TB, TG, TM, b, loc, o, data, cost):
    """Concrete choice (data) and cost of canonical option o (>= 1) of building b.

    Returns False if the option does not exist now (the reference engine would not offer it,
    or its canonical rule yields nothing). Affordability is checked by the caller.
    """
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    eff = TB[b, BC_EFFECT]
    for i in range(4):
        data[i] = 0
    for i in range(COST_SIZE):
        cost[i] = 0
    if eff == E_CLAY_MOUND:
        return _wheel_opt(W, T_CLAY, o - 1, data)
    if eff == E_OFFICE:
        return _wheel_opt(W, T_COIN, o - 1, data)
    if eff == E_QUARRY:
        return _wheel_opt(W, T_STONE, o - 1, data)
    if eff == E_GRAPEVINE:
        return _wheel_opt(W, T_GRAPES, o - 1, data)
    if eff == E_FARMYARD:
        t = T_SHEEP if o <= 2 else T_GRAIN
        return _wheel_opt(W, t, (o - 1) % 2, data)
    if eff == E_PRIORY:
        return count_priory_targets(W, TB, TM, b) > 0
    if eff == E_GARDEN or eff == E_COTTAGE or eff == E_CASTLE or eff == E_PROMENADE or \
            eff == E_HOUSEBOAT or eff == E_CHAPTER:
        return True
    if eff == E_PALACE:
        cost[WINE] = 1
        return True
    if eff == E_MANOR:
        cost[WHISKEY] = 1
        return True
    if eff == E_HOSPICE:
        return first_display_any(W)
    if eff == E_COURTYARD:
        data[0] = BASIC[o - 1]
        cost[C_DISTINCT] = 3
        return True
    if eff == E_GRAIN_STORAGE or eff == E_GRANARY or eff == E_FIN_ESTATE or \
            eff == E_SCRIPTORIUM or eff == E_BATHHOUSE or eff == E_CALEFACTORY:
        cost[C_COINS] = 1
        return True
    if eff == E_LOCUTORY or eff == E_BMARKET:
        cost[C_COINS] = 2
        return True
    if eff == E_WINDMILL:
        k = min(7, g[GRAIN])
        if k <= 0:
            return False
        data[0] = k
        cost[GRAIN] = k
        return True
    if eff == E_MALTHOUSE:
        k = g[GRAIN] if o == 1 else g[GRAIN] // 2
        if k <= 0:
            return False
        data[0] = k
        cost[GRAIN] = k
        return True
    if eff == E_BAKERY:
        energy2 = g[STRAW] * 1 + g[WOOD] * 2 + g[PEAT] * 4 + g[COAL] * 6
        if o <= 3:
            n = min(g[FLOUR], energy2)
            m = o - 1
        else:
            n = 0
            m = o - 3
        if n == 0 and m == 0:
            return False
        if m > min(2, g[BREAD] + n):
            return False
        data[0] = n
        data[1] = m
        cost[FLOUR] = n
        cost[C_ENERGY] = n
        return True
    if eff == E_BREWERY:
        kmax = min(g[GRAIN], g[MALT])
        k = kmax if o <= 2 else 0
        s = 0 if o == 1 else 1
        if k == 0 and s == 0:
            return False
        if s > min(1, g[BEER] + k):
            return False
        data[0] = k
        data[1] = s
        cost[GRAIN] = k
        cost[MALT] = k
        return True
    if eff == E_FUEL:
        e = 3 * o
        data[0] = 5 if o == 1 else (8 if o == 2 else 10)
        cost[C_ENERGY] = 2 * e
        return True
    if eff == E_KILN:
        k = 0 if o == 1 else g[PEAT]
        data[0] = k
        cost[PEAT] = k
        return True
    if eff == E_MARKET:
        cost[C_DISTINCT] = 4
        return True
    if eff == E_LIGHTHOUSE:
        data[0] = BEER if o == 1 else WHISKEY
        return True
    if eff == E_SPINNING:
        return g[SHEEP] > 0
    if eff == E_STONE_MERCHANT:
        data[0] = o
        cost[C_FOOD] = 2 * o
        cost[C_ENERGY] = 2 * o
        return True
    if eff == E_SACRED:
        data[0] = GRAIN if o <= 2 else MALT
        data[1] = BEER if o % 2 == 1 else WHISKEY
        return True
    if eff == E_DRUID:
        i = 0
        for a in range(6):
            for bb in range(6):
                if a != bb:
                    i += 1
                    if i == o:
                        data[0] = BASIC[a]
                        data[1] = BASIC[bb]
        cost[BOOK] = 1
        return True
    if eff == E_LIBRARY:
        # k in 0..3, s in 0..1, not both 0, in that order
        k = o // 2
        s = o % 2
        if s > min(1, g[BOOK] + k):
            return False
        data[0] = k
        data[1] = s
        cost[C_COINS] = k
        return True
    if eff == E_WORKSHOP:
        c = o // 2
        s = o % 2
        data[0] = c
        data[1] = s
        cost[CLAY] = c
        cost[STONE] = s
        cost[C_ENERGY] = 2 * (c + s)
        return True
    if eff == E_SLAUGHTER:
        k = min(g[SHEEP], g[STRAW] + g[GRAIN])
        if k <= 0:
            return False
        data[0] = k
        cost[SHEEP] = k
        cost[STRAW] = k
        return True
    if eff == E_INN:
        f = o // 2
        w = o % 2
        data[0] = f
        data[1] = w
        cost[WINE] = w
        cost[C_FOOD] = f
        return True
    if eff == E_ALEHOUSE:
        bb = o // 2
        w = o % 2
        data[0] = bb
        data[1] = w
        cost[BEER] = bb
        cost[WHISKEY] = w
        return True
    if eff == E_WINERY:
        k = g[GRAPES] if o <= 2 else 0
        s = 0 if o == 1 else 1
        if k == 0 and s == 0:
            return False
        if s > min(1, g[WINE] + k):
            return False
        data[0] = k
        data[1] = s
        cost[GRAPES] = k
        return True
    if eff == E_DISTILLERY:
        k = min(g[MALT], g[WOOD], g[PEAT])
        if k <= 0:
            return False
        data[0] = k
        cost[MALT] = k
        cost[WOOD] = k
        cost[PEAT] = k
        return True
    if eff == E_CHURCH:
        data[0] = o
        cost[BREAD] = o
        cost[WINE] = o
        return True
    if eff == E_CHAPEL:
        bb = o // 4
        r = o % 4
        data[0] = bb
        data[1] = r
        cost[BEER] = r
        cost[WHISKEY] = r
        cost[C_COINS] = bb
        return True
    if eff == E_CHAMBER:
        cost[C_DISTINCT] = 13
        return W[L.WONDERS] > 0
    if eff == E_PORTICO:
        cost[RELIQUARY] = 1
        return True
    if eff == E_SHIPYARD:
        cost[WOOD] = 2
        return True
    if eff == E_FOREST_HUT:
        for x in range(L.N_CELLS):
            if W[L.GRID + x] == L.C_FOREST:
                data[0] = x
                return True
        return False
    if eff == E_TOWN_ESTATE:
        cost[CERAMIC] = 1
        return True
    if eff == E_REFECTORY:
        k = o - 1
        if k > min(4, g[MEAT] + 1):
            return False
        data[0] = k
        return True
    if eff == E_COAL_HARBOR:
        data[0] = o
        cost[COAL] = o
        return True
    if eff == E_FILIAL:
        cost[C_DISTINCT] = 5
        return True
    if eff == E_SHIPPING:
        data[0] = MEAT if o == 1 else (BREAD if o == 2 else WINE)
        cost[C_ENERGY] = 6
        return True
    if eff == E_COOPERAGE:
        data[0] = BEER if o == 1 else WHISKEY
        cost[WOOD] = 3
        return True
    if eff == E_SACRISTY:
        cost[BOOK] = 1
        cost[CERAMIC] = 1
        cost[ORNAMENT] = 1
        cost[RELIQUARY] = 1
        return W[L.WONDERS] > 0
    if eff == E_FORGER:
        kmax = max(0, (coin_value(g) - 5) // 10 + 1)
        k = o if o <= 3 else kmax
        if k <= 0 or k > kmax:
            return False
        data[0] = k
        cost[C_COINS] = 5 + 10 * (k - 1)
        return True
    if eff == E_ROUND_TOWER:
        cost[WHISKEY] = 1
        cost[C_COINS] = 5
        cost[C_POINTS] = 14
        return W[L.WONDERS] > 0
    if eff == E_PILGRIMAGE:
        return pilgrimage(g, o, data)
    if eff == E_CAMERA:
        data[0] = o
        cost[BOOK] = o
        cost[CERAMIC] = o
        return True
    if eff == E_DORMITORY:
        k = 0 if o == 1 else min(g[STRAW] + g[GRAIN], g[WOOD])
        if o == 2 and k <= 0:
            return False
        data[0] = k
        cost[STRAW] = k
        cost[WOOD] = k
        return True
    if eff == E_BULWARK:
        cost[BOOK] = 1
        return True
    if eff == E_PRINTING:
        if o > min(4, count_features(W, L.C_FOREST)):
            return False
        data[0] = o
        return True
    if eff == E_FESTIVAL or eff == E_BROTHERHOOD:
        if eff == E_FESTIVAL:
            limit = count_features(W, L.C_FOREST) + count_features(W, L.C_MOOR)
            cost[BEER] = 1
        else:
            limit = (TM[M_BROTHER_RATE2] * count_cloisters(W, TB)) // 2
            cost[C_COINS] = 5
        if o == 1:
            return mix_largest(limit, 0, 0, 0, 0, data)
        return mix_largest(limit, 1, 1, 1, 1, data)
    if eff == E_ESTATE:
        # (e, f) in order (0,1) (0,2) (1,0) (1,1) (2,0)
        if o == 1:
            e, f = 0, 1
        elif o == 2:
            e, f = 0, 2
        elif o == 3:
            e, f = 1, 0
        elif o == 4:
            e, f = 1, 1
        else:
            e, f = 2, 0
        data[0] = e
        data[1] = f
        cost[C_FOOD] = 10 * f
        cost[C_ENERGY] = 12 * e
        return True
    return False


@njit(cache=True)
def first_display_any(W):
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] == L.S_DISPLAY:
            return True
    return False


@njit(cache=True)
def pilgrimage(g, o, data):
    # sequences: B, C, O, BB, BC, BO, CC, CO, OO (B=book, C=ceramic, O=ornament)
    h = np.zeros(4, dtype=np.int64)
    h[0], h[1], h[2], h[3] = g[BOOK], g[CERAMIC], g[ORNAMENT], g[RELIQUARY]
    s0 = -1
    s1 = -1
    if o <= 3:
        s0 = o - 1
    else:
        pairs = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
        s0, s1 = pairs[o - 4]
    for s in (s0, s1):
        if s < 0:
            continue
        if h[s] <= 0:
            return False
        h[s] -= 1
        h[s + 1] += 1
    data[0] = h[0] - g[BOOK]
    data[1] = h[1] - g[CERAMIC]
    data[2] = h[2] - g[ORNAMENT]
    data[3] = h[3] - g[RELIQUARY]
    return True


@njit(cache=True)
def priory_target(W, TB, TM, owner):
    """Building under an owner's prior (not a Priory), or -1."""
    pos = W[L.CLERGY + 3 * owner + 2]
    if pos < 0:
        return -1
    c = loc_content(W, pos)
    if is_building(c) and c - L.C_BUILDING != TM[M_PRIORY]:
        return c - L.C_BUILDING
    return -1


@njit(cache=True)
def count_priory_targets(W, TB, TM, b):
    n = 0
    for owner in range(2):
        if priory_target(W, TB, TM, owner) >= 0:
            n += 1
    return n


@njit(cache=True)
def free_targets(W, TB, TM, src, loc, out):
    """Free-use targets granted by building src standing at loc (not yet chain-filtered)."""
    eff = TB[src, BC_EFFECT]
    n = 0
    if eff == E_PRIORY:
        for owner in range(2):
            t = priory_target(W, TB, TM, owner)
            if t >= 0:
                out[n] = t
                n += 1
    elif eff == E_GARDEN or eff == E_COTTAGE:
        if loc < 0:
            return 0
        nb = np.empty(5, dtype=np.int64)
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
    elif eff == E_PALACE or eff == E_MANOR:
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
    elif eff == E_HOSPICE:
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


@njit(cache=True)
def grant_free_use(W, TB, TM, src, loc):
    buf = np.empty(L.N_BUILDINGS + 16, dtype=np.int64)
    if free_targets(W, TB, TM, src, loc, buf) > 0:
        push(W, L.K_FREE_USE, src, loc, 0)


@njit(cache=True)
def resolve(W, TB, TW, TM, TL, b, loc, data):
    """Outputs and follow-ups of building b's function after its cost is paid."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    eff = TB[b, BC_EFFECT]
    if eff == E_CLAY_MOUND or eff == E_OFFICE or eff == E_QUARRY or eff == E_GRAPEVINE or \
            eff == E_FARMYARD:
        t = data[0]
        g[TOKEN_GOOD[t]] += wheel_take(W, TW, t, data[1])
    elif eff == E_PRIORY or eff == E_PALACE or eff == E_MANOR or eff == E_HOSPICE:
        grant_free_use(W, TB, TM, b, loc)
    elif eff == E_GARDEN:
        g[GRAPES] += 1
        grant_free_use(W, TB, TM, b, loc)
    elif eff == E_COTTAGE:
        g[MALT] += 1
        grant_free_use(W, TB, TM, b, loc)
    elif eff == E_COURTYARD:
        g[data[0]] += 6
    elif eff == E_GRAIN_STORAGE:
        g[GRAIN] += 6
    elif eff == E_GRANARY:
        g[GRAIN] += 4
        g[BOOK] += 1
    elif eff == E_WINDMILL:
        g[FLOUR] += data[0]
        g[STRAW] += data[0]
    elif eff == E_MALTHOUSE:
        g[MALT] += data[0]
        g[STRAW] += data[0]
    elif eff == E_BAKERY:
        g[BREAD] += data[0] - data[1]
        g[COIN] += 4 * data[1]
    elif eff == E_BREWERY:
        g[BEER] += data[0] - data[1]
        g[COIN] += 7 * data[1]
    elif eff == E_FUEL:
        g[COIN] += data[0]
    elif eff == E_KILN:
        g[COAL] += 1 + data[0]
        g[COIN] += 1
    elif eff == E_MARKET:
        g[BREAD] += 1
        g[COIN] += 7
    elif eff == E_LIGHTHOUSE:
        g[COIN] += 3
        g[data[0]] += 1
    elif eff == E_SPINNING:
        s = g[SHEEP]
        g[COIN] += 0 if s == 0 else (3 if s <= 4 else (5 if s <= 8 else 6))
    elif eff == E_PROMENADE:
        g[WOOD] += 1
        g[WINE] += 1
        g[COIN] += 1
        g[CERAMIC] += 1
    elif eff == E_HOUSEBOAT:
        g[WOOD] += 1
        g[MALT] += 1
        g[COIN] += 1
        g[PEAT] += 1
    elif eff == E_STONE_MERCHANT:
        g[STONE] += data[0]
    elif eff == E_BMARKET:
        g[WOOD] += 2
        g[CLAY] += 2
        g[STONE] += 1
        g[STRAW] += 1
    elif eff == E_SACRED:
        g[BOOK] += 1
        g[data[0]] += 2
        g[data[1]] += 1
    elif eff == E_FIN_ESTATE:
        g[BOOK] += 1
        g[BREAD] += 1
        g[GRAPES] += 2
        g[FLOUR] += 2
    elif eff == E_DRUID:
        g[data[0]] += 5
        g[data[1]] += 3
    elif eff == E_CHAPTER:
        g[CLAY] += 1
        g[WOOD] += 1
        g[PEAT] += 1
        g[SHEEP] += 1
        g[GRAIN] += 1
        g[COIN] += 1
    elif eff == E_LIBRARY:
        g[BOOK] += data[0] - data[1]
        g[MEAT] += data[1]
        g[WINE] += data[1]
    elif eff == E_SCRIPTORIUM:
        g[BOOK] += 1
        g[MEAT] += 1
        g[WHISKEY] += 1
    elif eff == E_WORKSHOP:
        g[CERAMIC] += data[0]
        g[ORNAMENT] += data[1]
    elif eff == E_SLAUGHTER:
        g[MEAT] += data[0]
    elif eff == E_INN:
        g[COIN] += data[0] + 6 * data[1]
    elif eff == E_ALEHOUSE:
        g[COIN] += 8 * data[0] + 7 * data[1]
    elif eff == E_WINERY:
        g[WINE] += data[0] - data[1]
        g[COIN] += 7 * data[1]
    elif eff == E_DISTILLERY:
        g[WHISKEY] += 2 * data[0]
    elif eff == E_BATHHOUSE:
        g[BOOK] += 1
        g[CERAMIC] += 1
        return_clergy(W, 0)
    elif eff == E_LOCUTORY:
        W[L.CLERGY + 2] = -1
        push(W, L.K_GRANT_BUILD, -1, -1, 0)
    elif eff == E_CHURCH:
        g[RELIQUARY] += data[0]
    elif eff == E_CHAPEL:
        g[BOOK] += data[0]
        g[RELIQUARY] += data[1]
    elif eff == E_CHAMBER or eff == E_SACRISTY or eff == E_ROUND_TOWER:
        W[L.WONDERS] -= 1
        g[WONDER] += 1
    elif eff == E_PORTICO:
        g[STONE] += 2
        g[CLAY] += 2
        g[WOOD] += 2
        g[PEAT] += 2
        g[COIN] += 2
        g[GRAIN] += 2
        g[SHEEP] += 2
    elif eff == E_SHIPYARD:
        g[ORNAMENT] += 1
        g[NICKEL] += 1
    elif eff == E_CASTLE:
        push(W, L.K_GRANT_SETTLE, -1, -1, 0)
    elif eff == E_FOREST_HUT:
        W[L.GRID + data[0]] = L.C_EMPTY
        g[SHEEP] += 2
        g[WOOD] += 2
        g[STONE] += 1
    elif eff == E_TOWN_ESTATE:
        g[COIN] += 12
    elif eff == E_REFECTORY:
        g[BEER] += 1
        g[MEAT] += 1 - data[0]
        g[CERAMIC] += data[0]
    elif eff == E_COAL_HARBOR:
        g[COIN] += 3 * data[0]
        g[WHISKEY] += data[0]
    elif eff == E_CALEFACTORY:
        push(W, L.K_GRANT_FELL_CUT, -1, -1, 3)
    elif eff == E_FILIAL:
        g[RELIQUARY] += 1
    elif eff == E_SHIPPING or eff == E_COOPERAGE:
        n = 0
        if W[L.TOK + T_JOKER] >= 0:
            n = wheel_take(W, TW, T_JOKER, 1)
        g[data[0]] += n
    elif eff == E_FORGER:
        g[RELIQUARY] += data[0]
    elif eff == E_PILGRIMAGE:
        g[BOOK] += data[0]
        g[CERAMIC] += data[1]
        g[ORNAMENT] += data[2]
        g[RELIQUARY] += data[3]
    elif eff == E_CAMERA:
        g[COIN] += data[0]
        g[CLAY] += data[0]
        g[RELIQUARY] += data[0]
    elif eff == E_DORMITORY:
        g[CERAMIC] += 1
        g[BOOK] += data[0]
    elif eff == E_BULWARK:
        aux = 0
        if W[L.NDIST] < 9:
            aux |= 1
        if W[L.NPLOT] < 9:
            aux |= 2
        push(W, L.K_GRANT_LAND, -1, -1, aux)
    elif eff == E_PRINTING:
        k = data[0]
        for x in range(L.N_CELLS):
            if k == 0:
                break
            if W[L.GRID + x] == L.C_FOREST:
                W[L.GRID + x] = L.C_EMPTY
                k -= 1
        g[BOOK] += data[0]
    elif eff == E_FESTIVAL or eff == E_BROTHERHOOD:
        g[BOOK] += data[0]
        g[CERAMIC] += data[1]
        g[ORNAMENT] += data[2]
        g[RELIQUARY] += data[3]
    elif eff == E_ESTATE:
        g[BOOK] += data[0] + data[1]
        g[ORNAMENT] += data[0] + data[1]


@njit(cache=True)
def valid_options(W, TB, TG, TM, b, loc, out, work):
    """Canonical options (1-based; 0 always) legal for using b now, deduplicated by data.

    ``work`` is scratch space of at least 4 + COST_SIZE + 4 * 64 ints.
    """
    data = work[0:4]
    cost = work[4:4 + COST_SIZE]
    seen = work[4 + COST_SIZE:4 + COST_SIZE + 4 * 64]
    n = 0
    out[n] = 0
    n += 1
    nseen = 0
    for o in range(1, n_canon_options(TB[b, BC_EFFECT]) + 1):
        if not option_data(W, TB, TG, TM, b, loc, o, data, cost):
            continue
        if not affordable(W, TG, cost):
            continue
        dup = False
        for i in range(nseen):
            if (seen[4 * i] == data[0] and seen[4 * i + 1] == data[1]
                    and seen[4 * i + 2] == data[2] and seen[4 * i + 3] == data[3]):
                dup = True
                break
        if dup:
            continue
        for j in range(4):
            seen[4 * nseen + j] = data[j]
        nseen += 1
        out[n] = o
        n += 1
    return n


@njit(cache=True)
def do_option(W, TB, TG, TO, TW, TM, TL, b, loc, o):
    """Pay for and resolve canonical option o (0 = nothing) of building b."""
    if o == 0:
        return
    data = np.zeros(4, dtype=np.int64)
    cost = np.zeros(COST_SIZE, dtype=np.int64)
    option_data(W, TB, TG, TM, b, loc, o, data, cost)
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    pay_goods(g, cost)
    if cost[C_COINS] > 0:
        pay_coins(g, cost[C_COINS])
    if cost[C_FOOD] or cost[C_ENERGY] or cost[C_POINTS] or cost[C_DISTINCT]:
        pay_rule(g, TG, TO, cost[C_FOOD], cost[C_ENERGY], cost[C_POINTS], cost[C_DISTINCT])
    resolve(W, TB, TW, TM, TL, b, loc, data)


# ===== actions =================================================================================

@njit(cache=True)
def build_actions(W, TB, TG, out, n):
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    money = coin_value(g)
    free = np.empty(L.N_CELLS, dtype=np.int64)  # empty buildable spaces, row-major
    nfree = 0
    for x in range(L.N_CELLS):
        t = W[L.TERR + x]
        if t != L.T_NONE and t != L.T_FILLER and W[L.GRID + x] == L.C_EMPTY:
            free[nfree] = x
            nfree += 1
    if nfree == 0:
        return n
    touch = np.full(nfree, -1, dtype=np.int64)  # cloister adjacency, computed on first need
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] != L.S_DISPLAY:
            continue
        if (TB[b, BC_WOOD] > g[WOOD] or TB[b, BC_CLAY] > g[CLAY] or TB[b, BC_STONE] > g[STONE]
                or TB[b, BC_STRAW] > g[STRAW] + g[GRAIN] or TB[b, BC_COINS] > money):
            continue
        mask = TB[b, BC_TERR]
        cl = TB[b, BC_CLOISTER] == 1
        for i in range(nfree):
            x = free[i]
            if (mask >> W[L.TERR + x]) & 1 == 0:
                continue
            if cl:
                if touch[i] < 0:
                    touch[i] = 1 if touches_cloister(W, TB, x) else 0
                if touch[i] == 0:
                    continue
            out[n] = BUILD0 + L.N_CELLS * b + x
            n += 1
    return n


@njit(cache=True)
def land_actions(W, TL, free, district, plot, out, n):
    money = coin_value(W[L.GOODS:L.GOODS + L.N_GOODS])
    lo, hi = land_rows(W)
    if district and W[L.NDIST] < 9 and (free or money >= TL[LAND_DPRICE + W[L.NDIST]]):
        for y in range(L.N_ROWS):
            if district_row_ok(W, y + L.ROW_MIN, lo, hi):
                out[n] = DISTRICT0 + 2 * y
                out[n + 1] = DISTRICT0 + 2 * y + 1
                n += 2
    if plot and W[L.NPLOT] < 9 and (free or money >= TL[LAND_PPRICE + W[L.NPLOT]]):
        for side in range(2):
            for y in range(L.N_ROWS):
                if plot_row_ok(W, y + L.ROW_MIN, side, lo, hi):
                    out[n] = PLOT0 + 2 * y + side
                    n += 1
    return n


@njit(cache=True)
def settle_actions(W, TS, TG, out, n):
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    food = 0
    energy2 = 0
    for i in range(L.N_GOODS):
        food += g[i] * TG[0, i]
        energy2 += g[i] * TG[1, i]
    for s in range(8):
        if (W[L.SETTL] >> s) & 1 == 0:
            continue
        if food < TS[s, 0] or energy2 < 2 * TS[s, 1]:
            continue
        mask = TS[s, 4]
        for x in range(L.N_CELLS):
            t = W[L.TERR + x]
            if t == L.T_NONE or W[L.GRID + x] != L.C_EMPTY or (mask >> t) & 1 == 0:
                continue
            out[n] = SETTLE0 + L.N_CELLS * s + x
            n += 1
    return n


@njit(cache=True)
def fell_cut_actions(W, feature, token, base, out, n):
    for x in range(L.N_CELLS):
        if W[L.GRID + x] == feature:
            for j in range(2):
                if wheel_choice_ok(W, token, j):
                    out[n] = base + 2 * x + j
                    n += 1
    return n


@njit(cache=True)
def convert_actions(W, out, n):
    if W[L.GOODS + WINE] > 0:
        out[n] = CONVERT_WINE
        n += 1
    if W[L.GOODS + WHISKEY] > 0:
        out[n] = CONVERT_WHISKEY
        n += 1
    return n


@njit(cache=True)
def neutral_cell_ok(W, TB, b, x):
    c = W[L.NGRID + x]
    cl = TB[b, BC_CLOISTER] == 1
    if c == L.C_EMPTY:
        return (not cl) or ntouches_cloister(W, TB, x)
    if is_building(c):
        return (TB[c - L.C_BUILDING, BC_CLOISTER] == 1) == cl
    return False


@njit(cache=True)
def neutral_targets(W, out):
    n = 0
    for i in range(L.N_NBUILT):
        b = W[L.NBUILT + i]
        if b < 0:
            break
        if W[L.STATUS + b] != L.S_NEUTRAL:
            continue
        loc = building_loc(W, b)
        if not occupied(W, loc):
            out[n] = b
            n += 1
    return n


@njit(cache=True)
def fee_kinds(W, TM):
    """Bit 0: coins possible, bit 1: the variant's drink possible."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    k = 0
    if coin_value(g) >= fee(W):
        k |= 1
    if g[TM[M_DRINK]] > 0:
        k |= 2
    return k


@njit(cache=True)
def legal_unsorted(W, TB, TS, TG, TL, TM, out):
    if W[L.DONE]:
        return 0
    fb = top(W)
    kind = W[fb + L.F_KIND]
    n = 0
    if kind == L.K_SLOT:
        out[n] = END
        n += 1
        if W[fb + L.F_AUX] & 1 == 0:
            lay = free_clergy(W, 0, 0) >= 0
            pri = free_clergy(W, 0, 1) >= 0
            for x in range(L.N_CELLS):
                c = W[L.GRID + x]
                if is_building(c) and not occupied(W, x):
                    b = c - L.C_BUILDING
                    if lay:
                        out[n] = USE0 + 2 * b
                        n += 1
                    if pri:
                        out[n] = USE0 + 2 * b + 1
                        n += 1
            fk = fee_kinds(W, TM)
            if fk:
                nlay = free_clergy(W, 1, 0) >= 0
                npri = free_clergy(W, 1, 1) >= 0
                for x in range(L.N_NCELLS):
                    c = W[L.NGRID + x]
                    if is_building(c) and not occupied(W, L.NEUTRAL_LOC + x):
                        b = c - L.C_BUILDING
                        for k in range(2):
                            if (k == 0 and not nlay) or (k == 1 and not npri):
                                continue
                            for f in range(2):
                                if (fk >> f) & 1:
                                    out[n] = CONTRACT0 + 4 * b + 2 * k + f
                                    n += 1
            n = fell_cut_actions(W, L.C_FOREST, T_WOOD, FELL0, out, n)
            n = fell_cut_actions(W, L.C_MOOR, T_PEAT, CUT0, out, n)
            n = build_actions(W, TB, TG, out, n)
        if W[L.BOUGHT] == 0:
            n = land_actions(W, TL, False, True, True, out, n)
        n = convert_actions(W, out, n)
    elif kind == L.K_OPTION or kind == L.K_PRIOR_BONUS:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        opts = out[MAX_LEGAL - 512:MAX_LEGAL - 448]
        work = out[MAX_LEGAL - 448:]
        if kind == L.K_OPTION:
            m = valid_options(W, TB, TG, TM, b, loc, opts, work)
        else:
            out[n] = END
            n += 1
            m = 0
            if W[L.CLERGY + 2] == -1:
                W[L.CLERGY + 2] = loc
                m = valid_options(W, TB, TG, TM, b, loc, opts, work)
                W[L.CLERGY + 2] = -1
        for i in range(m):
            out[n] = OPT0 + opts[i]
            n += 1
    elif kind == L.K_FREE_USE:
        out[n] = END
        n += 1
        buf = np.empty(L.N_BUILDINGS + 16, dtype=np.int64)
        m = free_targets(W, TB, TM, W[fb + L.F_B], W[fb + L.F_LOC], buf)
        for i in range(m):
            out[n] = FREE0 + buf[i]
            n += 1
    elif kind == L.K_GRANT_BUILD:
        out[n] = END
        n += 1
        n = build_actions(W, TB, TG, out, n)
    elif kind == L.K_GRANT_SETTLE:
        out[n] = END
        n += 1
        n = settle_actions(W, TS, TG, out, n)
    elif kind == L.K_GRANT_FELL_CUT:
        out[n] = END
        n += 1
        if W[fb + L.F_AUX] & 1:
            n = fell_cut_actions(W, L.C_FOREST, T_WOOD, FELL0, out, n)
        if W[fb + L.F_AUX] & 2:
            n = fell_cut_actions(W, L.C_MOOR, T_PEAT, CUT0, out, n)
    elif kind == L.K_GRANT_LAND:
        out[n] = END
        n += 1
        aux = W[fb + L.F_AUX]
        n = land_actions(W, TL, True, aux & 1, aux & 2, out, n)
    elif kind == L.K_NEUTRAL_BUILD:
        b = first_display(W, TB)
        for x in range(L.N_NCELLS):
            if neutral_cell_ok(W, TB, b, x):
                out[n] = NBUILD0 + x
                n += 1
    elif kind == L.K_NEUTRAL_CONTRACT:
        out[n] = END
        n += 1
        fk = fee_kinds(W, TM)
        buf = np.empty(L.N_NBUILT, dtype=np.int64)
        m = neutral_targets(W, buf)
        for i in range(m):
            for f in range(2):
                if (fk >> f) & 1:
                    out[n] = CONTRACT0 + 4 * buf[i] + 2 + f
                    n += 1
    elif kind == L.K_SETTLE:
        out[n] = END
        n += 1
        aux = W[fb + L.F_AUX]
        if aux == 0:
            n = land_actions(W, TL, False, True, True, out, n)
        if aux & 2 == 0:
            n = settle_actions(W, TS, TG, out, n)
        n = convert_actions(W, out, n)
    return n


@njit(cache=True)
def legal(W, TB, TS, TG, TL, TM, out):
    """Sorted canonical legal actions into ``out``; returns their number."""
    n = legal_unsorted(W, TB, TS, TG, TL, TM, out)
    out[:n].sort()
    return n


# ===== step ====================================================================================

@njit(cache=True)
def do_build(W, TB, TM, b, x):
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    cost = np.zeros(COST_SIZE, dtype=np.int64)
    cost[WOOD] = TB[b, BC_WOOD]
    cost[CLAY] = TB[b, BC_CLAY]
    cost[STONE] = TB[b, BC_STONE]
    cost[STRAW] = TB[b, BC_STRAW]
    pay_goods(g, cost)
    if TB[b, BC_COINS] > 0:
        pay_coins(g, TB[b, BC_COINS])
    W[L.STATUS + b] = L.S_MINE
    W[L.GRID + x] = L.C_BUILDING + b
    if b == TM[M_WINERY] or b == TM[M_DISTILLERY]:
        W[L.FEE_RAISED] = 1
    if W[L.CLERGY + 2] == -1:
        push(W, L.K_PRIOR_BONUS, b, x, 0)


@njit(cache=True)
def do_settle(W, TS, TG, TO, s, x):
    W[L.SETTL] &= ~(1 << s)
    W[L.GRID + x] = L.C_SETTLEMENT + s
    pay_rule(W[L.GOODS:L.GOODS + L.N_GOODS], TG, TO, TS[s, 0], 2 * TS[s, 1], 0, 0)


@njit(cache=True)
def do_buy(W, TL, cid, free):
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if cid < PLOT0:
        y, side = divmod(cid - DISTRICT0, 2)
        if not free:
            pay_coins(g, TL[LAND_DPRICE + W[L.NDIST]])
        add_district(W, TL, y + L.ROW_MIN, side)
        W[L.NDIST] += 1
    else:
        y, side = divmod(cid - PLOT0, 2)
        if not free:
            pay_coins(g, TL[LAND_PPRICE + W[L.NPLOT]])
        add_plot(W, y + L.ROW_MIN, side)
        W[L.NPLOT] += 1


@njit(cache=True)
def do_fell_cut(W, TW, cid):
    if cid < CUT0:
        x, j = divmod(cid - FELL0, 2)
        t = T_WOOD
    else:
        x, j = divmod(cid - CUT0, 2)
        t = T_PEAT
    W[L.GRID + x] = L.C_EMPTY
    W[L.GOODS + TOKEN_GOOD[t]] += wheel_take(W, TW, t, j)


@njit(cache=True)
def do_convert(W, cid):
    if cid == CONVERT_WINE:
        W[L.GOODS + WINE] -= 1
        W[L.GOODS + COIN] += 1
    else:
        W[L.GOODS + WHISKEY] -= 1
        W[L.GOODS + COIN] += 2


@njit(cache=True)
def do_contract(W, TB, TM, cid):
    b, r = divmod(cid - CONTRACT0, 4)
    k, f = divmod(r, 2)
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if f == 0:
        pay_coins(g, fee(W))
    else:
        g[TM[M_DRINK]] -= 1
    loc = building_loc(W, b)
    W[L.CLERGY + 3 + free_clergy(W, 1, k)] = loc
    chain_clear(W)
    chain_add(W, b)
    push(W, L.K_OPTION, b, loc, L.VIA_CONTRACT)


@njit(cache=True)
def raw_step(W, TB, TS, TG, TO, TW, TL, TM, cid):
    """Apply one canonical action (no flow advance, no forced END)."""
    fb = top(W)
    kind = W[fb + L.F_KIND]
    if kind == L.K_SLOT:
        if cid == END:
            pop(W)
        elif cid == CONVERT_WINE or cid == CONVERT_WHISKEY:
            do_convert(W, cid)
        elif cid >= DISTRICT0:
            do_buy(W, TL, cid, False)
            W[L.BOUGHT] = 1
        else:
            W[fb + L.F_AUX] |= 1
            if cid < CONTRACT0:
                b, k = divmod(cid - USE0, 2)
                x = building_loc(W, b)
                W[L.CLERGY + free_clergy(W, 0, k)] = x
                chain_clear(W)
                chain_add(W, b)
                push(W, L.K_OPTION, b, x, L.VIA_CLERGY)
            elif cid < FREE0:
                do_contract(W, TB, TM, cid)
            elif cid < BUILD0:
                do_fell_cut(W, TW, cid)
            else:
                b, x = divmod(cid - BUILD0, L.N_CELLS)
                do_build(W, TB, TM, b, x)
    elif kind == L.K_OPTION:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        pop(W)
        do_option(W, TB, TG, TO, TW, TM, TL, b, loc, cid - OPT0)
    elif kind == L.K_PRIOR_BONUS:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        pop(W)
        if cid != END:
            W[L.CLERGY + 2] = loc
            chain_clear(W)
            chain_add(W, b)
            do_option(W, TB, TG, TO, TW, TM, TL, b, loc, cid - OPT0)
    elif kind == L.K_FREE_USE:
        pop(W)
        if cid != END:
            t = cid - FREE0
            chain_add(W, t)
            push(W, L.K_OPTION, t, building_loc(W, t), L.VIA_FREE)
    elif kind == L.K_GRANT_BUILD:
        pop(W)
        if cid != END:
            b, x = divmod(cid - BUILD0, L.N_CELLS)
            do_build(W, TB, TM, b, x)
    elif kind == L.K_GRANT_SETTLE:
        pop(W)
        if cid != END:
            s, x = divmod(cid - SETTLE0, L.N_CELLS)
            do_settle(W, TS, TG, TO, s, x)
    elif kind == L.K_GRANT_FELL_CUT:
        if cid == END:
            pop(W)
        else:
            do_fell_cut(W, TW, cid)
            W[fb + L.F_AUX] &= ~(1 if cid < CUT0 else 2)
            if W[fb + L.F_AUX] == 0:
                pop(W)
    elif kind == L.K_GRANT_LAND:
        if cid == END:
            pop(W)
        else:
            do_buy(W, TL, cid, True)
            W[fb + L.F_AUX] &= ~(1 if cid < PLOT0 else 2)
            if W[fb + L.F_AUX] == 0:
                pop(W)
    elif kind == L.K_NEUTRAL_BUILD:
        b = first_display(W, TB)
        x = cid - NBUILD0
        old = W[L.NGRID + x]
        if is_building(old):
            W[L.STATUS + old - L.C_BUILDING] = L.S_GONE
        W[L.NGRID + x] = L.C_BUILDING + b
        W[L.STATUS + b] = L.S_NEUTRAL
        for i in range(L.N_NBUILT):
            if W[L.NBUILT + i] == -1:
                W[L.NBUILT + i] = b
                break
        if b == TM[M_WINERY] or b == TM[M_DISTILLERY]:
            W[L.FEE_RAISED] = 1
        if not first_display_any(W):
            pop(W)
    elif kind == L.K_NEUTRAL_CONTRACT:
        pop(W)
        if cid != END:
            do_contract(W, TB, TM, cid)
    elif kind == L.K_SETTLE:
        if cid == END:
            pop(W)
        elif cid == CONVERT_WINE or cid == CONVERT_WHISKEY:
            do_convert(W, cid)
        elif cid >= DISTRICT0:
            do_buy(W, TL, cid, False)
            W[fb + L.F_AUX] |= 1
        else:
            W[fb + L.F_AUX] |= 2
            s, x = divmod(cid - SETTLE0, L.N_CELLS)
            do_settle(W, TS, TG, TO, s, x)
    # a chain of free uses ends with its option/free-use frames
    if W[L.FDEPTH] == 0:
        chain_clear(W)
    else:
        k = W[top(W) + L.F_KIND]
        if k != L.K_OPTION and k != L.K_FREE_USE:
            chain_clear(W)


@njit(cache=True)
def advance(W, TB, TF):
    """Run automatic flow steps until a decision is pending or the game is over."""
    while W[L.FDEPTH] == 0 and W[L.DONE] == 0:
        i = W[L.STEP]
        W[L.STEP] = i + 1
        kind = TF[i, 0]
        arg = TF[i, 1]
        if kind == 0:  # round
            W[L.ROUND] = arg
            for owner in range(2):
                if all_placed(W, owner):
                    return_clergy(W, owner)
            W[L.BOUGHT] = 0
            rotate(W)
        elif kind == 1:  # neutral_build
            for j in range(L.N_NBUILT):
                W[L.NBUILT + j] = -1
            W[L.PHASE] = arg
            if first_display_any(W):
                push(W, L.K_NEUTRAL_BUILD, -1, -1, 0)
        elif kind == 2:  # neutral_contract
            if W[L.NBUILT] != -1 and W[L.CLERGY + 5] == -1:
                buf = np.empty(L.N_NBUILT, dtype=np.int64)
                if neutral_targets(W, buf) > 0:
                    push(W, L.K_NEUTRAL_CONTRACT, -1, -1, 0)
        elif kind == 3:  # neutral_return
            if all_placed(W, 1):
                return_clergy(W, 1)
        elif kind == 4:  # settle
            W[L.PHASE] = arg
            push(W, L.K_SETTLE, -1, -1, 0)
        elif kind == 5:  # arrivals
            W[L.SETTL] |= 1 << (3 + arg)
            for b in range(L.N_BUILDINGS):
                if W[L.STATUS + b] == L.S_STACK and TB[b, BC_PHASE] == arg:
                    W[L.STATUS + b] = L.S_DISPLAY
        elif kind == 6:  # turn
            push(W, L.K_SLOT, -1, -1, 0)
        else:  # end
            W[L.DONE] = 1
            while W[L.FDEPTH] > 0:
                pop(W)


@njit(cache=True)
def surely_a_choice(W):
    """Cheap sufficient test that more than END is legal (skips most forced-END checks)."""
    fb = top(W)
    kind = W[fb + L.F_KIND]
    if kind == L.K_OPTION or kind == L.K_PRIOR_BONUS or kind == L.K_NEUTRAL_BUILD:
        return True  # option 0 / a space is always offered
    if kind == L.K_SLOT and W[fb + L.F_AUX] & 1 == 0:
        if W[L.CLERGY] == -1 or W[L.CLERGY + 1] == -1 or W[L.CLERGY + 2] == -1:
            for x in range(L.N_CELLS):
                c = W[L.GRID + x]
                if c == L.C_FOREST or c == L.C_MOOR:
                    return True
                if is_building(c) and not occupied(W, x):
                    return True
    return False


@njit(cache=True)
def surely_forced(W, TL):
    """Cheap sufficient test that END is the only legal action (a turn after its main
    action with no landscape purchase and no conversion possible)."""
    fb = top(W)
    if W[fb + L.F_KIND] != L.K_SLOT or W[fb + L.F_AUX] & 1 == 0:
        return False
    if W[L.GOODS + WINE] > 0 or W[L.GOODS + WHISKEY] > 0:
        return False
    if W[L.BOUGHT]:
        return True
    money = coin_value(W[L.GOODS:L.GOODS + L.N_GOODS])
    if W[L.NDIST] < 9 and money >= TL[LAND_DPRICE + W[L.NDIST]]:
        return False
    if W[L.NPLOT] < 9 and money >= TL[LAND_PPRICE + W[L.NPLOT]]:
        return False
    return True


@njit(cache=True)
def step(W, TB, TS, TG, TO, TW, TL, TF, TM, cid, scratch):
    """Apply a canonical action, advance the flow, and take any forced END."""
    raw_step(W, TB, TS, TG, TO, TW, TL, TM, cid)
    advance(W, TB, TF)
    while W[L.DONE] == 0:
        if surely_a_choice(W):
            break
        if not surely_forced(W, TL):
            n = legal_unsorted(W, TB, TS, TG, TL, TM, scratch)
            if n != 1 or scratch[0] != END:
                break
        raw_step(W, TB, TS, TG, TO, TW, TL, TM, END)
        advance(W, TB, TF)


@njit(cache=True)
def init(W, TB, TS, TG, TO, TW, TL, TF, TM, scratch):
    """The initial solo state (SOLO §1), advanced to its first decision."""
    W[:] = 0
    for t in range(L.N_TOK):
        W[L.TOK + t] = 0 if t <= T_JOKER else -1
    W[L.WONDERS] = 8
    for i in range(6):
        W[L.CLERGY + i] = -1
    for i in range(L.N_NBUILT):
        W[L.NBUILT + i] = -1
    for i in range(L.N_CHAIN):
        W[L.CHAIN + i] = -1
    for i in range(L.MAX_FRAMES):
        W[L.FRAMES + L.FRAME_SIZE * i + L.F_B] = -1
        W[L.FRAMES + L.FRAME_SIZE * i + L.F_LOC] = -1
    derive_terrain(W, TL)
    p1 = TM[M_PLAYER_L1]
    n1 = TM[M_NEUTRAL_L1]
    W[L.GRID + cell_index(0, 0)] = L.C_MOOR
    W[L.GRID + cell_index(0, 1)] = L.C_MOOR
    W[L.GRID + cell_index(1, 0)] = L.C_FOREST
    W[L.GRID + cell_index(1, 1)] = L.C_FOREST
    W[L.GRID + cell_index(2, 0)] = L.C_FOREST
    W[L.GRID + cell_index(4, 0)] = L.C_BUILDING + p1
    W[L.GRID + cell_index(2, 1)] = L.C_BUILDING + p1 + 1
    W[L.GRID + cell_index(4, 1)] = L.C_BUILDING + p1 + 2
    W[L.NGRID + 0] = L.C_BUILDING + TM[M_MARKET]
    W[L.NGRID + 4] = L.C_BUILDING + n1
    W[L.NGRID + 7] = L.C_BUILDING + n1 + 1
    W[L.NGRID + 9] = L.C_BUILDING + n1 + 2
    for b in range(L.N_BUILDINGS):
        if TB[b, BC_INGAME] == 1:
            W[L.STATUS + b] = L.S_DISPLAY if TB[b, BC_PHASE] == 0 else L.S_STACK
    for i in range(3):
        W[L.STATUS + p1 + i] = L.S_MINE
        W[L.STATUS + n1 + i] = L.S_NEUTRAL
    W[L.STATUS + TM[M_MARKET]] = L.S_NEUTRAL
    W[L.SETTL] = 0b1111
    advance(W, TB, TF)
    while W[L.DONE] == 0:
        n = legal_unsorted(W, TB, TS, TG, TL, TM, scratch)
        if n != 1 or scratch[0] != END:
            break
        raw_step(W, TB, TS, TG, TO, TW, TL, TM, END)
        advance(W, TB, TF)


# ===== score, rollout ==========================================================================

@njit(cache=True)
def goods_points(g):
    fixed = 2 * g[BOOK] + 3 * g[CERAMIC] + 4 * g[ORNAMENT] + 8 * g[RELIQUARY] + 30 * g[WONDER]
    coins = g[COIN] + 5 * g[NICKEL]
    best = 0
    for w in range(g[WINE] + 1):
        for h in range(g[WHISKEY] + 1):
            pts = 2 * ((coins + w + 2 * h) // 5) + (g[WINE] - w) + (g[WHISKEY] - h)
            best = max(best, pts)
    return fixed + best


@njit(cache=True)
def dwelling_of(TB, TS, c):
    if is_building(c):
        return TB[c - L.C_BUILDING, BC_DWELL]
    if c >= L.C_SETTLEMENT:
        return TS[c - L.C_SETTLEMENT, 3]
    return 0


@njit(cache=True)
def neighbour_dwelling(W, TB, TS, x):
    """RULES §14.3: what the neighbours of space x add to a settlement standing there."""
    nb = np.empty(5, dtype=np.int64)
    m = neighbours(W, x, nb)
    v = 0
    for i in range(m):
        y = nb[i]
        cc = W[L.GRID + y]
        if W[L.TERR + y] == L.T_WATER and cc == L.C_EMPTY:
            v += 3
        v += dwelling_of(TB, TS, cc)
    return v


@njit(cache=True)
def score(W, TB, TS, out):
    """Score breakdown into out[0:4]: total, goods, economic, dwelling."""
    goods = goods_points(W[L.GOODS:L.GOODS + L.N_GOODS])
    econ = 0
    dwell = 0
    for x in range(L.N_CELLS):
        c = W[L.GRID + x]
        if is_building(c):
            econ += TB[c - L.C_BUILDING, BC_ECON]
        elif c >= L.C_SETTLEMENT:
            econ += TS[c - L.C_SETTLEMENT, 2]
            dwell += TS[c - L.C_SETTLEMENT, 3] + neighbour_dwelling(W, TB, TS, x)
    out[0] = goods + econ + dwell
    out[1] = goods
    out[2] = econ
    out[3] = dwell


@njit(cache=True)
def xorshift(rng):
    x = rng[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    rng[0] = x
    return x


@njit(cache=True)
def rollout(W, TB, TS, TG, TO, TW, TL, TF, TM, rng, buf, scratch):
    """Play uniformly random canonical actions to the end; return (final total, steps)."""
    steps = 0
    while W[L.DONE] == 0:
        n = legal(W, TB, TS, TG, TL, TM, buf)
        a = buf[np.int64(xorshift(rng) % np.uint64(n))]
        step(W, TB, TS, TG, TO, TW, TL, TF, TM, a, scratch)
        steps += 1
    sc = np.zeros(4, dtype=np.int64)
    score(W, TB, TS, sc)
    return sc[0], steps


# ===== packing =================================================================================

@njit(cache=True)
def pack(W, FIELDS, out):
    """Wide state -> packed uint64 words (layout.FIELDS)."""
    out[:] = 0
    bit = 0
    for f in range(FIELDS.shape[0]):
        off, cnt, bits, bias = FIELDS[f, 0], FIELDS[f, 1], FIELDS[f, 2], FIELDS[f, 3]
        for i in range(cnt):
            v = np.uint64(W[off + i] + bias)
            w = bit >> 6
            s = bit & 63
            out[w] |= v << np.uint64(s)
            if s + bits > 64:
                out[w + 1] |= v >> np.uint64(64 - s)
            bit += bits


@njit(cache=True)
def unpack(P, FIELDS, TL, W):
    """Packed words -> wide state (TERR derived from the land bitmasks)."""
    bit = 0
    for f in range(FIELDS.shape[0]):
        off, cnt, bits, bias = FIELDS[f, 0], FIELDS[f, 1], FIELDS[f, 2], FIELDS[f, 3]
        mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
        for i in range(cnt):
            w = bit >> 6
            s = bit & 63
            v = P[w] >> np.uint64(s)
            if s + bits > 64:
                v |= P[w + 1] << np.uint64(64 - s)
            W[off + i] = np.int64(v & mask) - bias
            bit += bits
    derive_terrain(W, TL)


@njit(cache=True)
def rollout_record(W, TB, TS, TG, TO, TW, TL, TF, TM, rng, buf, scratch, actions, branching):
    """rollout() that also records each chosen action and the number of legal actions."""
    steps = 0
    while W[L.DONE] == 0:
        n = legal(W, TB, TS, TG, TL, TM, buf)
        a = buf[np.int64(xorshift(rng) % np.uint64(n))]
        actions[steps] = a
        branching[steps] = n
        step(W, TB, TS, TG, TO, TW, TL, TF, TM, a, scratch)
        steps += 1
    return steps
