"""The beam's search policy inside a turn: which of a state's legal actions the turn search
tries.

Inside a turn the expansion follows a **search policy** that trims choices the evaluation
cannot tell apart, to keep a layer affordable (documented here because it bounds what the
search can find; the canonical action space itself is not trimmed):

* a building is offered on at most ``BUILD_CELLS`` spaces: the first in row order and the
  one beside the most settlement dwelling value;
* a settlement on at most ``SETTLE_CELLS`` spaces, those with the best neighbours;
* fell trees / cut peat take the first card in row order, with whichever of the indicator and
  the joker yields more;
* a work contract pays coins when it can, else the drink;
* at most one conversion per turn, and land is bought only before the main action;
* the neutral player builds by a fixed policy: the first empty space it may use, else it
  covers its building of the lowest economic value.
"""

from __future__ import annotations

from numba import njit

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.ids import BC_DWELL, BC_ECON, R_BUILDINGS
from solver.fast.kernels.board import cell_col, cell_row, land_index
from solver.fast.kernels.frames import top
from solver.fast.kernels.wheel import token_yield

from ..evaluation.features import neighbours_dwelling

BUILD_CELLS = 2
SETTLE_CELLS = 3
UNKNOWN = -(1 << 40)  # a space's neighbour value not computed yet


# ===== the search policy inside a turn ==========================================================

@njit(cache=True, _nrt=False)
def _settlement_at(W, col, row):
    y = land_index(W, col, row)
    if y < 0:
        return 0
    return 1 if W[L.GRID + y] >= L.C_SETTLEMENT else 0


@njit(cache=True, _nrt=False)
def _adjacent_settlements(W, x):
    """Settlements on the neighbours of space x (board.neighbours' spaces, no buffer)."""
    col = cell_col(x)
    row = cell_row(x)
    if col == 5:
        return (_settlement_at(W, 5, row - 1) + _settlement_at(W, 5, row + 1)
                + _settlement_at(W, 4, row) + _settlement_at(W, 6, row)
                + _settlement_at(W, 6, row - 1))
    if col == 6:
        return _settlement_at(W, 5, row) + _settlement_at(W, 5, row + 1)
    return (_settlement_at(W, col, row - 1) + _settlement_at(W, col, row + 1)
            + _settlement_at(W, col - 1, row) + _settlement_at(W, col + 1, row))


@njit(cache=True, _nrt=False)
def _site(T, W, site, x):
    """The neighbour value of space x, computed on first need into ``site``."""
    if site[x] == UNKNOWN:
        site[x] = neighbours_dwelling(T, W, x)
    return site[x]


@njit(cache=True, _nrt=False)
def _better_sites(T, W, acts, n, i, s, x, site):
    """How many offered spaces of settlement s (the SETTLE actions beside acts[i], which are
    sorted and so contiguous by card) have a higher neighbour value than x, or the same value
    and a lower index."""
    v = _site(T, W, site, x)
    lo = i
    while lo > 0 and I.SETTLE0 <= acts[lo - 1] < I.DISTRICT0 and \
            (acts[lo - 1] - I.SETTLE0) // L.N_CELLS == s:
        lo -= 1
    better = 0
    for k in range(lo, n):
        a2 = acts[k]
        if a2 >= I.DISTRICT0 or (a2 - I.SETTLE0) // L.N_CELLS != s:
            break
        x2 = (a2 - I.SETTLE0) % L.N_CELLS
        v2 = _site(T, W, site, x2)
        if v2 > v or (v2 == v and x2 < x):
            better += 1
    return better


@njit(cache=True, _nrt=False)
def policy_filter(T, W, acts, n, converted, out):
    """Trim the legal actions of a state to the search policy (module docstring).

    ``out`` (``MAX_LEGAL`` ints) receives the kept actions; its work region [WORK0:] holds
    the neighbour values of the spaces offered to settlements (computed once per space)."""
    fb = top(W)
    kind = W[fb + L.F_KIND]
    m = 0
    if kind == L.K_NEUTRAL_BUILD:
        best = -1
        bestv = 1 << 30
        for i in range(n):
            x = acts[i] - I.NBUILD0
            c = W[L.NGRID + x]
            v = -1 if c == L.C_EMPTY else T[R_BUILDINGS + c - L.C_BUILDING, BC_ECON]
            if v < bestv:
                bestv = v
                best = acts[i]
        out[0] = best
        return 1
    main_used = kind == L.K_SLOT and (W[fb + L.F_AUX] & 1) == 1
    site = out[I.WORK0:I.WORK0 + L.N_CELLS]  # neighbour values, UNKNOWN until computed
    fresh = True
    last_b = -1
    kept = 0
    best_b_x = -1
    first_fell = -1
    first_cut = -1
    for i in range(n):
        a = acts[i]
        if a == I.CONVERT_WINE or a == I.CONVERT_WHISKEY:
            if converted or main_used:
                continue
        elif a >= I.DISTRICT0:
            if main_used:
                continue
        elif I.CONTRACT0 <= a < I.FREE0:
            f = (a - I.CONTRACT0) % 2
            if f == 1 and i > 0 and acts[i - 1] == a - 1:
                continue  # coins possible: skip the drink
        elif I.FELL0 <= a < I.BUILD0:
            # (acts are sorted and distinct: each kind's actions are contiguous, by space)
            base = I.FELL0 if a < I.CUT0 else I.CUT0
            x, j = divmod(a - base, 2)
            # first feature cell only
            if base == I.FELL0:
                if first_fell < 0:
                    first_fell = x
                if x != first_fell:
                    continue
            else:
                if first_cut < 0:
                    first_cut = x
                if x != first_cut:
                    continue
            # the better source when both are offered
            t = I.T_WOOD if base == I.FELL0 else I.T_PEAT
            if j == 0:
                has_other = i + 1 < n and acts[i + 1] == a + 1
            else:
                has_other = i > 0 and acts[i - 1] == a - 1
            if has_other:
                own = token_yield(T, W, t)
                jok = token_yield(T, W, I.T_JOKER)
                if (j == 0 and jok > own) or (j == 1 and jok <= own):
                    continue
        elif I.BUILD0 <= a < I.SETTLE0:
            b, x = divmod(a - I.BUILD0, L.N_CELLS)
            if b != last_b:
                last_b = b
                kept = 0
                # the cell beside the most settlement dwelling, if any
                best_b_x = -1
                bestv = 0
                for k in range(i, n):
                    a2 = acts[k]
                    if a2 >= I.SETTLE0 or (a2 - I.BUILD0) // L.N_CELLS != b:
                        break
                    x2 = (a2 - I.BUILD0) % L.N_CELLS
                    v = _adjacent_settlements(W, x2) * T[R_BUILDINGS + b, BC_DWELL]
                    if v > bestv:
                        bestv = v
                        best_b_x = x2
            if x != best_b_x:
                if kept >= BUILD_CELLS - (1 if best_b_x >= 0 else 0):
                    continue
                kept += 1
        elif I.SETTLE0 <= a < I.DISTRICT0:
            s, x = divmod(a - I.SETTLE0, L.N_CELLS)
            if fresh:
                fresh = False
                for y in range(L.N_CELLS):
                    site[y] = UNKNOWN
            if _better_sites(T, W, acts, n, i, s, x, site) >= SETTLE_CELLS:
                continue
        out[m] = a
        m += 1
    return m
