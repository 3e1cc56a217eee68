"""Game records and command lists: reading the inputs of a replay.

* A **game record** is a JSON object in the schema of ../shared/games/README.md
  (:func:`load_record`, :func:`config_from_record`).
* A **command list** is kennerspiel's own form of a game: its commands as strings, one per
  move, opening with ``CONFIG`` and ``START`` (NOTATION §1, §3). It may be a text file, one
  command per line, or a JSON list of command strings (or of token lists). Commands are split
  into tokens on whitespace, as kennerspiel does. kennerspiel's lists hold neither blank
  entries nor comments; in a text file blank lines and lines starting with ``#`` are skipped
  (no kennerspiel command starts with ``#``, so this changes the meaning of none).
  :func:`record_from_commands` turns one into a record; :func:`load_game` reads any of the
  three forms. A seeded ``START`` seats the colours by kennerspiel's own shuffle, which is not
  reproduced: such a record is marked :data:`SEATS_UNRESOLVED` and the importer finds the seat
  order under which the moves replay. The solo neutral colour a seed draws is taken from the
  moves that name it (a contract on its home board), and is immaterial when none does.

Move indices are 0-based positions in the move list, ``CONFIG`` being move 0, in every form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .errors import NotationError, RecordError
from .syntax import check_move

COLOUR_CODES = ("R", "G", "B", "W")
#: a ``start`` key of records made from command lists whose seeded START leaves the seat
#: order open (``seat_colors`` then holds the colours as given)
SEATS_UNRESOLVED = "seats_unresolved"


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


# ----- command lists -------------------------------------------------------------------------
def parse_command_list(text: str) -> list[list[str]]:
    """The moves of a text command list: one command per line, split on whitespace; blank
    lines and ``#`` comment lines are skipped."""
    return [line.split() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def commands_from_json(data) -> list[list[str]]:
    """The moves of a JSON command list: a list of command strings (or of token lists)."""
    if not isinstance(data, list):
        raise RecordError("a JSON command list is a list of command strings")
    moves = []
    for i, item in enumerate(data):
        if isinstance(item, str):
            moves.append(item.split())
        elif isinstance(item, list) and all(isinstance(t, str) for t in item):
            moves.append(list(item))
        else:
            raise RecordError(f"entry {i} of the command list is not a command string: "
                              f"{item!r}")
        if not moves[-1]:
            raise NotationError(i, [], "empty command")
    return moves


def _config(tokens: list[str]) -> dict:
    if len(tokens) != 4:
        raise ValueError("expected CONFIG <players> <france|ireland> <long|short>")
    players, country, length = tokens[1:]
    if players not in ("1", "2", "3", "4"):
        raise ValueError(f"players must be 1-4, not {players!r}")
    if country not in ("france", "ireland"):
        raise ValueError(f"the country must be france or ireland, not {country!r}")
    if length not in ("long", "short"):
        raise ValueError(f"the length must be long or short, not {length!r}")
    return {"players": int(players), "country": country, "length": length}


def _start(tokens: list[str], moves: list[list[str]], players: int) -> dict:
    """NOTATION §3.2: ``START [<seed>] <colour>...``; seats follow the colours given."""
    args = tokens[1:]
    seed = None
    if args and args[0].lstrip("-").isdigit():
        seed, args = int(args[0]), args[1:]
    counts = (players,) if players > 1 else (1,) if seed is not None else (1, 2)
    if (len(args) not in counts or any(c not in COLOUR_CODES for c in args)
            or len(set(args)) != len(args)):
        want = (f"{players} different colours" if players > 1 else
                "the player's colour" + ("" if seed is not None else " [and the neutral's]"))
        raise ValueError(f"expected START [<seed>] and {want} of R G B W")
    neutral = args[1] if len(args) == 2 and players == 1 else None
    if players == 1 and neutral is None:
        neutral = _neutral_named(moves, args[0])
    start = {"seed": seed, "colors_given": list(args), "seat_colors": list(args[:players]),
             "neutral_color": neutral}
    if seed is not None and players > 1:
        # kennerspiel's shuffle is not reproduced (NOTATION §3.2): the importer seats the
        # colours in the one order under which the moves replay (importer.infer_seats)
        start[SEATS_UNRESOLVED] = True
    return start


def _neutral_named(moves: list[list[str]], player: str) -> str | None:
    """The solo neutral colour a seeded ``START`` drew, as far as the moves show it: the
    colour of the other home-board buildings they name (``WORK_CONTRACT LW1 Pn``); None
    (a free colour) if they name none, since then it changes nothing."""
    named = {t[1] for m in moves for t in m[1:]
             if len(t) == 3 and t[0] == "L" and t[1] in COLOUR_CODES and t[2] in "123"}
    named.discard(player)
    if len(named) > 1:
        raise ValueError(f"the moves name the home boards of {len(named) + 1} colours in a "
                         "solo game")
    return named.pop() if named else None


def record_from_commands(moves: list[list[str]]) -> dict:
    """A game record (../shared/games schema, no actors) from a command list that opens with
    ``CONFIG`` and ``START``; every command is checked for its shape (NotationError
    ``move N (TOKENS): REASON`` on the first malformed one)."""
    if len(moves) < 2 or moves[0][:1] != ["CONFIG"] or moves[1][:1] != ["START"]:
        first = moves[0] if moves else []
        raise NotationError(0, first, "a command list opens with CONFIG and then START")
    try:
        config = _config(moves[0])
    except ValueError as e:
        raise NotationError(0, moves[0], str(e)) from None
    try:
        start = _start(moves[1], moves, config["players"])
    except ValueError as e:
        raise NotationError(1, moves[1], str(e)) from None
    check_moves(moves)
    record = {"id": None, "config": config, "start": start, "moves": moves}
    config_from_record(record)
    return record


def check_moves(moves: list[list[str]]) -> None:
    """Check the shape of every play move (NotationError on the first malformed one)."""
    for i, tokens in enumerate(moves):
        if i < 2 and tokens[:1] in (["CONFIG"], ["START"]):
            continue
        try:
            check_move(tokens)
        except ValueError as e:
            raise NotationError(i, tokens, str(e)) from None


def load_game(path: str) -> dict:
    """A game record from a file holding a JSON record, a JSON command list or a text command
    list (JSON: a ``.json`` name or a text opening with ``{`` or ``[``); RecordError for an
    unreadable file or a bad record, NotationError for a malformed command."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    if path.lower().endswith(".json") or text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"{path} is not valid JSON: {e}") from None
        if isinstance(data, dict):
            config_from_record(data)
            check_moves(data["moves"])
            return data
        return record_from_commands(commands_from_json(data))
    return record_from_commands(parse_command_list(text))
