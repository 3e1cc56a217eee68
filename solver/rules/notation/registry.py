"""The parameter-codec registry: one decode/encode pair per effect key (NOTATION §7).

A codec translates the parameters of a kennerspiel ``USE <building> <params...>`` into an
option of the building's effect (solver/rules/effects.py: the option's ``data``) plus the
payment the move names, and back. Codecs are registered under the ``effect_key`` of
``buildings.csv``, as effects are (the table itself: param_codecs.py):

* ``decode(ctx, params) -> (data, payment)``: ``data`` is the option's data, or
  :data:`DECLINE` for option 0 (place only); ``payment`` is ``{good id: count}``;
* ``encode(data, payment) -> params``: the parameters kennerspiel reads as that option.
  ``None`` where the parameters are not the option's data (the Printing Office: its forests
  follow as ``PICK_CELL`` actions).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DECLINE = None
PLACE_ONLY = "PLACE_ONLY"  # USE <id> PLACE_ONLY [goods]: option 0 (package docstring)
OPTION_TAG = "OPTION="  # USE <id> <params> OPTION=<json data>: that option (package docstring)


@dataclass(frozen=True)
class Codec:
    """The decode/encode pair of one effect key."""

    decode: Callable
    encode: Callable | None


CODECS: dict[str, Codec] = {}


def codec(keys: str | tuple[str, ...], decode: Callable, encode: Callable | None) -> None:
    """Register the decode/encode pair of one effect key (or of several sharing it)."""
    for k in (keys,) if isinstance(keys, str) else keys:
        CODECS[k] = Codec(decode, encode)


@dataclass
class Ctx:
    """What a decoder may read: the state with the building's option pending, its user, and
    the building id."""

    state: object
    user: int
    b: str


def param(params: list[str], i: int = 0) -> str:
    """Parameter ``i`` of a move, or "" when the move has fewer."""
    return params[i] if len(params) > i else ""
