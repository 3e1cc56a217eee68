"""The fast engine's parts against the reference engine's: literal ids against the rules
modules, generated tables against the rows they come from, and each small kernel against its
rules twin (STUMPY's naive.py habit) on many random inputs. Plus the size limits of the
kernel package."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from solver.fast import ids
from solver.fast import layout as L
from solver.fast.kernels import board, goods, wheel
from solver.fast.tables import build_tables
from solver.rules import canonical as C
from solver.rules import goods as G
from solver.rules import payment as PAY
from solver.rules.effects import EFFECTS, MENUS, PRICES, RATES
from solver.rules.payment import Cost
from solver.rules.wheel import TOKENS

ROOT = Path(__file__).resolve().parents[2]


# ----- literal ids against the rules modules ---------------------------------------------------

def test_goods_ids_are_the_rules_goods_ids():
    for i, name in enumerate(G.NAMES):
        assert getattr(ids, name.upper().replace(" ", "_").replace("5_COINS", "NICKEL")
                       .replace("PEAT_COAL", "COAL")) == i, name
    assert ids.BASIC == G.BASIC
    assert L.N_GOODS == G.N_GOODS


def test_canonical_bases_are_the_rules_bases():
    for name in ("END", "OPT0", "N_OPTIONS", "CONVERT_WINE", "CONVERT_WHISKEY", "USE0",
                 "CONTRACT0", "FREE0", "NBUILD0", "FELL0", "CUT0", "BUILD0", "SETTLE0",
                 "DISTRICT0", "PLOT0"):
        assert getattr(ids, name) == getattr(C, name), name
    assert (L.ROW_MIN, L.N_ROWS, L.N_CELLS) == (C.ROW_MIN, C.N_ROWS, C.N_CELLS)


def test_wheel_tokens_follow_the_rules_wheel():
    from solver.rules.effects import TOKEN_GOOD

    assert len(TOKENS) == L.N_TOK
    for t, name in enumerate(TOKENS):
        expect = TOKEN_GOOD.get(name, -1)
        assert ids.TOKEN_GOOD[t] == expect, name
        assert getattr(ids, "T_" + name.upper()) == t


def test_effect_ids_cover_the_registry_and_name_the_right_effects():
    assert set(ids.EFFECT_KEYS) == set(EFFECTS)
    assert len(set(ids.EFFECT_KEYS)) == len(ids.EFFECT_KEYS) <= ids.MAX_EFFECTS
    named = {"E_CLAY_MOUND": "clay_mound", "E_OFFICE": "cloister_office",
             "E_GARDEN": "cloister_garden", "E_COTTAGE": "cottage", "E_MANOR": "grand_manor",
             "E_HOSPICE": "use_unbuilt_building", "E_COURTYARD": "cloister_courtyard",
             "E_FUEL": "fuel_merchant", "E_KILN": "peat_coal_kiln",
             "E_LIGHTHOUSE": "false_lighthouse", "E_SPINNING": "spinning_mill",
             "E_SACRED": "sacred_site", "E_DRUID": "druids_house",
             "E_LIBRARY": "cloister_library", "E_WORKSHOP": "cloister_workshop",
             "E_SLAUGHTER": "slaughterhouse", "E_DISTILLERY": "whiskey_distillery",
             "E_CHURCH": "cloister_church", "E_CHAMBER": "chamber_of_wonders",
             "E_SHIPPING": "shipping_company", "E_FORGER": "forgers_workshop",
             "E_PILGRIMAGE": "pilgrimage_site", "E_PRINTING": "printing_office",
             "E_FESTIVAL": "festival_ground", "E_BROTHERHOOD": "house_of_the_brotherhood"}
    for name in dir(ids):
        if name.startswith("E_"):
            key = named.get(name, name[2:].lower())
            assert ids.EFFECT_KEYS[getattr(ids, name)] == key, name


def test_table_rows_do_not_overlap():
    spans = sorted([(ids.R_BUILDINGS, L.N_BUILDINGS), (ids.R_SETTLEMENTS, 8), (ids.R_VALUES, 4),
                    (ids.R_ORDERS, 4), (ids.R_WHEEL, 1), (ids.R_LAND, 1), (ids.R_MISC, 1),
                    (ids.R_EFFECTS, ids.MAX_EFFECTS), (ids.R_COSTS, ids.MAX_EFFECTS),
                    (ids.R_GAINS, ids.MAX_EFFECTS), (ids.R_FIELDS, ids.MAX_FIELDS),
                    (ids.R_SCRIPT, ids.MAX_SCRIPT), (ids.R_MENUS, ids.MAX_MENUS)])
    for (a, n), (b, _) in itertools.pairwise(spans):
        assert a + n <= b
    assert spans[-1][0] + spans[-1][1] == ids.TABLE_ROWS


# ----- the tables against their rows ------------------------------------------------------------

@pytest.mark.parametrize("variant", ("ireland", "france"))
def test_tables_are_views_of_the_one_array(variant):
    t = build_tables(variant)
    assert t.array.shape == (ids.TABLE_ROWS, ids.TABLE_WIDTH)
    for name in t._fields[1:]:
        assert np.shares_memory(getattr(t, name), t.array), name
    assert np.array_equal(t.array[ids.R_FIELDS:ids.R_FIELDS + L.N_FIELDS, :4], L.FIELDS)


def test_option_counts_are_the_canonical_option_lists():
    t = build_tables("france")
    for key, i in ids.EFFECT_ID.items():
        assert t.effects[i, ids.EF_OPTIONS] == len(C.CANON_OPTIONS.get(key, ())), key


def test_fixed_rows_come_from_the_registered_options_and_gains():
    t = build_tables("ireland")
    gid = ids.EFFECT_ID
    # the _simple rows of effects.py, read back from the table
    assert t.effects[gid["granary"], ids.EF_GAINS] == 1
    row = t.gains[gid["granary"]]
    assert {int(g): int(row[g]) for g in np.nonzero(row)[0]} == {G.GRAIN: 4, G.BOOK: 1}
    assert t.costs[gid["granary"], ids.C_COINS] == 1
    assert t.costs[gid["portico"], G.RELIQUARY] == 1
    assert t.gains[gid["portico"]].sum() == 14
    assert t.costs[gid["market"], ids.C_DISTINCT] == 4
    # a fixed cost but more than goods: the kernel resolves it
    for key in ("palace", "cloister_garden", "castle", "bathhouse", "locutory", "bulwark"):
        assert t.effects[gid[key], ids.EF_FIXED_COST] == 1, key
        assert t.effects[gid[key], ids.EF_GAINS] == 0, key
    # options that depend on the state: never a fixed row
    for key in ("priory", "windmill", "chamber_of_wonders", "spinning_mill", "sacristy"):
        assert t.effects[gid[key], ids.EF_FIXED_COST] == 0, key
    # every gains row is a one-option, fixed-cost effect
    for i in range(len(ids.EFFECT_KEYS)):
        if t.effects[i, ids.EF_GAINS]:
            assert t.effects[i, ids.EF_FIXED_COST] == 1
            assert t.effects[i, ids.EF_OPTIONS] == 1


def test_menu_columns_fit_the_table():
    assert ids.MC_COST == ids.MC_DATA + 4  # the kernels' option data is 4 ints
    assert ids.MC_GAINS == ids.MC_COST + ids.COST_SIZE
    assert ids.MENU_SIZE == ids.MC_GAINS + G.N_GOODS <= ids.TABLE_WIDTH
    assert ids.EF_RATES == ids.EF_MENU_GAINS + 1
    assert ids.EF_SIZE == ids.EF_RATES + ids.N_RATES <= ids.TABLE_WIDTH
    assert max(len(r) for r in RATES.values()) == ids.N_RATES
    assert set(RATES) <= set(ids.EFFECT_KEYS)
    assert sum(len(m.entries) for m in MENUS.values()) <= ids.MAX_MENUS


@pytest.mark.parametrize("variant", ("ireland", "france"))
def test_menu_rows_are_the_registered_menus(variant):
    """One row per entry of effects.MENUS, in order: the canonical options are the entries, and
    each row's data, cost and gains are those the reference effect offers and hands out."""
    from solver.fast.tables import _GainProbe, _cost_row
    from solver.rules.cards import BUILDINGS
    from solver.rules.effects import Use
    from solver.rules.game import new_initial_state

    t = build_tables(variant)
    state = new_initial_state(variant=variant, players=1, length="long")
    building = {x.effect: bid for bid, x in BUILDINGS.items()}
    for key, i in ids.EFFECT_ID.items():
        if key not in MENUS:
            assert t.effects[i, ids.EF_MENU] == 0 and t.effects[i, ids.EF_MENU_GAINS] == 0, key
            continue
        entries = MENUS[key].entries
        assert t.effects[i, ids.EF_MENU] == 1, key
        assert t.effects[i, ids.EF_FIXED_COST] == 0 and t.effects[i, ids.EF_GAINS] == 0, key
        assert [fn(None) for _, fn in C.CANON_OPTIONS[key]] == list(entries), key
        use = Use(state, 0, building[key], None, "clergy", [])
        offered = {o.data: o.cost for o in EFFECTS[key].options(use)}
        assert list(offered) == list(entries), key
        for o, data in enumerate(entries):
            row = t.menus[t.effects[i, ids.EF_MENU_ROW] + o]
            assert tuple(row[ids.MC_DATA:ids.MC_DATA + len(data)]) == data, key
            assert not row[ids.MC_DATA + len(data):ids.MC_COST].any(), key
            assert np.array_equal(row[ids.MC_COST:ids.MC_GAINS], _cost_row(offered[data])), key
            if t.effects[i, ids.EF_MENU_GAINS]:
                probe = _GainProbe()
                EFFECTS[key].resolve(probe, data)
                got = {int(g): int(row[ids.MC_GAINS + g])
                       for g in np.nonzero(row[ids.MC_GAINS:ids.MC_GAINS + G.N_GOODS])[0]}
                assert got == {g: n for g, n in probe.got.items() if n}, (key, data)
            else:
                assert not row[ids.MC_GAINS:].any(), key
    gid = ids.EFFECT_ID
    fuel = t.menus[t.effects[gid["fuel_merchant"], ids.EF_MENU_ROW]:][:3]
    assert list(fuel[:, ids.MC_DATA]) == [5, 8, 10]
    assert list(fuel[:, ids.MC_COST + ids.C_ENERGY]) == [6, 12, 18]
    assert list(fuel[:, ids.MC_GAINS + G.COIN]) == [5, 8, 10]
    # the joker's product comes from the wheel: the kernel resolves it
    for key in ("shipping_company", "cooperage"):
        assert t.effects[gid[key], ids.EF_MENU_GAINS] == 0, key
    assert t.effects[gid["inn"], ids.EF_MENU_GAINS] == 1


def test_prices_are_the_costs_rows():
    t = build_tables("ireland")
    from solver.fast.tables import _cost_row

    for key, cost in PRICES.items():
        i = ids.EFFECT_ID[key]
        assert t.effects[i, ids.EF_FIXED_COST] == 0, key
        assert np.array_equal(t.costs[i], _cost_row(cost)), key
    tower = t.costs[ids.EFFECT_ID["round_tower"]]
    assert (tower[ids.C_COINS], tower[G.WHISKEY], tower[ids.C_POINTS]) == (5, 1, 14)


# ----- small kernels against their rules twins ---------------------------------------------------

def _random_goods(rng: random.Random, hi: int = 4) -> list[int]:
    return [rng.choice((0, 0, 0, 1, 2, hi)) for _ in range(G.N_GOODS)]


def _cost_vector(cost: Cost) -> np.ndarray:
    v = np.zeros(ids.COST_SIZE, dtype=np.int64)
    for g, n in cost.goods.items():
        v[g] = n
    v[ids.C_COINS], v[ids.C_FOOD], v[ids.C_ENERGY] = cost.coins, cost.food, cost.energy2
    v[ids.C_POINTS], v[ids.C_DISTINCT] = cost.points, cost.distinct
    return v


def test_pay_rule_matches_the_canonical_payment_rule():
    T = build_tables("ireland").array
    rng = random.Random(1)
    checked = 0
    for _ in range(3000):
        g = _random_goods(rng)
        kind = rng.randrange(4)
        need = rng.randint(1, 14)
        cost = Cost(food=need if kind == 0 else 0, energy2=need if kind == 1 else 0,
                    points=need if kind == 2 else 0, distinct=min(need, 8) if kind == 3 else 0)
        W = np.zeros(L.W_SIZE, dtype=np.int64)
        W[:G.N_GOODS] = g
        rest = np.zeros(G.N_GOODS, dtype=np.int64)
        if not goods.affordable(T, W, _cost_vector(cost), rest):
            assert not PAY.affordable(g, cost, False)
            continue
        assert PAY.affordable(g, cost, False)
        paid = C.pay_rule(g, cost)
        expect = list(g)
        for t in paid:
            expect[t] -= 1
        got = np.array(g, dtype=np.int64)
        goods.pay_rule(T, got, cost.food, cost.energy2, cost.points, cost.distinct,
                       np.zeros(G.N_GOODS, dtype=np.int64))
        assert got.tolist() == expect, (g, cost)
        checked += 1
    assert checked > 1000


def test_exact_goods_and_coins_match_the_payment_module():
    rng = random.Random(2)
    for _ in range(3000):
        g = _random_goods(rng, hi=6)
        need = {x: rng.randint(0, 3) for x in rng.sample(range(G.N_GOODS), 3)}
        vec = np.zeros(ids.COST_SIZE, dtype=np.int64)
        for x, n in need.items():
            vec[x] = n
        arr = np.array(g, dtype=np.int64)
        ok = PAY.can_pay_goods(g, need)
        assert goods.can_pay_goods(arr, vec) == ok, (g, need)
        if ok:
            ref = list(g)
            PAY.pay_goods(ref, need)
            goods.pay_goods(arr, vec)
            assert arr.tolist() == ref
        assert goods.coin_value(arr) == PAY.coin_value(arr.tolist(), False)
        n = rng.randint(0, 12)
        if PAY.coin_value(arr.tolist(), False) >= n:
            ref = arr.tolist()
            PAY.pay_coins(ref, n, False)
            goods.pay_coins(arr, n)
            assert arr.tolist() == ref


def test_goods_points_match_the_rules_scoring():
    rng = random.Random(3)
    T = build_tables("france").array
    for _ in range(3000):
        g = _random_goods(rng, hi=7)
        assert goods.goods_points(T, np.array(g, dtype=np.int64)) == G.goods_points(g), g


def test_mix_largest_matches_the_canonical_mix():
    out = np.zeros(4, dtype=np.int64)
    T = build_tables("ireland").array
    for limit in range(-3, 60):
        for first in ((0, 0, 0, 0), (1, 1, 1, 1)):
            ref = C._mix_largest(limit, first)
            ok = goods.mix_largest(T, limit, *first, out)
            assert ok == (ref is not None), (limit, first)
            if ok:
                assert tuple(out.tolist()) == ref


def test_neighbours_match_the_rules_landscape(engines):
    from solver.fast import codec

    rng = random.Random(4)
    for variant in engines:
        ref = C.canonical_initial_state(variant)
        for _ in range(60):  # grow some land along a random game
            legal = C.canonical_legal_actions(ref)
            if not legal:
                break
            C.apply_canonical(ref, rng.choice(legal))
        W = codec.to_wide(ref).astype(np.int64)
        land = ref.g.owners[0].land
        out = np.zeros(5, dtype=np.int64)
        for x in range(L.N_CELLS):
            col, row = C.cell_of(x)
            if W[L.TERR + x] in (L.T_NONE, L.T_FILLER):
                continue
            n = board.neighbours(W, x, out)
            got = sorted(C.cell_of(int(y)) for y in out[:n])
            assert got == sorted(land.neighbours((col, row))), (variant, col, row)


def test_token_yield_matches_the_rules_wheel(engines):
    from solver.fast import codec

    rng = random.Random(5)
    e = engines["ireland"]
    ref = C.canonical_initial_state("ireland")
    for _ in range(120):
        W = codec.to_wide(ref).astype(np.int64)
        for t, name in enumerate(TOKENS):
            assert wheel.token_yield(e.T, W, t) == ref.g.wheel.yield_of(name), name
            for j in (0, 1):
                ok = bool(j) in ref.g.wheel.choices(name)
                assert wheel.wheel_choice_ok(W, t, j) == ok, (name, j)
        legal = C.canonical_legal_actions(ref)
        if not legal:
            break
        C.apply_canonical(ref, rng.choice(legal))


# ----- size limits ---------------------------------------------------------------------------

def test_no_kernel_over_120_lines_and_no_module_over_700():
    for path in (ROOT / "solver").rglob("*.py"):
        text = path.read_text()
        if path.relative_to(ROOT / "solver").parts[0] in ("fast", "search"):
            assert text.count("\n") <= 700, path
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) for d in node.decorator_list):
                assert node.end_lineno - node.lineno + 1 <= 120, (path, node.name)
