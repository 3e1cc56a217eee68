"""The shape of a kennerspiel move (NOTATION §3, §6): which tokens each command takes.

:func:`check_move` rejects a move that no game state could accept (an unknown command or
building, a missing coordinate, a word where a number belongs, a bad resource string) with a
reason naming what is wrong; whether a well-formed move is legal is the importer's question.
"""

from __future__ import annotations

from ..cards import BUILDINGS
from .goods_strings import parse_goods

#: command -> (the kinds of its leading tokens, usage). Kinds: "b" building id, "i" integer,
#: "r" resource string, "s" settlement id, a tuple: one of these words; a trailing "?" marks
#: an optional token. Tokens after these are flags (``Jo``, ``WITH_PRIOR``) or, as kennerspiel
#: treats them, ignored.
GRAMMAR: dict[str, tuple[tuple, str]] = {
    "COMMIT": ((), "COMMIT"),
    "WITH_PRIOR": ((), "WITH_PRIOR"),
    "WITH_LAYBROTHER": ((), "WITH_LAYBROTHER"),
    "BUILD": (("b", "i", "i"), "BUILD <building> <col> <row>"),
    "CUT_PEAT": (("i?", "i?"), "CUT_PEAT [<col> <row> [Jo]]"),
    "FELL_TREES": (("i?", "i?"), "FELL_TREES [<col> <row> [Jo]]"),
    "BUY_DISTRICT": (("i", ("PLAINS", "HILLS")), "BUY_DISTRICT <row> PLAINS|HILLS"),
    "BUY_PLOT": (("i", ("COAST", "MOUNTAIN")), "BUY_PLOT <row> COAST|MOUNTAIN"),
    "WORK_CONTRACT": (("b", "r"),
                      "WORK_CONTRACT <building> <payment> [WITH_PRIOR]"),
    "CONVERT": (("r",), "CONVERT <goods>"),
    "SETTLE": (("s", "i", "i", "r?"), "SETTLE <settlement> <col> <row> <payment>"),
}


def _is_int(t: str) -> bool:
    return t.lstrip("-").isdigit() and t.count("-") <= 1


def _check_token(kind, tok: str) -> str | None:
    """Why ``tok`` is not a token of ``kind`` (None if it is)."""
    if isinstance(kind, tuple):
        return None if tok in kind else f"expected {' or '.join(kind)}"
    if kind == "b":
        return None if tok in BUILDINGS else "unknown building"
    if kind == "i":
        return None if _is_int(tok) else "expected an integer"
    if kind == "s":
        ok = len(tok) == 3 and tok[0] == "S" and tok[1] in "RGBW" and tok[2] in "12345678"
        return None if ok else "unknown settlement"
    try:
        parse_goods(tok)
    except ValueError as e:
        return str(e)
    return None


def check_move(tokens: list[str]) -> None:
    """Raise ValueError naming what is malformed in ``tokens`` (a play move: not CONFIG/START)."""
    if not tokens:
        raise ValueError("empty move")
    cmd, args = tokens[0], tokens[1:]
    if cmd in ("CONFIG", "START"):
        raise ValueError(f"{cmd} may only open a record")
    if cmd == "USE":
        if not args:
            raise ValueError("USE takes a building id")
        if args[0] not in BUILDINGS:
            raise ValueError(f"unknown building {args[0]!r}")
        return  # the building's codec reads the rest (NOTATION §7)
    if cmd not in GRAMMAR:
        raise ValueError(f"unknown command {cmd!r}")
    shape, usage = GRAMMAR[cmd]
    least = sum(1 for k in shape if not str(k).endswith("?"))
    if len(args) < least or (cmd in ("CUT_PEAT", "FELL_TREES") and len(args) == 1):
        raise ValueError(f"expected {usage}, got {len(args)} parameter"
                         f"{'' if len(args) == 1 else 's'}")
    for n, (kind, tok) in enumerate(zip(shape, args), 1):
        why = _check_token(kind if isinstance(kind, tuple) else kind.rstrip("?"), tok)
        if why:
            raise ValueError(f"parameter {n} {tok!r}: {why}")
