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

Where the rules live
--------------------
This module holds the State API and the game's setup. The frames are typed
(solver/rules/frames.py); each kind of decision is one module of solver/rules/decisions/
(``legal`` and ``apply``, registered by frame type); the shared moves are in
solver/rules/moves.py, the automatic flow steps in solver/rules/flow.py, the texts in
solver/rules/describe.py, and who pays a price (the engine itself, or an importer naming its
tiles) in solver/rules/payers.py.
"""

from __future__ import annotations

import copy
import json
import pickle
from contextlib import contextmanager

from . import actions as A
from . import decisions, flow, moves
from . import frames as F
from . import goods as G
from .cards import BUILDINGS, GAME, SETTLEMENTS, building_set
from .describe import describe, render
from .effects import Option, Use
from .errors import RuleError
from .explicit import PaymentError
from .landscape import Landscape
from .moves import Where, options, use_of, wheel_bonus
from .payers import NamedPayment, jsonable
from .profile import RuleProfile, get_profile
from .schedule import script
from .scoring import Score, score_owner
from .state import GameState, Owner
from .wheel import Wheel

__all__ = ["COLOURS", "TERMINAL", "RuleError", "State", "new_initial_state", "state_json"]

COLOURS = ("R", "G", "B", "W")
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


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
    steps = script(players, length, prof)
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
    wheel_side = mode["wheel"]
    g = GameState(variant=variant, players=players, length=length, profile=prof.name,
                  owners=owners, wheel=Wheel.new(wheel_side), display=display, stacks=stacks,
                  district_prices=district_prices, plot_prices=plot_prices)
    st = State(g, prof, steps)
    flow.advance(st)
    return st


def _cards(variant: str, players: int, length: str, prof: RuleProfile) -> list[str]:
    """RULES §4.3 building set of a mode, with the profile's options (D13, D18)."""
    if players == 2 and length == "long" and prof.two_long_full_set:
        return [b for b in building_set(variant, 4, "long") if b not in ("F10", "F29", "F31")]
    return building_set(variant, players, length,
                        short_uses_long_lists=prof.short_uses_long_lists)


def _copy(g: GameState) -> GameState:
    """A deep copy of the game data (through pickle: the same copy as ``copy.deepcopy``, shared
    references kept, about five times faster on these plain dataclasses and lists)."""
    return pickle.loads(pickle.dumps(g, pickle.HIGHEST_PROTOCOL))


class State:
    """A game position with the OpenSpiel-style API. See the module docstring."""

    def __init__(self, g: GameState, profile: RuleProfile, flow: list[tuple] | None = None):
        self.g = g
        self.profile = profile
        self.flow = flow if flow is not None else script(g.players, g.length, profile)

    # ===== OpenSpiel API ===================================================================
    def current_player(self) -> int:
        """Seat to act (TERMINAL = -4 when the game is over)."""
        if self.g.done:
            return TERMINAL
        return self.g.frames[-1].actor

    def legal_actions(self) -> list[int]:
        """Sorted action ids legal now (empty when terminal)."""
        if self.g.done:
            return []
        return sorted(set(decisions.legal(self, self.frame)))

    def apply_action(self, action: int) -> None:
        """Apply one action; raise RuleError (state unchanged) if it is illegal."""
        a = self._decode(action)
        with self._all_or_nothing():
            if action not in set(decisions.legal(self, self.frame)):
                # find the rule it breaks (the handler raises with the reason)
                decisions.apply(self, self.frame, a)
                raise RuleError(f"{describe(self, a)} is not a legal action now")
            decisions.apply(self, self.frame, a)
            self.g.history.append(action)
            flow.advance(self)

    def _decode(self, action: int) -> A.Action:
        """``action`` decoded; RuleError if the game is over or it is no action id."""
        if self.g.done:
            raise RuleError("the game is over: no action is legal")
        try:
            return A.decode(action)
        except ValueError as e:
            raise RuleError(str(e)) from None

    @contextmanager
    def _all_or_nothing(self):
        """A move that changes nothing if it fails: on any error the game data and history
        are restored (a PaymentError is re-raised as the RuleError it is)."""
        backup = self._backup()
        try:
            yield
        except PaymentError as e:
            self._restore(backup)
            raise RuleError(str(e)) from None
        except BaseException:
            self._restore(backup)
            raise

    def _backup(self) -> tuple[GameState, int]:
        """A copy of the game data to restore if a move fails, and the history length: the
        history is shared, not copied (copying it made every move cost the game's length)."""
        hist = self.g.history
        self.g.history = []
        try:
            return _copy(self.g), len(hist)
        finally:
            self.g.history = hist

    def _restore(self, backup: tuple[GameState, int]) -> None:
        """Undo a failed move: the copied data back, the history cut to its old length."""
        g, n = backup
        hist = self.g.history
        del hist[n:]
        g.history = hist
        self.g = g

    def apply_explicit(self, action: int, payment: dict[int, int] | None = None,
                       data: tuple | None = None) -> None:
        """Lower-level entry point for importers (solver/rules/notation/): apply ``action``
        paying exactly the named tiles ``payment`` ({good id: count}), through a
        :class:`~solver.rules.payers.NamedPayment`.

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
        a = self._decode(action)
        if a.kind not in ("OPTION", "SETTLE", "WORK_CONTRACT"):
            raise RuleError(f"{a.kind} takes no explicit payment: use apply_action")
        payer = NamedPayment(payment, data)
        with self._all_or_nothing():
            decisions.apply(self, self.frame, a, payer)
            self.g.history.append({"action": action, "data": jsonable(data),
                                   "payment": {str(k): v for k, v in payer.payment.items()}})
            flow.advance(self)

    def apply_extra(self, action: int) -> None:
        """Importer entry point: an extra action (``CONVERT``, ``BUY_DISTRICT``, ``BUY_PLOT``;
        RULES §8.2, D30) taken while a follow-up decision of the same turn is pending (a
        prior's bonus use, a free use, a granted build, ...), as kennerspiel allows.

        It is applied as at the turn (or settlement-turn) level below the pending frame, with
        the same limits (one landscape purchase per round or turn), and the pending decision
        stays open. Recorded in ``history()`` as ``{"extra": action}``.
        """
        a = self._decode(action)
        if a.kind not in ("CONVERT", "BUY_DISTRICT", "BUY_PLOT"):
            raise RuleError(f"{a.kind} is not an extra action")
        base = next((f for f in reversed(self.g.frames)
                     if isinstance(f, decisions.TURN_LEVEL)), None)
        neutral_phase = False
        if base is not None:
            seat = base.seat
        elif a.kind == "CONVERT":  # e.g. beside a solo neutral build
            seat = self.current_player()
        elif self.profile.land_in_neutral_phase and self.solo and self.g.frames:
            # kennerspiel: the solo settlement phase's one purchase may come during the
            # neutral's builds and contract (no turn or settlement frame is open then); the
            # settlement turn then has it used (flow.settle)
            seat = self.current_player()
            base = F.SettleFrame(seat=seat, bought=self.g.neutral_phase_bought)
            neutral_phase = True
        else:
            seat = None
        if seat is None or seat != self.current_player():
            raise RuleError("extra actions are taken in your own turn (RULES §8.2)")
        with self._all_or_nothing():
            if a.kind == "CONVERT":
                moves.convert(self, seat, a.flag)
            else:
                decisions.apply(self, base, a)
                if neutral_phase:
                    self.g.neutral_phase_bought = True
            self.g.history.append({"extra": action})

    def action_to_string(self, action: int) -> str:
        """Readable text of an action in this state's context."""
        try:
            a = A.decode(action)
        except ValueError:
            return f"<invalid action {action}>"
        return describe(self, a)

    def is_terminal(self) -> bool:
        """True once the game is over."""
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
        """An independent copy."""
        return State(_copy(self.g), self.profile, self.flow)

    def history(self) -> list[int]:
        """The actions applied so far (importer moves as dicts, see ``apply_explicit``)."""
        return list(self.g.history)

    def to_dict(self) -> dict:
        """JSON-serialisable snapshot (a copy); ``State.from_dict`` restores it exactly."""
        return copy.deepcopy(self.g.to_dict())

    @classmethod
    def from_dict(cls, d: dict, profile: str | RuleProfile | None = None) -> State:
        """The state of a ``to_dict`` snapshot (under its own profile unless one is given)."""
        g = GameState.from_dict(d)
        return cls(g, get_profile(profile or g.profile))

    def __str__(self) -> str:
        return self.render()

    # ===== convenience =====================================================================
    @property
    def round(self) -> int:
        """The current round (0 before round 1)."""
        return self.g.round

    @property
    def frame(self) -> F.Frame | None:
        """The pending decision (the top of the decision stack), None when over."""
        return self.g.frames[-1] if self.g.frames else None

    # ----- public accessors for solver/rules/notation (notation package; keep together) ----
    def frame_options(self) -> list[Option]:
        """The pending option frame's options, indexed as the ``OPTION`` flag indexes them
        (option 0: place only)."""
        f = self.frame
        if not isinstance(f, F.OptionFrame):
            raise RuleError("no building's option is pending")
        return options(self, f)
    # ----- end of the notation accessors ---------------------------------------------------

    @property
    def solo(self) -> bool:
        """True in the solo game."""
        return self.g.players == 1

    def owner(self, i: int) -> Owner:
        """Seat ``i`` (the solo neutral is seat ``players``)."""
        return self.g.owners[i]

    @property
    def neutral_index(self) -> int | None:
        """Index of the solo neutral player in ``g.owners`` (None with 2-4 players)."""
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

    def locate(self, bid: str) -> Where | None:
        """Where a built building stands (None if not built or covered)."""
        for oi, o in enumerate(self.g.owners):
            cell = o.land.find(bid)
            if cell is not None:
                return Where(oi, cell[0], cell[1])
        return None

    def use_of(self, f: F.OptionFrame | F.ResolveUse) -> Use:
        """The Use context of an option frame (who uses which building where)."""
        return use_of(self, f)

    def _options(self, f: F.OptionFrame) -> list[Option]:
        """The options of option frame ``f`` (the name older callers use: ``frame_options``)."""
        return options(self, f)

    def wheel_bonus(self, good: int) -> None:
        """RULES §7.3 / D35: short 3-4p game: every wheel take gives every player 1 more."""
        wheel_bonus(self, good)

    def render(self) -> str:
        """Readable dump of the position (for the CLI and error messages)."""
        return render(self)


def state_json(state: State) -> str:
    """Compact JSON text of a state (for files and debugging)."""
    return json.dumps(state.to_dict(), separators=(",", ":"))
