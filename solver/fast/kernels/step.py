"""Applying a canonical action, the automatic flow (schedule.solo_script) and the forced END,
and the initial solo state (SOLO §1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import ids as I
from .. import layout as L
from .board import (
    add_district,
    add_plot,
    all_placed,
    building_loc,
    cell_index,
    derive_terrain,
    fee,
    first_display,
    first_display_any,
    free_clergy,
    is_building,
    occupied,
    return_clergy,
)
from .frames import chain_add, chain_clear, pop, push, top
from .goods import coin_value, pay_coins, pay_goods, pay_rule
from .legal import legal_unsorted, neutral_targets
from .resolve import do_option
from .wheel import rotate, wheel_take

TOKEN_GOOD = np.array(I.TOKEN_GOOD, dtype=np.int64)


@njit(cache=True, _nrt=False)
def raise_fee(T, W, b):
    """Building the Winery or the Whiskey Distillery, by anyone, raises the work-contract fee
    (board.fee)."""
    if b == T[I.R_MISC, I.M_WINERY] or b == T[I.R_MISC, I.M_DISTILLERY]:
        W[L.FEE_RAISED] = 1


@njit(cache=True, _nrt=False)
def do_build(T, W, b, x, work):
    """Build b on space x: pay its materials and coins; a free prior may use it at once."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    cost = work[I.W_COST:I.W_COST + I.COST_SIZE]
    cost[:] = 0
    cost[I.WOOD] = T[I.R_BUILDINGS + b, I.BC_WOOD]
    cost[I.CLAY] = T[I.R_BUILDINGS + b, I.BC_CLAY]
    cost[I.STONE] = T[I.R_BUILDINGS + b, I.BC_STONE]
    cost[I.STRAW] = T[I.R_BUILDINGS + b, I.BC_STRAW]
    pay_goods(g, cost)
    if T[I.R_BUILDINGS + b, I.BC_COINS] > 0:
        pay_coins(g, T[I.R_BUILDINGS + b, I.BC_COINS])
    W[L.STATUS + b] = L.S_MINE
    W[L.GRID + x] = L.C_BUILDING + b
    raise_fee(T, W, b)
    if W[L.CLERGY + 2] == -1:
        push(W, L.K_PRIOR_BONUS, b, x, 0)


@njit(cache=True, _nrt=False)
def do_settle(T, W, s, x, work):
    """Place settlement S(s+1) on space x, paying its food and energy by the payment rule."""
    W[L.SETTL] &= ~(1 << s)
    W[L.GRID + x] = L.C_SETTLEMENT + s
    r = I.R_SETTLEMENTS + s
    pay_rule(T, W[L.GOODS:L.GOODS + L.N_GOODS], T[r, I.SC_FOOD], 2 * T[r, I.SC_ENERGY], 0, 0,
             work[I.W_GOT:I.W_GOT + L.N_GOODS])


@njit(cache=True, _nrt=False)
def do_buy(T, W, cid, free):
    """Buy (or take for free) the district or plot of a canonical id."""
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if cid < I.PLOT0:
        y, side = divmod(cid - I.DISTRICT0, 2)
        if not free:
            pay_coins(g, T[I.R_LAND, I.LAND_DPRICE + W[L.NDIST]])
        add_district(T, W, y + L.ROW_MIN, side)
        W[L.NDIST] += 1
    else:
        y, side = divmod(cid - I.PLOT0, 2)
        if not free:
            pay_coins(g, T[I.R_LAND, I.LAND_PPRICE + W[L.NPLOT]])
        add_plot(W, y + L.ROW_MIN, side)
        W[L.NPLOT] += 1


@njit(cache=True, _nrt=False)
def do_fell_cut(T, W, cid):
    """Fell a forest / cut a moor and take wood / peat from the wheel."""
    if cid < I.CUT0:
        x, j = divmod(cid - I.FELL0, 2)
        t = I.T_WOOD
    else:
        x, j = divmod(cid - I.CUT0, 2)
        t = I.T_PEAT
    W[L.GRID + x] = L.C_EMPTY
    W[L.GOODS + TOKEN_GOOD[t]] += wheel_take(T, W, t, j)


@njit(cache=True, _nrt=False)
def do_convert(W, cid):
    """Convert one wine (1 coin) or whiskey (2 coins)."""
    if cid == I.CONVERT_WINE:
        W[L.GOODS + I.WINE] -= 1
        W[L.GOODS + I.COIN] += 1
    else:
        W[L.GOODS + I.WHISKEY] -= 1
        W[L.GOODS + I.COIN] += 2


@njit(cache=True, _nrt=False)
def do_contract(T, W, cid):
    """A work contract: pay the fee, place the neutral's clergyman, use the building."""
    b, r = divmod(cid - I.CONTRACT0, 4)
    k, f = divmod(r, 2)
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if f == 0:
        pay_coins(g, fee(W))
    else:
        g[T[I.R_MISC, I.M_DRINK]] -= 1
    loc = building_loc(W, b)
    W[L.CLERGY + 3 + free_clergy(W, 1, k)] = loc
    chain_clear(W)
    chain_add(W, b)
    push(W, L.K_OPTION, b, loc, L.VIA_CONTRACT)


@njit(cache=True, _nrt=False)
def end_convert_or_buy(T, W, cid):
    """What a turn and a settlement turn share: END (1), a conversion (1), a bought landscape
    (2); 0 if cid is none of these."""
    if cid == I.END:
        pop(W)
    elif cid == I.CONVERT_WINE or cid == I.CONVERT_WHISKEY:
        do_convert(W, cid)
    elif cid >= I.DISTRICT0:
        do_buy(T, W, cid, False)
        return 2
    else:
        return 0
    return 1


@njit(cache=True, _nrt=False)
def slot_step(T, W, fb, cid, work):
    """A turn's action: END, a conversion, a land purchase, or its main action."""
    done = end_convert_or_buy(T, W, cid)
    if done == 2:
        W[L.BOUGHT] = 1
    elif done == 0:
        W[fb + L.F_AUX] |= 1
        if cid < I.CONTRACT0:
            b, k = divmod(cid - I.USE0, 2)
            x = building_loc(W, b)
            W[L.CLERGY + free_clergy(W, 0, k)] = x
            chain_clear(W)
            chain_add(W, b)
            push(W, L.K_OPTION, b, x, L.VIA_CLERGY)
        elif cid < I.FREE0:
            do_contract(T, W, cid)
        elif cid < I.BUILD0:
            do_fell_cut(T, W, cid)
        else:
            b, x = divmod(cid - I.BUILD0, L.N_CELLS)
            do_build(T, W, b, x, work)


@njit(cache=True, _nrt=False)
def neutral_build_step(T, W, cid):
    """The neutral builds the first display building on its space cid - NBUILD0 (SOLO §3)."""
    b = first_display(T, W)
    x = cid - I.NBUILD0
    old = W[L.NGRID + x]
    if is_building(old):
        W[L.STATUS + old - L.C_BUILDING] = L.S_GONE
    W[L.NGRID + x] = L.C_BUILDING + b
    W[L.STATUS + b] = L.S_NEUTRAL
    for i in range(L.N_NBUILT):
        if W[L.NBUILT + i] == -1:
            W[L.NBUILT + i] = b
            break
    raise_fee(T, W, b)
    if not first_display_any(W):
        pop(W)


@njit(cache=True, _nrt=False)
def raw_step(T, W, cid, work):
    """Apply one canonical action (no flow advance, no forced END)."""
    fb = top(W)
    kind = W[fb + L.F_KIND]
    if kind == L.K_SLOT:
        slot_step(T, W, fb, cid, work)
    elif kind == L.K_OPTION:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        pop(W)
        do_option(T, W, b, loc, cid - I.OPT0, work)
    elif kind == L.K_PRIOR_BONUS:
        b = W[fb + L.F_B]
        loc = W[fb + L.F_LOC]
        pop(W)
        if cid != I.END:
            W[L.CLERGY + 2] = loc
            chain_clear(W)
            chain_add(W, b)
            do_option(T, W, b, loc, cid - I.OPT0, work)
    elif kind == L.K_FREE_USE:
        pop(W)
        if cid != I.END:
            t = cid - I.FREE0
            chain_add(W, t)
            push(W, L.K_OPTION, t, building_loc(W, t), L.VIA_FREE)
    elif kind == L.K_GRANT_BUILD:
        pop(W)
        if cid != I.END:
            b, x = divmod(cid - I.BUILD0, L.N_CELLS)
            do_build(T, W, b, x, work)
    elif kind == L.K_GRANT_SETTLE:
        pop(W)
        if cid != I.END:
            s, x = divmod(cid - I.SETTLE0, L.N_CELLS)
            do_settle(T, W, s, x, work)
    elif kind == L.K_GRANT_FELL_CUT:
        if cid == I.END:
            pop(W)
        else:
            do_fell_cut(T, W, cid)
            W[fb + L.F_AUX] &= ~(1 if cid < I.CUT0 else 2)
            if W[fb + L.F_AUX] == 0:
                pop(W)
    elif kind == L.K_GRANT_LAND:
        if cid == I.END:
            pop(W)
        else:
            do_buy(T, W, cid, True)
            W[fb + L.F_AUX] &= ~(1 if cid < I.PLOT0 else 2)
            if W[fb + L.F_AUX] == 0:
                pop(W)
    elif kind == L.K_NEUTRAL_BUILD:
        neutral_build_step(T, W, cid)
    elif kind == L.K_NEUTRAL_CONTRACT:
        pop(W)
        if cid != I.END:
            do_contract(T, W, cid)
    elif kind == L.K_SETTLE:
        done = end_convert_or_buy(T, W, cid)
        if done == 2:
            W[fb + L.F_AUX] |= 1
        elif done == 0:
            W[fb + L.F_AUX] |= 2
            s, x = divmod(cid - I.SETTLE0, L.N_CELLS)
            do_settle(T, W, s, x, work)
    # a chain of free uses ends with its option/free-use frames
    if W[L.FDEPTH] == 0:
        chain_clear(W)
    else:
        k = W[top(W) + L.F_KIND]
        if k != L.K_OPTION and k != L.K_FREE_USE:
            chain_clear(W)


@njit(cache=True, _nrt=False)
def advance(T, W, work):
    """Run automatic flow steps until a decision is pending or the game is over."""
    while W[L.FDEPTH] == 0 and W[L.DONE] == 0:
        i = W[L.STEP]
        W[L.STEP] = i + 1
        kind = T[I.R_SCRIPT + i, 0]
        arg = T[I.R_SCRIPT + i, 1]
        if kind == I.S_ROUND:
            W[L.ROUND] = arg
            for owner in range(2):
                if all_placed(W, owner):
                    return_clergy(W, owner)
            W[L.BOUGHT] = 0
            rotate(W)
        elif kind == I.S_NEUTRAL_BUILD:
            for j in range(L.N_NBUILT):
                W[L.NBUILT + j] = -1
            W[L.PHASE] = arg
            if first_display_any(W):
                push(W, L.K_NEUTRAL_BUILD, -1, -1, 0)
        elif kind == I.S_NEUTRAL_CONTRACT:
            if W[L.NBUILT] != -1 and W[L.CLERGY + 5] == -1:
                if neutral_targets(W, work[I.W_TARGETS:I.W_NB]) > 0:
                    push(W, L.K_NEUTRAL_CONTRACT, -1, -1, 0)
        elif kind == I.S_NEUTRAL_RETURN:
            if all_placed(W, 1):
                return_clergy(W, 1)
        elif kind == I.S_SETTLE:
            W[L.PHASE] = arg
            push(W, L.K_SETTLE, -1, -1, 0)
        elif kind == I.S_ARRIVALS:
            W[L.SETTL] |= 1 << (3 + arg)
            for b in range(L.N_BUILDINGS):
                if W[L.STATUS + b] == L.S_STACK and T[I.R_BUILDINGS + b, I.BC_PHASE] == arg:
                    W[L.STATUS + b] = L.S_DISPLAY
        elif kind == I.S_TURN:
            push(W, L.K_SLOT, -1, -1, 0)
        else:  # S_END
            W[L.DONE] = 1
            while W[L.FDEPTH] > 0:
                pop(W)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def surely_forced(T, W):
    """Cheap sufficient test that END is the only legal action (a turn after its main
    action with no landscape purchase and no conversion possible)."""
    fb = top(W)
    if W[fb + L.F_KIND] != L.K_SLOT or W[fb + L.F_AUX] & 1 == 0:
        return False
    if W[L.GOODS + I.WINE] > 0 or W[L.GOODS + I.WHISKEY] > 0:
        return False
    if W[L.BOUGHT]:
        return True
    money = coin_value(W[L.GOODS:L.GOODS + L.N_GOODS])
    if W[L.NDIST] < 9 and money >= T[I.R_LAND, I.LAND_DPRICE + W[L.NDIST]]:
        return False
    if W[L.NPLOT] < 9 and money >= T[I.R_LAND, I.LAND_PPRICE + W[L.NPLOT]]:
        return False
    return True


#: forced_ends' answer for a turn after its main action whose END it did not check (defer)
DEFERRED = -2


@njit(cache=True, _nrt=False)
def forced_ends(T, W, scratch, defer):
    """Take END while it is the only legal action (a decision with one choice is taken).

    Returns how many legal actions of the decision now pending it left unsorted in
    ``scratch`` (its check generated them), or -1 if none (the game is over, or the cheap test
    saw a choice). With ``defer``, a turn after its main action is not checked: it returns
    DEFERRED there (the search takes END next anyway; expansion.turn_step).
    """
    work = scratch[I.WORK0:]
    while W[L.DONE] == 0:
        if surely_a_choice(W):
            return -1
        if not surely_forced(T, W):
            if defer:
                fb = top(W)
                if W[fb + L.F_KIND] == L.K_SLOT and (W[fb + L.F_AUX] & 1) == 1:
                    return DEFERRED
            n = legal_unsorted(T, W, scratch)
            if n != 1 or scratch[0] != I.END:
                return n
        raw_step(T, W, I.END, work)
        advance(T, W, work)
    return -1


@njit(cache=True, _nrt=False)
def step(T, W, cid, scratch):
    """Apply a canonical action, advance the flow, and take any forced END."""
    work = scratch[I.WORK0:]
    raw_step(T, W, cid, work)
    advance(T, W, work)
    forced_ends(T, W, scratch, False)


@njit(cache=True, _nrt=False)
def init(T, W, scratch):
    """The initial solo state (SOLO §1), advanced to its first decision."""
    work = scratch[I.WORK0:]
    W[:] = 0
    for t in range(L.N_TOK):
        W[L.TOK + t] = 0 if t <= I.T_JOKER else -1
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
    derive_terrain(T, W)
    p1 = T[I.R_MISC, I.M_PLAYER_L1]
    n1 = T[I.R_MISC, I.M_NEUTRAL_L1]
    W[L.GRID + cell_index(0, 0)] = L.C_MOOR
    W[L.GRID + cell_index(0, 1)] = L.C_MOOR
    W[L.GRID + cell_index(1, 0)] = L.C_FOREST
    W[L.GRID + cell_index(1, 1)] = L.C_FOREST
    W[L.GRID + cell_index(2, 0)] = L.C_FOREST
    W[L.GRID + cell_index(4, 0)] = L.C_BUILDING + p1
    W[L.GRID + cell_index(2, 1)] = L.C_BUILDING + p1 + 1
    W[L.GRID + cell_index(4, 1)] = L.C_BUILDING + p1 + 2
    W[L.NGRID + 0] = L.C_BUILDING + T[I.R_MISC, I.M_MARKET]
    W[L.NGRID + 4] = L.C_BUILDING + n1
    W[L.NGRID + 7] = L.C_BUILDING + n1 + 1
    W[L.NGRID + 9] = L.C_BUILDING + n1 + 2
    for b in range(L.N_BUILDINGS):
        if T[I.R_BUILDINGS + b, I.BC_INGAME] == 1:
            W[L.STATUS + b] = L.S_DISPLAY if T[I.R_BUILDINGS + b, I.BC_PHASE] == 0 else L.S_STACK
    for i in range(3):
        W[L.STATUS + p1 + i] = L.S_MINE
        W[L.STATUS + n1 + i] = L.S_NEUTRAL
    W[L.STATUS + T[I.R_MISC, I.M_MARKET]] = L.S_NEUTRAL
    W[L.SETTL] = 0b1111
    advance(T, W, work)
    forced_ends(T, W, scratch, False)
