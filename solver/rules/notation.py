"""Kennerspiel move notation (../shared/reference/NOTATION.md): import into and export from
the reference engine.

Import (:class:`Replay`, :func:`replay_record`): each kennerspiel move (a token list such as
``["USE", "G02", "GnPnSh", "Wo"]``) becomes one or more engine actions, chosen by the engine's
pending decision frame:

* optional follow-ups the record does not take (a prior's bonus use, a free use, a granted
  build, ...) are declined with ``SKIP``; a hired building the hirer never uses gets option 0;
* ``USE b params`` places a clergyman (``USE``), takes a prior's bonus use (``USE_PRIOR``), a
  free use (``FREE_USE``) or a hired building's use, and then resolves the building with the
  option and the exact tiles its parameters name: :meth:`State.apply_explicit`
  (solver/rules/explicit.py). The per-building parameter codecs below (``_DECODE``/
  ``_ENCODE``) translate kennerspiel's parameters (NOTATION §7) into an effect option of
  solver/rules/effects.py plus a payment, and back;
* ``WORK_CONTRACT`` and ``SETTLE`` pay the named string explicitly; ``WITH_PRIOR`` /
  ``WITH_LAYBROTHER`` answer the owner's ``choose_clergy`` frame (or, for the player whose turn
  it is, make the next ``USE`` a prior's); ``CONVERT`` becomes engine conversions.

Anything the engine cannot map or rejects raises :class:`NotationError`, whose message is
``move N (TOKENS): REASON``; nothing is skipped silently.

Export (:func:`export_history`) walks an engine history (action ids, and the dicts that
``apply_explicit`` records) on a fresh state and writes the kennerspiel moves for it, so an
imported game exported and imported again reaches the same state.

Declined uses (``PLACE_ONLY``, an extension of the notation). The engine lets a player place a
clergyman and decline the function (option 0, buildings.md §1); kennerspiel writes a declined
converter as a bare ``USE <id>``, but for many buildings a bare use *is* a use (a Cloister
Garden still gives its grape and offers the free use, a Priory or Hospice offers its free use,
a Clay Mound takes clay, ...) and kennerspiel has no notation for declining them. The exporter
therefore writes such a decline as ``USE <id> PLACE_ONLY`` (followed by the goods string, if
the declined use paid any), and only where the bare use would not import as a decline: every
move kennerspiel itself can express keeps its kennerspiel form. The importer reads
``PLACE_ONLY`` as option 0 under every profile. kennerspiel does not know the token (it reads
``PL AC E_ ON LY`` as unknown resource pairs and ignores them), so it would replay such a move
as a real use: records with ``PLACE_ONLY`` round-trip exactly through this engine only, which
is the point, since no kennerspiel record can mean "place only" on those buildings.

Chosen amounts (``OPTION=``, an extension too). kennerspiel reads a converter's amount from the
goods its move names (NOTATION §7). The engine's own moves may name more: a food or energy price
is paid tile by tile and the last tile may overshoot (a Stone Merchant making 2 stone paid with
two meat, buildings.md §1: the surplus is lost), and the goods string alone would then import
as 4 stone. Where the kennerspiel form would import as another option than the one the engine
took, the exporter appends ``OPTION=<the option's data as compact JSON>`` (``OPTION=[2]``) as
the last parameter; the importer takes that option, paid with the goods named before it.

Likewise a fell-trees or cut-peat action with no forest or moor card left (allowed, giving
nothing: profile ``empty_fell_cut``, D23; kennerspiel rejects it) is written ``FELL_TREES`` /
``CUT_PEAT`` with no coordinates, and the importer reads it back as that action.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from itertools import product

from . import actions as A
from . import goods as G
from .cards import BUILDINGS
from .game import RuleError, State, new_initial_state
from .state import LAY_BROTHER, PRIOR

COLOUR_CODES = ("R", "G", "B", "W")
ENERGY_GOODS = (G.WOOD, G.PEAT, G.COAL, G.STRAW)
MONEY_GOODS = (G.COIN, G.NICKEL, G.WINE, G.WHISKEY)
POINT_MIX = (G.BOOK, G.CERAMIC, G.ORNAMENT, G.RELIQUARY)
FLAGS = ("Jo", "Bp")


class NotationError(ValueError):
    """A move that cannot be parsed, mapped or applied: ``move N (TOKENS): REASON``."""

    def __init__(self, index: int, tokens: list[str], reason: str):
        self.index = index
        self.tokens = list(tokens)
        self.reason = reason
        super().__init__(f"move {index} ({' '.join(tokens)}): {reason}")


class RecordError(ValueError):
    """A game record that is malformed (wrong schema), not a move the engine rejects."""


# ----- goods strings -------------------------------------------------------------------------
def parse_goods(text: str) -> Counter:
    """A resource string (``GnGnWo``) as a Counter of good ids; ``Jo``/``Bp`` are skipped.

    Unlike kennerspiel (which ignores unknown pairs), an unknown pair is an error.
    """
    out: Counter = Counter()
    if len(text) % 2:
        raise ValueError(f"resource string {text!r} has an odd length")
    for i in range(0, len(text), 2):
        code = text[i:i + 2]
        if code in FLAGS:
            continue
        if code not in G.BY_CODE:
            raise ValueError(f"unknown resource code {code!r} in {text!r}")
        out[G.BY_CODE[code]] += 1
    return out


def goods_text(goods) -> str:
    """Counter / dict of good ids as a resource string, in goods-id order."""
    return "".join(G.CODES[g] * n for g, n in sorted(dict(goods).items()) if n > 0)


def _only(c: Counter, keep) -> dict:
    return {g: n for g, n in c.items() if g in keep and n}


def _energy2(c) -> int:
    return sum(G.ENERGY2[g] * n for g, n in c.items())


def _food(c) -> int:
    return sum(G.FOOD[g] * n for g, n in c.items())


def _money(c) -> int:
    return sum(n * {G.COIN: 1, G.NICKEL: 5, G.WINE: 1, G.WHISKEY: 2}.get(g, 0)
               for g, n in c.items())


# ----- per-building parameter codecs (NOTATION §7) -------------------------------------------
# decode(ctx, params) -> (data or None for "place only", payment dict)
# encode(data, payment) -> params list
DECLINE = None
PLACE_ONLY = "PLACE_ONLY"  # USE <id> PLACE_ONLY [goods]: option 0 (module docstring)
OPTION_TAG = "OPTION="  # USE <id> <params> OPTION=<json data>: that option (module docstring)
_DECODE: dict = {}
_ENCODE: dict = {}


@dataclass
class _Ctx:
    state: State
    user: int
    b: str


def codec(*keys):
    def wrap(pair):
        dec, enc = pair
        for k in keys:
            _DECODE[k] = dec
            _ENCODE[k] = enc
        return pair
    return wrap


def _p(params, i=0) -> str:
    return params[i] if len(params) > i else ""


def _wheel_codec(token):
    def dec(ctx, params):
        for p in params:
            parse_goods(p)  # an unknown code is an error (kennerspiel ignores the rest)
        w = ctx.state.g.wheel
        joker = "Jo" in _p(params) or (token not in w.tokens and "joker" in w.tokens)
        return (token, joker), {}

    def enc(data, pay):
        return ["Jo"] if data[1] else []
    return dec, enc


for _key, _tok in (("clay_mound", "clay"), ("cloister_office", "coin"),
                   ("grapevine", "grapes"), ("quarry", "stone")):
    codec(_key)(_wheel_codec(_tok))


def _farmyard_dec(ctx, params):
    p = _p(params)
    parse_goods(p)
    sheep, grain = "Sh" in p, "Gn" in p
    if sheep == grain:
        raise ValueError("the Farmyard needs exactly one of Sh and Gn")
    token = "sheep" if sheep else "grain"
    w = ctx.state.g.wheel
    joker = "Jo" in p or (token not in w.tokens and "joker" in w.tokens)
    return (token, joker), {}


codec("farmyard")((_farmyard_dec,
                   lambda d, pay: [("Sh" if d[0] == "sheep" else "Gn") + ("Jo" if d[1] else "")]))


def _plain(ctx, params):
    return (), {}


codec("cloister_chapter_house", "harbor_promenade", "houseboat", "castle")(
    (_plain, lambda d, pay: []))


def _if_options(ctx, params):
    """A no-parameter use that may have nothing to do (no targets, no sheep): then option 0."""
    u = ctx.state.use_of(ctx.state.frame)
    from .effects import EFFECTS
    opts = EFFECTS[BUILDINGS[ctx.b].effect].options(u)
    return ((), {}) if opts else (DECLINE, {})


codec("priory", "cloister_garden", "cottage", "spinning_mill", "use_unbuilt_building")(
    (_if_options, lambda d, pay: []))


def _pay_all(ctx, params):
    return (), dict(parse_goods("".join(p for p in params if not p.lstrip("-").isdigit())))


def _enc_pay(d, pay):
    text = goods_text(pay or {})
    return [text] if text else []


def _money_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = _only(c, MONEY_GOODS)
    return ((), pay) if _money(pay) >= 1 else (DECLINE, pay)


codec("grain_storage", "granary", "financed_estate", "scriptorium", "bathhouse",
      "calefactory")((_money_dec, _enc_pay))


def _k_of(good, cap=None):
    def dec(ctx, params):
        n = parse_goods(_p(params))[good]
        k = n if cap is None else min(cap, n)
        return ((k,), {good: k}) if k else (DECLINE, {})
    return dec, _enc_pay


codec("windmill")(_k_of(G.GRAIN, 7))
codec("malthouse")(_k_of(G.GRAIN))


def _kiln_dec(ctx, params):
    k = parse_goods(_p(params))[G.PEAT]
    return (k,), {G.PEAT: k}


codec("peat_coal_kiln")((_kiln_dec, _enc_pay))


def _bakery_dec(ctx, params):
    c = parse_goods(_p(params))
    n, m = c[G.FLOUR], c[G.BREAD]
    pay = _only(c, ENERGY_GOODS)
    if n:
        pay[G.FLOUR] = n
    if m > 2:
        pay[G.BREAD] = m - 2
    if not n and not m:
        return DECLINE, pay
    return (n, min(m, 2)), pay


codec("bakery")((_bakery_dec, lambda d, pay: [goods_text(pay) + "Br" * d[1]]))


def _brewery_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.GRAIN], c[G.MALT])
    s = 1 if c[G.BEER] else 0
    pay = _only(c, (G.GRAIN, G.MALT))
    if not k and not s:
        return DECLINE, pay
    return (k, s), pay


codec("brewery")((_brewery_dec, lambda d, pay: [goods_text(pay) + "Be" * d[1]]))


def _fuel_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = _only(c, ENERGY_GOODS)
    e2 = _energy2(pay)
    coins = 10 if e2 >= 18 else 8 if e2 >= 12 else 5 if e2 >= 6 else 0
    return ((coins,), pay) if coins else (DECLINE, pay)


codec("fuel_merchant")((_fuel_dec, _enc_pay))


def _distinct_dec(k):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        return ((), dict(c)) if len(c) >= k else (DECLINE, dict(c))
    return dec, _enc_pay


codec("market")(_distinct_dec(4))
codec("filial_church")(_distinct_dec(5))
codec("chamber_of_wonders")(_distinct_dec(13))


def _courtyard_dec(ctx, params):
    if not params:
        return DECLINE, {}
    pay = parse_goods(_p(params))
    out = parse_goods(_p(params, 1))
    if len(out) != 1:
        raise ValueError("the Cloister Courtyard's second parameter names one basic good")
    return (next(iter(out)),), dict(pay)


codec("cloister_courtyard")((_courtyard_dec,
                             lambda d, pay: [goods_text(pay), G.CODES[d[0]]]))


def _lighthouse_dec(ctx, params):
    c = parse_goods(_p(params))
    if bool(c[G.BEER]) == bool(c[G.WHISKEY]):
        raise ValueError("the False Lighthouse takes exactly one of Be and Wh")
    return (G.BEER if c[G.BEER] else G.WHISKEY,), {}


codec("false_lighthouse")((_lighthouse_dec, lambda d, pay: [G.CODES[d[0]]]))


def _cell_dec(ctx, params):
    if len(params) < 2:
        return DECLINE, {}
    return ([int(params[0]), int(params[1])],), {}


codec("carpentry", "forest_hut")((_cell_dec, lambda d, pay: [str(d[0][0]), str(d[0][1])]))


def _stone_dec(ctx, params):
    c = parse_goods(_p(params))
    k = int(min(_energy2(c) // 2, _food(c) // 2, 5))
    return ((k,), dict(c)) if k else (DECLINE, dict(c))


codec("stone_merchant")((_stone_dec, _enc_pay))


def _pennies_dec(need):
    def dec(ctx, params):
        n = parse_goods(_p(params))[G.COIN]
        return ((), {G.COIN: n}) if n >= need else (DECLINE, {G.COIN: n} if n else {})
    return dec, _enc_pay


codec("builders_market", "locutory")(_pennies_dec(2))


def _sacred_dec(ctx, params):
    c = parse_goods(_p(params))
    a = G.GRAIN if c[G.GRAIN] else G.MALT
    b = G.BEER if c[G.BEER] else G.WHISKEY
    return (a, b), {}


codec("sacred_site")((_sacred_dec, lambda d, pay: [G.CODES[d[0]] * 2 + G.CODES[d[1]]]))


def _druid_dec(ctx, params):
    books = parse_goods(_p(params))[G.BOOK]
    if not books:
        return DECLINE, {}
    out = parse_goods(_p(params, 1))
    five = [g for g, n in out.items() if n == 5]
    three = [g for g, n in out.items() if n == 3]
    if len(five) != 1 or len(three) != 1 or len(out) != 2:
        raise ValueError("the Druid's House gives 5 of one basic good and 3 of another")
    return (five[0], three[0]), {G.BOOK: books}


codec("druids_house")((_druid_dec, lambda d, pay: [goods_text(pay), G.CODES[d[0]] * 5
                                                    + G.CODES[d[1]] * 3]))


def _library_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = _only(c, MONEY_GOODS)
    k = min(_money(pay), 3)
    s = 1 if c[G.BOOK] else 0
    return ((k, s), pay) if k or s else (DECLINE, pay)


codec("cloister_library")((_library_dec, lambda d, pay: [goods_text(pay) + "Bo" * d[1]]))


def _workshop_dec(ctx, params):
    c = parse_goods(_p(params))
    e = _energy2(c) // 2
    orn = min(c[G.STONE], 1, e)
    cer = min(c[G.CLAY], 3, e - orn)
    pay = _only(c, (G.CLAY, G.STONE) + ENERGY_GOODS)
    return ((cer, orn), pay) if cer or orn else (DECLINE, pay)


codec("cloister_workshop")((_workshop_dec, _enc_pay))


def _slaughter_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.SHEEP], c[G.STRAW])
    pay = _only(c, (G.SHEEP, G.STRAW))
    return ((k,), pay) if k else (DECLINE, pay)


codec("slaughterhouse")((_slaughter_dec, _enc_pay))


def _inn_dec(ctx, params):
    c = parse_goods(_p(params))
    w = 1 if c[G.WINE] else 0
    rest = Counter(c)
    rest[G.WINE] -= w
    f = min(7, _food(+rest))
    return ((f, w), dict(c)) if f or w else (DECLINE, dict(c))


codec("inn")((_inn_dec, _enc_pay))


def _alehouse_dec(ctx, params):
    c = parse_goods(_p(params))
    b, w = min(1, c[G.BEER]), min(1, c[G.WHISKEY])
    pay = _only(c, (G.BEER, G.WHISKEY))
    return ((b, w), pay) if b or w else (DECLINE, pay)


codec("alehouse")((_alehouse_dec, _enc_pay))


def _winery_dec(ctx, params):
    c = parse_goods(_p(params))
    k, s = c[G.GRAPES], 1 if c[G.WINE] else 0
    pay = {G.GRAPES: k} if k else {}
    if c[G.WINE] > 1:
        pay[G.WINE] = c[G.WINE] - 1
    return ((k, s), pay) if k or s else (DECLINE, pay)


codec("winery")((_winery_dec, lambda d, pay: [goods_text(pay) + "Wn" * d[1]]))


def _distillery_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.MALT], c[G.WOOD], c[G.PEAT])
    pay = _only(c, (G.MALT, G.WOOD, G.PEAT))
    return ((k,), pay) if k else (DECLINE, pay)


codec("whiskey_distillery")((_distillery_dec, _enc_pay))


def _church_dec(ctx, params):
    c = parse_goods(_p(params))
    wine = c[G.WINE]
    if not wine and ctx.state.profile.cloister_church_without_wine and c[G.BREAD]:
        wine = 2  # quirk 18: no wine named counts as 2
    k = min(2, c[G.BREAD], wine)
    pay = _only(c, (G.BREAD, G.WINE))
    return ((k,), pay) if k else (DECLINE, pay)


codec("cloister_church")((_church_dec, _enc_pay))


def _chapel_dec(ctx, params):
    c = parse_goods(_p(params))
    b, r = min(1, c[G.COIN]), min(3, c[G.BEER], c[G.WHISKEY])
    pay = _only(c, (G.COIN, G.BEER, G.WHISKEY))
    return ((b, r), pay) if b or r else (DECLINE, pay)


codec("chapel")((_chapel_dec, _enc_pay))


def _named_dec(good):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        return ((), {good: c[good]}) if c[good] else (DECLINE, {})
    return dec, _enc_pay


codec("portico")(_named_dec(G.RELIQUARY))
codec("town_estate")(_named_dec(G.CERAMIC))
codec("palace")(_named_dec(G.WINE))
codec("grand_manor")(_named_dec(G.WHISKEY))
codec("bulwark")(_named_dec(G.BOOK))


def _shipyard_dec(ctx, params):
    c = parse_goods(_p(params))
    wood = c[G.WOOD]
    if ctx.state.profile.shipyard_uncapped and wood:
        # quirk 18: kennerspiel exchanges wood / 2 times, uncapped; half an exchange (an odd
        # count) would hand out half an ornament and half a 5-coin piece
        if wood % 2:
            raise ValueError(f"the Shipyard gets {wood} wood: kennerspiel would give "
                             f"{wood / 2:g} ornaments, which no state can hold")
        return (() if wood == 2 else (wood // 2,)), {G.WOOD: wood}
    return ((), {G.WOOD: c[G.WOOD]}) if c[G.WOOD] >= 2 else (DECLINE, {G.WOOD: c[G.WOOD]}
                                                              if c[G.WOOD] else {})


codec("shipyard")((_shipyard_dec, _enc_pay))


def _refectory_dec(ctx, params):
    return (min(4, parse_goods(_p(params))[G.MEAT]),), {}


codec("refectory")((_refectory_dec, lambda d, pay: ["Mt" * d[0]] if d[0] else []))


def _harbor_dec(ctx, params):
    good = G.PEAT if ctx.state.profile.coal_harbor_input == "peat" else G.COAL
    c = parse_goods(_p(params))
    k = min(3, c[good])
    return ((k,), {good: c[good]}) if k else (DECLINE, {})


codec("coal_harbor")((_harbor_dec, _enc_pay))


def _shipping_dec(ctx, params):
    c = parse_goods(_p(params))
    product = next((g for g in (G.MEAT, G.BREAD, G.WINE) if c[g]), None)
    if product is None and not any(params):
        return DECLINE, {}  # a bare use: kennerspiel places the clergyman, nothing else
    if product is None:
        raise ValueError("the Shipping Company needs a product (Mt, Br or Wn)")
    pay = _only(c, ENERGY_GOODS)
    return ((product,), pay) if _energy2(pay) >= 6 else (DECLINE, pay)


codec("shipping_company")((_shipping_dec, lambda d, pay: [goods_text(pay) + G.CODES[d[0]]]))


def _cooperage_dec(ctx, params):
    wood = parse_goods(_p(params))[G.WOOD]
    out = parse_goods(_p(params, 1))
    product = G.WHISKEY if out[G.WHISKEY] else G.BEER if out[G.BEER] else None
    if wood >= 3 and product is None and ctx.state.profile.cooperage_one_param_nothing:
        return (None,), {G.WOOD: wood}  # quirk 18: wood paid, joker reset, nothing received
    if wood < 3 or product is None:
        return DECLINE, {G.WOOD: wood} if wood else {}
    return (product,), {G.WOOD: wood}


codec("cooperage")((_cooperage_dec, lambda d, pay: [goods_text(pay)] + (
    [] if d[0] is None else [G.CODES[d[0]]])))


def _sacristy_dec(ctx, params):
    return (), dict(parse_goods(_p(params)))


def _sacristy_quirk_dec(ctx, params):
    if not ctx.state.profile.sacristy_any_good:
        return _sacristy_dec(ctx, params)
    # quirk 18: any part of the set buys the wonder, none at all loses one from the supply
    c = parse_goods(_p(params))
    named = [g for g in POINT_MIX if c[g]]
    return (() if len(named) == 4 else (named,)), dict(c)


def _round_tower_dec(ctx, params):
    # kennerspiel places the clergyman and does nothing when the goods named fall short of
    # 1 whiskey + 5 coins (5 pennies or a 5-coin piece) + 14 points (tools/kenner evidence)
    c = parse_goods(_p(params))
    rest = Counter(c)
    rest[G.WHISKEY] -= 1
    if rest[G.COIN] >= 5:
        rest[G.COIN] -= 5
    else:
        rest[G.NICKEL] -= 1
    if (min(rest.values(), default=0) < 0
            or sum(G.POINTS[g] * n for g, n in rest.items()) < 14):
        return DECLINE, {}
    return (), dict(c)


codec("round_tower")((_round_tower_dec, _enc_pay))
codec("sacristy")((_sacristy_quirk_dec, _enc_pay))


def _forger_dec(ctx, params):
    pay = _only(parse_goods(_p(params)), MONEY_GOODS)
    v = _money(pay)
    if v < 5:
        return DECLINE, pay
    return (1 + (v - 5) // 10,), pay


codec("forgers_workshop")((_forger_dec, _enc_pay))

_UPGRADE = {G.BOOK: G.CERAMIC, G.CERAMIC: G.ORNAMENT, G.ORNAMENT: G.RELIQUARY}


def _pilgrim_delta(seq):
    have = Counter()
    for g in seq:
        have[g] -= 1
        have[_UPGRADE[g]] += 1
    return [have[g] for g in POINT_MIX]


def _pilgrim_dec(ctx, params):
    seq = []
    for p in params[:2]:
        c = parse_goods(p)
        if sum(c.values()) > 1 or any(g not in _UPGRADE for g in c):
            raise ValueError("each Pilgrimage Site parameter is one of Bo, Ce, Or")
        seq += list(c)
    if not seq:
        return DECLINE, {}
    return (_pilgrim_delta(seq),), {}


def _pilgrim_enc(d, pay):
    for n in (1, 2):
        for seq in product(_UPGRADE, repeat=n):
            if _pilgrim_delta(seq) == list(d[0]):
                return [G.CODES[g] for g in seq]
    raise ValueError(f"no Pilgrimage Site upgrade gives {d[0]}")


codec("pilgrimage_site")((_pilgrim_dec, _pilgrim_enc))


def _camera_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(2, c[G.BOOK], c[G.CERAMIC])
    pay = _only(c, (G.BOOK, G.CERAMIC))
    return ((k,), pay) if k else (DECLINE, pay)


codec("camera")((_camera_dec, _enc_pay))


def _dormitory_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.STRAW] + c[G.GRAIN], c[G.WOOD])
    return (k,), _only(c, (G.STRAW, G.GRAIN, G.WOOD))


codec("dormitory")((_dormitory_dec, _enc_pay))


def _printing_dec(ctx, params):
    nums = [int(p) for p in params]
    if len(nums) % 2:
        raise ValueError("the Printing Office takes column/row pairs")
    cells = [(nums[i], nums[i + 1]) for i in range(0, min(len(nums), 8), 2)]
    if not cells:
        return DECLINE, {}
    return (len(cells),), {"cells": cells}


codec("printing_office")((_printing_dec, None))


def _mix_dec(good_in):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        pay = {good_in: c[good_in]} if good_in is not None else _only(c, MONEY_GOODS)
        if (good_in is not None and not c[good_in]) or (good_in is None and _money(pay) < 5):
            return DECLINE, pay
        out = parse_goods(_p(params, 1))
        if any(g not in POINT_MIX for g in out):
            raise ValueError("the output names goods other than books, ceramics, ornaments "
                             "and reliquaries")
        mix = [out[g] for g in POINT_MIX]
        return ((mix,), pay) if any(mix) else (DECLINE, pay)
    return dec, (lambda d, pay: [goods_text(pay), goods_text(dict(zip(POINT_MIX, d[0])))])


codec("festival_ground")(_mix_dec(G.BEER))
codec("house_of_the_brotherhood")(_mix_dec(None))


def _estate_dec(ctx, params):
    c = parse_goods(_p(params))
    e = min(2, _energy2(c) // 12)
    f = min(2 - e, _food(c) // 10)
    return ((e, f), dict(c)) if e or f else (DECLINE, dict(c))


codec("estate")((_estate_dec, _enc_pay))


# ----- records -------------------------------------------------------------------------------
@dataclass
class GameConfig:
    """What a record's CONFIG and START say (seats from ``start.seat_colors``)."""

    players: int
    country: str
    length: str
    seat_colours: list[str]
    neutral_colour: str | None = None


def config_from_record(record: dict) -> GameConfig:
    """The setup of a game record (../shared/games/README.md schema); RecordError if bad."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    for key in ("config", "start", "moves"):
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
    cfg, start, moves = record["config"], record["start"], record["moves"]
    if not isinstance(cfg, dict) or not isinstance(start, dict):
        raise RecordError("'config' and 'start' must be objects")
    players = cfg.get("players")
    if players not in (1, 2, 3, 4):
        raise RecordError(f"config.players must be 1-4, not {players!r}")
    if cfg.get("country") not in ("france", "ireland"):
        raise RecordError(f"config.country must be france or ireland, not {cfg.get('country')!r}")
    if cfg.get("length") not in ("long", "short"):
        raise RecordError(f"config.length must be long or short, not {cfg.get('length')!r}")
    seats = start.get("seat_colors")
    if (not isinstance(seats, list) or len(seats) != players
            or any(c not in COLOUR_CODES for c in seats) or len(set(seats)) != players):
        raise RecordError(f"start.seat_colors must list {players} different colours of "
                          f"R G B W, not {seats!r}")
    neutral = start.get("neutral_color")
    if players == 1:
        if neutral is None:
            neutral = next(c for c in COLOUR_CODES if c not in seats)
        if neutral not in COLOUR_CODES or neutral in seats:
            raise RecordError(f"start.neutral_color {neutral!r} is not a free colour")
    if not isinstance(moves, list) or not all(
            isinstance(m, list) and m and all(isinstance(t, str) for t in m) for m in moves):
        raise RecordError("'moves' must be a list of non-empty lists of strings")
    return GameConfig(players, cfg["country"], cfg["length"], list(seats), neutral)


def play_moves(record: dict) -> list[list[str]]:
    """The record's moves without the leading CONFIG and START."""
    moves = record["moves"]
    i = 0
    while i < len(moves) and moves[i][0] in ("CONFIG", "START"):
        i += 1
    return moves[i:]


def load_record(path: str) -> dict:
    """Read a JSON game record; RecordError if it is not valid JSON or lacks the schema."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON: {e}") from None
    config_from_record(record)
    return record


# ----- import --------------------------------------------------------------------------------
@dataclass
class Replay:
    """A game being replayed from kennerspiel moves (see the module docstring)."""

    config: GameConfig
    profile: str = "rulebook"
    state: State = field(init=False)
    with_prior: bool = field(default=False, init=False)
    check_actors: bool = True

    def __post_init__(self):
        c = self.config
        colours = tuple(c.seat_colours + ([c.neutral_colour] if c.players == 1 else []))
        self.state = new_initial_state(c.country, c.players, c.length, self.profile,
                                       colours=colours)

    # ..... helpers
    @property
    def frame(self):
        return self.state.frame

    def _act(self, kind: str, **kw) -> None:
        self.state.apply_action(A.make(kind, **kw))

    def colour_of(self, seat: int) -> str:
        return self.state.g.owners[seat].colour

    def apply(self, index: int, tokens: list[str], actor: str | None = None) -> None:
        """Apply one kennerspiel move; NotationError (with index and tokens) if impossible."""
        try:
            if self.state.is_terminal():
                raise RuleError("the game is over")
            if actor and self.check_actors and actor != "-":
                self._close_pending(tokens)
                cp = self.state.current_player()
                if cp >= 0 and self.colour_of(cp) != actor:
                    raise RuleError(f"it is {self.colour_of(cp)}'s move in the engine "
                                    f"({self.frame['f']} frame, round {self.state.round}), "
                                    f"but the record applies it for {actor}")
            self._apply(tokens)
        except NotationError:
            raise
        except (RuleError, ValueError, KeyError, IndexError) as e:
            raise NotationError(index, tokens, str(e)) from None

    def _close_pending(self, tokens: list[str]) -> None:
        """Decline optional frames that this move does not answer (SKIP / option 0)."""
        cmd = tokens[0]
        arg = tokens[1] if len(tokens) > 1 else None
        if cmd == "CONVERT" or (cmd in ("BUY_DISTRICT", "BUY_PLOT")
                                and self.frame["f"] != "grant_land"):
            return  # extra actions leave a pending follow-up open (apply_extra)
        while not self.state.is_terminal():
            f = self.frame
            kind = f["f"]
            if kind == "option":
                if cmd == "USE" and arg == f["b"]:
                    return
                self.state.apply_explicit(A.make("OPTION"), {}, None)
            elif kind == "prior_bonus":
                if cmd == "USE" or (cmd == "WITH_PRIOR"
                                    and self.state.profile.with_prior_after_build_noop):
                    return
                self._act("SKIP")
            elif kind == "free_use":
                if cmd == "USE" and arg in [t[0] for t in f["targets"]]:
                    return
                self._act("SKIP")
            elif kind in ("grant_build", "grant_settle", "grant_fell_cut", "grant_land"):
                want = {"grant_build": ("BUILD",), "grant_settle": ("SETTLE",),
                        "grant_fell_cut": ("FELL_TREES", "CUT_PEAT"),
                        "grant_land": ("BUY_DISTRICT", "BUY_PLOT")}[kind]
                if cmd in want:
                    return
                self._act("SKIP")
            elif kind == "neutral_contract":
                if cmd == "WORK_CONTRACT":
                    return
                self._act("SKIP")
            else:
                return

    def _apply(self, tokens: list[str]) -> None:
        cmd, args = tokens[0], tokens[1:]
        if cmd in ("CONFIG", "START"):
            raise ValueError(f"{cmd} may only open a record")
        self._close_pending(tokens)
        handler = getattr(self, "_cmd_" + cmd.lower(), None)
        if handler is None:
            raise ValueError(f"unknown command {cmd!r}")
        handler(args)

    # ..... commands
    def _cmd_commit(self, args) -> None:
        if self.frame["f"] not in ("turn", "settle"):
            raise RuleError(f"cannot COMMIT: a {self.frame['f']} decision is pending")
        self.with_prior = False
        self._act("COMMIT")

    def _cmd_use(self, args) -> None:
        b, params = args[0], args[1:]
        if b not in BUILDINGS:
            raise ValueError(f"unknown building {b!r}")
        f = self.frame
        kind = f["f"]
        if kind == "option":
            pass
        elif kind == "prior_bonus":
            self._act("USE_PRIOR", building=b)
        elif kind == "free_use":
            self._act("FREE_USE", building=b)
        elif kind == "turn":
            me = self.state.g.owners[f["seat"]]
            if f.get("bonus") or self.with_prior:
                flag = PRIOR
            else:
                flag = LAY_BROTHER if me.free_clergy(LAY_BROTHER) is not None else PRIOR
            self._act("USE", building=b, flag=flag)
            self.with_prior = False
        else:
            raise RuleError(f"USE is not possible in a {kind} decision")
        self._resolve(b, params)

    def _resolve(self, b: str, params: list[str]) -> None:
        f = self.frame
        if f is None or f["f"] != "option" or f["b"] != b:
            raise RuleError(f"no use of {b} is pending")
        key = BUILDINGS[b].effect
        if params and params[0] == PLACE_ONLY:  # the notation's extension: option 0
            pay = dict(parse_goods(params[1])) if len(params) > 1 else {}
            self.state.apply_explicit(A.make("OPTION"), pay, None)
            return
        override = None
        if params and params[-1].startswith(OPTION_TAG):  # extension: the option named
            override = json.loads(params[-1][len(OPTION_TAG):])
            params = params[:-1]
        data, pay = _DECODE[key](_Ctx(self.state, f["user"], b), params)
        if override is not None:
            data = _tuple(override)
        cells = pay.pop("cells", None) if isinstance(pay, dict) else None
        self.state.apply_explicit(A.make("OPTION"), pay, data)
        if cells:
            for c, r in sorted(cells, key=lambda x: (x[1], x[0])):
                self._act("PICK_CELL", col=c, row=r)

    def _cmd_with_prior(self, args) -> None:
        f = self.frame
        if f["f"] == "choose_clergy":
            self._act("CHOOSE_CLERGY", flag=PRIOR)
        elif f["f"] == "prior_bonus":
            return  # quirk 11: accepted and does nothing
        elif f["f"] == "turn" and not f["main"]:
            me = self.state.g.owners[f["seat"]]
            if me.free_clergy(PRIOR) is None:
                raise RuleError("WITH_PRIOR: your prior is not at home")
            self.with_prior = True
        else:
            raise RuleError(f"WITH_PRIOR is not possible in a {f['f']} decision")

    def _cmd_with_laybrother(self, args) -> None:
        if self.frame["f"] != "choose_clergy":
            raise RuleError("WITH_LAYBROTHER answers a work contract only")
        self._act("CHOOSE_CLERGY", flag=LAY_BROTHER)

    def _cmd_build(self, args) -> None:
        b, col, row = args[0], int(args[1]), int(args[2])
        kind = "NEUTRAL_BUILD" if self.frame["f"] == "neutral_build" else "BUILD"
        self._act(kind, building=b, col=col, row=row)

    def _fell_cut(self, kind, token, args) -> None:
        if not args:  # the notation's extension: nothing left to fell or cut (D23)
            self._act(kind, flag=2)
            return
        col, row = int(args[0]), int(args[1])
        w = self.state.g.wheel
        joker = "Jo" in args[2:] or (token not in w.tokens and "joker" in w.tokens)
        self._act(kind, col=col, row=row, flag=int(joker))

    def _cmd_fell_trees(self, args) -> None:
        self._fell_cut("FELL_TREES", "wood", args)

    def _cmd_cut_peat(self, args) -> None:
        self._fell_cut("CUT_PEAT", "peat", args)

    def _cmd_work_contract(self, args) -> None:
        b, pay = args[0], dict(parse_goods(args[1] if len(args) > 1 else ""))
        st = self.state
        where = st.locate(b)
        if where is None:
            raise RuleError(f"{b} is not built")
        owner = st.g.owners[where.owner]
        if owner.neutral:
            if self.frame["f"] == "neutral_contract" or "WITH_PRIOR" in args[2:]:
                flag = PRIOR
            else:
                flag = LAY_BROTHER if owner.free_clergy(LAY_BROTHER) is not None else PRIOR
        else:
            flag = LAY_BROTHER
        st.apply_explicit(A.make("WORK_CONTRACT", b, flag=flag), pay)

    def _extra(self, kind: str, **kw) -> None:
        """An extra action: at turn level, or beside a pending follow-up (apply_extra)."""
        if self.frame["f"] in ("turn", "settle") or (self.frame["f"] == "grant_land"
                                                     and kind != "CONVERT"):
            self._act(kind, **kw)
        else:
            self.state.apply_extra(A.make(kind, **kw))

    def _buy(self, kind, sides, args) -> None:
        row, side = int(args[0]), args[1]
        if side not in sides:
            raise ValueError(f"{kind} side must be {' or '.join(sides)}, not {side!r}")
        self._extra(kind, row=row, flag=sides.index(side))

    def _cmd_buy_district(self, args) -> None:
        self._buy("BUY_DISTRICT", ("PLAINS", "HILLS"), args)

    def _cmd_buy_plot(self, args) -> None:
        self._buy("BUY_PLOT", ("COAST", "MOUNTAIN"), args)

    def _cmd_convert(self, args) -> None:
        c = parse_goods(args[0] if args else "")
        seat = self.state.current_player()
        goods = self.state.g.owners[seat].goods
        if self.state.profile.convert_unchecked:
            for g in (G.GRAIN, G.WINE, G.NICKEL, G.WHISKEY):
                if c[g] > goods[g]:  # quirk 10: kennerspiel would go negative
                    raise RuleError(f"CONVERT names {c[g]} {G.NAMES[g]} but the player holds "
                                    f"{goods[g]}")
        for good, conv in ((G.GRAIN, 0), (G.WINE, 3), (G.NICKEL, 1), (G.WHISKEY, 4)):
            for _ in range(c[good]):
                self._extra("CONVERT", flag=conv)
        pennies = c[G.COIN]
        if pennies % 5:
            raise ValueError("CONVERT: the number of Pn must be a multiple of 5")
        for _ in range(pennies // 5):
            goods = self.state.g.owners[seat].goods
            if goods[G.COIN] < 5:  # kennerspiel pays with its coin-price routine
                if goods[G.NICKEL]:
                    self._extra("CONVERT", flag=1)
                elif self.state.profile.auto_spend_wine_whiskey and goods[G.WHISKEY]:
                    self._extra("CONVERT", flag=4)
                    continue
            self._extra("CONVERT", flag=2)

    def _cmd_settle(self, args) -> None:
        sid, col, row = args[0], int(args[1]), int(args[2])
        if len(sid) != 3 or sid[0] != "S" or not sid[2].isdigit():
            raise ValueError(f"unknown settlement {sid!r}")
        seat = self.frame.get("seat", self.frame.get("user"))
        if sid[1] != self.colour_of(seat):
            raise RuleError(f"{sid} is not a settlement of {self.colour_of(seat)}")
        pay = dict(parse_goods(args[3] if len(args) > 3 else ""))
        self.state.apply_explicit(A.make("SETTLE", col=col, row=row, flag=int(sid[2])), pay)


def replay_record(record: dict, profile: str = "rulebook", upto: int | None = None,
                  on_commit=None) -> Replay:
    """Replay a game record's moves (NotationError on the first move that fails).

    ``on_commit(index, replay)`` is called after every COMMIT (for snapshot checks).
    """
    cfg = config_from_record(record)
    rp = Replay(cfg, profile)
    actors = record.get("actors")
    moves = record["moves"]
    for i, tokens in enumerate(moves):
        if upto is not None and i >= upto:
            break
        if tokens[0] in ("CONFIG", "START"):
            continue
        actor = actors[i] if isinstance(actors, str) and len(actors) > i else None
        rp.apply(i, tokens, actor)
        if tokens[0] == "COMMIT" and on_commit is not None:
            on_commit(i, rp)
    return rp


# ----- export --------------------------------------------------------------------------------
def export_history(config: GameConfig, history: list, profile: str = "rulebook"
                   ) -> list[list[str]]:
    """Kennerspiel moves (CONFIG and START included) for an engine history.

    ``history`` holds action ids and the dicts :meth:`State.apply_explicit` records. Each
    action is re-applied to a fresh state so that its context (the pending frame) is known.
    """
    c = config
    colours = c.seat_colours + ([c.neutral_colour] if c.players == 1 else [])
    out = [["CONFIG", str(c.players), c.country, c.length], ["START"] + colours]
    st = new_initial_state(c.country, c.players, c.length, profile, colours=tuple(colours))
    pending_use: list | None = None  # the USE move waiting for its option's parameters
    pay_acc: Counter | None = None
    for item in history:
        f = st.frame
        if isinstance(item, dict) and "extra" in item:
            st.apply_extra(item["extra"])
            out.append(_simple_move(A.decode(item["extra"])))
            continue
        aid = item["action"] if isinstance(item, dict) else item
        a = A.decode(aid)
        kind = f["f"]
        opt = None
        if kind == "option" and not isinstance(item, dict) and a.flag:
            opt = st._options(f)[a.flag]  # the option as listed before the action
        params = None  # an option's USE parameters, worked out before the action changes st
        if kind == "option":
            if isinstance(item, dict):
                p_data, p_pay = item["data"], {int(k): v for k, v in item["payment"].items()}
            elif opt is None:
                p_data, p_pay = None, {}
            else:
                p_data, p_pay = list(opt.data), Counter(opt.cost.goods)
                if opt.cost.coins:
                    p_pay[G.COIN] += opt.cost.coins
            if opt is None or not opt.cost.picked:
                params = _option_params(st, f, p_data, p_pay)
        if isinstance(item, dict):
            pay = {int(k): v for k, v in item["payment"].items()}
            data = item["data"]
            st.apply_explicit(aid, pay, None if data is None else _tuple(data))
        else:
            pay, data = None, None
            st.apply_action(aid)
        if kind == "turn":
            if a.kind == "USE":
                me = st.g.owners[f["seat"]]
                if (a.flag == PRIOR and not f.get("bonus")
                        and any(me.clergy[i] is None for i in range(me.prior))):
                    out.append(["WITH_PRIOR"])
                pending_use = ["USE", a.building]
            elif a.kind == "WORK_CONTRACT":
                out.append(_contract_move(st, a, pay))
                pending_use = ["USE", a.building]
            else:
                out.append(_simple_move(a))
        elif kind == "option":
            if pending_use is None:
                raise ValueError(f"an option of {f['b']} without its USE")
            if params is None:  # an engine OPTION whose PAY tiles follow: see "pay"
                pay_acc = Counter(p_pay)
                pending_use.append((p_data, f))
                continue
            out.append(pending_use + params)
            pending_use = None
        elif kind == "pay":
            pay_acc[a.flag] += 1
            if st.frame is None or st.frame["f"] != "pay":
                if pending_use and isinstance(pending_use[-1], tuple):
                    data, f_opt = pending_use.pop()  # (the codecs of such options read no state)
                    out.append(pending_use + _option_params(st, f_opt, data, pay_acc))
                    pending_use = None
                elif out and out[-1][0] == "SETTLE":
                    out[-1].append(goods_text(pay_acc))
                pay_acc = None
        elif kind in ("prior_bonus", "free_use"):
            if a.kind in ("USE_PRIOR", "FREE_USE"):
                pending_use = ["USE", a.building]
        elif kind == "choose_clergy":
            out.append(["WITH_PRIOR" if a.flag == PRIOR else "WITH_LAYBROTHER"])
        elif kind == "pick_cells":
            out[-1] += [str(a.col), str(a.row)]
        elif kind == "neutral_build":
            out.append(["BUILD", a.building, str(a.col), str(a.row)])
        elif kind == "neutral_contract":
            if a.kind == "WORK_CONTRACT":
                out.append(_contract_move(st, a, pay))
                pending_use = ["USE", a.building]
        elif a.kind == "SKIP":
            continue
        else:
            move = _simple_move(a, pay)
            if a.kind == "SETTLE":
                seat = f.get("seat", f.get("user"))
                move[1] = f"S{st.g.owners[seat].colour}{a.flag}"
            out.append(move)
            if a.kind == "SETTLE" and pay is None and st.frame and st.frame["f"] == "pay":
                pay_acc = Counter()
    return out


def _tuple(x):
    return tuple(x) if isinstance(x, list) else x


def _option_params(st: State, f: dict, data, pay) -> list[str]:
    """The USE parameters of option ``data`` (None: option 0) of the option frame ``f`` paid
    with ``pay``: its kennerspiel form, or, where that would import as something else in
    ``st`` (the state with ``f`` pending), the form with the PLACE_ONLY / OPTION= extension
    (module docstring)."""
    key = BUILDINGS[f["b"]].effect
    params = _encode(key, data, pay, f)
    if _ENCODE.get(key) is None and data is not None:
        return params  # the Printing Office: its cells follow from PICK_CELL
    try:
        got, _ = _DECODE[key](_Ctx(st, f["user"], f["b"]), params)
        same = (got is None) if data is None else (
            got is not None and _jsonable(got) == _jsonable(data))
    except (ValueError, KeyError, IndexError):
        same = False
    if same:
        return params
    if data is None:
        return [PLACE_ONLY] + params
    return params + [OPTION_TAG + json.dumps(_jsonable(data), separators=(",", ":"))]


def _jsonable(x):
    return [_jsonable(i) for i in x] if isinstance(x, (list, tuple)) else x


def _encode(key, data, pay, f) -> list[str]:
    pay = dict(pay or {})
    if data is None:
        return [goods_text(pay)] if goods_text(pay) else []
    enc = _ENCODE.get(key)
    if enc is None:
        return []
    return enc(_tuple(data) if isinstance(data, list) else data, pay)


def _contract_move(st: State, a, pay) -> list[str]:
    if pay is None:
        pay = {0: {G.COIN: st.fee()}, 1: {G.WINE: 1}, 2: {G.WHISKEY: 1}}[a.extra]
    move = ["WORK_CONTRACT", a.building, goods_text(pay)]
    where = st.locate(a.building)
    if where is not None and st.g.owners[where.owner].neutral and a.flag == PRIOR:
        move.append("WITH_PRIOR")
    return move


def _simple_move(a, pay=None) -> list[str]:
    k = a.kind
    if k == "COMMIT":
        return ["COMMIT"]
    if k in ("BUILD", "NEUTRAL_BUILD"):
        return ["BUILD", a.building, str(a.col), str(a.row)]
    if k in ("FELL_TREES", "CUT_PEAT"):
        if a.flag == 2:  # nothing left (D23): no coordinates (module docstring)
            return [k]
        return [k, str(a.col), str(a.row)] + (["Jo"] if a.flag == 1 else [])
    if k == "BUY_DISTRICT":
        return [k, str(a.row), ("PLAINS", "HILLS")[a.flag]]
    if k == "BUY_PLOT":
        return [k, str(a.row), ("COAST", "MOUNTAIN")[a.flag]]
    if k == "CONVERT":
        return ["CONVERT", ("Gn", "Ni", "PnPnPnPnPn", "Wn", "Wh")[a.flag]]
    if k == "SETTLE":
        return ["SETTLE", "S?" + str(a.flag), str(a.col), str(a.row)] + (
            [goods_text(pay)] if pay is not None else [])
    raise ValueError(f"{k} has no kennerspiel move")


# ----- kennerspiel state names ---------------------------------------------------------------
#: kennerspiel's names of the goods in its state and the records' snapshots (wonders apart)
KS_GOOD_NAMES = {
    G.WOOD: "wood", G.WHISKEY: "whiskey", G.GRAIN: "grain", G.STRAW: "straw",
    G.SHEEP: "sheep", G.MEAT: "meat", G.CLAY: "clay", G.CERAMIC: "ceramic", G.PEAT: "peat",
    G.COAL: "coal", G.COIN: "penny", G.BOOK: "book", G.NICKEL: "nickel",
    G.RELIQUARY: "reliquary", G.STONE: "stone", G.ORNAMENT: "ornament", G.GRAPES: "grape",
    G.WINE: "wine", G.FLOUR: "flour", G.BREAD: "bread", G.MALT: "malt", G.BEER: "beer",
}


def ks_goods(goods: list[int]) -> dict[str, int]:
    """A player's goods under kennerspiel's names, non-zero only (as in commit snapshots)."""
    return {KS_GOOD_NAMES[g]: n for g, n in enumerate(goods) if n and g in KS_GOOD_NAMES}


# ----- replay summary (the CLI's `replay` command) -------------------------------------------
def replay_summary(record: dict, profile: str = "rulebook") -> dict:
    """Replay a record and summarise it: ``{"finished", "round", "players": [{"color",
    "total", "goods", "economic", "dwelling"}, ...]}`` in seat order.

    Raises RecordError for a malformed record and NotationError for a rejected move.
    """
    rp = replay_record(record, profile)
    st = rp.state
    players = []
    for seat, sc in enumerate(st.score()):
        players.append({"color": st.g.owners[seat].colour, "total": int(sc.total),
                        "goods": int(sc.goods), "economic": int(sc.economic),
                        "dwelling": int(sc.dwelling)})
    return {"finished": st.is_terminal(), "round": int(st.round), "players": players}
