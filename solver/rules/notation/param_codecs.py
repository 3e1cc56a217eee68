"""The per-building parameter codecs (NOTATION §7), registered by effect key (registry.py).

Each ``codec(key, decode, encode)`` below states how kennerspiel's ``USE`` parameters of the
buildings with that effect key map to an option of solver/rules/effects.py and a payment, and
back. Where kennerspiel's reading differs from the rules, the profile field that copies it is
named (DECISIONS.md quirk numbers).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from .. import goods as G
from ..cards import BUILDINGS
from ..effects import EFFECTS
from . import frames
from .goods_strings import (
    ENERGY_GOODS,
    MONEY_GOODS,
    POINT_MIX,
    energy2,
    food,
    goods_text,
    money,
    only,
    parse_goods,
)
from .registry import DECLINE, codec
from .registry import param as _p


def takes_joker(state, token: str, named: bool) -> bool:
    """Whether a wheel take of ``token`` uses the joker: named (``Jo``), or, as kennerspiel
    does, automatically when the good's own indicator is not on the wheel (NOTATION §5.4)."""
    w = state.g.wheel
    return named or (token not in w.tokens and "joker" in w.tokens)


def _wheel_codec(token):
    def dec(ctx, params):
        for p in params:
            parse_goods(p)  # an unknown code is an error (kennerspiel ignores the rest)
        return (token, takes_joker(ctx.state, token, "Jo" in _p(params))), {}

    def enc(data, pay):
        return ["Jo"] if data[1] else []
    return dec, enc


for _key, _tok in (("clay_mound", "clay"), ("cloister_office", "coin"),
                   ("grapevine", "grapes"), ("quarry", "stone")):
    codec(_key, *_wheel_codec(_tok))


def _farmyard_dec(ctx, params):
    p = _p(params)
    parse_goods(p)
    sheep, grain = "Sh" in p, "Gn" in p
    if sheep == grain:
        raise ValueError("the Farmyard needs exactly one of Sh and Gn")
    token = "sheep" if sheep else "grain"
    return (token, takes_joker(ctx.state, token, "Jo" in p)), {}


codec("farmyard", _farmyard_dec,
      lambda d, pay: [("Sh" if d[0] == "sheep" else "Gn") + ("Jo" if d[1] else "")])


def _plain(ctx, params):
    return (), {}


codec(("cloister_chapter_house", "harbor_promenade", "houseboat", "castle"), _plain,
      lambda d, pay: [])


def _if_options(ctx, params):
    """A no-parameter use that may have nothing to do (no targets, no sheep): then option 0."""
    opts = EFFECTS[BUILDINGS[ctx.b].effect].options(frames.building_use(ctx.state))
    return ((), {}) if opts else (DECLINE, {})


codec(("priory", "cloister_garden", "cottage", "spinning_mill", "use_unbuilt_building"),
      _if_options, lambda d, pay: [])


def _enc_pay(d, pay):
    text = goods_text(pay or {})
    return [text] if text else []


def _money_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = only(c, MONEY_GOODS)
    return ((), pay) if money(pay) >= 1 else (DECLINE, pay)


codec(("grain_storage", "granary", "financed_estate", "scriptorium", "bathhouse",
      "calefactory"), _money_dec, _enc_pay)


def _k_of(good, cap=None):
    def dec(ctx, params):
        n = parse_goods(_p(params))[good]
        k = n if cap is None else min(cap, n)
        return ((k,), {good: k}) if k else (DECLINE, {})
    return dec, _enc_pay


codec("windmill", *_k_of(G.GRAIN, 7))
codec("malthouse", *_k_of(G.GRAIN))


def _kiln_dec(ctx, params):
    k = parse_goods(_p(params))[G.PEAT]
    return (k,), {G.PEAT: k}


codec("peat_coal_kiln", _kiln_dec, _enc_pay)


def _bakery_dec(ctx, params):
    c = parse_goods(_p(params))
    n, m = c[G.FLOUR], c[G.BREAD]
    pay = only(c, ENERGY_GOODS)
    if n:
        pay[G.FLOUR] = n
    if m > 2:
        pay[G.BREAD] = m - 2
    if not n and not m:
        return DECLINE, pay
    return (n, min(m, 2)), pay


codec("bakery", _bakery_dec, lambda d, pay: [goods_text(pay) + "Br" * d[1]])


def _brewery_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.GRAIN], c[G.MALT])
    s = 1 if c[G.BEER] else 0
    pay = only(c, (G.GRAIN, G.MALT))
    if not k and not s:
        return DECLINE, pay
    return (k, s), pay


codec("brewery", _brewery_dec, lambda d, pay: [goods_text(pay) + "Be" * d[1]])


def _fuel_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = only(c, ENERGY_GOODS)
    e2 = energy2(pay)
    coins = 10 if e2 >= 18 else 8 if e2 >= 12 else 5 if e2 >= 6 else 0
    return ((coins,), pay) if coins else (DECLINE, pay)


codec("fuel_merchant", _fuel_dec, _enc_pay)


def _distinct_dec(k):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        return ((), dict(c)) if len(c) >= k else (DECLINE, dict(c))
    return dec, _enc_pay


codec("market", *_distinct_dec(4))
codec("filial_church", *_distinct_dec(5))
codec("chamber_of_wonders", *_distinct_dec(13))


def _courtyard_dec(ctx, params):
    if not params:
        return DECLINE, {}
    pay = parse_goods(_p(params))
    out = parse_goods(_p(params, 1))
    if len(out) != 1:
        raise ValueError("the Cloister Courtyard's second parameter names one basic good")
    return (next(iter(out)),), dict(pay)


codec("cloister_courtyard", _courtyard_dec,
      lambda d, pay: [goods_text(pay), G.CODES[d[0]]])


def _lighthouse_dec(ctx, params):
    c = parse_goods(_p(params))
    if bool(c[G.BEER]) == bool(c[G.WHISKEY]):
        raise ValueError("the False Lighthouse takes exactly one of Be and Wh")
    return (G.BEER if c[G.BEER] else G.WHISKEY,), {}


codec("false_lighthouse", _lighthouse_dec, lambda d, pay: [G.CODES[d[0]]])


def _cell_dec(ctx, params):
    if len(params) < 2:
        return DECLINE, {}
    return ([int(params[0]), int(params[1])],), {}


codec(("carpentry", "forest_hut"), _cell_dec, lambda d, pay: [str(d[0][0]), str(d[0][1])])


def _stone_dec(ctx, params):
    c = parse_goods(_p(params))
    k = int(min(energy2(c) // 2, food(c) // 2, 5))
    return ((k,), dict(c)) if k else (DECLINE, dict(c))


codec("stone_merchant", _stone_dec, _enc_pay)


def _pennies_dec(need):
    def dec(ctx, params):
        n = parse_goods(_p(params))[G.COIN]
        return ((), {G.COIN: n}) if n >= need else (DECLINE, {G.COIN: n} if n else {})
    return dec, _enc_pay


codec(("builders_market", "locutory"), *_pennies_dec(2))


def _sacred_dec(ctx, params):
    c = parse_goods(_p(params))
    a = G.GRAIN if c[G.GRAIN] else G.MALT
    b = G.BEER if c[G.BEER] else G.WHISKEY
    return (a, b), {}


codec("sacred_site", _sacred_dec, lambda d, pay: [G.CODES[d[0]] * 2 + G.CODES[d[1]]])


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


codec("druids_house", _druid_dec,
      lambda d, pay: [goods_text(pay), G.CODES[d[0]] * 5 + G.CODES[d[1]] * 3])


def _library_dec(ctx, params):
    c = parse_goods(_p(params))
    pay = only(c, MONEY_GOODS)
    k = min(money(pay), 3)
    s = 1 if c[G.BOOK] else 0
    return ((k, s), pay) if k or s else (DECLINE, pay)


codec("cloister_library", _library_dec, lambda d, pay: [goods_text(pay) + "Bo" * d[1]])


def _workshop_dec(ctx, params):
    c = parse_goods(_p(params))
    e = energy2(c) // 2
    orn = min(c[G.STONE], 1, e)
    cer = min(c[G.CLAY], 3, e - orn)
    pay = only(c, (G.CLAY, G.STONE) + ENERGY_GOODS)
    return ((cer, orn), pay) if cer or orn else (DECLINE, pay)


codec("cloister_workshop", _workshop_dec, _enc_pay)


def _slaughter_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.SHEEP], c[G.STRAW])
    pay = only(c, (G.SHEEP, G.STRAW))
    return ((k,), pay) if k else (DECLINE, pay)


codec("slaughterhouse", _slaughter_dec, _enc_pay)


def _inn_dec(ctx, params):
    c = parse_goods(_p(params))
    w = 1 if c[G.WINE] else 0
    rest = Counter(c)
    rest[G.WINE] -= w
    f = min(7, food(+rest))
    return ((f, w), dict(c)) if f or w else (DECLINE, dict(c))


codec("inn", _inn_dec, _enc_pay)


def _alehouse_dec(ctx, params):
    c = parse_goods(_p(params))
    b, w = min(1, c[G.BEER]), min(1, c[G.WHISKEY])
    pay = only(c, (G.BEER, G.WHISKEY))
    return ((b, w), pay) if b or w else (DECLINE, pay)


codec("alehouse", _alehouse_dec, _enc_pay)


def _winery_dec(ctx, params):
    c = parse_goods(_p(params))
    k, s = c[G.GRAPES], 1 if c[G.WINE] else 0
    pay = {G.GRAPES: k} if k else {}
    if c[G.WINE] > 1:
        pay[G.WINE] = c[G.WINE] - 1
    return ((k, s), pay) if k or s else (DECLINE, pay)


codec("winery", _winery_dec, lambda d, pay: [goods_text(pay) + "Wn" * d[1]])


def _distillery_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.MALT], c[G.WOOD], c[G.PEAT])
    pay = only(c, (G.MALT, G.WOOD, G.PEAT))
    return ((k,), pay) if k else (DECLINE, pay)


codec("whiskey_distillery", _distillery_dec, _enc_pay)


def _church_dec(ctx, params):
    c = parse_goods(_p(params))
    wine = c[G.WINE]
    if not wine and ctx.state.profile.cloister_church_without_wine and c[G.BREAD]:
        wine = 2  # quirk 18: no wine named counts as 2
    k = min(2, c[G.BREAD], wine)
    pay = only(c, (G.BREAD, G.WINE))
    return ((k,), pay) if k else (DECLINE, pay)


codec("cloister_church", _church_dec, _enc_pay)


def _chapel_dec(ctx, params):
    c = parse_goods(_p(params))
    b, r = min(1, c[G.COIN]), min(3, c[G.BEER], c[G.WHISKEY])
    pay = only(c, (G.COIN, G.BEER, G.WHISKEY))
    return ((b, r), pay) if b or r else (DECLINE, pay)


codec("chapel", _chapel_dec, _enc_pay)


def _named_dec(good):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        return ((), {good: c[good]}) if c[good] else (DECLINE, {})
    return dec, _enc_pay


codec("portico", *_named_dec(G.RELIQUARY))
codec("town_estate", *_named_dec(G.CERAMIC))
codec("palace", *_named_dec(G.WINE))
codec("grand_manor", *_named_dec(G.WHISKEY))
codec("bulwark", *_named_dec(G.BOOK))


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


codec("shipyard", _shipyard_dec, _enc_pay)


def _refectory_dec(ctx, params):
    return (min(4, parse_goods(_p(params))[G.MEAT]),), {}


codec("refectory", _refectory_dec, lambda d, pay: ["Mt" * d[0]] if d[0] else [])


def _harbor_dec(ctx, params):
    good = G.PEAT if ctx.state.profile.coal_harbor_input == "peat" else G.COAL
    c = parse_goods(_p(params))
    k = min(3, c[good])
    return ((k,), {good: c[good]}) if k else (DECLINE, {})


codec("coal_harbor", _harbor_dec, _enc_pay)


def _shipping_dec(ctx, params):
    c = parse_goods(_p(params))
    product = next((g for g in (G.MEAT, G.BREAD, G.WINE) if c[g]), None)
    if product is None and not any(params):
        return DECLINE, {}  # a bare use: kennerspiel places the clergyman, nothing else
    if product is None:
        raise ValueError("the Shipping Company needs a product (Mt, Br or Wn)")
    pay = only(c, ENERGY_GOODS)
    return ((product,), pay) if energy2(pay) >= 6 else (DECLINE, pay)


codec("shipping_company", _shipping_dec, lambda d, pay: [goods_text(pay) + G.CODES[d[0]]])


def _cooperage_dec(ctx, params):
    wood = parse_goods(_p(params))[G.WOOD]
    out = parse_goods(_p(params, 1))
    product = G.WHISKEY if out[G.WHISKEY] else G.BEER if out[G.BEER] else None
    if wood >= 3 and product is None and ctx.state.profile.cooperage_one_param_nothing:
        return (None,), {G.WOOD: wood}  # quirk 18: wood paid, joker reset, nothing received
    if wood < 3 or product is None:
        return DECLINE, {G.WOOD: wood} if wood else {}
    return (product,), {G.WOOD: wood}


codec("cooperage", _cooperage_dec,
      lambda d, pay: [goods_text(pay)] + ([] if d[0] is None else [G.CODES[d[0]]]))


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


codec("round_tower", _round_tower_dec, _enc_pay)
codec("sacristy", _sacristy_quirk_dec, _enc_pay)


def _forger_dec(ctx, params):
    pay = only(parse_goods(_p(params)), MONEY_GOODS)
    v = money(pay)
    if v < 5:
        return DECLINE, pay
    return (1 + (v - 5) // 10,), pay


codec("forgers_workshop", _forger_dec, _enc_pay)

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


codec("pilgrimage_site", _pilgrim_dec, _pilgrim_enc)


def _camera_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(2, c[G.BOOK], c[G.CERAMIC])
    pay = only(c, (G.BOOK, G.CERAMIC))
    return ((k,), pay) if k else (DECLINE, pay)


codec("camera", _camera_dec, _enc_pay)


def _dormitory_dec(ctx, params):
    c = parse_goods(_p(params))
    k = min(c[G.STRAW] + c[G.GRAIN], c[G.WOOD])
    return (k,), only(c, (G.STRAW, G.GRAIN, G.WOOD))


codec("dormitory", _dormitory_dec, _enc_pay)


def _printing_dec(ctx, params):
    nums = [int(p) for p in params]
    if len(nums) % 2:
        raise ValueError("the Printing Office takes column/row pairs")
    cells = [(nums[i], nums[i + 1]) for i in range(0, min(len(nums), 8), 2)]
    if not cells:
        return DECLINE, {}
    return (len(cells),), {"cells": cells}


codec("printing_office", _printing_dec, None)


def _mix_dec(good_in):
    def dec(ctx, params):
        c = parse_goods(_p(params))
        pay = {good_in: c[good_in]} if good_in is not None else only(c, MONEY_GOODS)
        if (good_in is not None and not c[good_in]) or (good_in is None and money(pay) < 5):
            return DECLINE, pay
        out = parse_goods(_p(params, 1))
        if any(g not in POINT_MIX for g in out):
            raise ValueError("the output names goods other than books, ceramics, ornaments "
                             "and reliquaries")
        mix = [out[g] for g in POINT_MIX]
        return ((mix,), pay) if any(mix) else (DECLINE, pay)
    return dec, (lambda d, pay: [goods_text(pay), goods_text(dict(zip(POINT_MIX, d[0])))])


codec("festival_ground", *_mix_dec(G.BEER))
codec("house_of_the_brotherhood", *_mix_dec(None))


def _estate_dec(ctx, params):
    c = parse_goods(_p(params))
    e = min(2, energy2(c) // 12)
    f = min(2 - e, food(c) // 10)
    return ((e, f), dict(c)) if e or f else (DECLINE, dict(c))


codec("estate", _estate_dec, _enc_pay)
