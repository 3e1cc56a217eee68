"""The exporter: engine actions written as kennerspiel moves (NOTATION §5-§7).

:class:`MoveWriter` follows a game action by action and returns the kennerspiel moves each
action completes: a clergyman's ``USE`` is written when its option is chosen (its parameters
come from the option, through the building's parameter codec), a payment made tile by tile
(``PAY``) or a choice of forests (``PICK_CELL``) completes the move it belongs to, and a
prior's use after ``WITH_PRIOR`` is written as that pair. :func:`export_history` writes a whole
engine history (CONFIG and START included); :func:`export_actions` and
:func:`command_for_action` write actions from any decision point.

Where kennerspiel's form of a move would import as another choice than the one the engine
made, the exporter writes the PLACE_ONLY / OPTION= extensions (package docstring), so every
exported game imports back to the same state.
"""

from __future__ import annotations

import json
from collections import Counter

from .. import actions as A
from .. import goods as G
from ..cards import BUILDINGS
from ..game import State, new_initial_state
from ..state import PRIOR
from . import frames
from .goods_strings import goods_text
from .importer import as_tuple
from .records import GameConfig
from .registry import CODECS, OPTION_TAG, PLACE_ONLY, Ctx


class MoveWriter:
    """Applies engine actions to a state and writes the kennerspiel moves they complete."""

    def __init__(self, state: State):
        """Write from ``state`` on (which the writer then owns and changes); it may have a
        building's option pending, but not a payment or a choice of spaces under way."""
        self.state = state
        self._use: list[str] | None = None  # the USE move waiting for its option's parameters
        self._option_paid: tuple | None = None  # (data, pending option) while PAY tiles follow
        self._paid: Counter | None = None  # the tiles paid so far
        self._open: list[str] | None = None  # a move whose payment or spaces follow
        p = frames.pending(state)
        if p.kind == "option":
            self._use = ["USE", p.building]
        elif p.kind in ("pay", "pick_cells"):
            raise ValueError(f"cannot write moves from the middle of a {p.kind} decision: "
                             "start at the action that began it")

    def write(self, item) -> list[list[str]]:
        """Apply one history item (an action id, or a dict that ``apply_explicit`` or
        ``apply_extra`` recorded) and return the kennerspiel moves it completes."""
        st = self.state
        if isinstance(item, dict) and "extra" in item:
            st.apply_extra(item["extra"])
            return [_simple_move(A.decode(item["extra"]))]
        explicit = isinstance(item, dict)
        aid = item["action"] if explicit else item
        a = A.decode(aid)
        p = frames.pending(st)
        params, data, pay = None, None, None
        if p.kind == "option":
            data, pay, picked = self._option_choice(item, a)
            if not picked:  # worked out before the action changes the state
                params = option_params(st, p, data, pay)
        if explicit:
            pay = {int(k): v for k, v in item["payment"].items()}
            st.apply_explicit(aid, pay, None if item["data"] is None else as_tuple(item["data"]))
        else:
            st.apply_action(aid)
        return self._moves(p, a, params, data, pay if explicit or p.kind == "option" else None)

    def _option_choice(self, item, a) -> tuple:
        """(data, payment, paid tile by tile) of the option an option action takes."""
        if isinstance(item, dict):
            return item["data"], {int(k): v for k, v in item["payment"].items()}, False
        if not a.flag:
            return None, {}, False
        opt = frames.listed_options(self.state)[a.flag]  # as listed before the action
        pay = Counter(opt.cost.goods)
        if opt.cost.coins:
            pay[G.COIN] += opt.cost.coins
        return list(opt.data), pay, bool(opt.cost.picked)

    def _moves(self, p, a, params, data, pay) -> list[list[str]]:
        st, out = self.state, []
        after = frames.kind(st)
        if p.kind == "turn" and a.kind == "USE":
            me = st.g.owners[p.seat]
            if (a.flag == PRIOR and not p.bonus
                    and any(me.clergy[i] is None for i in range(me.prior))):
                out.append(["WITH_PRIOR"])
            self._use = ["USE", a.building]
        elif p.kind in ("turn", "neutral_contract") and a.kind == "WORK_CONTRACT":
            out.append(_contract_move(st, a, pay))
            self._use = ["USE", a.building]
        elif p.kind == "option":
            if self._use is None:
                raise ValueError(f"an option of {p.building} without its USE")
            if params is None:  # an option whose PAY tiles follow
                self._option_paid, self._paid = (data, p), Counter(pay)
                return out
            move, self._use = self._use + params, None
            out += self._hold(move, after == "pick_cells")
        elif p.kind == "pay":
            self._paid[a.flag] += 1
            if after != "pay":
                if self._option_paid is not None:
                    (data, po), self._option_paid = self._option_paid, None
                    # (the codecs of options paid tile by tile read no state)
                    out.append(self._use + option_params(st, po, data, self._paid))
                    self._use = None
                elif self._open is not None:
                    out += self._hold(self._open + [goods_text(self._paid)], False)
                self._paid = None
        elif p.kind in ("prior_bonus", "free_use") or a.kind == "FREE_USE":
            # (FREE_USE in a settle frame: the solo hired use, solo_hired_use_after_settle)
            if a.kind in ("USE_PRIOR", "FREE_USE"):
                self._use = ["USE", a.building]
        elif p.kind == "choose_clergy":
            out.append(["WITH_PRIOR" if a.flag == PRIOR else "WITH_LAYBROTHER"])
        elif p.kind == "pick_cells":
            out += self._hold(self._open + [str(a.col), str(a.row)], after == "pick_cells")
        elif a.kind not in ("SKIP", "WORK_CONTRACT"):
            move = _simple_move(a, pay)
            if a.kind == "SETTLE":
                move[1] = f"S{st.g.owners[p.seat].colour}{a.flag}"
                if pay is None and after == "pay":
                    self._paid = Counter()
            out += self._hold(move, a.kind == "SETTLE" and pay is None and after == "pay")
        return out

    def _hold(self, move: list[str], still_open: bool) -> list[list[str]]:
        """Keep ``move`` back while its payment or spaces follow; else return it."""
        self._open = move if still_open else None
        return [] if still_open else [move]


def export_history(config: GameConfig, history: list, profile: str = "rulebook"
                   ) -> list[list[str]]:
    """Kennerspiel moves (CONFIG and START included) for an engine history.

    ``history`` holds action ids and the dicts :meth:`State.apply_explicit` records. Each
    action is re-applied to a fresh state so that its context (the pending frame) is known.
    """
    c = config
    colours = c.seat_colours + ([c.neutral_colour] if c.players == 1 else [])
    out = [["CONFIG", str(c.players), c.country, c.length], ["START"] + colours]
    writer = MoveWriter(new_initial_state(c.country, c.players, c.length, profile,
                                          colours=tuple(colours)))
    for item in history:
        out += writer.write(item)
    return out


def export_actions(state: State, actions) -> list[list[str]]:
    """The kennerspiel moves of engine actions (or history items) applied from ``state``
    (not changed)."""
    writer = MoveWriter(state.clone())
    return [m for item in actions for m in writer.write(item)]


def command_for_action(state: State, action) -> list[list[str]]:
    """The kennerspiel moves that one action (or history item) completes in ``state`` (not
    changed): usually one; none for a clergyman's placement, whose ``USE`` is written with the
    building's option that follows (the option action returns the whole ``USE b params``), and
    for the steps of a payment or a choice of spaces, which :func:`export_actions` writes
    with the move they complete; ``WITH_PRIOR`` before a prior's use."""
    return MoveWriter(state.clone()).write(action)


def option_params(st: State, p: frames.Pending, data, pay) -> list[str]:
    """The USE parameters of option ``data`` (None: option 0) of the pending option ``p``
    paid with ``pay``: its kennerspiel form, or, where that would import as something else in
    ``st`` (the state with ``p`` pending), the form with the PLACE_ONLY / OPTION= extension
    (package docstring)."""
    key = BUILDINGS[p.building].effect
    params = _encode(key, data, pay)
    if CODECS[key].encode is None and data is not None:
        return params  # the Printing Office: its cells follow from PICK_CELL
    try:
        got, _ = CODECS[key].decode(Ctx(st, p.user, p.building), params)
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


def _encode(key, data, pay) -> list[str]:
    pay = dict(pay or {})
    if data is None:
        return [goods_text(pay)] if goods_text(pay) else []
    enc = CODECS[key].encode
    if enc is None:
        return []
    return enc(as_tuple(data), pay)


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
        if a.flag == 2:  # nothing left (D23): no coordinates (package docstring)
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
