"""Numpy tables for the fast solo engine, generated from the reference engine's data.

Everything a kernel needs to know about cards, settlements, landscapes, the wheel, the flow
script and the canonical payment orders is one int64 array here, passed INTO the kernels as
arguments (Numba's cache does not see edits to globals of other modules). ``build_tables``
makes the bundle for a variant; ids and orders come from solver.rules so both engines agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.rules import canonical as C
from solver.rules import goods as G
from solver.rules.cards import BUILDING_IDS, BUILDINGS, GAME, SETTLEMENTS, building_set
from solver.rules.effects import EFFECTS
from solver.rules.profile import RULEBOOK, RuleProfile
from solver.rules.schedule import solo_script

from . import layout as L

EFFECT_KEYS = list(EFFECTS)  # effect ids (kernels switch on these)
EFFECT_ID = {k: i for i, k in enumerate(EFFECT_KEYS)}

# flow step kinds
STEP_KINDS = ("round", "neutral_build", "neutral_contract", "neutral_return", "settle",
              "arrivals", "turn", "end")

# building table columns
B_COLS = ("wood", "clay", "stone", "straw", "coins", "terrain_mask", "cloister", "economic",
          "dwelling", "effect", "phase", "number", "in_game")
(BC_WOOD, BC_CLAY, BC_STONE, BC_STRAW, BC_COINS, BC_TERR, BC_CLOISTER, BC_ECON, BC_DWELL,
 BC_EFFECT, BC_PHASE, BC_NUMBER, BC_INGAME) = range(len(B_COLS))
PHASE_CODE = {"start": 0, "A": 1, "B": 2, "C": 3, "D": 4}
TERR_BIT = {"W": 1 << L.T_WATER, "C": 1 << L.T_COAST, "P": 1 << L.T_PLAINS,
            "H": 1 << L.T_HILL, "M": 1 << L.T_MOUNTAIN}


@dataclass
class Tables:
    """The arrays of one variant (pass the fields into kernels)."""

    variant: str
    buildings: np.ndarray  # (79, len(B_COLS))
    settlements: np.ndarray  # (8, 6): food, energy, economic, dwelling, terrain mask, arrives
    goods: np.ndarray  # (4, 23): food, energy2, points, money
    orders: np.ndarray  # (4, 23): food/energy/points/distinct pay orders, -1 padded
    wheel: np.ndarray  # (13,)
    land: np.ndarray  # district sides (2, 5, 2) flattened + prices: see build_tables
    script: np.ndarray  # (n, 2): step kind, argument
    misc: np.ndarray  # variant flags, ids of special buildings, colours' heartland ids

    def args(self) -> tuple:
        """The tuple of arrays the kernels take, in their parameter order."""
        return (self.buildings, self.settlements, self.goods, self.orders, self.wheel,
                self.land, self.script, self.misc)


# misc indices
M_FRANCE, M_DRINK, M_PLAYER_L1, M_NEUTRAL_L1, M_MARKET, M_PRIORY, M_GARDEN, M_COTTAGE = range(8)
M_WINERY, M_DISTILLERY, M_BROTHER_RATE2, M_ROUND_TOWER = 8, 9, 10, 11
M_SIZE = 12

# land layout: [0:20] district plains terrain/feature pairs, [20:40] hills, [40:49] district
# prices, [49:58] plot prices
LAND_DPRICE, LAND_PPRICE = 40, 49


def build_tables(variant: str, profile: RuleProfile = RULEBOOK, colours=("R", "G")) -> Tables:
    """Generate the tables of one variant from the reference engine's data."""
    in_game = set(building_set(variant, 1, "long"))
    b = np.zeros((L.N_BUILDINGS, len(B_COLS)), dtype=np.int64)
    for i, bid in enumerate(BUILDING_IDS):
        x = BUILDINGS[bid]
        cost = dict(x.cost)
        b[i, BC_WOOD] = cost.get(G.WOOD, 0)
        b[i, BC_CLAY] = cost.get(G.CLAY, 0)
        b[i, BC_STONE] = cost.get(G.STONE, 0)
        b[i, BC_STRAW] = cost.get(G.STRAW, 0)
        b[i, BC_COINS] = x.cost_coins
        b[i, BC_TERR] = sum(TERR_BIT[t] for t in x.terrain)
        b[i, BC_CLOISTER] = int(x.cloister)
        b[i, BC_ECON] = x.economic
        b[i, BC_DWELL] = profile.round_tower_dwelling if bid == "I35" else x.dwelling
        b[i, BC_EFFECT] = EFFECT_ID[x.effect]
        b[i, BC_PHASE] = PHASE_CODE[x.phase]
        b[i, BC_NUMBER] = int(bid[1:]) if not x.heartland else 100 + i
        b[i, BC_INGAME] = int(bid in in_game)
    if variant == "ireland" and profile.whiskey_distillery_free:
        raise ValueError("the fast engine plays the rulebook profile only")
    s = np.zeros((8, 6), dtype=np.int64)
    for i in range(8):
        x = SETTLEMENTS[f"S{i + 1}"]
        s[i] = (x.food, x.energy, x.economic, x.dwelling, sum(TERR_BIT[t] for t in x.terrain),
                PHASE_CODE[x.arrives])
    goods = np.array([G.FOOD, G.ENERGY2, G.POINTS, G.MONEY], dtype=np.int64)
    orders = -np.ones((4, G.N_GOODS), dtype=np.int64)
    for row, order in enumerate((C.FOOD_ORDER, C.ENERGY_ORDER, C.POINTS_ORDER,
                                 C.DISTINCT_ORDER)):
        orders[row, : len(order)] = order
    wheel = np.array(GAME["wheel"]["front"], dtype=np.int64)
    land = np.zeros(58, dtype=np.int64)
    for side, key in enumerate(("district_plains", "district_hills")):
        for col, (terrain, feature) in enumerate(GAME["landscape"][key]):
            land[20 * side + 2 * col] = L.TERRAIN_CODES[{"plains": "P", "hillside": "H"}[terrain]]
            land[20 * side + 2 * col + 1] = {"": 0, "forest": L.C_FOREST, "moor": L.C_MOOR}[feature]
    land[LAND_DPRICE:LAND_DPRICE + 9] = list(reversed(GAME["landscape"]["district_prices"]))
    land[LAND_PPRICE:LAND_PPRICE + 9] = list(reversed(GAME["landscape"]["plot_prices"]))
    steps = solo_script(profile)
    script = np.zeros((len(steps), 2), dtype=np.int64)
    for i, st in enumerate(steps):
        script[i, 0] = STEP_KINDS.index(st[0])
        if len(st) > 1:
            script[i, 1] = st[1] if isinstance(st[1], int) else "ABCDE".index(st[1]) + 1
    idx = {bid: i for i, bid in enumerate(BUILDING_IDS)}
    misc = np.zeros(M_SIZE, dtype=np.int64)
    misc[M_FRANCE] = int(variant == "france")
    misc[M_DRINK] = G.WINE if variant == "france" else G.WHISKEY
    misc[M_PLAYER_L1] = idx[f"L{colours[0]}1"]
    misc[M_NEUTRAL_L1] = idx[f"L{colours[1]}1"]
    misc[M_MARKET] = idx["G13"]
    misc[M_PRIORY] = idx["G01"]
    misc[M_GARDEN] = idx["F09"]
    misc[M_COTTAGE] = idx["I10"]
    misc[M_WINERY] = idx["F21"]
    misc[M_DISTILLERY] = idx["I21"]
    misc[M_BROTHER_RATE2] = int(round(2 * profile.brotherhood_rate_solo))
    misc[M_ROUND_TOWER] = idx["I35"]
    return Tables(variant, b, s, goods, orders, wheel, land, script, misc)
