"""The reference engine's State API (OpenSpiel-shaped) and the rules of play.

``new_initial_state(variant, players, length, profile)`` returns a :class:`State` with
``current_player()``, ``legal_actions()`` (sorted ints), ``apply_action(a)``,
``action_to_string(a)``, ``is_terminal()``, ``returns()``, ``score()``, ``clone()``,
``history()``, ``to_dict()`` and ``State.from_dict()``.

How a game is sequenced
-----------------------
The game follows a fixed *flow script* (solver/rules/schedule.py): round starts, settlement
phases and action turns. Automatic steps (clergy return, rotation, arrivals) run by themselves;
every choice a player makes is one action taken from the top of a *decision stack* of frames:

* a **turn** frame: one main action (``USE`` own building with a lay brother or the prior,
  ``WORK_CONTRACT``, ``FELL_TREES``, ``CUT_PEAT``, ``BUILD``), any number of extra actions
  (``BUY_DISTRICT``/``BUY_PLOT`` once per round, ``CONVERT``), and ``COMMIT`` to end the turn
  (a turn may end without a main action: passing, D29);
* an **option** frame: which of the building's functions (``OPTION i``; option 0 is always
  "place the clergyman and do nothing");
* a **pay** frame: tiles given one by one (``PAY good``) for food/energy/points/distinct-goods
  prices (solver/rules/payment.py); exact goods and coins are paid automatically;
* follow-ups granted by buildings: **free_use** (``FREE_USE b`` or ``SKIP``), **prior_bonus**
  after a build (``USE_PRIOR`` or ``SKIP``), **grant_build**, **grant_settle**,
  **grant_fell_cut**, **grant_land**, **pick_cells**;
* solo settlement phases: **neutral_build** (``NEUTRAL_BUILD b col row`` until the display is
  empty), **neutral_contract** (one paid ``WORK_CONTRACT`` with the neutral prior, or ``SKIP``),
  and the player's **settle** frame (buy one landscape, then ``SETTLE``, then ``COMMIT``).

Every distinct choice is reachable: every building, space, clergyman, option, payment tile,
landscape side and row. Conversions (``CONVERT``) are offered at turn level and in settlement
turns; within an action the engine flips grain to straw and breaks 5-coin pieces by itself
(D34), so wine and whiskey are spent as coins only after the player converts them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from . import actions as A
from . import goods as G
from .actions import CONVERSIONS, FEES, Action
from .cards import BUILDINGS, GAME, SETTLEMENTS, building_set
from .effects import EFFECTS, Option, Use
from .explicit import PaymentError, allocate, needed_part, take_named
from .landscape import Landscape, LandscapeError
from .payment import (
    Cost,
    affordable,
    after_pick,
    coin_value,
    pay_coins,
    pay_goods,
    pick_candidates,
    satisfied,
)
from .profile import RuleProfile, get_profile
from .schedule import script
from .scoring import Score, score_owner
from .state import LAY_BROTHER, PRIOR, GameState, Owner
from .wheel import Wheel

COLOURS = ("R", "G", "B", "W")
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class RuleError(ValueError):
    """An illegal action. The message names the rule it breaks; the state is unchanged."""


@dataclass
class _Where:
    owner: int
    col: int
    row: int


def new_initial_state(variant: str = "ireland", players: int = 1, length: str = "long",
                      profile: str | RuleProfile = "rulebook", colours: tuple | None = None
                      ) -> State:
    """Set up a game (RULES §4, SOLO §1) and return its first decision state."""
    if variant not in ("ireland", "france"):
        raise ValueError(f"variant must be 'ireland' or 'france', not {variant!r}")
    if players not in (1, 2, 3, 4):
        raise ValueError(f"players must be 1-4, not {players!r}")
    if length not in ("long", "short"):
        raise ValueError(f"length must be 'long' or 'short', not {length!r}")
    prof = get_profile(profile)
    flow = script(players, length, prof)
    colours = tuple(colours or COLOURS[: players + (1 if players == 1 else 0)])
    if players == 1 and len(colours) == 1:
        colours = (colours[0], next(c for c in COLOURS if c != colours[0]))
    cards = _cards(variant, players, length, prof)
    mode = GAME["modes"][f"{players}-{length}" if players > 1 else "1-long"]
    short_land = players >= 3 and length == "short"
    owners = []
    for seat in range(players):
        owners.append(Owner(colour=colours[seat],
                            land=Landscape.heartland(colours[seat], short=short_land),
                            clergy=[None] * mode["clergy"], goods=G.empty(),
                            settlements=[s for s, x in SETTLEMENTS.items()
                                         if x.arrives == "start"]))
    stacks = {p: [b for b in cards if BUILDINGS[b].phase == p] for p in "ABCD"}
    display = [b for b in cards if BUILDINGS[b].phase == "start"]
    district_prices = list(GAME["landscape"]["district_prices"])
    plot_prices = list(GAME["landscape"]["plot_prices"])
    if players == 1:
        neutral = Owner(colour=colours[1], land=Landscape.heartland(colours[1], neutral=True),
                        clergy=[None, None, None], neutral=True, goods=G.empty())
        market = GAME["solo"]["neutral_market"]
        display.remove(market)
        neutral.land.cells[tuple(GAME["solo"]["neutral_market_cell"])][1] = market
        owners.append(neutral)
        district_prices.reverse()
        plot_prices.reverse()
    else:
        for o in owners:
            o.goods = G.empty()
            for g in (G.WOOD, G.CLAY, G.PEAT, G.COIN, G.GRAIN, G.SHEEP):
                o.goods[g] = 1
    wheel_side = GAME["modes"][f"{players}-{length}" if players > 1 else "1-long"]["wheel"]
    g = GameState(variant=variant, players=players, length=length, profile=prof.name,
                  owners=owners, wheel=Wheel.new(wheel_side), display=display, stacks=stacks,
                  district_prices=district_prices, plot_prices=plot_prices)
    st = State(g, prof, flow)
    st._advance()
    return st


def _cards(variant: str, players: int, length: str, prof: RuleProfile) -> list[str]:
    """RULES §4.3 building set of a mode, with the profile's options (D13, D18)."""
    if players == 2 and length == "long" and prof.two_long_full_set:
        return [b for b in building_set(variant, 4, "long") if b not in ("F10", "F29", "F31")]
    return building_set(variant, players, length,
                        short_uses_long_lists=prof.short_uses_long_lists)


class State:
    """A game position with the OpenSpiel-style API. See the module docstring."""

    def __init__(self, g: GameState, profile: RuleProfile, flow: list[tuple] | None = None):
        self.g = g
        self.profile = profile
        self._explicit: dict | None = None  # set only inside apply_explicit
        self.flow = flow if flow is not None else script(g.players, g.length, profile)

    # ===== OpenSpiel API ===================================================================
    def current_player(self) -> int:
        """Seat to act (TERMINAL = -4 when the game is over)."""
        if self.g.done:
            return TERMINAL
        f = self.g.frames[-1]
        return f.get("chooser", f.get("user", f.get("seat", 0)))

    def legal_actions(self) -> list[int]:
        """Sorted action ids legal now (empty when terminal)."""
        if self.g.done:
            return []
        return sorted(set(self._legal()))

    def apply_action(self, action: int) -> None:
        """Apply one action; raise RuleError (state unchanged) if it is illegal."""
        if self.g.done:
            raise RuleError("the game is over: no action is legal")
        try:
            a = A.decode(action)
        except ValueError as e:
            raise RuleError(str(e)) from None
        backup = copy.deepcopy(self.g)
        if action not in set(self._legal()):
            # find the rule it breaks (the handler raises with the reason), state unchanged
            try:
                self._apply(a)
            except RuleError:
                self.g = backup
                raise
            self.g = backup
            raise RuleError(f"{self._describe(a)} is not a legal action now")
        try:
            self._apply(a)
            self.g.history.append(action)
            self._advance()
        except RuleError:
            self.g = backup
            raise
        except Exception:
            self.g = backup
            raise

    def apply_explicit(self, action: int, payment: dict[int, int] | None = None,
                       data: tuple | None = None) -> None:
        """Lower-level entry point for importers (solver/rules/notation.py): apply ``action``
        paying exactly the named tiles ``payment`` ({good id: count}).

        * ``OPTION``: the pending option frame is resolved with the building's option whose
          data is ``data`` (None: option 0, place only), whether or not the engine would list
          it as affordable; ``payment`` must cover that option's cost (exact goods, coins,
          food/energy/points/distinct kinds, solver/rules/explicit.py), no ``PAY`` frame
          follows. With profile ``explicit_payment_takes_all`` (quirk 17) every named tile is
          taken, even beyond the cost and even for option 0; otherwise only what the cost uses.
        * ``SETTLE``: the settlement's food and energy are paid with ``payment``.
        * ``WORK_CONTRACT``: the fee is paid with ``payment`` (a wine or whiskey in it is a
          present; otherwise its money must reach the fee); its coins go to the owner (with
          ``contract_pennies_only`` only its 1-coin pieces, quirk 9).

        Tiles not held are made up by the profile's change routine (``goods_payment_change``).
        The state is unchanged if the move is illegal (RuleError). The move is recorded in
        ``history()`` as a dict, since no action id carries a payment.
        """
        if self.g.done:
            raise RuleError("the game is over: no action is legal")
        try:
            a = A.decode(action)
        except ValueError as e:
            raise RuleError(str(e)) from None
        if a.kind not in ("OPTION", "SETTLE", "WORK_CONTRACT"):
            raise RuleError(f"{a.kind} takes no explicit payment: use apply_action")
        backup = copy.deepcopy(self.g)
        self._explicit = {"payment": {int(k): v for k, v in (payment or {}).items() if v},
                          "data": data}
        try:
            self._apply(a)
            self.g.history.append({"action": action, "data": _jsonable(data),
                                   "payment": {str(k): v for k, v in
                                               self._explicit["payment"].items()}})
            self._advance()
        except PaymentError as e:
            self.g = backup
            raise RuleError(str(e)) from None
        except Exception:
            self.g = backup
            raise
        finally:
            self._explicit = None

    def apply_extra(self, action: int) -> None:
        """Importer entry point: an extra action (``CONVERT``, ``BUY_DISTRICT``, ``BUY_PLOT``;
        RULES §8.2, D30) taken while a follow-up decision of the same turn is pending (a
        prior's bonus use, a free use, a granted build, ...), as kennerspiel allows.

        It is applied as at the turn (or settlement-turn) level below the pending frame, with
        the same limits (one landscape purchase per round or turn), and the pending decision
        stays open. Recorded in ``history()`` as ``{"extra": action}``.
        """
        if self.g.done:
            raise RuleError("the game is over: no action is legal")
        a = A.decode(action)
        if a.kind not in ("CONVERT", "BUY_DISTRICT", "BUY_PLOT"):
            raise RuleError(f"{a.kind} is not an extra action")
        base = next((f for f in reversed(self.g.frames) if f["f"] in ("turn", "settle")), None)
        if base is None and a.kind == "CONVERT":  # e.g. beside a solo neutral build
            base = {"f": "none", "seat": self.current_player()}
        if base is None and self.profile.land_in_neutral_phase and self.solo and self.g.frames:
            # kennerspiel: the solo settlement phase's one purchase may come during the
            # neutral's builds and contract (no turn or settlement frame is open then); the
            # settlement turn then has it used (_step_settle)
            base = {"f": "settle", "seat": self.current_player(), "settled": False,
                    "bought": self.g.neutral_phase_bought}
        if base is None or base["seat"] != self.current_player():
            raise RuleError("extra actions are taken in your own turn (RULES §8.2)")
        backup = copy.deepcopy(self.g)
        try:
            if a.kind == "CONVERT":
                self._do_convert(base["seat"], a.flag)
            else:
                getattr(self, "_on_" + base["f"])(base, a)
                if base["f"] == "settle" and base not in self.g.frames:
                    self.g.neutral_phase_bought = True
            self.g.history.append({"extra": action})
        except Exception:
            self.g = backup
            raise

    def _take_explicit(self, seat: int, payment: dict[int, int], cost: Cost | None) -> None:
        """Check ``payment`` against ``cost`` and take it (all of it, or the needed part)."""
        if cost is not None:
            allocate(payment, cost)
            if not self.profile.explicit_payment_takes_all:
                payment = needed_part(payment, cost)
        elif not self.profile.explicit_payment_takes_all:
            payment = {}
        take_named(self.g.owners[seat].goods, payment, self.profile.goods_payment_change)

    def _pay_fee_explicit(self, seat: int, owner: int, payment: dict[int, int]) -> None:
        """RULES §9 / NOTATION §6.8: a named work-contract payment."""
        present = payment.get(G.WINE, 0) or payment.get(G.WHISKEY, 0)
        if present and not self.profile.explicit_payment_takes_all:
            payment = {G.WINE if payment.get(G.WINE) else G.WHISKEY: 1}
        cost = None if present else Cost(coins=self.fee())
        if cost is not None:
            allocate(payment, cost)
            if not self.profile.explicit_payment_takes_all:
                payment = needed_part(payment, cost)
        take_named(self.g.owners[seat].goods, payment, self.profile.goods_payment_change)
        o = self.g.owners[owner]
        if o.neutral:
            return
        if self.profile.contract_pennies_only:
            o.goods[G.COIN] += payment.get(G.COIN, 0)
        elif not present:
            o.goods[G.COIN] += self.fee()

    def action_to_string(self, action: int) -> str:
        """Readable text of an action in this state's context."""
        try:
            a = A.decode(action)
        except ValueError:
            return f"<invalid action {action}>"
        return self._describe(a)

    def is_terminal(self) -> bool:
        return self.g.done

    def score(self) -> list[Score]:
        """RULES §14 score breakdown of every player (seat order)."""
        return [score_owner(self.g.owners[s], self.profile) for s in range(self.g.players)]

    def returns(self) -> list[float]:
        """Final totals (solo: the score itself; 0s before the end)."""
        if not self.g.done:
            return [0.0] * self.g.players
        return [float(s.total) for s in self.score()]

    def clone(self) -> State:
        return State(copy.deepcopy(self.g), self.profile, self.flow)

    def history(self) -> list[int]:
        return list(self.g.history)

    def to_dict(self) -> dict:
        """JSON-serialisable snapshot (a copy); ``State.from_dict`` restores it exactly."""
        return copy.deepcopy(self.g.to_dict())

    @classmethod
    def from_dict(cls, d: dict, profile: str | RuleProfile | None = None) -> State:
        g = GameState.from_dict(d)
        return cls(g, get_profile(profile or g.profile))

    def __str__(self) -> str:
        return self.render()

    # ===== convenience =====================================================================
    @property
    def round(self) -> int:
        return self.g.round

    @property
    def frame(self) -> dict | None:
        return self.g.frames[-1] if self.g.frames else None

    @property
    def solo(self) -> bool:
        return self.g.players == 1

    def owner(self, i: int) -> Owner:
        return self.g.owners[i]

    @property
    def neutral_index(self) -> int | None:
        return self.g.players if self.solo else None

    def fee(self) -> int:
        """RULES §9: the work-contract price, 1 coin or 2 once a Winery/Distillery is built."""
        return 2 if self.g.fee_raised else 1

    def occupant(self, owner: int, cell) -> tuple[int, int] | None:
        """(owner of the clergyman, clergy index) standing on a space, or None."""
        col, row = cell
        for oi, o in enumerate(self.g.owners):
            for ci, pos in enumerate(o.clergy):
                if pos is not None and pos[0] == owner and pos[1] == col and pos[2] == row:
                    return oi, ci
        return None

    def locate(self, bid: str) -> _Where | None:
        """Where a built building stands (None if not built or covered)."""
        for oi, o in enumerate(self.g.owners):
            cell = o.land.find(bid)
            if cell is not None:
                return _Where(oi, cell[0], cell[1])
        return None

    def render(self) -> str:
        """Readable dump of the position (for the CLI and error messages)."""
        g = self.g
        lines = [f"{g.variant} {g.players}p {g.length}, round {g.round}, phase {g.phase or '-'}",
                 f"wheel arm {g.wheel.arm}: " + ", ".join(
                     f"{t} {g.wheel.yield_of(t)}" for t in g.wheel.tokens),
                 "display: " + " ".join(g.display)]
        for i, o in enumerate(g.owners):
            who = "neutral" if o.neutral else f"seat {i}"
            lines.append(f"{who} ({o.colour}) clergy {o.clergy}")
            if not o.neutral:
                lines.append("  goods: " + G.goods_string(o.goods))
            lines.append(o.land.render())
        return "\n".join(lines)

    # ===== flow ============================================================================
    def _advance(self) -> None:
        """Run automatic steps until a decision is pending or the game ends."""
        g = self.g
        while not g.frames and not g.done:
            if g.end_after is not None and g.step >= g.end_after:
                g.step = len(self.flow) - 1  # the final ("end",) step
                g.end_after = None
            step = self.flow[g.step]
            g.step += 1
            getattr(self, "_step_" + step[0])(*step[1:])

    def _step_round(self, r: int) -> None:
        """RULES §7.1 / SOLO §2: return clergy (all-three rule), rotate, reset purchases."""
        g = self.g
        g.round = r
        for o in g.owners:
            if o.all_placed():
                o.clergy = [None] * len(o.clergy)
            o.bought_land = False
        g.wheel.rotate(solo=self.solo)

    def _step_turn(self, seat: int) -> None:
        if self.profile.land_purchase_per == "turn":
            self.g.owners[seat].bought_land = False
        self.g.frames.append({"f": "turn", "seat": seat, "main": False})

    def _step_neutral_build(self, letter: str) -> None:
        """SOLO §4.2 step 3: the neutral builds every display building where you choose."""
        self.g.neutral_built = []
        self.g.phase = letter
        if self.g.display:
            self.g.frames.append({"f": "neutral_build", "seat": 0})

    def _step_neutral_contract(self, letter: str) -> None:
        """SOLO §4.2 step 4: optional paid contract with the neutral prior."""
        n = self.g.owners[self.neutral_index]
        if self.g.neutral_built and n.clergy[n.prior] is None:
            if self._neutral_contract_targets():
                self.g.frames.append({"f": "neutral_contract", "seat": 0})

    def _step_neutral_return(self, letter: str) -> None:
        """SOLO §4.2 step 5: the neutral takes its clergy back if all three are placed."""
        n = self.g.owners[self.neutral_index]
        if n.all_placed():
            n.clergy = [None] * len(n.clergy)

    def _step_settle(self, letter: str, seat: int) -> None:
        self.g.phase = letter
        bought = self.g.neutral_phase_bought  # profile land_in_neutral_phase (apply_extra)
        self.g.neutral_phase_bought = False
        self.g.frames.append({"f": "settle", "seat": seat, "bought": bought, "settled": False})

    def _step_arrivals(self, letter: str) -> None:
        """SOLO §4.2 step 7 / RULES §11.2 step 3: new settlement card, next stack on display."""
        g = self.g
        for o in g.owners:
            if not o.neutral:
                o.settlements += [s for s, x in SETTLEMENTS.items() if x.arrives == letter]
        g.display += g.stacks.pop(letter, [])

    def _step_end(self) -> None:
        self.g.done = True
        self.g.frames = []

    def _step_introduce(self, token: str) -> None:
        """RULES §6.5: grapes (France only) and stone enter the wheel on space 0."""
        if token == "grapes" and self.g.variant != "france":
            return
        self.g.wheel.introduce(token)

    def _step_round_goods(self, r: int) -> None:
        """RULES §7.3: every player takes the goods printed for round r (short game)."""
        for name in GAME["short_round_goods"]["goods"][r - 1]:
            good = G.NICKEL if name == "nickel" else G.BY_NAME[name]
            for o in self.g.owners:
                o.goods[good] += 1

    def _step_bonus_round(self, r: int) -> None:
        """RULES §12 / D28 / D31: every prior comes home, then the wheel turns."""
        g = self.g
        g.round = r
        g.bonus_round = True
        for o in g.owners:
            o.clergy[o.prior] = None
            o.bought_land = False
        g.wheel.rotate(solo=False)

    def _step_bonus_turn(self, seat: int) -> None:
        """RULES §12: one action: build, or the prior on any built building for free."""
        if self.profile.land_purchase_per == "turn":
            self.g.owners[seat].bought_land = False
        self.g.frames.append({"f": "turn", "seat": seat, "main": False, "bonus": True})

    def _step_end_check(self, limit: int, k: int) -> None:
        """RULES §13: with at most ``limit`` display buildings left, k more steps, then end."""
        if len(self.g.display) <= limit:
            self.g.end_after = self.g.step + k

    def wheel_bonus(self, good: int) -> None:
        """RULES §7.3 / D35: short 3-4p game: every wheel take gives every player 1 more."""
        if self.g.length == "short" and self.g.players >= 3:
            for o in self.g.owners:
                o.goods[good] += 1

    # ===== legal actions ===================================================================
    def _legal(self) -> list[int]:
        f = self.frame
        return getattr(self, "_legal_" + f["f"])(f)

    def _legal_turn(self, f) -> list[int]:
        seat = f["seat"]
        me = self.g.owners[seat]
        out = [A.make("COMMIT")]
        if f.get("bonus"):
            if not f["main"]:
                out += self._legal_bonus_uses(seat)
                out += self._legal_builds(seat)
        elif not f["main"]:
            out += self._legal_uses(seat)
            out += self._legal_contracts(seat)
            out += self._legal_fell_cut(seat, "FELL_TREES")
            out += self._legal_fell_cut(seat, "CUT_PEAT")
            out += self._legal_builds(seat)
        if not me.bought_land:
            out += self._legal_land(seat, free=False)
        out += self._legal_converts(seat)
        return out

    def _legal_uses(self, seat: int) -> list[int]:
        me = self.g.owners[seat]
        kinds = [k for k in (LAY_BROTHER, PRIOR) if me.free_clergy(k) is not None]
        out = []
        for cell, bid in me.land.buildings():
            if self.occupant(seat, cell) is None or self.profile.use_ignores_occupied:
                out += [A.make("USE", bid, flag=k) for k in kinds]
        return out

    def _legal_bonus_uses(self, seat: int) -> list[int]:
        """RULES §12: the prior on any built building of any landscape, occupied or not."""
        if self.g.owners[seat].free_clergy(PRIOR) is None:
            return []
        return [A.make("USE", bid, flag=PRIOR) for o in self.g.owners
                for _, bid in o.land.buildings()]

    def _fee_choices(self, seat: int) -> list[int]:
        goods = self.g.owners[seat].goods
        out = []
        if coin_value(goods, self.profile.auto_spend_wine_whiskey) >= self.fee():
            out.append(0)
        if goods[G.WINE] > 0:
            out.append(1)
        if goods[G.WHISKEY] > 0:
            out.append(2)
        return out

    def _legal_contracts(self, seat: int) -> list[int]:
        fees = self._fee_choices(seat)
        if not fees:
            return []
        out = []
        for oi, o in enumerate(self.g.owners):
            if oi == seat:
                continue
            kinds = [k for k in (LAY_BROTHER, PRIOR) if o.free_clergy(k) is not None]
            if not o.neutral:
                kinds = [LAY_BROTHER] if kinds else []  # the owner chooses (CHOOSE_CLERGY)
            for cell, bid in o.land.buildings():
                if self.occupant(oi, cell) is None:
                    out += [A.make("WORK_CONTRACT", bid, flag=k, extra=fee)
                            for k in kinds for fee in fees]
        return out

    def _legal_fell_cut(self, seat: int, kind: str) -> list[int]:
        me = self.g.owners[seat]
        feature, token = ("forest", "wood") if kind == "FELL_TREES" else ("moor", "peat")
        cells = me.land.features(feature)
        if not cells:
            return [A.make(kind, flag=2)] if self.profile.empty_fell_cut else []
        return [A.make(kind, col=c, row=r, flag=int(j))
                for (c, r) in cells for j in self.g.wheel.choices(token)]

    def _build_cost(self, bid: str) -> Cost:
        b = BUILDINGS[bid]
        if bid == "I21" and self.profile.whiskey_distillery_free:
            return Cost()
        return Cost(goods=dict(b.cost), coins=b.cost_coins)

    def _build_cells(self, seat: int, bid: str) -> list[tuple[int, int]]:
        b = BUILDINGS[bid]
        land = self.g.owners[seat].land
        out = []
        for cell, (terrain, content) in land.cells.items():
            if content is None and terrain in b.terrain:
                if not b.cloister or land.touches_cloister(cell):
                    out.append(cell)
        return sorted(out, key=lambda x: (x[1], x[0]))

    def _legal_builds(self, seat: int) -> list[int]:
        goods = self.g.owners[seat].goods
        out = []
        for bid in self.g.display:
            if affordable(goods, self._build_cost(bid), self.profile.auto_spend_wine_whiskey):
                out += [A.make("BUILD", bid, c, r) for c, r in self._build_cells(seat, bid)]
        return out

    def _legal_land(self, seat: int, free: bool, district: bool = True, plot: bool = True
                    ) -> list[int]:
        me = self.g.owners[seat]
        money = coin_value(me.goods, self.profile.auto_spend_wine_whiskey)
        out = []
        if district and self.g.district_prices and (free or money >= self.g.district_prices[0]):
            out += [A.make("BUY_DISTRICT", row=r, flag=s)
                    for r in me.land.district_rows(self.profile.district_via_mountain_plot)
                    for s in (0, 1)]
        if plot and self.g.plot_prices and (free or money >= self.g.plot_prices[0]):
            for s, side in enumerate(("COAST", "MOUNTAIN")):
                out += [A.make("BUY_PLOT", row=r, flag=s) for r in me.land.plot_rows(side)]
        return out

    def _legal_converts(self, seat: int) -> list[int]:
        goods = self.g.owners[seat].goods
        return [A.make("CONVERT", flag=i) for i, (_, give, _) in enumerate(CONVERSIONS)
                if all(goods[g] >= n for g, n in give.items())]

    def _legal_option(self, f) -> list[int]:
        return [A.make("OPTION", flag=i) for i in range(len(self._options(f)))]

    def _legal_pay(self, f) -> list[int]:
        goods = self.g.owners[f["user"]].goods
        return [A.make("PAY", flag=gd) for gd in pick_candidates(goods, f["need"], f["last"])]

    def _legal_free_use(self, f) -> list[int]:
        return [A.make("SKIP")] + [A.make("FREE_USE", t[0]) for t in f["targets"]]

    def _legal_prior_bonus(self, f) -> list[int]:
        out = [A.make("SKIP")]
        me = self.g.owners[f["user"]]
        if me.clergy[me.prior] is None:
            if self.profile.prior_bonus_any_building:
                out += [A.make("USE_PRIOR", bid) for cell, bid in me.land.buildings()
                        if self.occupant(f["user"], cell) is None
                        or self.profile.use_ignores_occupied]
            else:
                out.append(A.make("USE_PRIOR", f["b"]))
        return out

    def _legal_grant_build(self, f) -> list[int]:
        return [A.make("SKIP")] + self._legal_builds(f["user"])

    def _legal_grant_settle(self, f) -> list[int]:
        return [A.make("SKIP")] + self._legal_settlements(f["user"])

    def _legal_settlements(self, seat: int) -> list[int]:
        me = self.g.owners[seat]
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

    def _legal_grant_fell_cut(self, f) -> list[int]:
        out = [A.make("SKIP")]
        if f["fell"]:
            out += [a for a in self._legal_fell_cut(f["user"], "FELL_TREES")]
        if f["cut"]:
            out += [a for a in self._legal_fell_cut(f["user"], "CUT_PEAT")]
        return out

    def _legal_grant_land(self, f) -> list[int]:
        return [A.make("SKIP")] + self._legal_land(f["user"], True, f["district"], f["plot"])

    def _legal_pick_cells(self, f) -> list[int]:
        me = self.g.owners[f["user"]]
        last = tuple(f["picked"][-1]) if f["picked"] else None
        cells = [c for c in me.land.features(f["kind"])
                 if last is None or (c[1], c[0]) > (last[1], last[0])]
        need = f["count"] - len(f["picked"])
        # keep only cells after which enough remain to finish
        return [A.make("PICK_CELL", col=c, row=r) for i, (c, r) in enumerate(cells)
                if len(cells) - i >= need]

    def _legal_neutral_build(self, f) -> list[int]:
        n = self.g.owners[self.neutral_index]
        out = []
        for bid in self.g.display:
            for cell in self._neutral_cells(n.land, bid):
                out.append(A.make("NEUTRAL_BUILD", bid, cell[0], cell[1]))
        return out

    def _neutral_cells(self, land: Landscape, bid: str, strict: bool = True,
                       fallback: bool = True) -> list[tuple[int, int]]:
        """SOLO §4.2 step 3 / D9: empty (cloister: touching a cloister) or same-kind cover.

        A cover that must touch a cloister (``neutral_cover_needs_adjacency``) can leave a
        cloister building nowhere to go (kennerspiel is stuck there); the forced build then
        falls back to the cover without the adjacency check."""
        b = BUILDINGS[bid]
        need = strict and self.profile.neutral_cover_needs_adjacency
        out = []
        for row in (0, 1):
            for col in range(5):
                content = land.content((col, row))
                if content is None:
                    if not b.cloister or land.touches_cloister((col, row)):
                        out.append((col, row))
                elif content in BUILDINGS and BUILDINGS[content].cloister == b.cloister:
                    if not b.cloister or not need or land.touches_cloister((col, row)):
                        out.append((col, row))
        if not out and need and fallback:
            return self._neutral_cells(land, bid, strict=False)
        return out

    def _neutral_contract_targets(self) -> list[str]:
        ni = self.neutral_index
        n = self.g.owners[ni]
        if self.profile.neutral_contract_targets == "any":
            cand = [bid for _, bid in n.land.buildings()]
        else:
            cand = [bid for bid in self.g.neutral_built if n.land.find(bid) is not None]
        return [bid for bid in cand if self.occupant(ni, n.land.find(bid)) is None]

    def _legal_neutral_contract(self, f) -> list[int]:
        fees = self._fee_choices(f["seat"])
        return [A.make("SKIP")] + [A.make("WORK_CONTRACT", bid, flag=PRIOR, extra=fee)
                                   for bid in self._neutral_contract_targets() for fee in fees]

    def _legal_settle(self, f) -> list[int]:
        seat = f["seat"]
        out = [A.make("COMMIT")]
        if not f["bought"] and (not f["settled"] or self.profile.land_after_settle):
            out += self._legal_land(seat, free=False)
        if not f["settled"]:
            out += self._legal_settlements(seat)
        out += self._legal_converts(seat)
        return out

    # ===== applying actions ================================================================
    def _apply(self, a: Action) -> None:
        f = self.frame
        if a.kind == "CONVERT":
            if f["f"] not in ("turn", "settle"):
                raise RuleError("conversions are extra actions of your turn or settlement turn "
                                "(RULES §8.2), not part of another decision")
            return self._do_convert(f["seat"], a.flag)
        handler = getattr(self, f"_on_{f['f']}")
        handler(f, a)

    def _expect(self, a: Action, allowed: tuple[str, ...], what: str) -> None:
        if a.kind not in allowed:
            raise RuleError(f"{a.kind} is not possible now: {what}")

    # ----- turn ---------------------------------------------------------------------------
    def _on_turn(self, f, a: Action) -> None:
        seat = f["seat"]
        if a.kind == "COMMIT":
            self.g.frames.pop()
            return
        if a.kind in ("BUY_DISTRICT", "BUY_PLOT"):
            if self.g.owners[seat].bought_land:
                raise RuleError("only one landscape may be bought per round (RULES §5.8)")
            self._buy_land(seat, a, free=False)
            self.g.owners[seat].bought_land = True
            return
        if f.get("bonus"):
            self._expect(a, ("USE", "BUILD"), "a bonus-round turn: build, or place your prior "
                         "on any building (USE), buy a landscape, convert or COMMIT (RULES §12)")
        self._expect(a, ("USE", "WORK_CONTRACT", "FELL_TREES", "CUT_PEAT", "BUILD"),
                     "your turn takes a main action, a landscape purchase, a conversion or "
                     "COMMIT")
        if f["main"]:
            raise RuleError("the turn's main action is already used (RULES §8)")
        if f.get("bonus") and a.kind == "USE":
            self._bonus_use(seat, a)
        else:
            getattr(self, "_main_" + a.kind.lower())(seat, a)
        f["main"] = True

    def _main_use(self, seat: int, a: Action) -> None:
        """RULES §8.1.1: place a clergyman on an own unoccupied building and use it."""
        me = self.g.owners[seat]
        cell = me.land.find(a.building)
        if cell is None:
            raise RuleError(f"cannot use {a.building}: it is not on your landscape")
        if self.occupant(seat, cell) is not None and not self.profile.use_ignores_occupied:
            raise RuleError(f"cannot use {a.building}: a clergyman already stands on it "
                            "(RULES §8.1)")
        ci = me.free_clergy(a.flag)
        if ci is None:
            who = "prior" if a.flag == PRIOR else "lay brother"
            raise RuleError(f"cannot use {a.building}: no {who} is at home (RULES §10)")
        me.clergy[ci] = [seat, cell[0], cell[1]]
        self._push_option(seat, a.building, (seat, cell[0], cell[1]), "clergy", [])

    def _bonus_use(self, seat: int, a: Action) -> None:
        """RULES §12: the prior goes to any built building, occupied or not, without a fee."""
        me = self.g.owners[seat]
        where = self.locate(a.building)
        if where is None:
            raise RuleError(f"cannot use {a.building}: it is not built")
        if a.flag != PRIOR or me.free_clergy(PRIOR) is None:
            raise RuleError("in the bonus round only your prior is placed (RULES §12)")
        me.clergy[me.prior] = [where.owner, where.col, where.row]
        self._push_option(seat, a.building, (where.owner, where.col, where.row), "clergy", [])

    def _main_work_contract(self, seat: int, a: Action) -> None:
        """RULES §9: hire an unoccupied building of another landscape."""
        where = self.locate(a.building)
        if where is None or where.owner == seat:
            raise RuleError(f"cannot hire {a.building}: it is not built on another landscape")
        self._contract(seat, where, a)

    def _contract(self, seat: int, where: _Where, a: Action) -> None:
        """RULES §9: pay first, the owner places one of its clergymen, then the hirer uses it.

        A player owner with both kinds free chooses which (a ``choose_clergy`` frame); with one
        kind free that one goes. The solo neutral's clergyman is chosen by the hirer (SOLO §3).
        """
        owner = self.g.owners[where.owner]
        if self.occupant(where.owner, (where.col, where.row)) is not None:
            raise RuleError(f"cannot hire {a.building}: it is occupied (RULES §9)")
        if owner.neutral:
            ci = owner.free_clergy(a.flag)
            if ci is None:
                raise RuleError(f"cannot hire {a.building}: its owner has no free "
                                f"{'prior' if a.flag == PRIOR else 'lay brother'} (RULES §9)")
        elif owner.all_placed():
            raise RuleError(f"cannot hire {a.building}: its owner has placed all its clergymen "
                            "(RULES §9)")
        if self._explicit is not None:
            self._pay_fee_explicit(seat, where.owner, self._explicit["payment"])
        else:
            self._pay_fee(seat, a.extra, where.owner)
        loc = (where.owner, where.col, where.row)
        self._push_option(seat, a.building, loc, "contract", [])
        if owner.neutral:
            owner.clergy[ci] = list(loc)
            return
        kinds = [k for k in (LAY_BROTHER, PRIOR) if owner.free_clergy(k) is not None]
        if len(kinds) == 2:
            self.g.frames.append({"f": "choose_clergy", "chooser": where.owner, "user": seat,
                                  "owner": where.owner, "loc": list(loc)})
        else:
            owner.clergy[owner.free_clergy(kinds[0])] = list(loc)

    def _legal_choose_clergy(self, f) -> list[int]:
        return [A.make("CHOOSE_CLERGY", flag=LAY_BROTHER), A.make("CHOOSE_CLERGY", flag=PRIOR)]

    def _on_choose_clergy(self, f, a: Action) -> None:
        self._expect(a, ("CHOOSE_CLERGY",), "the owner of the hired building chooses which "
                     "clergyman goes there (CHOOSE_CLERGY, RULES §9)")
        owner = self.g.owners[f["owner"]]
        ci = owner.free_clergy(a.flag)
        if ci is None:
            raise RuleError("that clergyman is not at home")
        self.g.frames.pop()
        owner.clergy[ci] = list(f["loc"])

    def _pay_fee(self, seat: int, fee: int, owner: int | None = None) -> None:
        goods = self.g.owners[seat].goods
        if fee == 0:
            if coin_value(goods, self.profile.auto_spend_wine_whiskey) < self.fee():
                raise RuleError(f"the work-contract fee is {self.fee()} coins and you have "
                                "less (RULES §9)")
            pay_coins(goods, self.fee(), self.profile.auto_spend_wine_whiskey)
            if owner is not None and not self.g.owners[owner].neutral:
                self.g.owners[owner].goods[G.COIN] += self.fee()  # RULES §9: to the owner
        elif fee in (1, 2):
            g = G.WINE if fee == 1 else G.WHISKEY
            if goods[g] < 1:
                raise RuleError(f"no {G.NAMES[g]} to give as a present (RULES §9)")
            goods[g] -= 1
        else:
            raise RuleError(f"unknown fee kind {fee}")

    def _main_fell_trees(self, seat: int, a: Action) -> None:
        self._fell_cut(seat, a, "forest", "wood", G.WOOD)

    def _main_cut_peat(self, seat: int, a: Action) -> None:
        self._fell_cut(seat, a, "moor", "peat", G.PEAT)

    def _fell_cut(self, seat: int, a: Action, feature: str, token: str, good: int) -> None:
        """RULES §8.1.2: remove an own forest/moor card, take wood/peat from the wheel."""
        me = self.g.owners[seat]
        if a.flag == 2:
            if me.land.features(feature) or not self.profile.empty_fell_cut:
                raise RuleError(f"the empty {a.kind} is only allowed with no {feature} left "
                                "(D23)")
            return
        if me.land.content((a.col, a.row)) != feature:
            raise RuleError(f"no {feature} of yours at ({a.col}, {a.row}) (RULES §8.1)")
        if a.flag not in (0, 1):
            raise RuleError(f"{a.kind} takes the own indicator (0) or the joker (1), not {a.flag}")
        if a.flag == 1 and "joker" not in self.g.wheel.tokens:
            raise RuleError("the joker is no longer on the wheel (SOLO §2)")
        if a.flag == 0 and token not in self.g.wheel.tokens and "joker" in self.g.wheel.tokens:
            raise RuleError(f"the {token} indicator is no longer on the wheel (SOLO §2): "
                            "take it with the joker")
        me.land.cells[(a.col, a.row)][1] = None
        me.goods[good] += self.g.wheel.take(token, bool(a.flag))
        self.wheel_bonus(good)

    def _main_build(self, seat: int, a: Action) -> None:
        self._build(seat, a)

    def _build(self, seat: int, a: Action) -> None:
        """RULES §8.1.3: pay, place on a legal empty space; the prior may use it at once."""
        bid = a.building
        if bid not in self.g.display:
            raise RuleError(f"cannot build {bid}: it is not in the display")
        b = BUILDINGS[bid]
        me = self.g.owners[seat]
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
        cost = self._build_cost(bid)
        if not affordable(me.goods, cost, self.profile.auto_spend_wine_whiskey):
            raise RuleError(f"cannot build {b}: it costs {cost.describe()} "
                            f"and you hold {G.goods_string(me.goods) or 'nothing'}")
        pay_goods(me.goods, cost.goods)
        if cost.coins:
            pay_coins(me.goods, cost.coins, self.profile.auto_spend_wine_whiskey)
        self.g.display.remove(bid)
        me.land.cells[cell][1] = bid
        if bid in ("F21", "I21"):
            self.g.fee_raised = True
        if me.clergy[me.prior] is None:
            self.g.frames.append({"f": "prior_bonus", "user": seat, "b": bid})

    def _buy_land(self, seat: int, a: Action, free: bool) -> None:
        """RULES §5.8: buy the top district/plot at its price and place it at once."""
        me = self.g.owners[seat]
        district = a.kind == "BUY_DISTRICT"
        prices = self.g.district_prices if district else self.g.plot_prices
        if not prices:
            raise RuleError(f"no {'district' if district else 'plot'} is left (RULES §5.8)")
        price = prices[0]
        if not free:
            if coin_value(me.goods, self.profile.auto_spend_wine_whiskey) < price:
                raise RuleError(f"the next {'district' if district else 'plot'} costs {price} "
                                "coins and you have less (RULES §5.8)")
        try:
            if district:
                me.land.add_district(a.row, ("PLAINS", "HILLS")[a.flag],
                                     self.profile.district_via_mountain_plot)
            else:
                me.land.add_plot(a.row, ("COAST", "MOUNTAIN")[a.flag])
        except (LandscapeError, IndexError) as e:
            raise RuleError(str(e)) from None
        if not free:
            pay_coins(me.goods, price, self.profile.auto_spend_wine_whiskey)
        if not free or self.profile.bulwark_consumes_stacks:
            prices.pop(0)

    def _do_convert(self, seat: int, i: int) -> None:
        if not 0 <= i < len(CONVERSIONS):
            raise RuleError(f"unknown conversion {i}")
        name, give, get = CONVERSIONS[i]
        goods = self.g.owners[seat].goods
        if any(goods[g] < n for g, n in give.items()):
            raise RuleError(f"cannot convert {name}: not enough goods (RULES §8.2)")
        for g, n in give.items():
            goods[g] -= n
        for g, n in get.items():
            goods[g] += n

    # ----- building functions -------------------------------------------------------------
    def _push_option(self, user: int, bid: str, loc, via: str, chain: list) -> None:
        self.g.frames.append({"f": "option", "user": user, "b": bid,
                              "loc": None if loc is None else list(loc), "via": via,
                              "chain": chain + [bid]})

    def use_of(self, f) -> Use:
        """The Use context of an option/pay frame (who uses which building where)."""
        return Use(self, f["user"], f["b"], None if f["loc"] is None else tuple(f["loc"]),
                   f["via"], list(f["chain"]))

    def _options(self, f) -> list[Option]:
        """Option 0 (do nothing) plus the building's affordable options."""
        u = self.use_of(f)
        goods = self.g.owners[f["user"]].goods
        opts = [Option("place only, use no function", ("decline",))]
        for opt in EFFECTS[BUILDINGS[f["b"]].effect].options(u):
            if affordable(goods, opt.cost, self.profile.auto_spend_wine_whiskey):
                opts.append(opt)
        return opts

    def _on_option(self, f, a: Action) -> None:
        self._expect(a, ("OPTION",), f"choose how to use {f['b']} (OPTION)")
        if self._explicit is not None:
            return self._on_option_explicit(f)
        opts = self._options(f)
        if not 0 <= a.flag < len(opts):
            raise RuleError(f"{f['b']} has no option {a.flag} here (it has {len(opts)})")
        opt = opts[a.flag]
        self.g.frames.pop()
        if a.flag == 0:
            return
        goods = self.g.owners[f["user"]].goods
        pay_goods(goods, opt.cost.goods)
        if opt.cost.coins:
            pay_coins(goods, opt.cost.coins, self.profile.auto_spend_wine_whiskey)
        then = {"do": "resolve", "user": f["user"], "b": f["b"], "loc": f["loc"],
                "via": f["via"], "chain": f["chain"], "data": list(opt.data)}
        if opt.cost.picked:
            self.g.frames.append({"f": "pay", "user": f["user"], "need": opt.cost.need(),
                                  "last": -1, "paid": [], "then": then})
        else:
            self._continue(then)

    def _on_option_explicit(self, f) -> None:
        """apply_explicit on an option frame: the option by its data, the named payment."""
        data = self._explicit["data"]
        payment = self._explicit["payment"]
        self.g.frames.pop()
        if data is None:
            self._take_explicit(f["user"], payment, None)
            return
        u = self.use_of(f)
        want = _jsonable(data)
        eff = EFFECTS[BUILDINGS[f["b"]].effect]
        for opt in eff.options(u) + eff.quirks(u):  # quirks: import-only kennerspiel options
            if _jsonable(opt.data) == want:
                break
        else:
            raise RuleError(f"{f['b']} {BUILDINGS[f['b']].name} has no option {data!r} here")
        self._take_explicit(f["user"], payment, opt.cost)
        self._continue({"do": "resolve", "user": f["user"], "b": f["b"], "loc": f["loc"],
                        "via": f["via"], "chain": f["chain"], "data": list(opt.data)})

    def _continue(self, then: dict) -> None:
        if then["do"] == "resolve":
            u = self.use_of(then)
            EFFECTS[BUILDINGS[then["b"]].effect].resolve(u, tuple(then["data"]))
        elif then["do"] == "settle":
            self._place_settlement(then["user"], then["s"], tuple(then["cell"]))
        else:
            raise AssertionError(then)

    def _on_pay(self, f, a: Action) -> None:
        self._expect(a, ("PAY",), "a payment is being made: give a tile (PAY)")
        goods = self.g.owners[f["user"]].goods
        if a.flag not in pick_candidates(goods, f["need"], f["last"]):
            raise RuleError(f"cannot give {G.NAMES[a.flag] if a.flag < G.N_GOODS else a.flag} "
                            f"now: it is not held or pays nothing towards what is still owed "
                            f"({f['need']}); tiles go in goods order")
        goods[a.flag] -= 1
        f["need"] = after_pick(f["need"], a.flag)
        f["last"] = a.flag
        f["paid"].append(a.flag)
        if satisfied(f["need"]):
            self.g.frames.pop()
            self._continue(f["then"])

    def _on_free_use(self, f, a: Action) -> None:
        self._expect(a, ("FREE_USE", "SKIP"), "choose a building to use for free, or SKIP")
        if a.kind == "SKIP":
            self.g.frames.pop()
            return
        for t in f["targets"]:
            if t[0] == a.building:
                self.g.frames.pop()
                self._push_option(f["user"], t[0], t[1], "free", f["chain"])
                return
        raise RuleError(f"{a.building} cannot be used for free here: the choice is "
                        f"{', '.join(t[0] for t in f['targets'])}")

    def _on_prior_bonus(self, f, a: Action) -> None:
        self._expect(a, ("USE_PRIOR", "SKIP"),
                     f"you may place your prior on {f['b']} at once (USE_PRIOR) or SKIP")
        self.g.frames.pop()
        if a.kind == "SKIP":
            return
        if a.building != f["b"] and not self.profile.prior_bonus_any_building:
            raise RuleError(f"the prior's bonus use is for {f['b']}, the building just built "
                            "(RULES §8.1.3)")
        me = self.g.owners[f["user"]]
        cell = me.land.find(a.building)
        if me.clergy[me.prior] is not None or cell is None or (
                self.occupant(f["user"], cell) is not None
                and not self.profile.use_ignores_occupied):
            raise RuleError(f"the prior cannot go to {a.building} now")
        me.clergy[me.prior] = [f["user"], cell[0], cell[1]]
        self._push_option(f["user"], a.building, (f["user"], cell[0], cell[1]), "clergy", [])

    def _on_grant_build(self, f, a: Action) -> None:
        self._expect(a, ("BUILD", "SKIP"), "you may build one building now (BUILD) or SKIP")
        self.g.frames.pop()
        if a.kind == "BUILD":
            self._build(f["user"], a)

    def _on_grant_settle(self, f, a: Action) -> None:
        self._expect(a, ("SETTLE", "SKIP"), "you may build one settlement now (SETTLE) or SKIP")
        self.g.frames.pop()
        if a.kind == "SETTLE":
            self._settle(f["user"], a)

    def _on_grant_fell_cut(self, f, a: Action) -> None:
        self._expect(a, ("FELL_TREES", "CUT_PEAT", "SKIP"),
                     "you may fell trees and/or cut peat now, or SKIP")
        if a.kind == "SKIP":
            self.g.frames.pop()
            return
        key = "fell" if a.kind == "FELL_TREES" else "cut"
        if not f[key]:
            raise RuleError(f"{a.kind} was already taken from this grant")
        if a.kind == "FELL_TREES":
            self._main_fell_trees(f["user"], a)
        else:
            self._main_cut_peat(f["user"], a)
        f[key] = False
        if not f["fell"] and not f["cut"]:
            self.g.frames.pop()

    def _on_grant_land(self, f, a: Action) -> None:
        self._expect(a, ("BUY_DISTRICT", "BUY_PLOT", "SKIP"),
                     "you may place a free district and/or plot now, or SKIP")
        if a.kind == "SKIP":
            self.g.frames.pop()
            return
        key = "district" if a.kind == "BUY_DISTRICT" else "plot"
        if not f[key]:
            raise RuleError(f"the free {key} was already placed")
        self._buy_land(f["user"], a, free=True)
        f[key] = False
        if not f["district"] and not f["plot"]:
            self.g.frames.pop()

    def _on_pick_cells(self, f, a: Action) -> None:
        self._expect(a, ("PICK_CELL",), f"choose a {f['kind']} space (PICK_CELL)")
        if A.make("PICK_CELL", col=a.col, row=a.row) not in self._legal_pick_cells(f):
            raise RuleError(f"({a.col}, {a.row}) is not one of your {f['kind']} spaces that "
                            "can be chosen now")
        f["picked"].append([a.col, a.row])
        if len(f["picked"]) == f["count"]:
            self.g.frames.pop()
            then = dict(f["then"])
            then["data"] = list(then["data"]) + [f["picked"]]
            self._continue(then)

    # ----- settlement ---------------------------------------------------------------------
    def _on_settle(self, f, a: Action) -> None:
        seat = f["seat"]
        if a.kind == "COMMIT":
            self.g.frames.pop()
            return
        if a.kind in ("BUY_DISTRICT", "BUY_PLOT"):
            if f["bought"] or (f["settled"] and not self.profile.land_after_settle):
                raise RuleError("in a settlement phase you may buy one landscape, before your "
                                "settlement (RULES §11.2)")
            self._buy_land(seat, a, free=False)
            f["bought"] = True
            return
        self._expect(a, ("SETTLE",), "a settlement turn: buy a landscape, SETTLE, convert or "
                                      "COMMIT")
        if f["settled"]:
            raise RuleError("only one settlement per settlement phase (RULES §11.2)")
        f["settled"] = True
        self._settle(seat, a, any_terrain=self._solo_settle_skips_terrain())

    def _solo_settle_skips_terrain(self) -> bool:
        """Quirk 13 (NOTATION §6.12, profile ``solo_settle_skips_terrain``): an imported
        ``SETTLE`` of a solo settlement turn skips the terrain check while kennerspiel's
        neutral building phase is still active, i.e. no ``USE`` was made in that turn. The
        only ``USE`` a solo settlement turn has is the neutral-phase work contract, so: no
        ``WORK_CONTRACT`` in the history since the last ``COMMIT`` (the end of the previous
        turn). Never for the engine's own (non-explicit) moves."""
        if not (self.solo and self.profile.solo_settle_skips_terrain
                and self._explicit is not None):
            return False
        for item in reversed(self.g.history):
            aid = item.get("action", item.get("extra")) if isinstance(item, dict) else item
            kind = A.decode(aid).kind
            if kind == "COMMIT":
                break
            if kind == "WORK_CONTRACT":
                return False
        return True

    def _settle(self, seat: int, a: Action, any_terrain: bool = False) -> None:
        """RULES §11.3: pay food and energy, place on an empty space of an allowed terrain
        (``any_terrain``: any empty space, quirk 13)."""
        sid = f"S{a.flag}"
        me = self.g.owners[seat]
        if sid not in me.settlements:
            raise RuleError(f"you have no settlement {sid} to build")
        s = SETTLEMENTS[sid]
        cell = (a.col, a.row)
        if not me.land.is_empty(cell) or (me.land.terrain(cell) not in s.terrain
                                          and not any_terrain):
            raise RuleError(f"cannot settle {s} at {cell}: it needs an empty "
                            f"{'/'.join(sorted(s.terrain))} space (RULES §11.3)")
        cost = Cost(food=s.food, energy2=2 * s.energy)
        if self._explicit is not None:
            self._take_explicit(seat, self._explicit["payment"], cost)
            me.settlements.remove(sid)
            self._place_settlement(seat, sid, cell)
            return
        if not affordable(me.goods, cost, False):
            raise RuleError(f"cannot settle {s}: it costs {cost.describe()} (RULES §11.3)")
        me.settlements.remove(sid)
        me.land.cells[cell][1] = sid  # reserve the space while paying
        then = {"do": "settle", "user": seat, "s": sid, "cell": list(cell)}
        if cost.picked:
            self.g.frames.append({"f": "pay", "user": seat, "need": cost.need(), "last": -1,
                                  "paid": [], "then": then})
        else:
            self._continue(then)

    def _place_settlement(self, seat: int, sid: str, cell) -> None:
        self.g.owners[seat].land.cells[cell][1] = sid

    # ----- solo neutral -------------------------------------------------------------------
    def _on_neutral_build(self, f, a: Action) -> None:
        self._expect(a, ("NEUTRAL_BUILD",), "the neutral player must build every display "
                                             "building first (SOLO §4.2)")
        n = self.g.owners[self.neutral_index]
        if a.building not in self.g.display:
            raise RuleError(f"{a.building} is not in the display")
        if (a.col, a.row) not in self._neutral_cells(n.land, a.building):
            raise RuleError(f"the neutral cannot build {BUILDINGS[a.building]} at "
                            f"({a.col}, {a.row}): only its heartland, empty (cloister: touching "
                            "a cloister) or covering a building of the same kind (SOLO §4.2)")
        self.g.display.remove(a.building)
        n.land.cells[(a.col, a.row)][1] = a.building
        self.g.neutral_built.append(a.building)
        if a.building in ("F21", "I21"):
            self.g.fee_raised = True
        if not self.g.display:
            self.g.frames.pop()

    def _on_neutral_contract(self, f, a: Action) -> None:
        self._expect(a, ("WORK_CONTRACT", "SKIP"),
                     "you may hire a building the neutral just built with its prior, or SKIP")
        self.g.frames.pop()
        if a.kind == "SKIP":
            return
        if a.building not in self._neutral_contract_targets() or a.flag != PRIOR:
            raise RuleError(f"the neutral prior may go only to a building it just built, "
                            f"visible and unoccupied (SOLO §4.2 step 4): not {a.building}")
        where = self.locate(a.building)
        self._contract(f["seat"], where, a)

    # ===== descriptions ====================================================================
    def _describe(self, a: Action) -> str:
        k = a.kind
        if k == "COMMIT":
            return "COMMIT (end turn)"
        if k == "SKIP":
            return "SKIP"
        if k == "USE":
            who = "prior" if a.flag == PRIOR else "lay brother"
            return f"USE {_bname(a.building)} with {who}"
        if k == "WORK_CONTRACT":
            who = "prior" if a.flag == PRIOR else "lay brother"
            fee = f"{self.fee()} coins" if a.extra == 0 else FEES[a.extra]
            return f"WORK_CONTRACT {_bname(a.building)} ({who}, paying {fee})"
        if k in ("FELL_TREES", "CUT_PEAT"):
            if a.flag == 2:
                return f"{k} (nothing left)"
            return f"{k} at ({a.col}, {a.row})" + (" with the joker" if a.flag else "")
        if k in ("BUILD", "NEUTRAL_BUILD"):
            return f"{k} {_bname(a.building)} at ({a.col}, {a.row})"
        if k == "BUY_DISTRICT":
            return f"BUY_DISTRICT row {a.row} {('PLAINS', 'HILLS')[a.flag % 2]}"
        if k == "BUY_PLOT":
            return f"BUY_PLOT rows {a.row}..{a.row + 1} {('COAST', 'MOUNTAIN')[a.flag % 2]}"
        if k == "CONVERT":
            return f"CONVERT {CONVERSIONS[a.flag][0]}" if a.flag < len(CONVERSIONS) else k
        if k == "OPTION":
            f = self.frame
            if f and f["f"] == "option":
                opts = self._options(f)
                if a.flag < len(opts):
                    return f"{f['b']}: {opts[a.flag].describe()}"
            return f"OPTION {a.flag}"
        if k == "PAY":
            return f"PAY 1 {G.NAMES[a.flag]}" if a.flag < G.N_GOODS else k
        if k == "FREE_USE":
            return f"FREE_USE {_bname(a.building)}"
        if k == "USE_PRIOR":
            return f"USE_PRIOR on {_bname(a.building)}"
        if k == "SETTLE":
            s = SETTLEMENTS.get(f"S{a.flag}")
            return f"SETTLE {s} at ({a.col}, {a.row})"
        if k == "PICK_CELL":
            return f"PICK_CELL ({a.col}, {a.row})"
        if k == "CHOOSE_CLERGY":
            return "CHOOSE_CLERGY " + ("prior" if a.flag == PRIOR else "lay brother")
        return k


def _jsonable(x):
    """Tuples to lists, recursively (option data compared as JSON)."""
    if isinstance(x, (list, tuple)):
        return [_jsonable(i) for i in x]
    return x


def _bname(bid: str | None) -> str:
    b = BUILDINGS.get(bid or "")
    return str(b) if b else str(bid)


def state_json(state: State) -> str:
    """Compact JSON text of a state (for files and debugging)."""
    return json.dumps(state.to_dict(), separators=(",", ":"))
