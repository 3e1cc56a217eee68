"""Evaluation of solo positions for search: the score so far plus what the position promises.

``evaluate(W, ...)`` = the current score breakdown (goods + economic + dwelling, exactly as at
game end) **plus** a potential term that looks past the current score:

* **goods in stock** count at a point value per tile (``GOOD_VALUE``): raw goods are worth
  what they typically turn into (stone into ornaments and buildings, clay into ceramics,
  grain/malt into beer and whiskey, ...). Goods that already score (books, reliquaries, coins
  in groups) are counted by the score itself, so their value here is only their extra use.
  The potential fades linearly to zero over the game (``time_left``): at the end only the
  score counts, early on resources are what wins.
* **settlement cards in hand**: a settlement is worth points later (its economic and
  dwelling value plus neighbours); each unbuilt card adds ``SETTLEMENT_HOPE`` x time left.
* **space**: empty buildable spaces (``SPACE_VALUE`` each) and forest/moor cards
  (``FEATURE_VALUE``, future wood/peat and Festival Ground points), because buildings and
  settlements need room.
* **kinds of goods** while a Chamber of Wonders (France) is in reach and wonders are left:
  ``WONDER_HOPE`` x (kinds held / 13) ** 2. The Chamber turns one tile of each of 13 kinds
  into a 30-point wonder; no per-tile value sees that (``chamber_progress``).
* **the stock's shape**: above ``stock_knee`` tiles of one good (0: off) each further tile
  counts ``stock_slope`` of its value. A linear value lets a beam hoard whatever it
  overvalues (Ireland's fitted weights held 93 peat); Ireland's default weightings bend at
  15 tiles to half (``weights.STOCK_SHAPE``; docs/experiments.md, 2026-12-07).
* **wonder paths** of the Sacristy and the Round Tower while either is in reach and wonders
  are left: ``WONDER_PATH`` x (progress towards their next wonder) ** 2 (``wonder_path``).
  The best Ireland lines take four to six wonders through them (a quarter of their
  points), and like the Chamber's kinds the progress is a set, not a sum of tiles. It is
  off (0) in the hand-set weightings and the tuned defaults: on held-out seeds it showed no
  gain the noise of single beams lets one see (docs/experiments.md). ``tune --start`` a
  file with a positive value tunes it.

The hand-set weights (``PORTFOLIO``) were set from the card table and adjusted with short
beam runs; they are plain numpy arrays passed into the kernel, so tuning never touches code.
``ora-solve tune`` (tune.py) searches them by the cross-entropy method and writes a weights
file (weights.py: the values named by ``WEIGHT_NAMES``); tuned defaults committed in
``tuned/<variant>.json`` lead the search's portfolio (``weights.default_portfolio``) only
if they scored at least as well on held-out seeds as the best hand-set weighting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.ids import (
    BC_ECON,
    BC_EFFECT,
    C_COINS,
    C_POINTS,
    E_CHAMBER,
    E_ROUND_TOWER,
    E_SACRISTY,
    R_BUILDINGS,
    R_COSTS,
    R_SETTLEMENTS,
    R_VALUES,
    SC_DWELL,
    SC_ECON,
)
from solver.fast.kernels.api import dwelling_of
from solver.fast.kernels.board import cell_col, cell_row, land_index
from solver.fast.kernels.goods import coin_value, goods_points
from solver.rules.goods import NAMES

# point value of one tile in stock, by good id (see module docstring)
_GOOD_VALUE = {
    I.WOOD: 0.8, I.WHISKEY: 1.0, I.GRAIN: 0.5, I.STRAW: 0.4, I.SHEEP: 0.8, I.MEAT: 1.5,
    I.CLAY: 0.8, I.CERAMIC: 0.5, I.PEAT: 0.8, I.COAL: 1.3, I.COIN: 0.5, I.BOOK: 0.8,
    I.NICKEL: 0.5, I.RELIQUARY: 0.5, I.STONE: 1.5, I.ORNAMENT: 0.5, I.GRAPES: 0.6,
    I.WINE: 1.0, I.FLOUR: 0.6, I.BREAD: 1.2, I.MALT: 0.7, I.BEER: 2.0, I.WONDER: 0.0,
}
GOOD_VALUE = np.array([_GOOD_VALUE[g] for g in range(L.N_GOODS)], dtype=np.float64)
SETTLEMENT_HOPE = 6.0
SPACE_VALUE = 1.0
FEATURE_VALUE = 0.5
WONDER_HOPE = 30.0
WONDER_PATH = 0.0  # hand-set: off (see the module docstring)
ROUNDS = 32.0
STOCK_KNEE = 0.0  # off: every tile counts its whole value
STOCK_SLOPE = 1.0

# the weights as one array (kernel argument): [0:23] goods, then hope, space, feature, fade,
# wonder hope, wonder path, stock knee, stock slope
FADE = 1.0  # the potential is weighted by (rounds left / 32) ** FADE
WEIGHTS = np.concatenate([GOOD_VALUE, [SETTLEMENT_HOPE, SPACE_VALUE, FEATURE_VALUE, FADE,
                                       WONDER_HOPE, WONDER_PATH, STOCK_KNEE, STOCK_SLOPE]])
#: the name of each weight, in the kernel's order (weights files name their values by these)
WEIGHT_NAMES = tuple(n.replace(" ", "_") for n in NAMES) + (
    "settlement_hope", "space", "feature", "fade", "wonder_hope", "wonder_path", "stock_knee",
    "stock_slope")
#: where each weight after the goods' (weights[:W_HOPE], by good id) sits (globals the kernels
#: freeze: ints computed from this module's own names)
W_HOPE = WEIGHT_NAMES.index("settlement_hope")
W_SPACE = WEIGHT_NAMES.index("space")
W_FEATURE = WEIGHT_NAMES.index("feature")
W_FADE = WEIGHT_NAMES.index("fade")
W_WONDER_HOPE = WEIGHT_NAMES.index("wonder_hope")
W_WONDER_PATH = WEIGHT_NAMES.index("wonder_path")
W_KNEE = WEIGHT_NAMES.index("stock_knee")
W_SLOPE = WEIGHT_NAMES.index("stock_slope")
#: weights that shape the potential rather than value a thing: a table keeps them unfaded and
#: a perturbation leaves them as they are
SHAPE_WEIGHTS = (W_FADE, W_KNEE, W_SLOPE)
#: weights added after weights files were first written, with the value that gives the
#: evaluation those files were tuned under (a file without the name reads as that value)
ADDED_WEIGHTS = {"wonder_path": 0.0, "stock_knee": STOCK_KNEE, "stock_slope": STOCK_SLOPE}
N_WEIGHTS = len(WEIGHT_NAMES)
assert len(WEIGHTS) == N_WEIGHTS
#: a weighting by round (a *table*) is TABLE_ROWS vectors of N_WEIGHTS, flattened: row r
#: weighs the positions of round r (0 unused, 33 the end), already faded, so its ``fade`` is
#: ignored (its stock knee and slope are not faded). A fitted evaluation (fit.py) values goods
#: differently early and late.
TABLE_ROWS = 34


def as_table(w) -> np.ndarray:
    """A weighting as a flattened table by round: a vector's rows are it times its fading
    (rounds left / 32) ** fade, which evaluates as the vector does (up to rounding); a
    table is returned as it is."""
    w = np.asarray(w, dtype=np.float64).ravel()
    if len(w) == TABLE_ROWS * N_WEIGHTS:
        return w.copy()
    if len(w) != N_WEIGHTS:
        raise ValueError(f"a weighting has {N_WEIGHTS} values or {TABLE_ROWS} x {N_WEIGHTS}, "
                         f"not {len(w)}")
    rows = np.empty((TABLE_ROWS, N_WEIGHTS))
    for r in range(TABLE_ROWS):
        rows[r] = w * max(0.0, (ROUNDS - r + 1.0) / ROUNDS) ** w[W_FADE]
        rows[r, W_FADE] = 0.0
        rows[r, W_KNEE] = w[W_KNEE]
        rows[r, W_SLOPE] = w[W_SLOPE]
    return rows.ravel()


def _variant(goods_scale: float, hope: float, space: float) -> np.ndarray:
    w = WEIGHTS.copy()
    w[:W_HOPE] *= goods_scale
    w[W_HOPE], w[W_SPACE] = hope, space
    return w


#: The evaluation portfolio of beam search (beam/stages.py splits a wide beam into groups, one
#: weighting each). Short beam runs showed that the final score is very sensitive to how much
#: stock is worth against points already scored: no one weighting was best in both variants,
#: and nearby weightings can differ by 50 points (docs/experiments.md). Several weightings,
#: each steering its own share of the beam, are far more robust than any one. Entries: (goods
#: scale, settlement-card hope, space value) around the best measured ones, best first; the
#: third is a random-search tuning result (France).
_TUNED_FRANCE = np.array([2.4, 3.0, 1.5, 1.2, 2.4, 4.5, 2.4, 1.5, 2.4, 3.9, 1.5, 2.4, 1.5, 1.5,
                          4.085, 1.5, 1.8, 2.783, 1.8, 3.6, 2.1, 6.0, 0.0, 20.0, 1.187, 0.5,
                          1.0, WONDER_HOPE, WONDER_PATH, STOCK_KNEE, STOCK_SLOPE])
PORTFOLIO = [_variant(3.0, 22.0, 1.0), _variant(3.0, 15.0, 2.0), _TUNED_FRANCE] + [
    _variant(scale, hope, space)
    for scale in (3.0, 3.5, 2.5) for hope in (18.0, 12.0, 25.0) for space in (1.0, 2.0)
    if (scale, hope, space) != (3.0, 22.0, 1.0)
]


@njit(cache=True, _nrt=False)
def _beside(T, W, col, row):
    """What the space (col, row) adds to a settlement beside it (RULES §14.3; 0 off the land)."""
    y = land_index(W, col, row)
    if y < 0:
        return 0
    c = W[L.GRID + y]
    return (3 if W[L.TERR + y] == L.T_WATER and c == L.C_EMPTY else 0) + dwelling_of(T, c)


@njit(cache=True, _nrt=False)
def neighbours_dwelling(T, W, x):
    """kernels.api.neighbour_dwelling without its neighbour buffer (board.neighbours' spaces)."""
    col = cell_col(x)
    row = cell_row(x)
    if col == 5:
        return (_beside(T, W, 5, row - 1) + _beside(T, W, 5, row + 1) + _beside(T, W, 4, row)
                + _beside(T, W, 6, row) + _beside(T, W, 6, row - 1))
    if col == 6:
        return _beside(T, W, 5, row) + _beside(T, W, 5, row + 1)
    return (_beside(T, W, col, row - 1) + _beside(T, W, col, row + 1)
            + _beside(T, W, col - 1, row) + _beside(T, W, col + 1, row))


@njit(cache=True, _nrt=False)
def board_terms(T, W):
    """The evaluation's terms of the spaces: economic + dwelling points (as kernels.api.score),
    empty buildable spaces, forest/moor cards. One pass, no allocation."""
    econ = 0
    dwell = 0
    space = 0
    feats = 0
    for x in range(L.N_CELLS):
        c = W[L.GRID + x]
        if c >= L.C_SETTLEMENT:
            r = R_SETTLEMENTS + c - L.C_SETTLEMENT
            econ += T[r, SC_ECON]
            dwell += T[r, SC_DWELL] + neighbours_dwelling(T, W, x)
        elif c >= L.C_BUILDING:
            econ += T[R_BUILDINGS + c - L.C_BUILDING, BC_ECON]
        t = W[L.TERR + x]
        if t == L.T_NONE or t == L.T_FILLER or t == L.T_WATER:
            continue
        if c == L.C_EMPTY:
            space += 1
        elif c == L.C_FOREST or c == L.C_MOOR:
            feats += 1
    return econ + dwell, space, feats


def bent_stock(goods, knee: float, slope: float) -> np.ndarray:
    """What each good's stock counts for in the potential (as evaluate_board counts it): its
    tiles up to ``knee``, then ``slope`` a tile (``knee`` 0: every tile)."""
    n = np.asarray(goods, dtype=np.float64)
    if knee <= 0:
        return n.copy()
    return np.where(n > knee, knee + slope * (n - knee), n)


@njit(cache=True, _nrt=False)
def evaluate_board(T, W, weights, board, space, feats):
    """evaluate() given W's board_terms (the search reuses them when a turn leaves the spaces
    as they were). ``weights`` is one vector, or a table by round (``as_table``)."""
    total = goods_points(T, W[L.GOODS:L.GOODS + L.N_GOODS]) + board
    if W[L.DONE]:
        return float(total)
    b = 0  # where W's weights start: a table by round holds one row per round
    if len(weights) > N_WEIGHTS:
        b = min(W[L.ROUND], TABLE_ROWS - 1) * N_WEIGHTS
        left = 1.0  # a table's rows carry their own fading
    else:
        left = max(0.0, (ROUNDS - W[L.ROUND] + 1.0) / ROUNDS)
        if weights[W_FADE] != 1.0:  # (x ** 1.0 == x; pow took about 1.5% of an expansion)
            left = left ** weights[W_FADE]
    pot = 0.0
    knee = weights[b + W_KNEE]
    if knee > 0.0:
        slope = weights[b + W_SLOPE]
        for g in range(L.N_GOODS):
            n = float(W[L.GOODS + g])
            if n > knee:
                n = knee + slope * (n - knee)
            pot += weights[b + g] * n
    else:
        for g in range(L.N_GOODS):
            pot += weights[b + g] * W[L.GOODS + g]
    cards = 0
    for s in range(8):
        if (W[L.SETTL] >> s) & 1:
            cards += 1
    pot += weights[b + W_HOPE] * cards
    pot += weights[b + W_SPACE] * space + weights[b + W_FEATURE] * feats
    if weights[b + W_WONDER_HOPE] != 0.0 and W[L.WONDERS] > 0:
        pot += weights[b + W_WONDER_HOPE] * chamber_progress(T, W)
    if weights[b + W_WONDER_PATH] != 0.0 and W[L.WONDERS] > 0:
        pot += weights[b + W_WONDER_PATH] * wonder_path(T, W)
    return float(total) + left * pot


@njit(cache=True, _nrt=False)
def evaluate(T, W, weights):
    """Score so far plus the fading potential of goods, settlement cards and space."""
    board, space, feats = board_terms(T, W)
    return evaluate_board(T, W, weights, board, space, feats)


@njit(cache=True, _nrt=False)
def chamber_progress(T, W):
    """(distinct goods held / 13) ** 2 while a Chamber of Wonders is or will be in reach.

    The Chamber (France) turns one tile each of 13 kinds of goods, mostly worthless raw
    goods, into a wonder worth 30 points: the best action of the game once the stock is
    diverse enough. A per-tile goods value cannot see that, so the evaluation counts the
    kinds held. Reachable means in the game and not covered: still in its stack, on display,
    built by the player, or built by the neutral player (a work contract uses it).

    Without this term France's beam lines held no wonder; with it the line took six, from the
    Sacristy: a stock of many kinds feeds every wonder building, so the term pays off beyond
    the Chamber itself. The weight is sensitive, like every weight of this evaluation
    (docs/experiments.md).
    """
    ok = False
    for b in range(L.N_BUILDINGS):
        if T[R_BUILDINGS + b, BC_EFFECT] == E_CHAMBER:  # one Chamber card: stop at it
            st = W[L.STATUS + b]
            ok = st == L.S_STACK or st == L.S_DISPLAY or st == L.S_MINE or st == L.S_NEUTRAL
            break
    if not ok:
        return 0.0
    kinds = 0
    for g in range(L.N_GOODS):
        if W[L.GOODS + g] > 0:
            kinds += 1
    kinds = min(kinds, 13)
    return kinds * kinds / 169.0


@njit(cache=True, _nrt=False)
def _in_reach(T, W, effect):
    """Whether the building with ``effect`` is in the game and not covered (in its stack, on
    display, built by the player or by the neutral, whose buildings a work contract uses)."""
    for b in range(L.N_BUILDINGS):
        if T[R_BUILDINGS + b, BC_EFFECT] == effect:
            st = W[L.STATUS + b]
            return st == L.S_STACK or st == L.S_DISPLAY or st == L.S_MINE or st == L.S_NEUTRAL
    return False


@njit(cache=True, _nrt=False)
def wonder_path(T, W):
    """(progress towards the next wonder) ** 2 of the Sacristy and the Round Tower, the
    better of the two in reach (0 if neither is).

    Their prices are their ``costs`` rows (effects.PRICES), the goods' points the points row
    of the goods' values:

    * Sacristy (G34): 1 book, 1 ceramic, 1 ornament, 1 reliquary make a wonder: the share
      of the four kinds held.
    * Round Tower (I35, Ireland): 5 coins, 1 whiskey and other goods worth 14 points: the
      mean of the three shares (coins counted to 5, the whiskey, the points of books,
      ceramics, ornaments and reliquaries counted to 14).
    """
    best = 0.0
    g = W[L.GOODS:L.GOODS + L.N_GOODS]
    if _in_reach(T, W, E_SACRISTY):
        kinds = 0
        n = 0
        for i in range(L.N_GOODS):
            if T[R_COSTS + E_SACRISTY, i] > 0:
                n += 1
                if g[i] > 0:
                    kinds += 1
        best = (kinds / n) ** 2
    if _in_reach(T, W, E_ROUND_TOWER):
        r = R_COSTS + E_ROUND_TOWER
        coins = min(T[r, C_COINS], coin_value(g)) / T[r, C_COINS]
        whiskey = min(T[r, I.WHISKEY], g[I.WHISKEY]) / T[r, I.WHISKEY]
        held = 0
        for i in (I.BOOK, I.CERAMIC, I.ORNAMENT, I.RELIQUARY):
            held += T[R_VALUES + 2, i] * g[i]  # the points row of the goods' values
        points = min(T[r, C_POINTS], held) / T[r, C_POINTS]
        best = max(best, ((coins + whiskey + points) / 3.0) ** 2)
    return best
