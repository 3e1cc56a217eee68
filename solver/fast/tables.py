"""The table set of the fast solo engine: ONE ``Tables`` value per variant, built from the
reference engine's rows.

Everything a kernel needs to know about cards, settlements, landscapes, the wheel, the flow
script, the payment orders and the building functions is a row range of one int64 array,
``Tables.array``, passed INTO every kernel as its first argument ``T`` (Numba's cache does not
see edits to globals of other modules). Row ranges and columns are named in ids.py; the other
fields of ``Tables`` are named views of the same rows.

The building-function rows come from the effect registry itself (``solver/rules/effects.py``)
rather than being retyped: ``effects`` holds each effect's canonical option count
(``canonical.CANON_OPTIONS``), ``costs`` the fixed cost of an effect with one fixed option, and
``gains`` the goods of an effect whose function only hands out a fixed set of goods (the
``_simple`` rows: Granary, Portico, ...). Those are found by running the registered
``options``/``resolve`` against a probe that can only record gains (:class:`_GainProbe`); an
effect that looks at anything else is left to its kernel in kernels/options.py, resolve.py.
An effect with one price for options that depend on the state (``effects.PRICES``: the
wonder buildings, the point mixes) has it in its ``costs`` row too. ``menus`` has one row per
entry of a fixed menu (``effects.MENUS``: Fuel Merchant, Inn, ...): the option's data and
cost, and the goods its function hands out where that is all it does (found by the probe).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.rules import canonical as C
from solver.rules import goods as G
from solver.rules.cards import BUILDING_IDS, BUILDINGS, GAME, SETTLEMENTS, building_set
from solver.rules.effects import EFFECTS, MENUS, PRICES, RATES
from solver.rules.profile import RULEBOOK, RuleProfile
from solver.rules.schedule import solo_script

from . import ids
from . import layout as L


class Tables(NamedTuple):
    """The tables of one variant: ``array`` is what kernels take (their first argument, ``T``);
    the other fields are named views into it, for Python code and tests.

    One int64 array rather than a dozen: a kernel cannot be handed the wrong table, and an
    array argument costs nothing to read from (pulling arrays out of a tuple inside compiled
    code costs a reference count each time, which made the kernels 3-4 times slower).
    """

    array: np.ndarray  # (TABLE_ROWS, TABLE_WIDTH): every table, in the row ranges R_* of ids.py
    buildings: np.ndarray  # (79, len(ids.B_COLS)), columns BC_*
    settlements: np.ndarray  # (8, 6), columns SC_*
    values: np.ndarray  # (4, 23): food, energy2, points, money of each good
    orders: np.ndarray  # (4, 23): food/energy/points/distinct pay orders, -1 padded
    wheel: np.ndarray  # (13,) the production wheel's values
    land: np.ndarray  # (LAND_SIZE,) district sides and prices
    misc: np.ndarray  # (M_SIZE,) variant flags, ids of special buildings
    effects: np.ndarray  # (n_effects, EF_SIZE), columns EF_*
    costs: np.ndarray  # (n_effects, COST_SIZE) the fixed cost of a one-option effect
    gains: np.ndarray  # (n_effects, 23) the fixed goods of a gains-only effect
    fields: np.ndarray  # layout.FIELDS: how the wide state packs
    script: np.ndarray  # (n, 2): flow step kind (STEP_KINDS), argument
    menus: np.ndarray  # (n_entries, MENU_SIZE): the fixed menus' options, columns MC_*


def _assemble(parts: dict[str, np.ndarray]) -> Tables:
    """Copy each table into its row range of one array; return the array and its views."""
    block = np.zeros((ids.TABLE_ROWS, ids.TABLE_WIDTH), dtype=np.int64)
    rows = {"buildings": (ids.R_BUILDINGS, L.N_BUILDINGS),
            "settlements": (ids.R_SETTLEMENTS, 8), "values": (ids.R_VALUES, 4),
            "orders": (ids.R_ORDERS, 4), "wheel": (ids.R_WHEEL, None),
            "land": (ids.R_LAND, None), "misc": (ids.R_MISC, None),
            "effects": (ids.R_EFFECTS, ids.MAX_EFFECTS), "costs": (ids.R_COSTS, ids.MAX_EFFECTS),
            "gains": (ids.R_GAINS, ids.MAX_EFFECTS), "fields": (ids.R_FIELDS, ids.MAX_FIELDS),
            "script": (ids.R_SCRIPT, ids.MAX_SCRIPT), "menus": (ids.R_MENUS, ids.MAX_MENUS)}
    views = {}
    for name, (r0, cap) in rows.items():
        a = np.asarray(parts[name], dtype=np.int64)
        if a.ndim == 1:
            if a.shape[0] > ids.TABLE_WIDTH:
                raise ValueError(f"table {name} is wider than {ids.TABLE_WIDTH}")
            block[r0, : a.shape[0]] = a
            views[name] = block[r0, : a.shape[0]]
        else:
            if a.shape[0] > cap or a.shape[1] > ids.TABLE_WIDTH:
                raise ValueError(f"table {name} {a.shape} does not fit its {cap} rows")
            block[r0:r0 + a.shape[0], : a.shape[1]] = a
            views[name] = block[r0:r0 + a.shape[0], : a.shape[1]]
    return Tables(block, **views)


PHASE_CODE = {"start": 0, "A": 1, "B": 2, "C": 3, "D": 4}
TERR_BIT = {"W": 1 << L.T_WATER, "C": 1 << L.T_COAST, "P": 1 << L.T_PLAINS,
            "H": 1 << L.T_HILL, "M": 1 << L.T_MOUNTAIN}


class _GainProbe:
    """Stands in for an effects.Use that knows nothing but the rule profile and how to receive
    goods."""

    def __init__(self, profile: RuleProfile = RULEBOOK):
        self.profile = profile
        self.got: dict[int, int] = {}

    def gain(self, good: int, n: int = 1, pennies: bool = False) -> None:
        self.got[good] = self.got.get(good, 0) + n

    def gain_all(self, items: dict[int, int]) -> None:
        for good, n in items.items():
            self.gain(good, n)


def _cost_row(cost) -> np.ndarray:
    row = np.zeros(ids.COST_SIZE, dtype=np.int64)
    for good, n in cost.goods.items():
        row[good] = n
    row[ids.C_COINS] = cost.coins
    row[ids.C_FOOD] = cost.food
    row[ids.C_ENERGY] = cost.energy2
    row[ids.C_POINTS] = cost.points
    row[ids.C_DISTINCT] = cost.distinct
    return row


def effect_rows(profile: RuleProfile = RULEBOOK
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(effects, costs, gains, menus) from the effect registry, its MENUS, PRICES and RATES, and
    CANON_OPTIONS (module docstring)."""
    if set(EFFECTS) != set(ids.EFFECT_KEYS):
        raise ValueError("ids.EFFECT_KEYS and the effect registry differ: "
                         f"{sorted(set(EFFECTS) ^ set(ids.EFFECT_KEYS))}")
    n = len(ids.EFFECT_KEYS)
    eff = np.zeros((n, ids.EF_SIZE), dtype=np.int64)
    costs = np.zeros((n, ids.COST_SIZE), dtype=np.int64)
    gains = np.zeros((n, G.N_GOODS), dtype=np.int64)
    menus = np.zeros((sum(len(m.entries) for m in MENUS.values()), ids.MENU_SIZE),
                     dtype=np.int64)
    row = 0
    for i, key in enumerate(ids.EFFECT_KEYS):
        # an effect without canonical options (Carpentry) is not in a solo game
        eff[i, ids.EF_OPTIONS] = len(C.CANON_OPTIONS.get(key, ()))
        rates = RATES.get(key, ())
        eff[i, ids.EF_RATES:ids.EF_RATES + len(rates)] = rates
        if key in PRICES:
            costs[i] = _cost_row(PRICES[key])
        if key in MENUS:
            eff[i, ids.EF_MENU] = 1
            eff[i, ids.EF_MENU_ROW] = row
            eff[i, ids.EF_MENU_GAINS] = 1
            first = row
            for data in MENUS[key].entries:
                probe = _GainProbe(profile)
                menus[row, ids.MC_DATA:ids.MC_DATA + len(data)] = data
                menus[row, ids.MC_COST:ids.MC_GAINS] = _cost_row(MENUS[key].cost(probe, data))
                try:
                    EFFECTS[key].resolve(probe, data)
                except (AttributeError, TypeError, IndexError, KeyError):
                    eff[i, ids.EF_MENU_GAINS] = 0  # the function does more than hand out goods
                for good, k in probe.got.items():
                    menus[row, ids.MC_GAINS + good] = k
                row += 1
            if not eff[i, ids.EF_MENU_GAINS]:
                menus[first:row, ids.MC_GAINS:] = 0
            continue
        probe = _GainProbe()
        try:
            options = EFFECTS[key].options(probe)
        except (AttributeError, TypeError, IndexError, KeyError):
            continue  # the options depend on the state
        if len(options) != 1 or options[0].data != ():
            continue
        eff[i, ids.EF_FIXED_COST] = 1
        costs[i] = _cost_row(options[0].cost)
        try:
            EFFECTS[key].resolve(probe, ())
        except (AttributeError, TypeError, IndexError, KeyError):
            continue  # the function does more than hand out goods
        eff[i, ids.EF_GAINS] = 1
        for good, k in probe.got.items():
            gains[i, good] = k
    return eff, costs, gains, menus


def build_tables(variant: str, profile: RuleProfile = RULEBOOK, colours=("R", "G")) -> Tables:
    """Generate the tables of one variant from the reference engine's data."""
    if variant not in ("ireland", "france"):
        raise ValueError(f"variant must be 'ireland' or 'france', not {variant!r}")
    if variant == "ireland" and profile.whiskey_distillery_free:
        raise ValueError("the fast engine plays the rulebook profile only")
    in_game = set(building_set(variant, 1, "long"))
    b = np.zeros((L.N_BUILDINGS, len(ids.B_COLS)), dtype=np.int64)
    for i, bid in enumerate(BUILDING_IDS):
        x = BUILDINGS[bid]
        cost = dict(x.cost)
        b[i, ids.BC_WOOD] = cost.get(G.WOOD, 0)
        b[i, ids.BC_CLAY] = cost.get(G.CLAY, 0)
        b[i, ids.BC_STONE] = cost.get(G.STONE, 0)
        b[i, ids.BC_STRAW] = cost.get(G.STRAW, 0)
        b[i, ids.BC_COINS] = x.cost_coins
        b[i, ids.BC_TERR] = sum(TERR_BIT[t] for t in x.terrain)
        b[i, ids.BC_CLOISTER] = int(x.cloister)
        b[i, ids.BC_ECON] = x.economic
        b[i, ids.BC_DWELL] = profile.round_tower_dwelling if bid == "I35" else x.dwelling
        b[i, ids.BC_EFFECT] = ids.EFFECT_ID[x.effect]
        b[i, ids.BC_PHASE] = PHASE_CODE[x.phase]
        b[i, ids.BC_NUMBER] = int(bid[1:]) if not x.heartland else 100 + i
        b[i, ids.BC_INGAME] = int(bid in in_game)
    s = np.zeros((8, 6), dtype=np.int64)
    for i in range(8):
        x = SETTLEMENTS[f"S{i + 1}"]
        s[i] = (x.food, x.energy, x.economic, x.dwelling, sum(TERR_BIT[t] for t in x.terrain),
                PHASE_CODE[x.arrives])
    values = np.array([G.FOOD, G.ENERGY2, G.POINTS, G.MONEY], dtype=np.int64)
    orders = -np.ones((4, G.N_GOODS), dtype=np.int64)
    for row, order in enumerate((C.FOOD_ORDER, C.ENERGY_ORDER, C.POINTS_ORDER,
                                 C.DISTINCT_ORDER)):
        orders[row, : len(order)] = order
    wheel = np.array(GAME["wheel"]["front"], dtype=np.int64)
    land = np.zeros(ids.LAND_SIZE, dtype=np.int64)
    for side, key in enumerate(("district_plains", "district_hills")):
        for col, (terrain, feature) in enumerate(GAME["landscape"][key]):
            land[20 * side + 2 * col] = L.TERRAIN_CODES[{"plains": "P", "hillside": "H"}[terrain]]
            land[20 * side + 2 * col + 1] = {"": 0, "forest": L.C_FOREST, "moor": L.C_MOOR}[feature]
    land[ids.LAND_DPRICE:ids.LAND_DPRICE + 9] = list(reversed(GAME["landscape"]["district_prices"]))
    land[ids.LAND_PPRICE:ids.LAND_PPRICE + 9] = list(reversed(GAME["landscape"]["plot_prices"]))
    steps = solo_script(profile)
    script = np.zeros((len(steps), 2), dtype=np.int64)
    for i, st in enumerate(steps):
        script[i, 0] = ids.STEP_KINDS.index(st[0])
        if len(st) > 1:
            script[i, 1] = st[1] if isinstance(st[1], int) else "ABCDE".index(st[1]) + 1
    idx = {bid: i for i, bid in enumerate(BUILDING_IDS)}
    misc = np.zeros(ids.M_SIZE, dtype=np.int64)
    misc[ids.M_FRANCE] = int(variant == "france")
    misc[ids.M_DRINK] = G.WINE if variant == "france" else G.WHISKEY
    misc[ids.M_PLAYER_L1] = idx[f"L{colours[0]}1"]
    misc[ids.M_NEUTRAL_L1] = idx[f"L{colours[1]}1"]
    misc[ids.M_MARKET] = idx["G13"]
    misc[ids.M_PRIORY] = idx["G01"]
    misc[ids.M_GARDEN] = idx["F09"]
    misc[ids.M_COTTAGE] = idx["I10"]
    misc[ids.M_WINERY] = idx["F21"]
    misc[ids.M_DISTILLERY] = idx["I21"]
    misc[ids.M_BROTHER_RATE2] = int(round(2 * profile.brotherhood_rate_solo))
    misc[ids.M_ROUND_TOWER] = idx["I35"]
    effects, costs, gains, menus = effect_rows(profile)
    return _assemble({"buildings": b, "settlements": s, "values": values, "orders": orders,
                      "wheel": wheel, "land": land, "misc": misc, "effects": effects,
                      "costs": costs, "gains": gains, "fields": L.FIELDS, "script": script,
                      "menus": menus})
