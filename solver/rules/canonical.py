"""The canonical solo action space: one integer id per decision a player cares about.

Both engines expose it (the reference engine through :func:`canonical_legal_actions` and
:func:`apply_canonical` here, the fast engine in solver/fast/), so they can be compared action
for action. Each canonical id expands into a short sequence of full-detail reference actions
(:func:`expand`); every such sequence is legal in the reference engine (asserted in tests).

Id layout (``CANON_SIZE`` ids in all)::

    0                  END        end the turn / skip an optional step / end a settlement turn
    1 + o              OPTION o   canonical option o of the building being used (o < 63);
                                  option 0 is "place the clergyman, use no function"
    64, 65             CONVERT    wine -> 1 coin, whiskey -> 2 coins
    100 + 2b + k       USE        own building b (BUILDING_INDEX) with lay brother k=0 / prior 1
    300 + 4b + 2k + f  CONTRACT   neutral building b, neutral clergyman k, fee f (0 coins,
                                  1 the variant's drink: wine in France, whiskey in Ireland)
    700 + b            FREE       free use of building b (Priory, Garden, Palace, Hospice, ...)
    800 + c            NBUILD     the neutral builds the next display building on its space c
                                  (c = 5*row + col of its heartland)
    1000 + 2x + j      FELL       fell the forest on space x (CELL index), j = 1 with the joker
    1300 + 2x + j      CUT        cut the moor on space x
    2000 + 144b + x    BUILD      building b on space x
    14000 + 144s + x   SETTLE     settlement S(s+1) on space x
    15200 + 2y + d     DISTRICT   district in window row y (row = y - 7), d 0 PLAINS / 1 HILLS
    15300 + 2y + d     PLOT       plot with top window row y, d 0 COAST / 1 MOUNTAIN

Spaces are indexed in a fixed window: ``x = (row + 7) * 9 + (col + 2)`` for rows −7..8 and
columns −2..6.

What the canonical space folds or drops, and why
-------------------------------------------------

* **Payments** are chosen by one rule (:func:`pay_rule`) instead of tile by tile: tiles are
  taken in a fixed cheapest-first order per kind of price (``FOOD_ORDER``, ``ENERGY_ORDER``,
  ``POINTS_ORDER``, ``DISTINCT_ORDER``) until the price is covered, then any tile not needed is
  handed back (most valuable first), so nothing is ever overpaid by a superfluous tile.
  Dropped: paying with a deliberately chosen set of tiles (e.g. keeping meat and paying bread).
* **Coins** are paid from 1-coin pieces, then broken 5-coin pieces (as the rulebook profile);
  wine and whiskey become coins only through the two CONVERT ids, at turn level.
  Dropped: grain→straw flips for energy payments (material costs flip automatically), and
  1-coin→5-coin exchanges (scoring regroups coins anyway; only distinct-goods payments could
  tell the difference).
* **Converters** that may repeat without limit convert the maximum (Malthouse also offers
  "half", to keep grain for brewing; Peat Coal Kiln and Dormitory also offer 0). Fixed-limit
  repeats (Stone Merchant 1-5, Library 0-3, ...) keep every count.
* **Which forests** the Printing Office and Forest Hut remove: the first ones in row order.
  Fell trees / cut peat keep every space.
* **The neutral builds** the display buildings in card order, each on a space you choose, so
  a later building may cover an earlier one but not the reverse (the reverse only decides
  which of two just-built buildings survives).
* **Festival Ground / House of the Brotherhood** take either the largest point total, built
  from the most valuable tiles first, or one each of book, ceramic, ornament and reliquary
  topped up the same way (the Sacristy set); other mixes are dropped.
* **Choices that lead to the same state are one action**: an option whose concrete choice
  equals an earlier option's is not offered; a decision with END as its only choice is taken
  automatically.
* **Land** stays within rows −7..8 (a 16-row window; 9 districts and the heartland span at
  most 11 rows, so only lopsided layouts are lost).
"""

from __future__ import annotations

from . import actions as A
from . import frames as F
from . import goods as G
from .effects import MENUS
from .cards import BUILDING_IDS, BUILDING_INDEX, BUILDINGS
from .game import RuleError, State
from .payment import Cost, pay_coins, pay_goods, payable_goods

ROW_MIN, ROW_MAX = -7, 8
N_ROWS = ROW_MAX - ROW_MIN + 1
N_CELLS = 9 * N_ROWS
END = 0
OPT0 = 1
N_OPTIONS = 63
CONVERT_WINE, CONVERT_WHISKEY = 64, 65
USE0, CONTRACT0, FREE0, NBUILD0 = 100, 300, 700, 800
FELL0, CUT0, BUILD0, SETTLE0, DISTRICT0, PLOT0 = 1000, 1300, 2000, 14000, 15200, 15300
CANON_SIZE = 15400

#: cheapest-first tile orders of the payment rule
FOOD_ORDER = (G.GRAIN, G.GRAPES, G.FLOUR, G.MALT, G.SHEEP, G.BREAD, G.MEAT, G.BEER, G.COIN,
              G.WINE, G.WHISKEY, G.NICKEL)
ENERGY_ORDER = (G.STRAW, G.WOOD, G.PEAT, G.COAL)
POINTS_ORDER = (G.WINE, G.WHISKEY, G.BOOK, G.CERAMIC, G.NICKEL, G.ORNAMENT, G.RELIQUARY,
                G.WONDER)
DISTINCT_ORDER = (G.GRAIN, G.STRAW, G.CLAY, G.WOOD, G.PEAT, G.SHEEP, G.GRAPES, G.FLOUR,
                  G.MALT, G.STONE, G.COIN, G.COAL, G.MEAT, G.BREAD, G.BEER, G.WINE,
                  G.WHISKEY, G.NICKEL, G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY, G.WONDER)


def cell_index(col: int, row: int) -> int | None:
    """Window index of a space, or None outside the window."""
    if not (ROW_MIN <= row <= ROW_MAX and -2 <= col <= 6):
        return None
    return (row - ROW_MIN) * 9 + (col + 2)


def cell_of(x: int) -> tuple[int, int]:
    """(col, row) of a window index."""
    return x % 9 - 2, x // 9 + ROW_MIN


# ===== canonical options per effect ===========================================================
# Each entry: (label, fn(u) -> concrete option data of the reference effect, or None if the
# option makes no sense now). The engine keeps an option only if the reference engine offers
# that data (so affordability is the reference's) and no earlier option gave the same data.

def _k(n):
    return lambda u: (n,)


def _const(*data):
    """An option whose concrete choice does not depend on the state."""
    return lambda u: data


def _menu(key: str, label):
    """One option per entry of an effect's fixed menu (effects.MENUS), in order; ``label``
    takes the entry's data."""
    return [(label(*d), _const(*d)) for d in MENUS[key].entries]


def _bake(m: int):
    return lambda u: (_bake_max(u), m)


def _max_conv(cap_fn):
    def f(u):
        k = cap_fn(u)
        return (k,) if k > 0 else None
    return f


def _wheel(token: str, joker: bool):
    return lambda u: (token, joker)


def _mix_largest(limit: int, first: tuple = (0, 0, 0, 0)):
    """Point-goods mix (book, ceramic, ornament, reliquary) worth at most ``limit``: ``first``,
    then reliquaries, ornaments, ceramics, books as many as fit."""
    mix = list(first)
    left = limit - (2 * mix[0] + 3 * mix[1] + 4 * mix[2] + 8 * mix[3])
    if left < 0:
        return None
    for i, v in ((3, 8), (2, 4), (1, 3), (0, 2)):
        n = left // v
        mix[i] += n
        left -= n * v
    return tuple(mix) if any(mix) else None


def _mix_option(limit_fn, first=(0, 0, 0, 0)):
    def f(u):
        m = _mix_largest(limit_fn(u), first)
        return None if m is None else (list(m),)
    return f


def _festival_limit(u):
    return len(u.me.land.features("forest")) + len(u.me.land.features("moor"))


def _brotherhood_limit(u):
    rate = u.profile.brotherhood_rate_solo
    return int(rate * u.count_cloisters())


def _first_forest(u):
    cells = u.me.land.features("forest")
    return ([cells[0][0], cells[0][1]],) if cells else None


_UP = {G.BOOK: G.CERAMIC, G.CERAMIC: G.ORNAMENT, G.ORNAMENT: G.RELIQUARY}


def _pilgrimage(seq):
    def f(u):
        have = {g: u.goods[g] for g in (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)}
        for g in seq:
            if have[g] <= 0:
                return None
            have[g] -= 1
            have[_UP[g]] += 1
        delta = [have[g] - u.goods[g] for g in (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)]
        return (delta,)
    return f


def _bake_max(u):
    energy2 = sum(u.goods[g] * G.ENERGY2[g] for g in ENERGY_ORDER)
    return min(u.goods[G.FLOUR], energy2)


def _brew_max(u):
    return min(u.goods[G.GRAIN], u.goods[G.MALT])


_SINGLE = [("use", lambda u: ())]
CANON_OPTIONS: dict[str, list] = {
    "clay_mound": [("own indicator", _wheel("clay", False)), ("joker", _wheel("clay", True))],
    "cloister_office": [("own indicator", _wheel("coin", False)),
                        ("joker", _wheel("coin", True))],
    "farmyard": [("sheep", _wheel("sheep", False)), ("sheep, joker", _wheel("sheep", True)),
                 ("grain", _wheel("grain", False)), ("grain, joker", _wheel("grain", True))],
    "quarry": [("own indicator", _wheel("stone", False)), ("joker", _wheel("stone", True))],
    "grapevine": [("own indicator", _wheel("grapes", False)),
                  ("joker", _wheel("grapes", True))],
    "priory": _SINGLE, "cloister_garden": _SINGLE, "cottage": _SINGLE, "palace": _SINGLE,
    "grand_manor": _SINGLE, "use_unbuilt_building": _SINGLE,
    "cloister_courtyard": _menu("cloister_courtyard", lambda g: f"6 {G.NAMES[g]}"),
    "grain_storage": _SINGLE, "granary": _SINGLE,
    "windmill": [("max", _max_conv(lambda u: min(7, u.goods[G.GRAIN])))],
    "malthouse": [("max", _max_conv(lambda u: u.goods[G.GRAIN])),
                  ("half", _max_conv(lambda u: u.goods[G.GRAIN] // 2))],
    "bakery": [(f"bake max, sell {m}", _bake(m))
               for m in range(3)]
    + [(f"sell {m}", _const(0, m)) for m in (1, 2)],
    "brewery": [("brew max", lambda u: (_brew_max(u), 0)),
                ("brew max, sell 1", lambda u: (_brew_max(u), 1)),
                ("sell 1", lambda u: (0, 1))],
    "fuel_merchant": _menu("fuel_merchant", lambda c: f"{c} coins"),
    "peat_coal_kiln": [("no peat", _k(0)), ("all peat", lambda u: (u.goods[G.PEAT],))],
    "market": _SINGLE,
    "false_lighthouse": _menu("false_lighthouse", lambda g: G.NAMES[g]),
    "spinning_mill": _SINGLE, "harbor_promenade": _SINGLE, "houseboat": _SINGLE,
    "stone_merchant": _menu("stone_merchant", lambda k: f"{k} stone"),
    "builders_market": _SINGLE,
    "sacred_site": _menu("sacred_site", lambda a, b: f"{G.NAMES[a]}/{G.NAMES[b]}"),
    "financed_estate": _SINGLE,
    "druids_house": _menu("druids_house", lambda a, b: f"5 {G.NAMES[a]} + 3 {G.NAMES[b]}"),
    "cloister_chapter_house": _SINGLE,
    "cloister_library": [(f"{k} books, {s} trade", _const(k, s))
                         for k in range(4) for s in range(2) if k or s],
    "scriptorium": _SINGLE,
    "cloister_workshop": _menu("cloister_workshop", lambda c, s: f"{c} ceramic, {s} ornament"),
    "slaughterhouse": [("max", _max_conv(lambda u: min(
        u.goods[G.SHEEP], u.goods[G.STRAW] + u.goods[G.GRAIN])))],
    "inn": _menu("inn", lambda f, w: f"{f} food, {w} wine"),
    "alehouse": _menu("alehouse", lambda b, w: f"{b} beer, {w} whiskey"),
    "winery": [("press max", lambda u: (u.goods[G.GRAPES], 0)),
               ("press max, sell 1", lambda u: (u.goods[G.GRAPES], 1)),
               ("sell 1", lambda u: (0, 1))],
    "whiskey_distillery": [("max", _max_conv(
        lambda u: min(u.goods[G.MALT], u.goods[G.WOOD], u.goods[G.PEAT])))],
    "bathhouse": _SINGLE, "locutory": _SINGLE,
    "cloister_church": _menu("cloister_church", lambda k: f"{k} reliquary"),
    "chapel": _menu("chapel", lambda b, r: f"{b} book, {r} reliquary"),
    "chamber_of_wonders": _SINGLE, "portico": _SINGLE, "shipyard": _SINGLE,
    "castle": _SINGLE,
    "forest_hut": [("first forest", _first_forest)],
    "town_estate": _SINGLE,
    "refectory": [(f"{k} ceramic", _k(k)) for k in range(5)],
    "coal_harbor": _menu("coal_harbor", lambda k: f"{k} conversions"),
    "calefactory": _SINGLE, "filial_church": _SINGLE,
    "shipping_company": _menu("shipping_company", lambda g: G.NAMES[g]),
    "cooperage": _menu("cooperage", lambda g: G.NAMES[g]),
    "sacristy": _SINGLE,
    "forgers_workshop": [(f"{k} reliquaries", _k(k)) for k in (1, 2, 3)]
    + [("max reliquaries", _max_conv(lambda u: max(0, (G.money(u.goods) - 5) // 10 + 1)))],
    "round_tower": _SINGLE,
    "pilgrimage_site": [("upgrade " + "+".join(G.NAMES[g] for g in seq), _pilgrimage(seq))
                        for seq in ((G.BOOK,), (G.CERAMIC,), (G.ORNAMENT,),
                                    (G.BOOK, G.BOOK), (G.BOOK, G.CERAMIC),
                                    (G.BOOK, G.ORNAMENT), (G.CERAMIC, G.CERAMIC),
                                    (G.CERAMIC, G.ORNAMENT), (G.ORNAMENT, G.ORNAMENT))],
    "camera": _menu("camera", lambda k: f"{k} times"),
    "dormitory": [("ceramic only", _k(0)), ("max books", _max_conv(lambda u: min(
        u.goods[G.STRAW] + u.goods[G.GRAIN], u.goods[G.WOOD])))],
    "bulwark": _SINGLE,
    "printing_office": [(f"{k} forests", _k(k)) for k in range(1, 5)],
    "festival_ground": [("largest", _mix_option(_festival_limit)),
                        ("sacristy set", _mix_option(_festival_limit, (1, 1, 1, 1)))],
    "estate": _menu("estate", lambda e, f: f"{e} energy, {f} food"),
    "house_of_the_brotherhood": [("largest", _mix_option(_brotherhood_limit)),
                                 ("sacristy set", _mix_option(_brotherhood_limit, (1, 1, 1, 1)))],
}

# ===== the payment rule ======================================================================


def pay_rule(goods: list[int], cost: Cost) -> list[int]:
    """Tiles (goods ids, sorted) paid for the picked part of ``cost`` after exact goods/coins.

    Cheapest first in the fixed orders, then superfluous tiles handed back, most valuable first.
    """
    rest = list(goods)
    pay_goods(rest, cost.goods)
    if cost.coins:
        pay_coins(rest, cost.coins, False)
    taken: list[int] = []
    if cost.distinct:
        for g in DISTINCT_ORDER:
            if len(taken) == cost.distinct:
                break
            if rest[g] > 0:
                taken.append(g)
        return sorted(taken)
    for need, order, val in ((cost.food, FOOD_ORDER, G.FOOD),
                             (cost.energy2, ENERGY_ORDER, G.ENERGY2),
                             (cost.points, POINTS_ORDER, G.POINTS)):
        if not need:
            continue
        got = []
        total = 0
        for g in order:
            while total < need and rest[g] > 0:
                rest[g] -= 1
                got.append(g)
                total += val[g]
            if total >= need:
                break
        for g in reversed(list(got)):
            if total - val[g] >= need:
                got.remove(g)
                total -= val[g]
        taken += got
    return sorted(taken)


# ===== legal actions and expansion ===========================================================


def _drink(state: State) -> int:
    return G.WINE if state.g.variant == "france" else G.WHISKEY


def _options_for(state: State, f: F.OptionFrame) -> list[tuple[int, int, tuple]]:
    """(canonical option o, reference option index, data) of an option-frame, deduplicated."""
    ref = state.frame_options()  # f is the pending frame
    by_data = {}
    for i, opt in enumerate(ref):
        by_data.setdefault(_key(opt.data), i)
    u = state.use_of(f)
    out = [(0, 0, ("decline",))]
    seen = {_key(("decline",))}
    spec = CANON_OPTIONS[BUILDINGS[f.building].effect]
    for o, (_, fn) in enumerate(spec, start=1):
        data = fn(u)
        if data is None:
            continue
        k = _key(data)
        if k in seen or k not in by_data:
            continue
        seen.add(k)
        out.append((o, by_data[k], data))
    return out


def _key(data) -> str:
    return repr(data)


def _option_expansion(state: State, f: dict, o: int) -> list[int] | None:
    for co, ri, _ in _options_for(state, f):
        if co == o:
            return _with_completion(state, [A.make("OPTION", flag=ri)])
    return None


def _complete(trial: State) -> list[int]:
    """Resolve the frames that are never canonical decisions, by rule, applying them.

    A pay frame is paid by :func:`pay_rule`; a pick-cells frame takes the first spaces in row
    order.
    """
    done = []
    while not trial.is_terminal():
        f = trial.frame
        if isinstance(f, F.PayFrame):
            need = f.need
            cost = Cost(food=need["food"], energy2=need["energy2"], points=need["points"],
                        distinct=need["distinct"])
            seq = [A.make("PAY", flag=g)
                   for g in pay_rule(payable_goods(trial.g.owners[f.user].goods,
                                                   trial.profile.wonders_are_goods), cost)]
        elif isinstance(f, F.PickCellsFrame):
            cells = trial.g.owners[f.user].land.features(f.feature)
            seq = [A.make("PICK_CELL", col=c, row=r)
                   for c, r in cells[: f.count - len(f.picked)]]
        else:
            break
        for aid in seq:
            trial.apply_action(aid)
            done.append(aid)
    return done


def _with_completion(state: State, seq: list[int]) -> list[int]:
    trial = state.clone()
    for aid in seq:
        trial.apply_action(aid)
    return seq + _complete(trial)


def _window_ok(col: int, row: int) -> bool:
    return cell_index(col, row) is not None


def _land_row_ok(kind: str, row: int) -> bool:
    if kind == "BUY_DISTRICT":
        return ROW_MIN <= row <= ROW_MAX
    return ROW_MIN <= row and row + 1 <= ROW_MAX


def _to_canonical(state: State, aid: int) -> int | None:
    """Canonical id of a top-level reference action (None if the canonical space drops it)."""
    a = A.decode(aid)
    b = BUILDING_INDEX.get(a.building) if a.building else None
    k = a.kind
    if k in ("COMMIT", "SKIP"):
        return END
    if k == "CONVERT":
        return {3: CONVERT_WINE, 4: CONVERT_WHISKEY}.get(a.flag)
    if k == "USE":
        return USE0 + 2 * b + a.flag
    if k == "WORK_CONTRACT":
        if a.extra == 0:
            fee = 0
        elif a.extra == (1 if _drink(state) == G.WINE else 2):
            fee = 1
        else:
            return None
        return CONTRACT0 + 4 * b + 2 * a.flag + fee
    if k in ("FELL_TREES", "CUT_PEAT"):
        if a.flag == 2:
            return None  # the empty fell/cut is the same as passing
        x = cell_index(a.col, a.row)
        return (FELL0 if k == "FELL_TREES" else CUT0) + 2 * x + a.flag
    if k == "BUILD":
        x = cell_index(a.col, a.row)
        return None if x is None else BUILD0 + N_CELLS * b + x
    if k == "SETTLE":
        x = cell_index(a.col, a.row)
        return None if x is None else SETTLE0 + N_CELLS * (a.flag - 1) + x
    if k in ("BUY_DISTRICT", "BUY_PLOT"):
        if not _land_row_ok(k, a.row):
            return None
        return (DISTRICT0 if k == "BUY_DISTRICT" else PLOT0) + 2 * (a.row - ROW_MIN) + a.flag
    if k == "FREE_USE":
        return FREE0 + b
    if k == "NEUTRAL_BUILD":
        if a.building != neutral_next_building(state):
            return None
        return NBUILD0 + 5 * a.row + a.col
    return None


def _from_canonical(state: State, cid: int) -> list[int] | None:
    """Reference action sequence of a canonical id in this state (None if not legal)."""
    f = state.frame
    if f is None:
        return None
    if isinstance(f, (F.OptionFrame, F.PriorBonusFrame)):
        if isinstance(f, F.PriorBonusFrame):
            if cid == END:
                return [A.make("SKIP")]
            o = cid - OPT0
            if not 0 <= o < N_OPTIONS:
                return None
            use = A.make("USE_PRIOR", f.building)
            if use not in state.legal_actions():
                return None
            trial = state.clone()
            trial.apply_action(use)
            rest = _option_expansion(trial, trial.frame, o)
            return None if rest is None else [use] + rest
        o = cid - OPT0
        if not 0 <= o < N_OPTIONS:
            return None
        return _option_expansion(state, f, o)
    legal = state.legal_actions()
    for aid in legal:
        if _to_canonical(state, aid) == cid:
            return _with_completion(state, [aid])
    return None


def canonical_legal_actions(state: State) -> list[int]:
    """Sorted canonical ids legal in this state (solo games)."""
    if state.is_terminal():
        return []
    f = state.frame
    if isinstance(f, F.OptionFrame):
        return sorted(OPT0 + o for o, _, _ in _options_for(state, f))
    if isinstance(f, F.PriorBonusFrame):
        out = [END]
        use = A.make("USE_PRIOR", f.building)
        if use in state.legal_actions():
            trial = state.clone()
            trial.apply_action(use)
            out += [OPT0 + o for o, _, _ in _options_for(trial, trial.frame)]
        return sorted(out)
    out = set()
    for aid in state.legal_actions():
        cid = _to_canonical(state, aid)
        if cid is not None:
            out.add(cid)
    return sorted(out)


def expand(state: State, cid: int) -> list[int]:
    """The reference actions a canonical id stands for here (RuleError if not legal)."""
    if cid not in canonical_legal_actions(state):
        raise RuleError(f"canonical action {cid} ({describe_id(cid)}) is not legal here")
    seq = _from_canonical(state, cid)
    if seq is None:
        raise RuleError(f"canonical action {cid} has no reference expansion here")
    return seq


def apply_canonical(state: State, cid: int) -> list[int]:
    """Apply a canonical action (its reference actions), then any forced END; return them.

    Raises RuleError (state unchanged) if the id is not legal here.
    """
    seq = expand(state, cid)
    trial = state.clone()
    done = []
    for aid in seq:
        trial.apply_action(aid)
        done.append(aid)
    done += _auto_end(trial)
    state.g = trial.g
    return done


def _auto_end(state: State) -> list[int]:
    """Take END while it is the only canonical choice (a decision with one choice)."""
    done = []
    while not state.is_terminal():
        legal = canonical_legal_actions(state)
        if legal != [END]:
            break
        seq = _from_canonical(state, END)
        for aid in seq:
            state.apply_action(aid)
            done.append(aid)
    return done


def canonical_initial_state(variant: str = "ireland", profile: str = "rulebook") -> State:
    """A new solo game positioned at its first canonical decision."""
    from .game import new_initial_state

    st = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    _auto_end(st)
    return st


def describe_id(cid: int) -> str:
    """Readable text of a canonical id (context-free)."""
    if cid == END:
        return "END"
    if OPT0 <= cid < OPT0 + N_OPTIONS:
        return f"OPTION {cid - OPT0}"
    if cid == CONVERT_WINE:
        return "CONVERT wine"
    if cid == CONVERT_WHISKEY:
        return "CONVERT whiskey"
    if USE0 <= cid < CONTRACT0:
        b, k = divmod(cid - USE0, 2)
        return f"USE {BUILDING_IDS[b]} with {'prior' if k else 'lay brother'}"
    if CONTRACT0 <= cid < FREE0:
        b, r = divmod(cid - CONTRACT0, 4)
        k, fee = divmod(r, 2)
        return (f"CONTRACT {BUILDING_IDS[b]} {'prior' if k else 'lay brother'} "
                f"{'drink' if fee else 'coins'}")
    if FREE0 <= cid < NBUILD0:
        return f"FREE {BUILDING_IDS[cid - FREE0]}"
    if NBUILD0 <= cid < NBUILD0 + 10:
        row, col = divmod(cid - NBUILD0, 5)
        return f"NEUTRAL BUILD at ({col}, {row})"
    if FELL0 <= cid < CUT0 + 2 * N_CELLS:
        base = FELL0 if cid < CUT0 else CUT0
        x, j = divmod(cid - base, 2)
        return f"{'FELL' if base == FELL0 else 'CUT'} {cell_of(x)}{' joker' if j else ''}"
    if BUILD0 <= cid < SETTLE0:
        b, x = divmod(cid - BUILD0, N_CELLS)
        return f"BUILD {BUILDING_IDS[b]} at {cell_of(x)}"
    if SETTLE0 <= cid < DISTRICT0:
        s, x = divmod(cid - SETTLE0, N_CELLS)
        return f"SETTLE S{s + 1} at {cell_of(x)}"
    if DISTRICT0 <= cid < PLOT0 + 2 * N_ROWS:
        base = DISTRICT0 if cid < PLOT0 else PLOT0
        y, d = divmod(cid - base, 2)
        sides = ("PLAINS", "HILLS") if base == DISTRICT0 else ("COAST", "MOUNTAIN")
        return f"{'DISTRICT' if base == DISTRICT0 else 'PLOT'} row {y + ROW_MIN} {sides[d]}"
    return f"<canonical {cid}>"


def neutral_next_building(state: State) -> str | None:
    """The building a canonical neutral build places: the display's lowest-numbered one
    (None when the display is empty)."""
    return min(state.g.display, key=lambda x: (int(x[1:]), x)) if state.g.display else None


def canonical_to_string(state: State, cid: int) -> str:
    """Readable text of a canonical id in this state (option labels resolved, the neutral's
    building named: ``NEUTRAL BUILD G07 at (2, 0)``)."""
    f = state.frame
    if NBUILD0 <= cid < NBUILD0 + 10 and neutral_next_building(state):
        return describe_id(cid).replace("NEUTRAL BUILD", "NEUTRAL BUILD "
                                        + neutral_next_building(state))
    if (isinstance(f, (F.OptionFrame, F.PriorBonusFrame))
            and OPT0 <= cid < OPT0 + N_OPTIONS):
        o = cid - OPT0
        b = f.building
        label = "place only" if o == 0 else CANON_OPTIONS[BUILDINGS[b].effect][o - 1][0]
        return f"{b}: {label}"
    return describe_id(cid)
