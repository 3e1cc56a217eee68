"""Every call this package makes into the kennerspiel notation module, in one place.

The notation package (solver/rules/notation/) checks each command's shape and the rules;
this module adds the research layer's own checks (play commands only, known building ids).
Moves are token lists (``["USE", "LR2", "Gn"]``) as kennerspiel stores them.
"""

from __future__ import annotations

from solver.rules import notation as N

NotationError = N.NotationError
RecordError = N.RecordError
GameConfig = N.GameConfig

# the commands of the notation a play move may start with (NOTATION.md §6)
COMMANDS = frozenset(("COMMIT", "USE", "WITH_PRIOR", "WITH_LAYBROTHER", "BUILD", "FELL_TREES",
                      "CUT_PEAT", "WORK_CONTRACT", "BUY_DISTRICT", "BUY_PLOT", "CONVERT",
                      "SETTLE"))


def parse_command_list(text: str) -> list[list[str]]:
    """Moves of a plain move list: one command per line or ``;``-separated (``#`` comments).

    NotationError ``move N (TOKENS): REASON`` (N counted from 1) for a line that is not a
    play command of the notation.
    """
    moves: list[list[str]] = []
    for raw in text.replace(";", "\n").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        if tokens[0] not in COMMANDS:
            why = ("CONFIG and START may only open a game record" if tokens[0] in
                   ("CONFIG", "START") else f"unknown command {tokens[0]!r} (commands are "
                   "upper case: " + ", ".join(sorted(COMMANDS)) + ")")
            raise NotationError(len(moves) + 1, tokens, why)
        moves.append(tokens)
    return moves


def new_replay(variant: str, seat_colour: str = "R", neutral_colour: str = "G") -> N.Replay:
    """A solo game (rulebook profile) ready to take kennerspiel moves."""
    return N.Replay(GameConfig(1, variant, "long", [seat_colour], neutral_colour), "rulebook",
                    check_actors=False)


_BUILDING_ARG = ("USE", "BUILD", "WORK_CONTRACT")
_INTEGER_ARGS = {"BUILD": (2, 3), "SETTLE": (2, 3), "FELL_TREES": (1, 2), "CUT_PEAT": (1, 2),
                 "BUY_DISTRICT": (1,), "BUY_PLOT": (1,)}


def check_move(number: int, tokens: list[str]) -> None:
    """NotationError for an unknown building id or a coordinate that is not an integer."""
    from solver.rules.cards import BUILDINGS

    cmd = tokens[0]
    if cmd in _BUILDING_ARG and len(tokens) > 1 and tokens[1] not in BUILDINGS:
        raise NotationError(number, tokens, f"unknown building {tokens[1]!r}")
    for i in _INTEGER_ARGS.get(cmd, ()):
        if i < len(tokens):
            try:
                int(tokens[i])
            except ValueError:
                raise NotationError(number, tokens, f"parameter {i} of {cmd} must be an "
                                    f"integer (a row or column), not {tokens[i]!r}") from None


def apply_move(replay: N.Replay, number: int, tokens: list[str]) -> None:
    """Apply one move (NotationError ``move number (TOKENS): REASON`` if impossible)."""
    check_move(number, tokens)
    replay.apply(number, tokens)  # the notation package checks each command's shape


def load_game_record(path: str) -> tuple[GameConfig, list[list[str]]]:
    """The setup and play moves of a corpus game record (RecordError if malformed)."""
    record = N.load_record(path)
    return N.config_from_record(record), N.play_moves(record)


def game_record_from(data: dict) -> tuple[GameConfig, list[list[str]]]:
    """Like :func:`load_game_record` for an already-parsed JSON object."""
    return N.config_from_record(data), N.play_moves(data)


def export_moves(variant: str, history: list) -> list[list[str]]:
    """The kennerspiel play moves (no CONFIG/START) of a solo reference-engine history, in
    the engine's default colours (you R, the neutral player G)."""
    out = N.export_history(GameConfig(1, variant, "long", ["R"], "G"), history)
    return out[2:]
