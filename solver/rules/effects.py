"""Building functions: one small options/resolve pair per effect key (buildings.md).

Each effect is registered under the ``effect_key`` of ``buildings.csv``:

* ``options(u)`` lists what the user may do, as :class:`Option` (a label, data, and the
  :class:`~solver.rules.payment.Cost` of that choice). The engine keeps only affordable
  options and always adds option 0, "place only, use no function" (buildings.md §1: a player
  may place a clergyman and decline the function).
* ``resolve(u, data)`` runs after the cost is paid: it hands out goods and may grant
  follow-up decisions (a free use, a build, a settlement, ...).
* ``quirks(u)`` (optional) lists more options that only an explicit payment
  (``State.apply_explicit``: an imported kennerspiel move naming its goods) may choose: the
  kennerspiel defects of profile fields such as ``shipyard_uncapped``. They are never legal
  actions of the engine's own, under any profile.

An effect whose options are a fixed menu (Fuel Merchant, Inn, ...) is registered with its
entries in ``MENUS``, and the one price of an effect whose options depend on the state (the
wonder buildings, the point mixes) is in ``PRICES``: canonical.py and the fast engine's tables
read these, so each number is written once.

``u`` is a :class:`Use`: who uses which building, where it stands (None for an unbuilt
building used through a Hospice/Guesthouse), and how (clergy / free / contract). Following
buildings.md §1 "whose you", every input, output and landscape-dependent part belongs to the
user; only the Cloister Garden's and Cottage's neighbours are taken where the building stands.
A chain of free uses never uses the same building twice (the Garden/Cottage cannot loop back).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import product

from . import frames as F
from . import goods as G
from .cards import BUILDINGS
from .payment import Cost, coin_value

TOKEN_GOOD = {"grain": G.GRAIN, "sheep": G.SHEEP, "clay": G.CLAY, "coin": G.COIN,
              "wood": G.WOOD, "peat": G.PEAT, "grapes": G.GRAPES, "stone": G.STONE}


@dataclass
class Option:
    """One way to use a building function."""

    label: str
    data: tuple = ()
    cost: Cost = field(default_factory=Cost)

    def describe(self) -> str:
        paid = self.cost.describe()
        return self.label if paid == "nothing" else f"{self.label}, paying {paid}"


@dataclass(frozen=True)
class Effect:
    options: Callable
    resolve: Callable
    quirks: Callable = lambda u: []


EFFECTS: dict[str, Effect] = {}


def effect(key: str, options: Callable, resolve: Callable, quirks: Callable | None = None
           ) -> None:
    """Register the options/resolve pair (and any import-only quirk options) of an effect key."""
    EFFECTS[key] = Effect(options, resolve, quirks or (lambda u: []))


#: buildings whose coin income kennerspiel pays in 5-coin pieces (profile ``coin_income``)
_NICKEL_INCOME = ("fuel_merchant", "market", "bakery", "brewery", "town_estate", "winery",
                  "alehouse", "inn", "coal_harbor")


class Use:
    """Context of one building use."""

    def __init__(self, state, user: int, b: str, loc, via: str, chain: list):
        self.state = state
        self.user = user
        self.b = b
        self.loc = loc  # (owner, col, row) or None
        self.via = via
        self.chain = chain

    @property
    def me(self):
        return self.state.g.owners[self.user]

    @property
    def goods(self) -> list[int]:
        return self.me.goods

    @property
    def wheel(self):
        return self.state.g.wheel

    @property
    def profile(self):
        return self.state.profile

    def gain(self, good: int, n: int = 1, pennies: bool = False) -> None:
        if (good == G.COIN and n >= 5 and self.profile.coin_income == "nickels" and not pennies
                and BUILDINGS[self.b].effect in _NICKEL_INCOME):
            # kennerspiel pays building income of 5+ coins in 5-coin pieces (NOTATION §7)
            self.goods[G.NICKEL] += n // 5
            n %= 5
        self.goods[good] += n

    def gain_all(self, items: dict[int, int]) -> None:
        for g, n in items.items():
            self.gain(g, n)

    def take(self, token: str, joker: bool) -> int:
        """Take ``token`` from the wheel (or the joker) into the user's goods."""
        amount = self.wheel.take(token, joker)
        self.goods[TOKEN_GOOD[token]] += amount
        self.state.wheel_bonus(TOKEN_GOOD[token])
        return amount

    def wheel_options(self, token: str) -> list[Option]:
        """The distinct wheel takes of a good: own indicator and/or joker (RULES §6.3)."""
        out = []
        for j in self.wheel.choices(token):
            src = self.wheel.source(token, j)
            n = self.wheel.yield_of(src) if src else 0
            out.append(Option(f"take {n} {token}" + (" with the joker" if j else ""),
                              (token, j)))
        return out

    def grant(self, frame: F.Frame) -> None:
        """Push a follow-up decision for the user (a frame of solver/rules/frames.py)."""
        self.state.g.frames.append(frame)

    def grant_free_use(self, targets: list[tuple[str, list | None]], again: bool = False
                       ) -> None:
        """Offer a free use of one of ``targets`` ((building, [owner, col, row] or None));
        ``again``: the building being used may be used again (each use pays again). Buildings
        used earlier in the chain are left out, unless profile ``free_use_repeats_chain``
        (then only the building being used, and a Cloister Garden or Cottage used earlier)."""
        repeat = self.profile.free_use_repeats_chain
        targets = [t for t in targets if t[0] not in self.chain or (again and t[0] == self.b)
                   or (repeat and t[0] != self.b
                       and BUILDINGS[t[0]].effect not in _DISABLED_AFTER_USE)]
        if not targets:
            return
        top = self.state.g.frames[-1] if self.state.g.frames else None
        if isinstance(top, F.SettleFrame) and self.profile.solo_hired_use_after_settle:
            # the settlement turn keeps the free use open until COMMIT (before or after SETTLE)
            top.free = [[[b, loc] for b, loc in targets], list(self.chain)]
            return
        self.grant(F.FreeUseFrame(user=self.user, targets=[[b, loc] for b, loc in targets],
                                  chain=list(self.chain)))

    def built_buildings(self):
        """(building, [owner, col, row]) of every built building, all landscapes."""
        for oi, o in enumerate(self.state.g.owners):
            for (c, r), bid in o.land.buildings():
                yield bid, [oi, c, r]

    def occupant(self, loc):
        return self.state.occupant(loc[0], (loc[1], loc[2]))

    def count_cloisters(self) -> int:
        return sum(1 for _, bid in self.me.land.buildings() if BUILDINGS[bid].cloister)


@dataclass(frozen=True)
class Menu:
    """A fixed menu: the data of each option in order, and its price; neither depends on the
    state (a label may)."""

    entries: tuple
    cost: Callable  # (u, data) -> Cost; reads at most the rule profile


#: the effects whose options are a fixed menu (canonical.py offers one option per entry;
#: solver/fast/tables.py makes each entry a row of the fast engine)
MENUS: dict[str, Menu] = {}
#: the effects whose every option pays one price although what they offer depends on the state
#: (wonders left, the point mixes); solver/fast/tables.py puts it in their ``costs`` row
PRICES: dict[str, Cost] = {}
#: the numbers of the converters whose options follow from the goods held: both engines read
#: them from here (solver/fast/tables.py writes them into the effect's row, columns EF_RATES)
RATES: dict[str, tuple[int, ...]] = {
    "windmill": (7,),  # at most this much grain at once
    "bakery": (4,),  # coins per bread sold
    "brewery": (7,),  # coins per beer sold
    "winery": (7,),  # coins per wine sold
    "whiskey_distillery": (2,),  # whiskey per malt
    "forgers_workshop": (5, 10),  # the first reliquary's price, each further one's
    "spinning_mill": (4, 3, 8, 5, 6),  # up to 4 sheep: 3 coins; up to 8: 5; more: 6
}


def _menu(key: str, entries, label: Callable, cost: Callable, resolve: Callable,
          quirks: Callable | None = None) -> None:
    """An effect whose options are the fixed ``entries`` (their data): ``label(u, data)``,
    ``cost(u, data)``."""
    menu = MENUS[key] = Menu(tuple(entries), cost)
    effect(key, lambda u: [Option(label(u, d), d, menu.cost(u, d)) for d in menu.entries],
           resolve, quirks)


def _price(key: str) -> Cost:
    """A fresh copy of an effect's one price (PRICES)."""
    cost = PRICES[key]
    return replace(cost, goods=dict(cost.goods))


def _free(u, data) -> Cost:
    """The price of a menu entry that costs nothing."""
    return Cost()


def _simple(key: str, label: str, gains: dict[int, int], cost: Cost | None = None) -> None:
    """An effect with one option: pay ``cost``, receive ``gains``."""
    effect(key, lambda u: [Option(label, (), cost or Cost())],
           lambda u, data: u.gain_all(gains))


def _wheel_effect(key: str, token: str) -> None:
    effect(key, lambda u: u.wheel_options(token), lambda u, data: u.take(data[0], data[1]))


# ----- heartland (buildings.md §3) --------------------------------------------------------
_wheel_effect("clay_mound", "clay")
_wheel_effect("cloister_office", "coin")
effect("farmyard",
       lambda u: u.wheel_options("sheep") + u.wheel_options("grain"),
       lambda u, data: u.take(data[0], data[1]))
_wheel_effect("grapevine", "grapes")
_wheel_effect("quarry", "stone")


# ----- free uses: Priory, Cloister Garden, Cottage, Palace, Grand Manor, Hospice ----------
def priory_targets(u: Use):
    out = []
    for oi, o in enumerate(u.state.g.owners):
        pos = o.clergy[o.prior]
        if pos is None:
            continue
        bid = u.state.g.owners[pos[0]].land.content((pos[1], pos[2]))
        if bid in BUILDINGS:
            out.append((bid, list(pos)))
    if u.profile.priory_one_prior_per_landscape:
        # quirk 18 (buildings.md G01): kennerspiel scans each landscape row by row and offers
        # only the first prior it finds there, and only then leaves the Priory out, so a prior
        # on the Priory hides the landscape's other priors (tools/kenner: ours 3 france short
        # seed 79 move 169)
        first: dict[int, tuple] = {}
        for bid, pos in sorted(out, key=lambda t: (t[1][2], t[1][1])):
            first.setdefault(pos[0], (bid, pos))
        out = [t for t in out if first[t[1][0]] == t]
    return [t for t in out if t[0] != "G01"]


effect("priory", lambda u: [Option("free use of a building with a prior on it")]
       if priory_targets(u) else [],
       lambda u, data: u.grant_free_use(priory_targets(u)))


def neighbour_targets(u: Use):
    if u.loc is None:
        return []
    owner, col, row = u.loc
    land = u.state.g.owners[owner].land
    out = []
    for cell in land.neighbours((col, row)):
        bid = land.content(cell)
        if bid in BUILDINGS and u.state.occupant(owner, cell) is None:
            out.append((bid, [owner, cell[0], cell[1]]))
    return out


#: under ``free_use_repeats_chain``: the buildings a chain never returns to once used (kennerspiel
#: marks them unusable until the turn ends)
_DISABLED_AFTER_USE = ("cloister_garden", "cottage")
effect("cloister_garden", lambda u: [Option("take 1 grapes, then a free use of a neighbour")],
       lambda u, data: (u.gain(G.GRAPES), u.grant_free_use(neighbour_targets(u))))
effect("cottage", lambda u: [Option("take 1 malt, then a free use of a neighbour")],
       lambda u, data: (u.gain(G.MALT), u.grant_free_use(neighbour_targets(u))))


def occupied_targets(u: Use):
    return [(bid, loc) for bid, loc in u.built_buildings()
            if u.occupant(loc) is not None
            and (bid != u.b or u.profile.palace_may_use_itself)]


effect("palace", lambda u: [Option("free use of an occupied building", (), Cost({G.WINE: 1}))],
       lambda u, data: u.grant_free_use(occupied_targets(u), u.profile.palace_may_use_itself))
effect("grand_manor",
       lambda u: [Option("free use of an occupied building", (), Cost({G.WHISKEY: 1}))],
       lambda u, data: u.grant_free_use(occupied_targets(u), u.profile.palace_may_use_itself))
effect("use_unbuilt_building",
       lambda u: [Option("free use of a display building")] if u.state.g.display else [],
       lambda u, data: u.grant_free_use([(b, None) for b in u.state.g.display]))


# ----- start buildings --------------------------------------------------------------------
def _distinct_pay(k: int) -> Cost:
    return Cost(distinct=k)


_menu("cloister_courtyard", [(g,) for g in G.BASIC],
      lambda u, d: f"give 3 different goods, take 6 {G.NAMES[d[0]]}",
      lambda u, d: _distinct_pay(3), lambda u, data: u.gain(data[0], 6))
_simple("grain_storage", "pay 1 coin, take 6 grain", {G.GRAIN: 6}, Cost(coins=1))
_simple("granary", "pay 1 coin, take 4 grain and 1 book", {G.GRAIN: 4, G.BOOK: 1},
        Cost(coins=1))
effect("windmill",
       lambda u: [Option(f"{k} grain to {k} flour + {k} straw", (k,), Cost({G.GRAIN: k}))
                  for k in range(1, min(RATES["windmill"][0], u.goods[G.GRAIN]) + 1)],
       lambda u, data: u.gain_all({G.FLOUR: data[0], G.STRAW: data[0]}))
effect("malthouse",
       lambda u: [Option(f"{k} grain to {k} malt + {k} straw", (k,), Cost({G.GRAIN: k}))
                  for k in range(1, u.goods[G.GRAIN] + 1)],
       lambda u, data: u.gain_all({G.MALT: data[0], G.STRAW: data[0]}))


def _bakery_options(u: Use):
    out = []
    for n in range(u.goods[G.FLOUR] + 1):
        for m in range(min(2, u.goods[G.BREAD] + n) + 1):
            if n or m:
                out.append(Option(f"bake {n} bread, sell {m}", (n, m),
                                  Cost({G.FLOUR: n}, energy2=n)))
    return out


effect("bakery", _bakery_options,
       lambda u, data: u.gain_all({G.BREAD: data[0] - data[1],
                                 G.COIN: RATES["bakery"][0] * data[1]}))


def _brewery_options(u: Use):
    out = []
    for k in range(min(u.goods[G.GRAIN], u.goods[G.MALT]) + 1):
        for s in range(min(1, u.goods[G.BEER] + k) + 1):
            if k or s:
                out.append(Option(f"brew {k} beer, sell {s}", (k, s),
                                  Cost({G.GRAIN: k, G.MALT: k})))
    return out


effect("brewery", _brewery_options,
       lambda u, data: u.gain_all({G.BEER: data[0] - data[1],
                                 G.COIN: RATES["brewery"][0] * data[1]}))
_FUEL = {5: 3, 8: 6, 10: 9}  # coins: the energy they cost
_menu("fuel_merchant", [(c,) for c in _FUEL],
      lambda u, d: f"{_FUEL[d[0]]} energy for {d[0]} coins",
      lambda u, d: Cost(energy2=2 * _FUEL[d[0]]), lambda u, data: u.gain(G.COIN, data[0]))
effect("peat_coal_kiln",
       lambda u: [Option(f"take 1 peat coal + 1 coin, convert {k} peat", (k,), Cost({G.PEAT: k}))
                  for k in range(u.goods[G.PEAT] + 1)],
       lambda u, data: u.gain_all({G.COAL: 1 + data[0], G.COIN: 1}))
effect("market", lambda u: [Option("give 4 different goods, take 1 bread + 7 coins", (),
                                   _distinct_pay(4))],
       lambda u, data: u.gain_all({G.BREAD: 1, G.COIN: 7}))
_menu("false_lighthouse", [(g,) for g in (G.BEER, G.WHISKEY)],
      lambda u, d: f"take 3 coins + 1 {G.NAMES[d[0]]}", _free,
      lambda u, data: u.gain_all({G.COIN: 3, data[0]: 1}))


def _spinning(sheep: int) -> int:
    few, coins_few, some, coins_some, coins_many = RATES["spinning_mill"]
    return 0 if sheep == 0 else coins_few if sheep <= few else coins_some if sheep <= some \
        else coins_many


effect("spinning_mill",
       lambda u: [Option(f"take {_spinning(u.goods[G.SHEEP])} coins for your sheep")]
       if u.goods[G.SHEEP] else [],
       lambda u, data: u.gain(G.COIN, _spinning(u.goods[G.SHEEP])))
_simple("harbor_promenade", "take 1 wood, 1 wine, 1 coin, 1 ceramic",
        {G.WOOD: 1, G.WINE: 1, G.COIN: 1, G.CERAMIC: 1})
_simple("houseboat", "take 1 wood, 1 malt, 1 coin, 1 peat",
        {G.WOOD: 1, G.MALT: 1, G.COIN: 1, G.PEAT: 1})
_menu("stone_merchant", [(k,) for k in range(1, 6)], lambda u, d: f"{d[0]} stone",
      lambda u, d: Cost(food=2 * d[0], energy2=2 * d[0]),
      lambda u, data: u.gain(G.STONE, data[0]))
_simple("builders_market", "pay 2 coins, take 2 wood, 2 clay, 1 stone, 1 straw",
        {G.WOOD: 2, G.CLAY: 2, G.STONE: 1, G.STRAW: 1}, Cost(coins=2))


def _carpentry_resolve(u: Use, data):
    u.me.land.cells[tuple(data[0])][1] = None
    u.grant(F.GrantBuildFrame(user=u.user))


effect("carpentry",
       lambda u: [Option(f"remove the forest at {c}, then build", ([c[0], c[1]],))
                  for c in u.me.land.features("forest")],
       _carpentry_resolve)


# ----- A buildings ------------------------------------------------------------------------
_menu("sacred_site", [(a, b) for a in (G.GRAIN, G.MALT) for b in (G.BEER, G.WHISKEY)],
      lambda u, d: f"take 1 book, 2 {G.NAMES[d[0]]}, 1 {G.NAMES[d[1]]}", _free,
      lambda u, data: u.gain_all({G.BOOK: 1, data[0]: 2, data[1]: 1}))
_simple("financed_estate", "pay 1 coin, take 1 book, 1 bread, 2 grapes, 2 flour",
        {G.BOOK: 1, G.BREAD: 1, G.GRAPES: 2, G.FLOUR: 2}, Cost(coins=1))
_menu("druids_house", [(a, b) for a in G.BASIC for b in G.BASIC if a != b],
      lambda u, d: f"pay 1 book, take 5 {G.NAMES[d[0]]} + 3 {G.NAMES[d[1]]}",
      lambda u, d: Cost({G.BOOK: 1}), lambda u, data: u.gain_all({data[0]: 5, data[1]: 3}))
_simple("cloister_chapter_house", "take 1 each of clay, wood, peat, sheep, grain, coin",
        {G.CLAY: 1, G.WOOD: 1, G.PEAT: 1, G.SHEEP: 1, G.GRAIN: 1, G.COIN: 1})


def _library_options(u: Use):
    out = []
    for k in range(4):
        for s in range(min(1, u.goods[G.BOOK] + k) + 1):
            if k or s:
                out.append(Option(f"buy {k} books, trade {s} book for meat + wine", (k, s),
                                  Cost(coins=k)))
    return out


effect("cloister_library", _library_options,
       lambda u, data: u.gain_all({G.BOOK: data[0] - data[1], G.MEAT: data[1],
                                   G.WINE: data[1]}))
_simple("scriptorium", "pay 1 coin, take 1 book, 1 meat, 1 whiskey",
        {G.BOOK: 1, G.MEAT: 1, G.WHISKEY: 1}, Cost(coins=1))
_menu("cloister_workshop", [(c, s) for c in range(4) for s in range(2) if c or s],
      lambda u, d: f"{d[0]} clay to ceramic, {d[1]} stone to ornament",
      lambda u, d: Cost({G.CLAY: d[0], G.STONE: d[1]}, energy2=2 * (d[0] + d[1])),
      lambda u, data: u.gain_all({G.CERAMIC: data[0], G.ORNAMENT: data[1]}))
effect("slaughterhouse",
       lambda u: [Option(f"{k} sheep + {k} straw to {k} meat", (k,),
                         Cost({G.SHEEP: k, G.STRAW: k}))
                  for k in range(1, min(u.goods[G.SHEEP],
                                        u.goods[G.STRAW] + u.goods[G.GRAIN]) + 1)],
       lambda u, data: u.gain(G.MEAT, data[0]))


# ----- B buildings ------------------------------------------------------------------------
_menu("inn", [(f, w) for f in range(8) for w in range(2) if f or w],
      lambda u, d: f"{d[0]} food to {d[0]} coins, {d[1]} wine to {6 * d[1]} coins",
      lambda u, d: Cost({G.WINE: d[1]}, food=d[0]),
      lambda u, data: (u.gain(G.COIN, data[0], pennies=True), u.gain(G.COIN, 6 * data[1])))
_menu("alehouse", [(b, w) for b in range(2) for w in range(2) if b or w],
      lambda u, d: f"sell {d[0]} beer for 8, {d[1]} whiskey for 7",
      lambda u, d: Cost({G.BEER: d[0], G.WHISKEY: d[1]}),
      lambda u, data: u.gain(G.COIN, 8 * data[0] + 7 * data[1]))


def _winery_options(u: Use):
    out = []
    for k in range(u.goods[G.GRAPES] + 1):
        for s in range(min(1, u.goods[G.WINE] + k) + 1):
            if k or s:
                out.append(Option(f"press {k} wine, sell {s}", (k, s), Cost({G.GRAPES: k})))
    return out


effect("winery", _winery_options,
       lambda u, data: u.gain_all({G.WINE: data[0] - data[1],
                                 G.COIN: RATES["winery"][0] * data[1]}))
effect("whiskey_distillery",
       lambda u: [Option(f"{k} malt + wood + peat to {RATES['whiskey_distillery'][0] * k} "
                         "whiskey", (k,),
                         Cost({G.MALT: k, G.WOOD: k, G.PEAT: k}))
                  for k in range(1, min(u.goods[G.MALT], u.goods[G.WOOD], u.goods[G.PEAT]) + 1)],
       lambda u, data: u.gain(G.WHISKEY, RATES["whiskey_distillery"][0] * data[0]))


def _bathhouse(u: Use, data):
    u.gain_all({G.BOOK: 1, G.CERAMIC: 1})
    u.me.clergy = [None] * len(u.me.clergy)


effect("bathhouse", lambda u: [Option("pay 1 coin, take 1 book + 1 ceramic, clergy come home",
                                      (), Cost(coins=1))], _bathhouse)


def _locutory(u: Use, data):
    u.me.clergy[u.me.prior] = None
    u.grant(F.GrantBuildFrame(user=u.user))


effect("locutory", lambda u: [Option("pay 2 coins, prior comes home, then build", (),
                                     Cost(coins=2))], _locutory)
_menu("cloister_church", [(k,) for k in (1, 2)],
      lambda u, d: f"{d[0]} bread + {d[0]} wine to {d[0]} reliquary",
      lambda u, d: Cost({G.BREAD: d[0], G.WINE: d[0]}),
      lambda u, data: u.gain(G.RELIQUARY, data[0]))
_menu("chapel", [(b, r) for b in range(2) for r in range(4) if b or r],
      lambda u, d: f"{d[0]} coin to book, {d[1]} beer + whiskey to reliquary",
      lambda u, d: Cost({G.BEER: d[1], G.WHISKEY: d[1]}, coins=d[0]),
      lambda u, data: u.gain_all({G.BOOK: data[0], G.RELIQUARY: data[1]}))
PRICES["chamber_of_wonders"] = _distinct_pay(13)
effect("chamber_of_wonders",
       lambda u: [Option("give 13 different goods, take a wonder", (),
                         _price("chamber_of_wonders"))]
       if u.state.g.wonders_left else [],
       lambda u, data: _take_wonder(u))
_simple("portico", "pay 1 reliquary, take 2 each of stone, clay, wood, peat, coin, grain, sheep",
        {g: 2 for g in (G.STONE, G.CLAY, G.WOOD, G.PEAT, G.COIN, G.GRAIN, G.SHEEP)},
        Cost({G.RELIQUARY: 1}))
effect("shipyard",
       lambda u: [Option("2 wood to 1 ornament + a 5-coin piece", (), Cost({G.WOOD: 2}))],
       lambda u, data: u.gain_all({G.ORNAMENT: data[0] if data else 1,
                                   G.NICKEL: data[0] if data else 1}),
       # quirk 18 (buildings.md G26): kennerspiel exchanges wood / 2 times, with no cap
       lambda u: [Option(f"{2 * k} wood to {k} ornaments + {k} 5-coin pieces (kennerspiel)",
                         (k,), Cost({G.WOOD: 2 * k}))
                  for k in range(2, u.goods[G.WOOD] // 2 + 1)]
       if u.profile.shipyard_uncapped else [])


def _take_wonder(u: Use) -> None:
    u.state.g.wonders_left -= 1
    u.gain(G.WONDER)


# ----- C buildings ------------------------------------------------------------------------
effect("castle", lambda u: [Option("build a settlement")],
       lambda u, data: u.grant(F.GrantSettleFrame(user=u.user)))


def _forest_hut(u: Use, data):
    u.me.land.cells[tuple(data[0])][1] = None
    u.gain_all({G.SHEEP: 2, G.WOOD: 2, G.STONE: 1})


effect("forest_hut",
       lambda u: [Option(f"remove the forest at {c}, take 2 sheep, 2 wood, 1 stone",
                         ([c[0], c[1]],)) for c in u.me.land.features("forest")],
       _forest_hut)
_simple("town_estate", "pay 1 ceramic, take 12 coins", {G.COIN: 12}, Cost({G.CERAMIC: 1}))
effect("refectory",
       lambda u: [Option(f"take 1 beer + 1 meat, {k} meat to ceramic", (k,))
                  for k in range(min(4, u.goods[G.MEAT] + 1) + 1)],
       lambda u, data: u.gain_all({G.BEER: 1, G.MEAT: 1 - data[0], G.CERAMIC: data[0]}))


def _coal_input(u: Use) -> int:
    return G.PEAT if u.profile.coal_harbor_input == "peat" else G.COAL


_menu("coal_harbor", [(k,) for k in (1, 2, 3)],
      lambda u, d: f"{d[0]} {G.NAMES[_coal_input(u)]} to {3 * d[0]} coins + {d[0]} whiskey",
      lambda u, d: Cost({_coal_input(u): d[0]}),
      lambda u, data: u.gain_all({G.COIN: 3 * data[0], G.WHISKEY: data[0]}))
effect("calefactory",
       lambda u: [Option("pay 1 coin, then fell trees and/or cut peat", (), Cost(coins=1))],
       lambda u, data: u.grant(F.GrantFellCutFrame(user=u.user)))
effect("filial_church",
       lambda u: [Option("give 5 different goods, take 1 reliquary", (), _distinct_pay(5))],
       lambda u, data: u.gain(G.RELIQUARY))


def _joker_product(u: Use, data):
    if "joker" not in u.wheel.tokens and u.profile.joker_product_restores_joker:
        u.wheel.tokens["joker"] = u.wheel.arm  # kennerspiel: yields 0 and puts the joker back
    if data[0] is None:  # Cooperage quirk: no product named, the joker resets for nothing
        if "joker" in u.wheel.tokens:
            u.wheel.take("joker", True)
        return
    u.gain(data[0], u.wheel.take("joker", True) if "joker" in u.wheel.tokens else 0)
    u.state.wheel_bonus(data[0])


_menu("shipping_company", [(g,) for g in (G.MEAT, G.BREAD, G.WINE)],
      lambda u, d: f"3 energy for {u.wheel.yield_of('joker')} {G.NAMES[d[0]]} (joker)",
      lambda u, d: Cost(energy2=6), _joker_product)
_menu("cooperage", [(g,) for g in (G.BEER, G.WHISKEY)],
      lambda u, d: f"3 wood for {u.wheel.yield_of('joker')} {G.NAMES[d[0]]} (joker)",
      lambda u, d: Cost({G.WOOD: 3}), _joker_product,
       # quirk 18 (buildings.md I33): the one-parameter form names no product: the wood is
       # paid and the joker reset, nothing is received
       lambda u: [Option("3 wood, no product named: the joker resets (kennerspiel)", (None,),
                         Cost({G.WOOD: 3}))] if u.profile.cooperage_one_param_nothing else [])


# ----- D buildings ------------------------------------------------------------------------
_POINT_GOODS = (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)


def _sacristy_resolve(u: Use, data) -> None:
    if data and not data[0]:  # quirk: a bare kennerspiel use takes a wonder out for nothing
        u.state.g.wonders_left -= 1
        return
    _take_wonder(u)


def _sacristy_quirks(u: Use):
    """quirk 18 (buildings.md G34): any non-empty part of the set buys the wonder (data: the
    goods named); naming none loses one from the supply. Only while a wonder is left."""
    if not u.profile.sacristy_any_good or not u.state.g.wonders_left:
        return []
    out = []
    for mask in range(15):  # every proper subset of the four goods (the full set is option 1)
        named = [g for i, g in enumerate(_POINT_GOODS) if mask >> i & 1]
        label = ("name no goods: a wonder leaves the supply (kennerspiel)" if not named else
                 f"give {', '.join(G.NAMES[g] for g in named)}, take a wonder (kennerspiel)")
        out.append(Option(label, (named,), Cost({g: 1 for g in named})))
    return out


PRICES["sacristy"] = Cost({G.BOOK: 1, G.CERAMIC: 1, G.ORNAMENT: 1, G.RELIQUARY: 1})
effect("sacristy",
       lambda u: [Option("give book, ceramic, ornament, reliquary, take a wonder", (),
                         _price("sacristy"))]
       if u.state.g.wonders_left else [],
       _sacristy_resolve, _sacristy_quirks)


def _forger_money(u) -> int:
    """Coins for the Forger's Workshop; kennerspiel counts wine and whiskey too (tools/kenner)."""
    return coin_value(u.goods, u.profile.auto_spend_wine_whiskey)


def _forger_price(k: int) -> int:
    first, more = RATES["forgers_workshop"]
    return first + more * (k - 1)


effect("forgers_workshop",
       lambda u: [Option(f"{k} reliquaries for {_forger_price(k)} coins", (k,),
                         Cost(coins=_forger_price(k)))
                  for k in range(1, max(0, (_forger_money(u) - RATES["forgers_workshop"][0])
                                         // RATES["forgers_workshop"][1] + 1) + 1)],
       lambda u, data: u.gain(G.RELIQUARY, data[0]))
PRICES["round_tower"] = Cost({G.WHISKEY: 1}, coins=5, points=14)
effect("round_tower",
       lambda u: [Option("pay 5 coins, 1 whiskey and goods worth 14 points, take a wonder", (),
                         _price("round_tower"))]
       if u.state.g.wonders_left else [],
       lambda u, data: _take_wonder(u))

_UPGRADE = {G.BOOK: G.CERAMIC, G.CERAMIC: G.ORNAMENT, G.ORNAMENT: G.RELIQUARY}


def _pilgrimage_options(u: Use):
    seen = {}
    for seq in [(a,) for a in _UPGRADE] + list(product(_UPGRADE, repeat=2)):
        have = {g: u.goods[g] for g in (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)}
        ok = True
        for g in seq:
            if have[g] <= 0:
                ok = False
                break
            have[g] -= 1
            have[_UPGRADE[g]] += 1
        if not ok:
            continue
        delta = tuple(have[g] - u.goods[g] for g in (G.BOOK, G.CERAMIC, G.ORNAMENT,
                                                     G.RELIQUARY))
        if any(delta) and delta not in seen:
            seen[delta] = seq
    return [Option("upgrade " + " then ".join(G.NAMES[g] for g in seq), (list(delta),))
            for delta, seq in seen.items()]


effect("pilgrimage_site", _pilgrimage_options,
       lambda u, data: u.gain_all(dict(zip((G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY),
                                           data[0]))))
_menu("camera", [(k,) for k in (1, 2)],
      lambda u, d: f"{d[0]} book + ceramic to coin + clay + reliquary",
      lambda u, d: Cost({G.BOOK: d[0], G.CERAMIC: d[0]}),
      lambda u, data: u.gain_all({G.COIN: data[0], G.CLAY: data[0], G.RELIQUARY: data[0]}))
effect("dormitory",
       lambda u: [Option(f"take 1 ceramic, {k} straw + wood to book", (k,),
                         Cost({G.STRAW: k, G.WOOD: k}))
                  for k in range(min(u.goods[G.STRAW] + u.goods[G.GRAIN], u.goods[G.WOOD]) + 1)],
       lambda u, data: u.gain_all({G.CERAMIC: 1, G.BOOK: data[0]}))


def _bulwark(u: Use, data):
    g = u.state.g
    u.grant(F.GrantLandFrame(user=u.user, district=bool(g.district_prices),
                             plot=bool(g.plot_prices)))


effect("bulwark",
       lambda u: [Option("pay 1 book, place a free district and plot", (), Cost({G.BOOK: 1}))],
       _bulwark)


def _printing_office(u: Use, data):
    if len(data) == 1:  # choose the forests first
        then = F.ResolveUse(user=u.user, building=u.b,
                            loc=None if u.loc is None else list(u.loc), via=u.via,
                            chain=list(u.chain), data=[data[0]])
        u.grant(F.PickCellsFrame(user=u.user, feature="forest", count=data[0], then=then))
        return
    for c in data[1]:
        u.me.land.cells[tuple(c)][1] = None
    u.gain(G.BOOK, data[0])


effect("printing_office",
       lambda u: [Option(f"remove {k} forests for {k} books", (k,))
                  for k in range(1, min(4, len(u.me.land.features("forest"))) + 1)],
       _printing_office)


def _point_mixes(limit: int):
    """Every non-empty mix of books/ceramics/ornaments/reliquaries worth at most ``limit``."""
    out = []
    for rq in range(limit // 8 + 1):
        for orn in range((limit - 8 * rq) // 4 + 1):
            for ce in range((limit - 8 * rq - 4 * orn) // 3 + 1):
                for bo in range((limit - 8 * rq - 4 * orn - 3 * ce) // 2 + 1):
                    if rq or orn or ce or bo:
                        out.append((bo, ce, orn, rq))
    return out


def _mix_label(mix) -> str:
    return G.goods_string(dict(zip((G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY), mix)))


def _festival_limit(u: Use) -> int:
    return len(u.me.land.features("forest")) + len(u.me.land.features("moor"))


PRICES["festival_ground"] = Cost({G.BEER: 1})
effect("festival_ground",
       lambda u: [Option(f"pay 1 beer, take {_mix_label(m)}", (list(m),),
                         _price("festival_ground"))
                  for m in _point_mixes(_festival_limit(u))],
       lambda u, data: u.gain_all(dict(zip((G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY),
                                           data[0]))))
_menu("estate", [(e, f) for e in range(3) for f in range(3) if 1 <= e + f <= 2],
      lambda u, d: f"{d[0]} x 6 energy + {d[1]} x 10 food to {d[0] + d[1]} book + ornament",
      lambda u, d: Cost(food=10 * d[1], energy2=12 * d[0]),
      lambda u, data: u.gain_all({G.BOOK: data[0] + data[1], G.ORNAMENT: data[0] + data[1]}))


def _brotherhood_limit(u: Use) -> int:
    g = u.state.g
    rate = (u.profile.brotherhood_rate_solo if g.players == 1
            else (u.profile.brotherhood_rate_2p_short if g.length == "short"
                  else u.profile.brotherhood_rate_2p_long) if g.players == 2 else 2)
    return int(rate * u.count_cloisters())


PRICES["house_of_the_brotherhood"] = Cost(coins=5)
effect("house_of_the_brotherhood",
       lambda u: [Option(f"pay 5 coins, take {_mix_label(m)}", (list(m),),
                         _price("house_of_the_brotherhood"))
                  for m in _point_mixes(_brotherhood_limit(u))],
       lambda u, data: u.gain_all(dict(zip((G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY),
                                           data[0]))))
