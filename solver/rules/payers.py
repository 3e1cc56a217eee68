"""Who pays, and how: the engine's own automatic payments, or a payment an importer names.

Three moves cost goods that a player could pay in more than one way: a building's option
(its exact goods, coins, and food/energy/points/distinct kinds), a settlement (food and
energy) and a work-contract fee (coins, or wine or whiskey as a present). The decision that
takes such a move hands the price to a *payer*:

* :data:`AUTOMATIC` (:class:`AutomaticPayer`), for every ``apply_action``: the option is the
  listed one the action names; exact goods and coins are paid at once (D34) and any
  food/energy/points/distinct part is picked tile by tile in a ``PAY`` frame
  (solver/rules/payment.py);
* :class:`NamedPayment`, for ``State.apply_explicit`` (an imported kennerspiel move that names
  its tiles, solver/rules/explicit.py): the option is the one whose data the record names
  (import-only quirk options too), and exactly the named tiles are checked against the price
  and taken, all of them with profile ``explicit_payment_takes_all`` (quirk 17). Tiles not held
  are made up by the profile's change routine (``goods_payment_change``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from . import frames as F
from . import goods as G
from .cards import BUILDINGS
from .effects import EFFECTS, Option
from .errors import RuleError
from .explicit import allocate, needed_part, take_named
from .moves import options, resume, use_of
from .payment import Cost, affordable, coin_value, pay_coins, pay_goods, payable_goods

if TYPE_CHECKING:
    from .actions import Action
    from .game import State


class Payer(Protocol):
    """How the prices of one action are paid."""

    imported: bool  # a move of an imported record (quirk 13 looks at this)

    def choose_option(self, state: State, f: F.OptionFrame, a: Action) -> Option | None:
        """The building option the action takes (None: option 0, place only)."""

    def decline(self, state: State, seat: int) -> None:
        """Option 0 was taken: pay what declining costs (nothing, unless named)."""

    def covers(self, state: State, seat: int, cost: Cost) -> bool:
        """Whether a settlement's price can be paid (before anything is changed)."""

    def pay(self, state: State, seat: int, cost: Cost, then: F.Continuation) -> None:
        """Pay ``cost`` for ``seat``, then run ``then`` (at once, or after a PAY frame)."""

    def contract_fee(self, state: State, seat: int, owner: int, fee_kind: int) -> None:
        """RULES §9: the hirer pays the work-contract fee (to the building's owner)."""


class AutomaticPayer:
    """The engine's own payments (every ``apply_action``)."""

    imported = False

    def choose_option(self, state: State, f: F.OptionFrame, a: Action) -> Option | None:
        """The listed option ``OPTION a.flag`` (0: None)."""
        opts = options(state, f)
        if not 0 <= a.flag < len(opts):
            raise RuleError(f"{f.building} has no option {a.flag} here (it has {len(opts)})")
        return opts[a.flag] if a.flag else None

    def decline(self, state: State, seat: int) -> None:
        """Declining costs nothing."""

    def covers(self, state: State, seat: int, cost: Cost) -> bool:
        """The held goods afford it (wine and whiskey are not spent as coins here)."""
        return affordable(payable_goods(state.g.owners[seat].goods,
                                        state.profile.wonders_are_goods), cost, False)

    def pay(self, state: State, seat: int, cost: Cost, then: F.Continuation) -> None:
        """Exact goods and coins at once (D34); the picked rest in a PAY frame."""
        goods = state.g.owners[seat].goods
        pay_goods(goods, cost.goods)
        if cost.coins:
            pay_coins(goods, cost.coins, state.profile.auto_spend_wine_whiskey)
        if cost.picked:
            state.g.frames.append(F.PayFrame(user=seat, need=cost.need(), then=then))
        else:
            resume(state, then)

    def contract_fee(self, state: State, seat: int, owner: int, fee_kind: int) -> None:
        """Fee kind 0: the coins, to a player owner; 1/2: a wine/whiskey as a present."""
        goods = state.g.owners[seat].goods
        fee = state.fee()
        if fee_kind == 0:
            if coin_value(goods, state.profile.auto_spend_wine_whiskey) < fee:
                raise RuleError(f"the work-contract fee is {fee} coins and you have "
                                "less (RULES §9)")
            pay_coins(goods, fee, state.profile.auto_spend_wine_whiskey)
            if not state.g.owners[owner].neutral:
                state.g.owners[owner].goods[G.COIN] += fee  # RULES §9: to the owner
        elif fee_kind in (1, 2):
            g = G.WINE if fee_kind == 1 else G.WHISKEY
            if goods[g] < 1:
                raise RuleError(f"no {G.NAMES[g]} to give as a present (RULES §9)")
            goods[g] -= 1
        else:
            raise RuleError(f"unknown fee kind {fee_kind}")


AUTOMATIC = AutomaticPayer()


class NamedPayment:
    """An imported move's payment: exactly the tiles ``payment`` ({good id: count}) names,
    and for an ``OPTION`` the building option whose data is ``data`` (None: option 0)."""

    imported = True

    def __init__(self, payment: dict[int, int] | None = None, data: tuple | None = None):
        self.payment = {int(k): v for k, v in (payment or {}).items() if v}
        self.data = data

    def choose_option(self, state: State, f: F.OptionFrame, a: Action) -> Option | None:
        """The option by its data, listed or not (quirks: import-only kennerspiel options)."""
        if self.data is None:
            return None
        u = use_of(state, f)
        want = jsonable(self.data)
        eff = EFFECTS[BUILDINGS[f.building].effect]
        for opt in eff.options(u) + eff.quirks(u):
            if jsonable(opt.data) == want:
                return opt
        raise RuleError(f"{f.building} {BUILDINGS[f.building].name} has no option "
                        f"{self.data!r} here")

    def decline(self, state: State, seat: int) -> None:
        """Option 0 takes the named tiles only with ``explicit_payment_takes_all``."""
        self._take(state, seat, None)

    def covers(self, state: State, seat: int, cost: Cost) -> bool:
        """Checked when the tiles are taken (a PaymentError names what is missing)."""
        return True

    def pay(self, state: State, seat: int, cost: Cost, then: F.Continuation) -> None:
        """Check the named tiles against ``cost``, take them, run ``then`` at once."""
        self._take(state, seat, cost)
        resume(state, then)

    def contract_fee(self, state: State, seat: int, owner: int, fee_kind: int) -> None:
        """RULES §9 / NOTATION §6.8: a wine or whiskey named is a present; otherwise the
        named money must reach the fee, and the fee goes to a player owner (with
        ``contract_pennies_only``: only the named 1-coin pieces, quirk 9)."""
        prof = state.profile
        payment = self.payment
        present = payment.get(G.WINE, 0) or payment.get(G.WHISKEY, 0)
        if present and not prof.explicit_payment_takes_all:
            payment = {G.WINE if payment.get(G.WINE) else G.WHISKEY: 1}
        cost = None if present else Cost(coins=state.fee())
        if cost is not None:
            allocate(payment, cost)
            if not prof.explicit_payment_takes_all:
                payment = needed_part(payment, cost)
        take_named(state.g.owners[seat].goods, payment, prof.goods_payment_change)
        o = state.g.owners[owner]
        if o.neutral:
            return
        if prof.contract_pennies_only:
            o.goods[G.COIN] += payment.get(G.COIN, 0)
        elif not present:
            o.goods[G.COIN] += state.fee()

    def _take(self, state: State, seat: int, cost: Cost | None) -> None:
        """Check the payment against ``cost`` and take it (all of it, or the needed part)."""
        payment = self.payment
        if (cost is not None and cost.picked and payment.get(G.WONDER)
                and not state.profile.wonders_are_goods):
            raise RuleError("a wonder cannot be given in this payment (profile "
                            "wonders_are_goods: kennerspiel keeps wonders apart from its goods)")
        if cost is not None:
            allocate(payment, cost)
            if not state.profile.explicit_payment_takes_all:
                payment = needed_part(payment, cost)
        elif not state.profile.explicit_payment_takes_all:
            payment = {}
        take_named(state.g.owners[seat].goods, payment, state.profile.goods_payment_change)


def jsonable(x):
    """Tuples to lists, recursively (option data compared as JSON)."""
    if isinstance(x, (list, tuple)):
        return [jsonable(i) for i in x]
    return x
