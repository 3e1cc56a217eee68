"""The moves several decisions share: which are legal, and how each is applied.

A decision (solver/rules/decisions/) says which moves its frame offers; the rules of the moves
themselves live here, each naming its rulebook section: using a building (RULES §8.1.1), a
work contract (§9), felling trees and cutting peat (§8.1.2), building (§8.1.3), buying
landscape (§5.8), conversions (§8.2), settling (§11.3) and the solo neutral's builds and
contract (SOLO §4.2). Every ``apply``-side function raises :class:`RuleError` naming the rule
before it changes anything it cannot undo; the State restores its backup on any error.

Payments that an importer may name (work-contract fees, settlement food and energy, building
options) go through a payer (solver/rules/payers.py) passed in by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import actions as A
from . import frames as F
from . import goods as G
from .actions import CONVERSIONS, Action
from .cards import BUILDINGS, SETTLEMENTS
from .effects import EFFECTS, Option, Use
from .errors import RuleError
from .landscape import Landscape, LandscapeError
from .payment import Cost, affordable, coin_value, pay_coins, pay_goods, payable_goods
from .state import LAY_BROTHER, PRIOR

if TYPE_CHECKING:
    from .game import State
    from .payers import Payer


@dataclass
class Where:
    """Where a built building stands: its landscape's owner and its space."""

    owner: int
    col: int
    row: int


def expect(a: Action, allowed: tuple[str, ...], what: str) -> None:
    """Raise unless the action is of one of the ``allowed`` kinds (``what``: the decision)."""
    if a.kind not in allowed:
        raise RuleError(f"{a.kind} is not possible now: {what}")


def wheel_bonus(state: State, good: int) -> None:
    """RULES §7.3 / D35: short 3-4p game: every wheel take gives every player 1 more."""
    if state.g.length == "short" and state.g.players >= 3:
        for o in state.g.owners:
            o.goods[good] += 1


# ===== legal moves ============================================================================
def uses(state: State, seat: int) -> list[int]:
    """RULES §8.1.1: a free clergyman on an own unoccupied building."""
    me = state.g.owners[seat]
    kinds = [k for k in (LAY_BROTHER, PRIOR) if me.free_clergy(k) is not None]
    out = []
    for cell, bid in me.land.buildings():
        if state.occupant(seat, cell) is None or state.profile.use_ignores_occupied:
            out += [A.make("USE", bid, flag=k) for k in kinds]
    return out


def bonus_uses(state: State, seat: int) -> list[int]:
    """RULES §12: the prior on any built building of any landscape, occupied or not."""
    if state.g.owners[seat].free_clergy(PRIOR) is None:
        return []
    return [A.make("USE", bid, flag=PRIOR) for o in state.g.owners
            for _, bid in o.land.buildings()]


def fee_choices(state: State, seat: int) -> list[int]:
    """RULES §9: the fee kinds a player can pay (0 coins, 1 a wine, 2 a whiskey)."""
    goods = state.g.owners[seat].goods
    out = []
    if coin_value(goods, state.profile.auto_spend_wine_whiskey) >= state.fee():
        out.append(0)
    if goods[G.WINE] > 0:
        out.append(1)
    if goods[G.WHISKEY] > 0:
        out.append(2)
    return out


def contracts(state: State, seat: int) -> list[int]:
    """RULES §9: hire an unoccupied building of another landscape whose owner has clergy."""
    fees = fee_choices(state, seat)
    if not fees:
        return []
    out = []
    for oi, o in enumerate(state.g.owners):
        if oi == seat:
            continue
        kinds = [k for k in (LAY_BROTHER, PRIOR) if o.free_clergy(k) is not None]
        if not o.neutral:
            kinds = [LAY_BROTHER] if kinds else []  # the owner chooses (CHOOSE_CLERGY)
        for cell, bid in o.land.buildings():
            if state.occupant(oi, cell) is None:
                out += [A.make("WORK_CONTRACT", bid, flag=k, extra=fee)
                        for k in kinds for fee in fees]
    return out


def fell_cut(state: State, seat: int, kind: str) -> list[int]:
    """RULES §8.1.2 (``FELL_TREES`` or ``CUT_PEAT``): an own forest/moor, own token or joker."""
    me = state.g.owners[seat]
    feature, token = ("forest", "wood") if kind == "FELL_TREES" else ("moor", "peat")
    cells = me.land.features(feature)
    if not cells:
        return [A.make(kind, flag=2)] if state.profile.empty_fell_cut else []
    return [A.make(kind, col=c, row=r, flag=int(j))
            for (c, r) in cells for j in state.g.wheel.choices(token)]


def build_cost(state: State, bid: str) -> Cost:
    """RULES §8.1.3: a building's price (the profile may make the Whiskey Distillery free)."""
    b = BUILDINGS[bid]
    if bid == "I21" and state.profile.whiskey_distillery_free:
        return Cost()
    return Cost(goods=dict(b.cost), coins=b.cost_coins)


def build_cells(state: State, seat: int, bid: str) -> list[tuple[int, int]]:
    """RULES §5.7: empty spaces of the building's terrain (cloisters touching a cloister)."""
    b = BUILDINGS[bid]
    land = state.g.owners[seat].land
    out = []
    for cell, (terrain, content) in land.cells.items():
        if (content is None and terrain in b.terrain
                and (not b.cloister or land.touches_cloister(cell))):
            out.append(cell)
    return sorted(out, key=lambda x: (x[1], x[0]))


def builds(state: State, seat: int) -> list[int]:
    """RULES §8.1.3: every affordable display building on every space it may go."""
    goods = state.g.owners[seat].goods
    out = []
    for bid in state.g.display:
        if affordable(goods, build_cost(state, bid), state.profile.auto_spend_wine_whiskey):
            out += [A.make("BUILD", bid, c, r) for c, r in build_cells(state, seat, bid)]
    return out


def land(state: State, seat: int, free: bool, district: bool = True, plot: bool = True
         ) -> list[int]:
    """RULES §5.8: the top district/plot, bought (or free), on every row it fits."""
    me = state.g.owners[seat]
    money = coin_value(me.goods, state.profile.auto_spend_wine_whiskey)
    out = []
    if district and state.g.district_prices and (free or money >= state.g.district_prices[0]):
        out += [A.make("BUY_DISTRICT", row=r, flag=s)
                for r in me.land.district_rows(state.profile.district_via_mountain_plot)
                for s in (0, 1)]
    if plot and state.g.plot_prices and (free or money >= state.g.plot_prices[0]):
        for s, side in enumerate(("COAST", "MOUNTAIN")):
            out += [A.make("BUY_PLOT", row=r, flag=s) for r in me.land.plot_rows(side)]
    return out


def converts(state: State, seat: int) -> list[int]:
    """RULES §8.2: every conversion the player's goods allow."""
    goods = state.g.owners[seat].goods
    return [A.make("CONVERT", flag=i) for i, (_, give, _) in enumerate(CONVERSIONS)
            if all(goods[g] >= n for g, n in give.items())]


def settlements(state: State, seat: int) -> list[int]:
    """RULES §11.3: settlements in hand the food and energy held can pay, on allowed spaces."""
    me = state.g.owners[seat]
    total_food = sum(me.goods[g] * G.FOOD[g] for g in range(G.N_GOODS))
    total_energy2 = sum(me.goods[g] * G.ENERGY2[g] for g in range(G.N_GOODS))
    out = []
    for sid in me.settlements:
        s = SETTLEMENTS[sid]
        if total_food < s.food or total_energy2 < 2 * s.energy:
            continue
        for (c, r), (terrain, content) in me.land.cells.items():
            if content is None and terrain in s.terrain:
                out.append(A.make("SETTLE", col=c, row=r, flag=s.number))
    return out


def neutral_cells(state: State, land_: Landscape, bid: str, strict: bool = True,
                  fallback: bool = True) -> list[tuple[int, int]]:
    """SOLO §4.2 step 3 / D9: empty (cloister: touching a cloister) or same-kind cover.

    A cover that must touch a cloister (``neutral_cover_needs_adjacency``, unless not
    ``strict``) can leave a cloister building nowhere to go (kennerspiel is stuck there); the
    forced build then falls back to the cover without the adjacency check (unless not
    ``fallback``)."""
    b = BUILDINGS[bid]
    need = strict and state.profile.neutral_cover_needs_adjacency
    out = []
    for row in (0, 1):
        for col in range(5):
            content = land_.content((col, row))
            if content is None:
                if not b.cloister or land_.touches_cloister((col, row)):
                    out.append((col, row))
            elif (content in BUILDINGS and BUILDINGS[content].cloister == b.cloister
                  and (not b.cloister or not need or land_.touches_cloister((col, row)))):
                out.append((col, row))
    if not out and need and fallback:
        return neutral_cells(state, land_, bid, strict=False)
    return out


def neutral_contract_targets(state: State) -> list[str]:
    """SOLO §4.2 step 4: the neutral's unoccupied buildings the neutral prior may go to."""
    ni = state.neutral_index
    n = state.g.owners[ni]
    if state.profile.neutral_contract_targets == "any":
        cand = [bid for _, bid in n.land.buildings()]
    else:
        cand = [bid for bid in state.g.neutral_built if n.land.find(bid) is not None]
    return [bid for bid in cand if state.occupant(ni, n.land.find(bid)) is None]


# ===== applying moves =========================================================================
def use(state: State, seat: int, a: Action) -> None:
    """RULES §8.1.1: place a clergyman on an own unoccupied building and use it."""
    me = state.g.owners[seat]
    cell = me.land.find(a.building)
    if cell is None:
        raise RuleError(f"cannot use {a.building}: it is not on your landscape")
    if state.occupant(seat, cell) is not None and not state.profile.use_ignores_occupied:
        raise RuleError(f"cannot use {a.building}: a clergyman already stands on it "
                        "(RULES §8.1)")
    ci = me.free_clergy(a.flag)
    if ci is None:
        who = "prior" if a.flag == PRIOR else "lay brother"
        raise RuleError(f"cannot use {a.building}: no {who} is at home (RULES §10)")
    displace(state, (seat, cell[0], cell[1]))
    me.clergy[ci] = [seat, cell[0], cell[1]]
    push_option(state, seat, a.building, (seat, cell[0], cell[1]), "clergy", [])


def displace(state: State, loc) -> None:
    """Profile ``occupied_use_displaces`` (kennerspiel): a clergyman placed on an occupied
    space takes it, and whoever stood there leaves the board, still counted as placed
    (``[owner, None, None]``, state.off_board) until its owner's clergy return."""
    if not state.profile.occupied_use_displaces:
        return
    owner, col, row = loc
    occ = state.occupant(owner, (col, row))
    while occ is not None:
        state.g.owners[occ[0]].clergy[occ[1]] = [owner, None, None]
        occ = state.occupant(owner, (col, row))


def bonus_use(state: State, seat: int, a: Action) -> None:
    """RULES §12: the prior goes to any built building, occupied or not, without a fee."""
    me = state.g.owners[seat]
    where = state.locate(a.building)
    if where is None:
        raise RuleError(f"cannot use {a.building}: it is not built")
    if a.flag != PRIOR or me.free_clergy(PRIOR) is None:
        raise RuleError("in the bonus round only your prior is placed (RULES §12)")
    displace(state, (where.owner, where.col, where.row))
    me.clergy[me.prior] = [where.owner, where.col, where.row]
    push_option(state, seat, a.building, (where.owner, where.col, where.row), "clergy", [])


def work_contract(state: State, seat: int, a: Action, payer: Payer) -> None:
    """RULES §9: hire an unoccupied building of another landscape."""
    where = state.locate(a.building)
    if where is None or where.owner == seat:
        raise RuleError(f"cannot hire {a.building}: it is not built on another landscape")
    contract(state, seat, where, a, payer)


def contract(state: State, seat: int, where: Where, a: Action, payer: Payer) -> None:
    """RULES §9: pay first, the owner places one of its clergymen, then the hirer uses it.

    A player owner with both kinds free chooses which (a choose-clergy frame); with one kind
    free that one goes. The solo neutral's clergyman is chosen by the hirer (SOLO §3).
    """
    owner = state.g.owners[where.owner]
    if state.occupant(where.owner, (where.col, where.row)) is not None:
        raise RuleError(f"cannot hire {a.building}: it is occupied (RULES §9)")
    if owner.neutral:
        ci = owner.free_clergy(a.flag)
        if ci is None:
            raise RuleError(f"cannot hire {a.building}: its owner has no free "
                            f"{'prior' if a.flag == PRIOR else 'lay brother'} (RULES §9)")
    elif owner.all_placed():
        raise RuleError(f"cannot hire {a.building}: its owner has placed all its clergymen "
                        "(RULES §9)")
    payer.contract_fee(state, seat, where.owner, a.extra)
    loc = (where.owner, where.col, where.row)
    push_option(state, seat, a.building, loc, "contract", [])
    if owner.neutral:
        owner.clergy[ci] = list(loc)
        return
    kinds = [k for k in (LAY_BROTHER, PRIOR) if owner.free_clergy(k) is not None]
    if len(kinds) == 2:
        state.g.frames.append(F.ChooseClergyFrame(chooser=where.owner, user=seat,
                                                  owner=where.owner, loc=list(loc)))
    else:
        owner.clergy[owner.free_clergy(kinds[0])] = list(loc)


def fell_or_cut(state: State, seat: int, a: Action) -> None:
    """RULES §8.1.2: remove an own forest/moor card, take wood/peat from the wheel."""
    if a.kind == "FELL_TREES":
        feature, token, good = "forest", "wood", G.WOOD
    else:
        feature, token, good = "moor", "peat", G.PEAT
    me = state.g.owners[seat]
    if a.flag == 2:
        if me.land.features(feature) or not state.profile.empty_fell_cut:
            raise RuleError(f"the empty {a.kind} is only allowed with no {feature} left "
                            "(D23)")
        return
    if me.land.content((a.col, a.row)) != feature:
        raise RuleError(f"no {feature} of yours at ({a.col}, {a.row}) (RULES §8.1)")
    if a.flag not in (0, 1):
        raise RuleError(f"{a.kind} takes the own indicator (0) or the joker (1), not {a.flag}")
    if a.flag == 1 and "joker" not in state.g.wheel.tokens:
        raise RuleError("the joker is no longer on the wheel (SOLO §2)")
    if a.flag == 0 and token not in state.g.wheel.tokens and "joker" in state.g.wheel.tokens:
        raise RuleError(f"the {token} indicator is no longer on the wheel (SOLO §2): "
                        "take it with the joker")
    me.land.cells[(a.col, a.row)][1] = None
    me.goods[good] += state.g.wheel.take(token, bool(a.flag))
    wheel_bonus(state, good)


def build(state: State, seat: int, a: Action) -> None:
    """RULES §8.1.3: pay, place on a legal empty space; the prior may use it at once."""
    bid = a.building
    if bid not in state.g.display:
        raise RuleError(f"cannot build {bid}: it is not in the display")
    b = BUILDINGS[bid]
    me = state.g.owners[seat]
    cell = (a.col, a.row)
    terrain = me.land.terrain(cell)
    if terrain is None:
        raise RuleError(f"cannot build {b} at {cell}: you have no land there")
    if not me.land.is_empty(cell):
        raise RuleError(f"cannot build {b} at {cell}: the space is not empty (RULES §5.7)")
    if terrain not in b.terrain:
        raise RuleError(f"cannot build {b} at {cell}: terrain {terrain} is not one of "
                        f"{'/'.join(sorted(b.terrain))} (RULES §5.7)")
    if b.cloister and not me.land.touches_cloister(cell):
        raise RuleError(f"cannot build {b} at {cell}: a cloister building must touch "
                        "another cloister building (RULES §5.7)")
    cost = build_cost(state, bid)
    if not affordable(me.goods, cost, state.profile.auto_spend_wine_whiskey):
        raise RuleError(f"cannot build {b}: it costs {cost.describe()} "
                        f"and you hold {G.goods_string(me.goods) or 'nothing'}")
    pay_goods(me.goods, cost.goods)
    if cost.coins:
        pay_coins(me.goods, cost.coins, state.profile.auto_spend_wine_whiskey)
    state.g.display.remove(bid)
    me.land.cells[cell][1] = bid
    if bid in ("F21", "I21"):
        state.g.fee_raised = True
    if me.clergy[me.prior] is None:
        state.g.frames.append(F.PriorBonusFrame(user=seat, building=bid))


def buy_land(state: State, seat: int, a: Action, free: bool) -> None:
    """RULES §5.8: buy the top district/plot at its price and place it at once."""
    me = state.g.owners[seat]
    district = a.kind == "BUY_DISTRICT"
    prices = state.g.district_prices if district else state.g.plot_prices
    if not prices:
        raise RuleError(f"no {'district' if district else 'plot'} is left (RULES §5.8)")
    price = prices[0]
    if not free and coin_value(me.goods, state.profile.auto_spend_wine_whiskey) < price:
        raise RuleError(f"the next {'district' if district else 'plot'} costs {price} "
                        "coins and you have less (RULES §5.8)")
    try:
        if district:
            me.land.add_district(a.row, ("PLAINS", "HILLS")[a.flag],
                                 state.profile.district_via_mountain_plot)
        else:
            me.land.add_plot(a.row, ("COAST", "MOUNTAIN")[a.flag])
    except (LandscapeError, IndexError) as e:
        raise RuleError(str(e)) from None
    if not free:
        pay_coins(me.goods, price, state.profile.auto_spend_wine_whiskey)
    if not free or state.profile.bulwark_consumes_stacks:
        prices.pop(0)


def convert(state: State, seat: int, i: int) -> None:
    """RULES §8.2: one conversion (grain to straw, coins, wine, whiskey)."""
    if not 0 <= i < len(CONVERSIONS):
        raise RuleError(f"unknown conversion {i}")
    name, give, get = CONVERSIONS[i]
    goods = state.g.owners[seat].goods
    if any(goods[g] < n for g, n in give.items()):
        raise RuleError(f"cannot convert {name}: not enough goods (RULES §8.2)")
    for g, n in give.items():
        goods[g] -= n
    for g, n in get.items():
        goods[g] += n


def settle(state: State, seat: int, a: Action, payer: Payer, any_terrain: bool = False
           ) -> None:
    """RULES §11.3: pay food and energy, place on an empty space of an allowed terrain
    (``any_terrain``: any empty space, quirk 13)."""
    sid = f"S{a.flag}"
    me = state.g.owners[seat]
    if sid not in me.settlements:
        raise RuleError(f"you have no settlement {sid} to build")
    s = SETTLEMENTS[sid]
    cell = (a.col, a.row)
    if not me.land.is_empty(cell) or (me.land.terrain(cell) not in s.terrain
                                      and not any_terrain):
        raise RuleError(f"cannot settle {s} at {cell}: it needs an empty "
                        f"{'/'.join(sorted(s.terrain))} space (RULES §11.3)")
    cost = Cost(food=s.food, energy2=2 * s.energy)
    if not payer.covers(state, seat, cost):
        raise RuleError(f"cannot settle {s}: it costs {cost.describe()} (RULES §11.3)")
    me.settlements.remove(sid)
    me.land.cells[cell][1] = sid  # reserve the space while paying
    payer.pay(state, seat, cost, F.PlaceSettlement(user=seat, settlement=sid, cell=list(cell)))


def neutral_build(state: State, a: Action) -> None:
    """SOLO §4.2 step 3: the neutral builds a display building where the player says."""
    n = state.g.owners[state.neutral_index]
    if a.building not in state.g.display:
        raise RuleError(f"{a.building} is not in the display")
    if (a.col, a.row) not in neutral_cells(state, n.land, a.building):
        raise RuleError(f"the neutral cannot build {BUILDINGS[a.building]} at "
                        f"({a.col}, {a.row}): only its heartland, empty (cloister: touching "
                        "a cloister) or covering a building of the same kind (SOLO §4.2)")
    state.g.display.remove(a.building)
    n.land.cells[(a.col, a.row)][1] = a.building
    state.g.neutral_built.append(a.building)
    if a.building in ("F21", "I21"):
        state.g.fee_raised = True


# ===== building functions =====================================================================
def push_option(state: State, user: int, bid: str, loc, via: str, chain: list) -> None:
    """Open the choice of ``bid``'s function for ``user`` (an option frame)."""
    state.g.frames.append(F.OptionFrame(user=user, building=bid,
                                        loc=None if loc is None else list(loc), via=via,
                                        chain=chain + [bid]))


def use_of(state: State, f: F.OptionFrame | F.ResolveUse) -> Use:
    """The Use context of an option frame or a resolve continuation."""
    return Use(state, f.user, f.building, None if f.loc is None else tuple(f.loc), f.via,
               list(f.chain))


def options(state: State, f: F.OptionFrame) -> list[Option]:
    """Option 0 (do nothing) plus the building's affordable options."""
    u = use_of(state, f)
    goods = payable_goods(state.g.owners[f.user].goods, state.profile.wonders_are_goods)
    opts = [Option("place only, use no function", ("decline",))]
    for opt in EFFECTS[BUILDINGS[f.building].effect].options(u):
        if affordable(goods, opt.cost, state.profile.auto_spend_wine_whiskey):
            opts.append(opt)
    return opts


def resolve_use(f: F.OptionFrame, data) -> F.ResolveUse:
    """The continuation that runs ``f``'s building with option ``data``."""
    return F.ResolveUse(user=f.user, building=f.building,
                        loc=None if f.loc is None else list(f.loc), via=f.via,
                        chain=list(f.chain), data=list(data))


def resume(state: State, then: F.Continuation) -> None:
    """Run a continuation: the paid building function, or the paid settlement's placing."""
    if isinstance(then, F.ResolveUse):
        EFFECTS[BUILDINGS[then.building].effect].resolve(use_of(state, then), tuple(then.data))
    elif isinstance(then, F.PlaceSettlement):
        state.g.owners[then.user].land.cells[tuple(then.cell)][1] = then.settlement
    else:
        raise TypeError(f"unknown continuation {then!r}")
