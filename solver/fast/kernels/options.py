"""Building functions, choosing: the concrete data and cost of each canonical option, and
which options are valid now (canonical.CANON_OPTIONS; effects.py's ``options``).

An effect with one fixed option reads its cost from its ``costs`` row (tables.py), an effect
whose options are a fixed menu its option's data and cost from its menu row; the others are
handled here by kind: wheel takes and free uses, converters (their count depends on the
goods), and the rest (those with one price for all options read it from their ``costs`` row).
Each group returns -1 for an effect that is not its own, else 1 / 0 for an option that exists
now / does not.
"""

from __future__ import annotations

from numba import njit

from .. import ids as I
from .. import layout as L
from .board import count_cloisters, count_features, first_display_any, is_building, loc_content
from .goods import affordable, coin_value, mix_largest
from .wheel import wheel_choice_ok


@njit(cache=True, _nrt=False)
def _wheel_opt(W, t, j, data):
    if not wheel_choice_ok(W, t, j):
        return 0
    data[0] = t
    data[1] = j
    return 1


@njit(cache=True, _nrt=False)
def option_data(T, W, b, loc, o, data, cost):
    """Concrete choice (data) and cost of canonical option o (>= 1) of building b.

    Returns False if the option does not exist now (the reference engine would not offer it,
    or its canonical rule yields nothing). Affordability is checked by the caller.
    """
    eff = T[I.R_BUILDINGS + b, I.BC_EFFECT]
    for i in range(4):
        data[i] = 0
    if T[I.R_EFFECTS + eff, I.EF_FIXED_COST]:
        for i in range(I.COST_SIZE):
            cost[i] = T[I.R_COSTS + eff, i]
        return True
    if T[I.R_EFFECTS + eff, I.EF_MENU]:
        r = I.R_MENUS + T[I.R_EFFECTS + eff, I.EF_MENU_ROW] + o - 1
        for i in range(4):
            data[i] = T[r, I.MC_DATA + i]
        for i in range(I.COST_SIZE):
            cost[i] = T[r, I.MC_COST + i]
        return True
    for i in range(I.COST_SIZE):
        cost[i] = 0
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    r = _wheel_and_free_options(T, W, eff, o, data)
    if r < 0:
        r = _converter_options(T, g, eff, o, data, cost)
    if r < 0:
        r = _other_options(T, W, g, eff, o, data, cost)
    return r == 1


@njit(cache=True, _nrt=False)
def _wheel_and_free_options(T, W, eff, o, data):
    """Wheel takes (own indicator or joker) and the free uses whose offer depends on the state."""
    if eff == I.E_CLAY_MOUND:
        return _wheel_opt(W, I.T_CLAY, o - 1, data)
    if eff == I.E_OFFICE:
        return _wheel_opt(W, I.T_COIN, o - 1, data)
    if eff == I.E_QUARRY:
        return _wheel_opt(W, I.T_STONE, o - 1, data)
    if eff == I.E_GRAPEVINE:
        return _wheel_opt(W, I.T_GRAPES, o - 1, data)
    if eff == I.E_FARMYARD:
        t = I.T_SHEEP if o <= 2 else I.T_GRAIN
        return _wheel_opt(W, t, (o - 1) % 2, data)
    if eff == I.E_PRIORY:
        return 1 if count_priory_targets(T, W) > 0 else 0
    if eff == I.E_HOSPICE:
        return 1 if first_display_any(W) else 0
    return -1


@njit(cache=True, _nrt=False)
def _converter_options(T, g, eff, o, data, cost):
    """Converters: how much they convert follows from the goods (the maximum, or a half)."""
    if eff == I.E_WINDMILL or eff == I.E_MALTHOUSE:
        if eff == I.E_WINDMILL:
            k = min(T[I.R_EFFECTS + eff, I.EF_RATES], g[I.GRAIN])
        else:
            k = g[I.GRAIN] if o == 1 else g[I.GRAIN] // 2
        if k <= 0:
            return 0
        data[0] = k
        cost[I.GRAIN] = k
        return 1
    if eff == I.E_BAKERY:
        energy2 = 0  # the energy of the fuel held (canonical._bake_max)
        for j in range(L.N_GOODS):
            gi = T[I.R_ORDERS + 1, j]
            if gi < 0:
                break
            energy2 += g[gi] * T[I.R_VALUES + 1, gi]
        if o <= 3:
            n = min(g[I.FLOUR], energy2)
            m = o - 1
        else:
            n = 0
            m = o - 3
        if n == 0 and m == 0:
            return 0
        if m > min(2, g[I.BREAD] + n):
            return 0
        data[0] = n
        data[1] = m
        cost[I.FLOUR] = n
        cost[I.C_ENERGY] = n
        return 1
    if eff == I.E_BREWERY or eff == I.E_WINERY:
        if eff == I.E_BREWERY:
            kmax, made = min(g[I.GRAIN], g[I.MALT]), g[I.BEER]
        else:
            kmax, made = g[I.GRAPES], g[I.WINE]
        k = kmax if o <= 2 else 0
        s = 0 if o == 1 else 1
        if k == 0 and s == 0:
            return 0
        if s > min(1, made + k):
            return 0
        data[0] = k
        data[1] = s
        if eff == I.E_BREWERY:
            cost[I.GRAIN] = k
            cost[I.MALT] = k
        else:
            cost[I.GRAPES] = k
        return 1
    if eff == I.E_KILN:
        k = 0 if o == 1 else g[I.PEAT]
        data[0] = k
        cost[I.PEAT] = k
        return 1
    if eff == I.E_SLAUGHTER:
        k = min(g[I.SHEEP], g[I.STRAW] + g[I.GRAIN])
        if k <= 0:
            return 0
        data[0] = k
        cost[I.SHEEP] = k
        cost[I.STRAW] = k
        return 1
    if eff == I.E_DISTILLERY:
        k = min(g[I.MALT], g[I.WOOD], g[I.PEAT])
        if k <= 0:
            return 0
        data[0] = k
        cost[I.MALT] = k
        cost[I.WOOD] = k
        cost[I.PEAT] = k
        return 1
    if eff == I.E_DORMITORY:
        k = 0 if o == 1 else min(g[I.STRAW] + g[I.GRAIN], g[I.WOOD])
        if o == 2 and k <= 0:
            return 0
        data[0] = k
        cost[I.STRAW] = k
        cost[I.WOOD] = k
        return 1
    return -1


@njit(cache=True, _nrt=False)
def _price(T, eff, cost):
    """The one price of every option of eff (effects.PRICES), from its ``costs`` row."""
    for i in range(I.COST_SIZE):
        cost[i] = T[I.R_COSTS + eff, i]


@njit(cache=True, _nrt=False)
def _other_options(T, W, g, eff, o, data, cost):
    """The rest: options bounded by goods held, wonders left, forests, or a point limit."""
    if eff == I.E_SPINNING:
        return 1 if g[I.SHEEP] > 0 else 0
    if eff == I.E_LIBRARY:
        # k in 0..3, s in 0..1, not both 0, in that order
        k = o // 2
        s = o % 2
        if s > min(1, g[I.BOOK] + k):
            return 0
        data[0] = k
        data[1] = s
        cost[I.C_COINS] = k
        return 1
    if eff == I.E_REFECTORY:
        k = o - 1
        if k > min(4, g[I.MEAT] + 1):
            return 0
        data[0] = k
        return 1
    if eff == I.E_FOREST_HUT:
        for x in range(L.N_CELLS):
            if W[L.GRID + x] == L.C_FOREST:
                data[0] = x
                return 1
        return 0
    if eff == I.E_FORGER:
        first = T[I.R_EFFECTS + eff, I.EF_RATES]
        more = T[I.R_EFFECTS + eff, I.EF_RATES + 1]
        kmax = max(0, (coin_value(g) - first) // more + 1)
        k = o if o <= 3 else kmax
        if k <= 0 or k > kmax:
            return 0
        data[0] = k
        cost[I.C_COINS] = first + more * (k - 1)
        return 1
    if eff == I.E_PILGRIMAGE:
        return 1 if pilgrimage(g, o, data) else 0
    if eff == I.E_PRINTING:
        if o > min(4, count_features(W, L.C_FOREST)):
            return 0
        data[0] = o
        return 1
    if eff == I.E_CHAMBER or eff == I.E_SACRISTY or eff == I.E_ROUND_TOWER:
        _price(T, eff, cost)
        return 1 if W[L.WONDERS] > 0 else 0
    if eff == I.E_FESTIVAL or eff == I.E_BROTHERHOOD:
        _price(T, eff, cost)
        if eff == I.E_FESTIVAL:
            limit = count_features(W, L.C_FOREST) + count_features(W, L.C_MOOR)
        else:
            limit = (T[I.R_MISC, I.M_BROTHER_RATE2] * count_cloisters(T, W)) // 2
        first = 0 if o == 1 else 1
        return 1 if mix_largest(T, limit, first, first, first, first, data) else 0
    return 0


@njit(cache=True, _nrt=False)
def pilgrimage(g, o, data):
    """Pilgrimage Site option o: the upgrades of one or two point goods, as gains in data."""
    # sequences: B, C, O, BB, BC, BO, CC, CO, OO (B=book, C=ceramic, O=ornament)
    h = data  # counts of book, ceramic, ornament, reliquary; then the gains
    h[0], h[1], h[2], h[3] = g[I.BOOK], g[I.CERAMIC], g[I.ORNAMENT], g[I.RELIQUARY]
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
    h[0] -= g[I.BOOK]
    h[1] -= g[I.CERAMIC]
    h[2] -= g[I.ORNAMENT]
    h[3] -= g[I.RELIQUARY]
    return True


@njit(cache=True, _nrt=False)
def priory_target(T, W, owner):
    """Building under an owner's prior (not a Priory), or -1."""
    pos = W[L.CLERGY + 3 * owner + 2]
    if pos < 0:
        return -1
    c = loc_content(W, pos)
    if is_building(c) and c - L.C_BUILDING != T[I.R_MISC, I.M_PRIORY]:
        return c - L.C_BUILDING
    return -1


@njit(cache=True, _nrt=False)
def count_priory_targets(T, W):
    """How many prior-held buildings a Priory may use (one per owner at most)."""
    n = 0
    for owner in range(2):
        if priory_target(T, W, owner) >= 0:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def valid_options(T, W, b, loc, work):
    """Canonical options (1-based; 0 always) legal for using b now, deduplicated by data, into
    work[W_OPTS:]; returns their number. ``work`` is the work space (ids.WORK0).
    """
    out = work[I.W_OPTS:I.W_DATA]
    data = work[I.W_DATA:I.W_DATA + 4]
    cost = work[I.W_COST:I.W_COST + I.COST_SIZE]
    seen = work[I.W_SEEN:I.W_REST]
    rest = work[I.W_REST:I.W_REST + L.N_GOODS]
    n = 0
    out[n] = 0
    n += 1
    nseen = 0
    for o in range(1, T[I.R_EFFECTS + T[I.R_BUILDINGS + b, I.BC_EFFECT], I.EF_OPTIONS] + 1):
        if not option_data(T, W, b, loc, o, data, cost):
            continue
        if not affordable(T, W, cost, rest):
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
