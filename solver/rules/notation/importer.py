"""The importer: kennerspiel moves applied to the reference engine (NOTATION §5-§7).

Each kennerspiel move (a token list such as ``["USE", "G02", "GnPnSh", "Wo"]``) becomes one or
more engine actions, chosen by the engine's pending decision (frames.py):

* optional follow-ups the move does not take (a prior's bonus use, a free use, a granted
  build, ...) are declined with ``SKIP``; a hired building the hirer never uses gets option 0;
* ``USE b params`` places a clergyman (``USE``), takes a prior's bonus use (``USE_PRIOR``), a
  free use (``FREE_USE``) or a hired building's use, and then resolves the building with the
  option and the exact tiles its parameters name (``State.apply_explicit``), decoded by the
  building's parameter codec (param_codecs.py);
* ``WORK_CONTRACT`` and ``SETTLE`` pay the named string explicitly; ``WITH_PRIOR`` /
  ``WITH_LAYBROTHER`` answer the owner's ``choose_clergy`` frame (or, for the player whose turn
  it is, make the next ``USE`` a prior's); ``CONVERT`` becomes engine conversions.

Anything the engine cannot map or rejects raises :class:`NotationError`, whose message is
``move N (TOKENS): REASON``; nothing is skipped silently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import permutations

from .. import actions as A
from .. import goods as G
from ..cards import BUILDINGS
from ..game import RuleError, State, new_initial_state
from ..state import LAY_BROTHER, PRIOR
from . import frames
from .errors import NotationError, RecordError
from .goods_strings import parse_goods
from .param_codecs import takes_joker
from .records import SEATS_UNRESOLVED, GameConfig, config_from_record, parse_command_list
from .registry import CODECS, OPTION_TAG, PLACE_ONLY, Ctx
from .syntax import check_move

#: the commands that answer each optional follow-up frame (others decline it with SKIP)
_GRANT_COMMANDS = {"grant_build": ("BUILD",), "grant_settle": ("SETTLE",),
                   "grant_fell_cut": ("FELL_TREES", "CUT_PEAT"),
                   "grant_land": ("BUY_DISTRICT", "BUY_PLOT"),
                   "neutral_contract": ("WORK_CONTRACT",)}


def as_tuple(x):
    """Option data read from JSON (lists) as the engine's tuples."""
    return tuple(x) if isinstance(x, list) else x


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

    @classmethod
    def on(cls, state: State) -> Replay:
        """A replay that continues from ``state`` (which it then owns and changes)."""
        g = state.g
        cols = [o.colour for o in g.owners]
        rp = cls.__new__(cls)
        rp.config = GameConfig(g.players, g.variant, g.length, cols[:g.players],
                               cols[g.players] if g.players == 1 else None)
        rp.profile, rp.state, rp.with_prior, rp.check_actors = state.profile, state, False, True
        return rp

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
            check_move(tokens)
        except ValueError as e:
            raise NotationError(index, tokens, str(e)) from None
        try:
            if self.state.is_terminal():
                raise RuleError("the game is over")
            if actor and self.check_actors and actor != "-":
                self._close_pending(tokens)
                cp = self.state.current_player()
                if cp >= 0 and self.colour_of(cp) != actor:
                    raise RuleError(f"it is {self.colour_of(cp)}'s move in the engine "
                                    f"({frames.kind(self.state)} frame, round "
                                    f"{self.state.round}), but the record applies it for "
                                    f"{actor}")
            self._apply(tokens)
        except NotationError:
            raise
        except RuleError as e:
            raise NotationError(index, tokens, str(e), malformed=False) from None
        except (ValueError, KeyError, IndexError) as e:
            raise NotationError(index, tokens, str(e)) from None

    def _close_pending(self, tokens: list[str]) -> None:
        """Decline optional frames that this move does not answer (SKIP / option 0)."""
        cmd = tokens[0]
        arg = tokens[1] if len(tokens) > 1 else None
        if cmd == "CONVERT" or (cmd in ("BUY_DISTRICT", "BUY_PLOT")
                                and frames.kind(self.state) != "grant_land"):
            return  # extra actions leave a pending follow-up open (apply_extra)
        while not self.state.is_terminal():
            p = frames.pending(self.state)
            if p.kind == "option":
                if cmd == "USE" and arg == p.building:
                    return
                self.state.apply_explicit(A.make("OPTION"), {}, None)
            elif p.kind == "prior_bonus":
                if cmd == "USE" or (cmd == "WITH_PRIOR"
                                    and self.state.profile.with_prior_after_build_noop):
                    return
                self._act("SKIP")
            elif p.kind == "free_use":
                if cmd == "USE" and arg in p.targets:
                    return
                self._act("SKIP")
            elif p.kind in _GRANT_COMMANDS:
                # a Bulwark's free plot already placed: a second BUY_PLOT is the turn's own
                # (paid) purchase, as in kennerspiel, whose bonus action is used up first
                if cmd in (p.land if p.kind == "grant_land" else _GRANT_COMMANDS[p.kind]):
                    return
                self._act("SKIP")
            else:
                return

    def _apply(self, tokens: list[str]) -> None:
        self._close_pending(tokens)
        getattr(self, "_cmd_" + tokens[0].lower())(tokens[1:])  # check_move knows the command

    # ..... commands
    def _cmd_commit(self, args) -> None:
        kind = frames.kind(self.state)
        if kind not in ("turn", "settle"):
            raise RuleError(f"cannot COMMIT: a {kind} decision is pending")
        self.with_prior = False
        self._act("COMMIT")

    def _cmd_use(self, args) -> None:
        b, params = args[0], args[1:]
        p = frames.pending(self.state)
        if p.kind == "option":
            pass
        elif p.kind == "prior_bonus":
            self._act("USE_PRIOR", building=b)
        elif p.kind == "free_use" or (p.kind == "settle" and (self.state.frame.hired
                                                               or self.state.frame.free)):
            self._act("FREE_USE", building=b)  # (settle: solo_hired_use_after_settle)
        elif p.kind == "turn":
            me = self.state.g.owners[p.seat]
            if p.bonus or self.with_prior:
                flag = PRIOR
            else:
                flag = LAY_BROTHER if me.free_clergy(LAY_BROTHER) is not None else PRIOR
            self._act("USE", building=b, flag=flag)
            self.with_prior = False
        else:
            raise RuleError(f"USE is not possible in a {p.kind} decision")
        self._resolve(b, params)

    def _resolve(self, b: str, params: list[str]) -> None:
        p = frames.pending(self.state)
        if p.kind != "option" or p.building != b:
            raise RuleError(f"no use of {b} is pending")
        if params and params[0] == PLACE_ONLY:  # the notation's extension: option 0
            pay = dict(parse_goods(params[1])) if len(params) > 1 else {}
            self.state.apply_explicit(A.make("OPTION"), pay, None)
            return
        override = None
        if params and params[-1].startswith(OPTION_TAG):  # extension: the option named
            override = json.loads(params[-1][len(OPTION_TAG):])
            params = params[:-1]
        data, pay = CODECS[BUILDINGS[b].effect].decode(Ctx(self.state, p.user, b), params)
        if override is not None:
            data = as_tuple(override)
        cells = pay.pop("cells", None) if isinstance(pay, dict) else None
        self.state.apply_explicit(A.make("OPTION"), pay, data)
        if cells:
            for c, r in sorted(cells, key=lambda x: (x[1], x[0])):
                self._act("PICK_CELL", col=c, row=r)

    def _cmd_with_prior(self, args) -> None:
        p = frames.pending(self.state)
        if p.kind == "choose_clergy":
            self._act("CHOOSE_CLERGY", flag=PRIOR)
        elif p.kind == "prior_bonus":
            return  # quirk 11: accepted and does nothing
        elif p.kind == "turn" and not p.main_spent:
            if self.state.g.owners[p.seat].free_clergy(PRIOR) is None:
                raise RuleError("WITH_PRIOR: your prior is not at home")
            self.with_prior = True
        else:
            raise RuleError(f"WITH_PRIOR is not possible in a {p.kind} decision")

    def _cmd_with_laybrother(self, args) -> None:
        if frames.kind(self.state) != "choose_clergy":
            raise RuleError("WITH_LAYBROTHER answers a work contract only")
        self._act("CHOOSE_CLERGY", flag=LAY_BROTHER)

    def _cmd_build(self, args) -> None:
        b, col, row = args[0], int(args[1]), int(args[2])
        kind = "NEUTRAL_BUILD" if frames.kind(self.state) == "neutral_build" else "BUILD"
        self._act(kind, building=b, col=col, row=row)

    def _fell_cut(self, kind, token, args) -> None:
        if not args:  # the notation's extension: nothing left to fell or cut (D23)
            self._act(kind, flag=2)
            return
        joker = takes_joker(self.state, token, "Jo" in args[2:])
        self._act(kind, col=int(args[0]), row=int(args[1]), flag=int(joker))

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
            if frames.kind(st) == "neutral_contract" or "WITH_PRIOR" in args[2:]:
                flag = PRIOR
            else:
                flag = LAY_BROTHER if owner.free_clergy(LAY_BROTHER) is not None else PRIOR
        else:
            flag = LAY_BROTHER
        st.apply_explicit(A.make("WORK_CONTRACT", b, flag=flag), pay)

    def _extra(self, kind: str, **kw) -> None:
        """An extra action: at turn level, or beside a pending follow-up (apply_extra)."""
        frame = frames.kind(self.state)
        if frame in ("turn", "settle") or (frame == "grant_land" and kind != "CONVERT"):
            self._act(kind, **kw)
        else:
            self.state.apply_extra(A.make(kind, **kw))

    def _buy(self, kind, sides, args) -> None:
        self._extra(kind, row=int(args[0]), flag=sides.index(args[1]))

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
        seat = frames.pending(self.state).seat
        if sid[1] != self.colour_of(seat):
            raise RuleError(f"{sid} is not a settlement of {self.colour_of(seat)}")
        pay = dict(parse_goods(args[3] if len(args) > 3 else ""))
        self.state.apply_explicit(A.make("SETTLE", col=col, row=row, flag=int(sid[2])), pay)


def replay_record(record: dict, profile: str = "rulebook", upto: int | None = None,
                  on_commit=None) -> Replay:
    """Replay a game record's moves (NotationError on the first move that fails).

    ``on_commit(index, replay)`` is called after every COMMIT (for snapshot checks).
    """
    if record.get("start", {}).get(SEATS_UNRESOLVED):
        seats = infer_seats(record, profile)
        record = dict(record, start={k: v for k, v in record["start"].items()
                                     if k != SEATS_UNRESOLVED} | {"seat_colors": seats})
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


def infer_seats(record: dict, profile: str = "rulebook") -> list[str]:
    """The seat order (seat 0 first) of a record whose seeded START does not say it: the one
    order of the colours given under which every move replays, all orders being replayed side
    by side. NotationError (the move where the last orders failed) if none does, RecordError
    if several do."""
    cfg = config_from_record(record)
    replays = [Replay(GameConfig(cfg.players, cfg.country, cfg.length, list(seats)), profile)
               for seats in permutations(cfg.seat_colours)]
    for i, tokens in enumerate(record["moves"]):
        if tokens[0] in ("CONFIG", "START"):
            continue
        alive, first_error = [], None
        for rp in replays:
            try:
                rp.apply(i, tokens)
                alive.append(rp)
            except NotationError as e:
                first_error = first_error or e
        if not alive:
            raise first_error
        replays = alive
    if len(replays) > 1:
        orders = ", ".join(" ".join(rp.config.seat_colours) for rp in replays)
        raise RecordError(f"the seeded START leaves the seat order open and the moves fit "
                          f"{len(replays)} orders ({orders}): list the colours in seat order "
                          "without the seed")
    return replays[0].config.seat_colours


def apply_moves(state: State, moves, first_index: int = 0) -> State:
    """Apply kennerspiel play moves (token lists or command strings) to ``state``, in place,
    and return it; NotationError ``move N (TOKENS): REASON`` on the first that fails, N
    counting from ``first_index``."""
    rp = Replay.on(state)
    tokens: list[str] = []
    for i, move in enumerate(moves, first_index):
        tokens = move.split() if isinstance(move, str) else list(move)
        rp.apply(i, tokens)
    if rp.with_prior:  # the announcement lives in the Replay, not in the State returned
        raise NotationError(i, tokens, "WITH_PRIOR must be followed by the USE it announces")
    return rp.state


def solo_state(moves, variant: str, profile: str = "rulebook",
               colours: tuple[str, str] | None = None) -> State:
    """A fresh solo game after kennerspiel play moves (token lists, command strings, or one
    text with a command per line); ``colours``: (player, neutral), the engine's default if
    None. NotationError on the first move that fails, moves numbered from 0."""
    if isinstance(moves, str):
        moves = parse_command_list(moves)
    state = new_initial_state(variant, 1, "long", profile, colours=colours)
    return apply_moves(state, moves)
