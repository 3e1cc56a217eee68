"""Legal canonical actions of a wide state, per decision frame (canonical.py's id layout).
"""

from __future__ import annotations

from numba import njit

from .. import ids as I
from .. import layout as L
from .board import (
    building_loc,
    district_row_ok,
    fee,
    first_display,
    free_clergy,
    is_building,
    land_rows,
    ntouches_cloister,
    occupied,
    plot_row_ok,
    touches_cloister,
)
from .frames import top
from .goods import coin_value
from .options import valid_options
from .resolve import free_targets
from .wheel import wheel_choice_ok


@njit(cache=True, _nrt=False)
def build_actions(T, W, out, n):
    """BUILD actions: affordable display buildings on every empty space of their terrain."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    money = coin_value(g)
    work = out[I.WORK0:]
    free = work[I.W_FREE:I.W_FREE + L.N_CELLS]  # empty buildable spaces, row-major
    nfree = 0
    for x in range(L.N_CELLS):
        t = W[L.TERR + x]
        if t != L.T_NONE and t != L.T_FILLER and W[L.GRID + x] == L.C_EMPTY:
            free[nfree] = x
            nfree += 1
    if nfree == 0:
        return n
    touch = work[I.W_TOUCH:I.W_TOUCH + nfree]  # cloister adjacency, computed on first need
    touch[:] = -1
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] != L.S_DISPLAY:
            continue
        r = I.R_BUILDINGS + b
        if (T[r, I.BC_WOOD] > g[I.WOOD] or T[r, I.BC_CLAY] > g[I.CLAY]
                or T[r, I.BC_STONE] > g[I.STONE] or T[r, I.BC_STRAW] > g[I.STRAW] + g[I.GRAIN]
                or T[r, I.BC_COINS] > money):
            continue
        mask = T[I.R_BUILDINGS + b, I.BC_TERR]
        cl = T[I.R_BUILDINGS + b, I.BC_CLOISTER] == 1
        for i in range(nfree):
            x = free[i]
            if (mask >> W[L.TERR + x]) & 1 == 0:
                continue
            if cl:
                if touch[i] < 0:
                    touch[i] = 1 if touches_cloister(T, W, x) else 0
                if touch[i] == 0:
                    continue
            out[n] = I.BUILD0 + L.N_CELLS * b + x
            n += 1
    return n


@njit(cache=True, _nrt=False)
def land_actions(T, W, free, district, plot, out, n):
    """DISTRICT / PLOT actions within the window (free: granted, no price)."""
    money = coin_value(W[L.GOODS:L.GOODS + L.N_GOODS])
    lo, hi = land_rows(W)
    if district and W[L.NDIST] < 9 and (free or money >= T[I.R_LAND, I.LAND_DPRICE + W[L.NDIST]]):
        for y in range(L.N_ROWS):
            if district_row_ok(W, y + L.ROW_MIN, lo, hi):
                out[n] = I.DISTRICT0 + 2 * y
                out[n + 1] = I.DISTRICT0 + 2 * y + 1
                n += 2
    if plot and W[L.NPLOT] < 9 and (free or money >= T[I.R_LAND, I.LAND_PPRICE + W[L.NPLOT]]):
        for side in range(2):
            for y in range(L.N_ROWS):
                if plot_row_ok(W, y + L.ROW_MIN, side, lo, hi):
                    out[n] = I.PLOT0 + 2 * y + side
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def settle_actions(T, W, out, n):
    """Settlements in hand, affordable, on every empty space of their terrain (RULES §9)."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    food = 0
    energy2 = 0
    for i in range(L.N_GOODS):
        food += g[i] * T[I.R_VALUES + 0, i]
        energy2 += g[i] * T[I.R_VALUES + 1, i]
    for s in range(8):
        if (W[L.SETTL] >> s) & 1 == 0:
            continue
        r = I.R_SETTLEMENTS + s
        if food < T[r, I.SC_FOOD] or energy2 < 2 * T[r, I.SC_ENERGY]:
            continue
        mask = T[I.R_SETTLEMENTS + s, I.SC_TERR]
        for x in range(L.N_CELLS):
            t = W[L.TERR + x]
            if t == L.T_NONE or W[L.GRID + x] != L.C_EMPTY or (mask >> t) & 1 == 0:
                continue
            out[n] = I.SETTLE0 + L.N_CELLS * s + x
            n += 1
    return n


@njit(cache=True, _nrt=False)
def fell_cut_actions(W, feature, token, base, out, n):
    """FELL / CUT actions on every forest / moor, with own indicator and/or joker."""
    for x in range(L.N_CELLS):
        if W[L.GRID + x] == feature:
            for j in range(2):
                if wheel_choice_ok(W, token, j):
                    out[n] = base + 2 * x + j
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def convert_actions(W, out, n):
    """CONVERT actions: wine and whiskey to coins."""
    if W[L.GOODS + I.WINE] > 0:
        out[n] = I.CONVERT_WINE
        n += 1
    if W[L.GOODS + I.WHISKEY] > 0:
        out[n] = I.CONVERT_WHISKEY
        n += 1
    return n


@njit(cache=True, _nrt=False)
def neutral_cell_ok(T, W, b, x):
    """May the neutral build b on its space x (cover only like with like, cloisters touching)?"""
    c = W[L.NGRID + x]
    cl = T[I.R_BUILDINGS + b, I.BC_CLOISTER] == 1
    if c == L.C_EMPTY:
        return (not cl) or ntouches_cloister(T, W, x)
    if is_building(c):
        return (T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_CLOISTER] == 1) == cl
    return False


@njit(cache=True, _nrt=False)
def neutral_targets(W, out):
    """Buildings the neutral built this phase that are free for a work contract; their number."""
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


@njit(cache=True, _nrt=False)
def fee_kinds(T, W):
    """Bit 0: coins possible, bit 1: the variant's drink possible."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    k = 0
    if coin_value(g) >= fee(W):
        k |= 1
    if g[T[I.R_MISC, I.M_DRINK]] > 0:
        k |= 2
    return k


@njit(cache=True, _nrt=False)
def slot_actions(T, W, fb, out):
    """A turn's actions: END, then (before the main action) uses, contracts, felling,
    cutting and builds, then land purchase and conversions."""
    n = 0
    out[n] = I.END
    n += 1
    if W[fb + L.F_AUX] & 1 == 0:
        lay = free_clergy(W, 0, 0) >= 0
        pri = free_clergy(W, 0, 1) >= 0
        for x in range(L.N_CELLS):
            c = W[L.GRID + x]
            if is_building(c) and not occupied(W, x):
                b = c - L.C_BUILDING
                if lay:
                    out[n] = I.USE0 + 2 * b
                    n += 1
                if pri:
                    out[n] = I.USE0 + 2 * b + 1
                    n += 1
        fk = fee_kinds(T, W)
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
                                out[n] = I.CONTRACT0 + 4 * b + 2 * k + f
                                n += 1
        n = fell_cut_actions(W, L.C_FOREST, I.T_WOOD, I.FELL0, out, n)
        n = fell_cut_actions(W, L.C_MOOR, I.T_PEAT, I.CUT0, out, n)
        n = build_actions(T, W, out, n)
    if W[L.BOUGHT] == 0:
        n = land_actions(T, W, False, True, True, out, n)
    n = convert_actions(W, out, n)
    return n


@njit(cache=True, _nrt=False)
def legal_unsorted(T, W, out):
    """The legal canonical actions of W's top frame into out (unsorted); their number."""
    if W[L.DONE]:
        return 0
    fb = top(W)
    kind = W[fb + L.F_KIND]
    n = 0
    if kind == L.K_SLOT:
        n = slot_actions(T, W, fb, out)
    elif kind == L.K_OPTION or kind == L.K_PRIOR_BONUS:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        work = out[I.WORK0:]
        if kind == L.K_OPTION:
            m = valid_options(T, W, b, loc, work)
        else:
            out[n] = I.END
            n += 1
            m = 0
            if W[L.CLERGY + 2] == -1:
                W[L.CLERGY + 2] = loc
                m = valid_options(T, W, b, loc, work)
                W[L.CLERGY + 2] = -1
        for i in range(m):
            out[n] = I.OPT0 + work[I.W_OPTS + i]
            n += 1
    elif kind == L.K_FREE_USE:
        out[n] = I.END
        n += 1
        work = out[I.WORK0:]
        m = free_targets(T, W, W[fb + L.F_B], W[fb + L.F_LOC], work)
        for i in range(m):
            out[n] = I.FREE0 + work[I.W_TARGETS + i]
            n += 1
    elif kind == L.K_GRANT_BUILD:
        out[n] = I.END
        n += 1
        n = build_actions(T, W, out, n)
    elif kind == L.K_GRANT_SETTLE:
        out[n] = I.END
        n += 1
        n = settle_actions(T, W, out, n)
    elif kind == L.K_GRANT_FELL_CUT:
        out[n] = I.END
        n += 1
        if W[fb + L.F_AUX] & 1:
            n = fell_cut_actions(W, L.C_FOREST, I.T_WOOD, I.FELL0, out, n)
        if W[fb + L.F_AUX] & 2:
            n = fell_cut_actions(W, L.C_MOOR, I.T_PEAT, I.CUT0, out, n)
    elif kind == L.K_GRANT_LAND:
        out[n] = I.END
        n += 1
        aux = W[fb + L.F_AUX]
        n = land_actions(T, W, True, aux & 1, aux & 2, out, n)
    elif kind == L.K_NEUTRAL_BUILD:
        b = first_display(T, W)
        for x in range(L.N_NCELLS):
            if neutral_cell_ok(T, W, b, x):
                out[n] = I.NBUILD0 + x
                n += 1
    elif kind == L.K_NEUTRAL_CONTRACT:
        out[n] = I.END
        n += 1
        fk = fee_kinds(T, W)
        buf = out[I.WORK0 + I.W_TARGETS:I.WORK0 + I.W_NB]
        m = neutral_targets(W, buf)
        for i in range(m):
            for f in range(2):
                if (fk >> f) & 1:
                    out[n] = I.CONTRACT0 + 4 * buf[i] + 2 + f
                    n += 1
    elif kind == L.K_SETTLE:
        out[n] = I.END
        n += 1
        aux = W[fb + L.F_AUX]
        if aux == 0:
            n = land_actions(T, W, False, True, True, out, n)
        if aux & 2 == 0:
            n = settle_actions(T, W, out, n)
        n = convert_actions(W, out, n)
    return n


@njit(cache=True, _nrt=True)  # (the sort needs the NRT)
def legal(T, W, out):
    """Sorted canonical legal actions into ``out``; returns their number."""
    n = legal_unsorted(T, W, out)
    out[:n].sort()
    return n
