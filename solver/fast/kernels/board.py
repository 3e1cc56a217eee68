"""The player's and the neutral's landscapes: spaces, neighbours, terrain, land purchases,
clergy positions, building locations and the display (RULES §5, §6).
"""

from __future__ import annotations

from numba import njit

from .. import ids as I
from .. import layout as L


@njit(cache=True, _nrt=False)
def cell_index(col, row):
    """Window index of (col, row) (canonical.cell_index), or -1 outside the window."""
    if row < L.ROW_MIN or row >= L.ROW_MIN + L.N_ROWS or col < -2 or col > 6:
        return -1
    return (row - L.ROW_MIN) * 9 + col + 2


@njit(cache=True, _nrt=False)
def land_index(W, col, row):
    """Window index of (col, row) if it is a space of the player's land, else -1."""
    y = cell_index(col, row)
    if y < 0:
        return -1
    t = W[L.TERR + y]
    return -1 if t == L.T_NONE or t == L.T_FILLER else y


@njit(cache=True, _nrt=False)
def cell_col(x):
    """Column of a window index."""
    return x % 9 - 2


@njit(cache=True, _nrt=False)
def cell_row(x):
    """Row of a window index."""
    return x // 9 + L.ROW_MIN


@njit(cache=True, _nrt=False)
def has_land(W, col, row):
    """Is there land (any terrain) at (col, row) of the player's landscape?"""
    x = cell_index(col, row)
    return x >= 0 and W[L.TERR + x] != L.T_NONE


@njit(cache=True, _nrt=False)
def _nb(W, col, row, out, n):
    y = cell_index(col, row)
    if y >= 0:
        t = W[L.TERR + y]
        if t != L.T_NONE and t != L.T_FILLER:
            out[n] = y
            return n + 1
    return n


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def is_building(code):
    """Is a space content code a building?"""
    return L.C_BUILDING <= code < L.C_SETTLEMENT


@njit(cache=True, _nrt=False)
def _cloister_at(T, W, col, row):
    y = land_index(W, col, row)
    if y < 0:
        return False
    c = W[L.GRID + y]
    return is_building(c) and T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_CLOISTER] == 1


@njit(cache=True, _nrt=False)
def touches_cloister(T, W, x):
    """Does player space x touch a cloister building (RULES §5.6)?"""
    col = cell_col(x)
    row = cell_row(x)
    if col == 5:
        return (_cloister_at(T, W, 5, row - 1) or _cloister_at(T, W, 5, row + 1)
                or _cloister_at(T, W, 4, row) or _cloister_at(T, W, 6, row)
                or _cloister_at(T, W, 6, row - 1))
    if col == 6:
        return _cloister_at(T, W, 5, row) or _cloister_at(T, W, 5, row + 1)
    return (_cloister_at(T, W, col, row - 1) or _cloister_at(T, W, col, row + 1)
            or _cloister_at(T, W, col - 1, row) or _cloister_at(T, W, col + 1, row))


@njit(cache=True, _nrt=False)
def _ncloister_at(T, W, y):
    c = W[L.NGRID + y]
    return is_building(c) and T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_CLOISTER] == 1


@njit(cache=True, _nrt=False)
def ntouches_cloister(T, W, x):
    """Does neutral heartland space x touch a cloister (the neighbours of nneighbours)?"""
    row = x // 5
    col = x % 5
    return ((row > 0 and _ncloister_at(T, W, x - 5)) or (row < 1 and _ncloister_at(T, W, x + 5))
            or (col > 0 and _ncloister_at(T, W, x - 1))
            or (col < 4 and _ncloister_at(T, W, x + 1)))


@njit(cache=True, _nrt=False)
def occupied(W, loc):
    """Does a clergyman stand on location loc (a player space or 200 + neutral space)?"""
    for i in range(6):
        if W[L.CLERGY + i] == loc:
            return True
    return False


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def loc_content(W, loc):
    """Content code of a location (player space, or 200 + neutral space)."""
    if loc >= L.NEUTRAL_LOC:
        return W[L.NGRID + loc - L.NEUTRAL_LOC]
    return W[L.GRID + loc]


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def all_placed(W, owner):
    """Has an owner (0 player, 1 neutral) placed all three clergymen?"""
    base = L.CLERGY + 3 * owner
    return W[base] != -1 and W[base + 1] != -1 and W[base + 2] != -1


@njit(cache=True, _nrt=False)
def return_clergy(W, owner):
    """An owner's clergymen come home."""
    base = L.CLERGY + 3 * owner
    for i in range(3):
        W[base + i] = -1


@njit(cache=True, _nrt=False)
def derive_terrain(T, W):
    """Fill TERR from the LAND bitmasks (heartland, districts, plots)."""
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
                W[L.TERR + cell_index(col, row)] = T[I.R_LAND, 20 * side + 2 * col]
        if (coast >> y) & 1:
            for r in range(row, row + 2):
                W[L.TERR + cell_index(-2, r)] = L.T_WATER
                W[L.TERR + cell_index(-1, r)] = L.T_COAST
        if (mount >> y) & 1:
            W[L.TERR + cell_index(5, row)] = L.T_HILL
            W[L.TERR + cell_index(5, row + 1)] = L.T_HILL
            W[L.TERR + cell_index(6, row)] = L.T_MOUNTAIN
            W[L.TERR + cell_index(6, row + 1)] = L.T_FILLER


@njit(cache=True, _nrt=False)
def land_rows(W):
    """(lowest, highest) row with land."""
    lo = 99
    hi = -99
    for x in range(L.N_CELLS):
        if W[L.TERR + x] != L.T_NONE:
            r = cell_row(x)
            lo = min(lo, r)
            hi = max(hi, r)
    return lo, hi


@njit(cache=True, _nrt=False)
def strip_land(W, row):
    """Is any of columns 0..4 of a row land (a district stands there)?"""
    for col in range(5):
        if has_land(W, col, row):
            return True
    return False


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def add_district(T, W, row, side):
    """Lay a district (side 0 plains, 1 hills) on a row: terrain and its features."""
    y = row - L.ROW_MIN
    W[L.LAND] |= 1 << y
    if side == 1:
        W[L.LAND + 1] |= 1 << y
    for col in range(5):
        x = cell_index(col, row)
        W[L.TERR + x] = T[I.R_LAND, 20 * side + 2 * col]
        W[L.GRID + x] = T[I.R_LAND, 20 * side + 2 * col + 1]


@njit(cache=True, _nrt=False)
def add_plot(W, row, side):
    """Lay a plot (side 0 coast, 1 mountain) with its top on a row."""
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


@njit(cache=True, _nrt=False)
def first_display(T, W):
    """The display building the neutral builds next (lowest card number), or -1."""
    best = -1
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] == L.S_DISPLAY:
            if best < 0 or T[I.R_BUILDINGS + b, I.BC_NUMBER] < T[I.R_BUILDINGS + best, I.BC_NUMBER]:
                best = b
    return best


@njit(cache=True, _nrt=False)
def fee(W):
    """The work-contract fee in coins: 1, or 2 once the Winery/Distillery is built."""
    return 2 if W[L.FEE_RAISED] else 1


@njit(cache=True, _nrt=False)
def count_features(W, kind):
    """Number of player spaces holding a feature (forest or moor)."""
    n = 0
    for x in range(L.N_CELLS):
        if W[L.GRID + x] == kind:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def count_cloisters(T, W):
    """Number of the player's cloister buildings."""
    n = 0
    for x in range(L.N_CELLS):
        c = W[L.GRID + x]
        if is_building(c) and T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_CLOISTER] == 1:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def first_display_any(W):
    """Is any building on display?"""
    for b in range(L.N_BUILDINGS):
        if W[L.STATUS + b] == L.S_DISPLAY:
            return True
    return False
