"""Positions to search from: the initial solo state plus a prefix of moves.

A prefix comes from a file (a results record, a solo game record in the corpus schema, or a
plain kennerspiel move list, one command per line), cut at a round (``at_round``: the first
beam layer of that round, where a turn starts) or after a number of moves, or from an inline
opening (``"CMD; CMD; ..."``). Every prefix is checked on the reference engine (rulebook
profile); an illegal or unreadable move raises :class:`PositionError` with the message
``move N (TOKENS): REASON``.

The search itself works in the canonical action space (solver/rules/canonical.py), so a
kennerspiel move is matched to the canonical actions that reach the same state (compared as
packed states, forced ENDs taken). A move the canonical space cannot express (a payment with
hand-picked tiles, a grain-to-straw conversion, ...) is reported the same way. The position
keeps its prefix as canonical ids, so a line searched from it is a full line from the
initial state that ``ora-solve replay`` confirms.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.fast import codec
from solver.rules import canonical as C
from solver.rules.game import RuleError, State
from solver.search import records

from . import beam_adapter as BA
from . import notation_adapter as NA

MATCH_DEPTH = 4  # canonical actions one kennerspiel move may stand for (USE + option + ENDs)


class PositionError(ValueError):
    """A prefix that cannot be read or played (the message names the move and the reason)."""


@dataclass
class Position:
    """The initial state of ``variant`` plus ``prefix`` (canonical ids), checked."""

    variant: str
    prefix: list[int]
    state: State  # the reference state after the prefix, at a canonical decision
    source: str = "the initial state"
    line: list[int] = field(default_factory=list)  # the source's line as far as it was read

    def packed(self) -> np.ndarray:
        """The fast engine's packed state of this position (through the codec)."""
        return codec.pack(self.state)

    def wide(self) -> np.ndarray:
        """The fast engine's wide working state of this position."""
        return BA.engine(self.variant).wide(self.packed())

    def start(self) -> tuple[np.ndarray, list[int]]:
        """The (packed state, prefix) pair ``beam_search(start=...)`` takes."""
        return self.packed(), list(self.prefix)

    def own_turn(self) -> list[int]:
        """The turn the source's line played next from this position ([] if none)."""
        rest = self.line[len(self.prefix):]
        return BA.turn_of(self.variant, self.wide(), rest) if rest else []

    @property
    def round(self) -> int:
        return int(self.state.round)

    def after(self, actions: list[int]) -> Position:
        """The position after playing ``actions`` from this one (same source and line)."""
        prefix = self.prefix + [int(a) for a in actions]
        line = self.line if self.line[:len(prefix)] == prefix else prefix
        return Position(self.variant, prefix, _play_line(self.variant, prefix), self.source,
                        line)

    def moves(self) -> list[list[str]]:
        """The prefix in kennerspiel notation (the engine's colours: you R, neutral G)."""
        return NA.export_moves(self.variant, self.state.history())


def initial(variant: str) -> Position:
    """The initial solo position of a variant."""
    return Position(variant, [], C.canonical_initial_state(variant))


def resolve(variant: str | None, from_file: str | None = None, at_round: int | None = None,
            moves: int | None = None, opening: str | None = None) -> Position:
    """The position the position flags describe (PositionError if they are wrong)."""
    if from_file is not None and opening is not None:
        raise PositionError("give the position with --from FILE or with --opening, not both")
    if at_round is not None and moves is not None:
        raise PositionError("cut the prefix with --at-round or with --moves, not both")
    if from_file is None and (at_round is not None or moves is not None):
        raise PositionError("--at-round and --moves cut the line of a --from FILE")
    if opening is not None:
        if variant is None:
            raise PositionError("--opening needs --variant")
        try:
            parsed = NA.parse_command_list(opening)
        except NA.NotationError as e:
            raise PositionError(str(e)) from None
        if not parsed:
            raise PositionError("--opening is empty: give moves as \"CMD; CMD; ...\"")
        return from_moves(variant, parsed, source=f"opening {opening!r}")
    if from_file is None:
        if variant is None:
            raise PositionError("give --variant (or a position with --from FILE)")
        return initial(variant)
    return _from_file(variant, from_file, at_round, moves)


def complete_line(variant: str | None, path: str, at_round: int | None = None,
                  moves: int | None = None) -> tuple[Position, Position | None]:
    """The complete game in the file at ``path`` (any form ``--from`` reads; PositionError if
    its line stops before the game ends) and, if ``at_round`` or ``moves`` cuts it, the
    position at the cut (else None): what a search seeded by a whole line starts from."""
    full = _from_file(variant, path, None, None)
    if not full.state.is_terminal():
        raise PositionError(f"{path}: its line stops in round {full.round}, before the game "
                            "ends; a seed line must be a complete game")
    if at_round is None and moves is None:
        return full, None
    cut = _from_file(variant, path, at_round, moves)  # the cut as the file's form counts it
    assert full.line[:len(cut.prefix)] == cut.prefix
    return full, Position(cut.variant, cut.prefix, cut.state, cut.source, full.line)


def _from_file(variant, path, at_round, moves) -> Position:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise PositionError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{path} is not a text file") from None
    cut = (f" at round {at_round}" if at_round is not None else
           f" after {moves} moves" if moves is not None else "")
    data = None
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(f"{path} is not valid JSON: {e.msg} at line {e.lineno}") from None
    if isinstance(data, dict) and data.get("kind") == records.KIND:
        try:
            rec = records.load_record(path)
        except records.RecordError as e:
            raise PositionError(str(e)) from None
        _same_variant(variant, rec["variant"], path)
        return from_line(rec["variant"], rec["line"], at_round, moves, source=f"{path}{cut}")
    if data is not None:
        try:
            cfg, play = NA.game_record_from(data)
        except NA.RecordError as e:
            raise PositionError(f"{path}: not a results record or game record: {e}") from None
        if cfg.players != 1 or cfg.length != "long":
            raise PositionError(f"{path}: a {cfg.players}-player {cfg.length} game; positions "
                                "are solo (long) games")
        _same_variant(variant, cfg.country, path)
        colours = {cfg.seat_colours[0]: "R", cfg.neutral_colour: "G"}
        play = [_recolour(t, colours) for t in play]
        return from_moves(cfg.country, play, at_round, moves, source=f"{path}{cut}",
                          first_number=2)
    if variant is None:
        raise PositionError(f"{path} is a move list: give --variant")
    try:
        parsed = NA.parse_command_list(text)
    except NA.NotationError as e:
        raise PositionError(f"{path}: {e}") from None
    return from_moves(variant, parsed, at_round, moves, source=f"{path}{cut}")


def _same_variant(asked, found, path):
    if asked is not None and asked != found:
        raise PositionError(f"{path} is a {found} game, but --variant {asked} was given")


_COLOURED = re.compile(r"^([LS])([RGBW])(\d)$")


def _recolour(tokens: list[str], colours: dict[str, str]) -> list[str]:
    """A record's move in the engine's colours (you R, the neutral player G)."""
    def one(tok):
        m = _COLOURED.match(tok)
        if m and m.group(2) in colours:
            return m.group(1) + colours[m.group(2)] + m.group(3)
        return tok
    return [one(t) for t in tokens]


def _cut_at_round(variant: str, line: list[int], rnd: int, final_round: int) -> list[int]:
    _, prefix = BA.state_at_round(variant, line, rnd)
    if len(prefix) == len(line) and rnd > final_round:
        raise PositionError(f"round {rnd} is past the end of the line (it ends in round "
                            f"{final_round})")
    return prefix


def from_line(variant: str, line: list[int], at_round: int | None = None,
              moves: int | None = None, source: str = "a line") -> Position:
    """A position on a canonical line (cut at a round or after ``moves`` actions), each
    action checked on the reference engine."""
    full = _play_line(variant, line)
    if at_round is not None:
        prefix = _cut_at_round(variant, line, at_round, int(full.round))
    elif moves is not None:
        if moves > len(line):
            raise PositionError(f"--moves {moves}: the line has only {len(line)} actions")
        prefix = list(line[:moves])
    else:
        prefix = list(line)
    state = _play_line(variant, prefix)
    return Position(variant, prefix, state, source, list(line))


def _play_line(variant: str, line: list[int]) -> State:
    st = C.canonical_initial_state(variant)
    for i, cid in enumerate(line):
        if st.is_terminal():
            raise PositionError(f"move {i + 1} ({cid}, {C.describe_id(cid)}): the game is "
                                "already over")
        try:
            C.apply_canonical(st, int(cid))
        except (RuleError, ValueError, KeyError, IndexError) as e:  # an illegal or unknown id
            raise PositionError(f"move {i + 1} ({cid}, {C.describe_id(cid)}): {e}") from None
    return st


def from_moves(variant: str, moves_list: list[list[str]], at_round: int | None = None,
               moves: int | None = None, source: str = "moves", first_number: int = 1
               ) -> Position:
    """A position after kennerspiel moves (all, the first ``moves``, or up to the first beam
    layer of round ``at_round``); each move checked on the reference engine and matched to
    canonical actions. Moves are numbered from ``first_number`` in messages."""
    if moves is not None:
        if moves > len(moves_list):
            raise PositionError(f"--moves {moves}: the list has only {len(moves_list)} moves")
        moves_list = moves_list[:moves]
    rp = NA.new_replay(variant)
    st = C.canonical_initial_state(variant)
    line: list[int] = []
    pending: list[tuple[int, list[str]]] = []  # moves applied but not matched yet
    for i, tokens in enumerate(moves_list):
        number = i + first_number
        if at_round is not None and st.round > at_round:
            break  # read far enough to cut at the round (and see the turn played there)
        try:
            NA.apply_move(rp, number, tokens)
        except NA.NotationError as e:
            raise PositionError(str(e)) from None
        pending.append((number, tokens))
        goal = _key(_settled(rp.state))
        if goal is None:
            continue  # a decision inside this move is still open: match with the next move
        seq = _match(st, goal, [t for _, t in pending])
        if seq is None:
            n0, t0 = pending[0]
            raise PositionError(f"move {n0} ({' '.join(t0)}): the search's action space cannot "
                                "express this move (canonical actions pay by a fixed rule and "
                                "drop some choices: solver/rules/canonical.py)")
        for cid in seq:
            C.apply_canonical(st, cid)
        line += seq
        pending = []
    if pending:
        n0, t0 = pending[0]
        raise PositionError(f"move {n0} ({' '.join(t0)}): leaves a decision open at the end of "
                            "the moves; a search cannot start there")
    if at_round is None:
        return Position(variant, line, st, source, line)
    prefix = _cut_at_round(variant, line, at_round, int(st.round))
    return Position(variant, prefix, _play_line(variant, prefix), source, line)


def _settled(state: State) -> State:
    """A copy of the state with forced ENDs taken, as the canonical engine does."""
    t = state.clone()
    while not t.is_terminal() and C.canonical_legal_actions(t) == [C.END]:
        C.apply_canonical(t, C.END)
    return t


def _key(state: State) -> bytes | None:
    """The packed state as bytes, or None where the codec cannot pack it (mid-decision)."""
    try:
        return codec.pack(state).tobytes()
    except (codec.CodecError, ValueError, KeyError, IndexError, TypeError):
        return None  # a decision the packed state cannot hold (mid-payment, ...)


def _relevant(state: State, cid: int, moves: list[list[str]]) -> bool:
    """Whether canonical action ``cid`` may be part of these kennerspiel moves."""
    if cid == C.END or state.frame["f"] in ("option", "prior_bonus"):
        return True
    text = C.describe_id(cid)
    for tokens in moves:
        cmd = tokens[0]
        arg = tokens[1] if len(tokens) > 1 else ""
        if cmd in ("USE", "WORK_CONTRACT") and arg and arg in text.split():
            return True
        if cmd == "BUILD" and (text.startswith("NEUTRAL") or (arg and arg in text.split())):
            return True
        if cmd in ("FELL_TREES", "CUT_PEAT") and text.startswith(cmd.split("_")[0][:4]):
            return True
        if cmd == "SETTLE" and text.startswith("SETTLE"):
            return True
        if cmd == "BUY_DISTRICT" and text.startswith("DISTRICT"):
            return True
        if cmd == "BUY_PLOT" and text.startswith("PLOT"):
            return True
        if cmd == "CONVERT" and text.startswith("CONVERT"):
            return True
    return False


def _match(state: State, goal: bytes, moves: list[list[str]]) -> list[int] | None:
    """The shortest canonical action sequence from ``state`` to the packed ``goal``."""
    if _key(_settled(state)) == goal:
        return []
    frontier = [(state, [])]
    for _ in range(MATCH_DEPTH):
        nxt = []
        for s, seq in frontier:
            for cid in C.canonical_legal_actions(s):
                if not _relevant(s, cid, moves):
                    continue
                t = s.clone()
                C.apply_canonical(t, cid)
                if _key(t) == goal:
                    return seq + [cid]
                if not t.is_terminal():
                    nxt.append((t, seq + [cid]))
        frontier = nxt
    return None
