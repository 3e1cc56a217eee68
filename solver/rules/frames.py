"""Typed decision frames: one dataclass per kind of decision on the State's decision stack.

Every choice a player makes answers the frame on top of ``GameState.frames``
(solver/rules/game.py describes when each is pushed); the handlers of each kind live in
solver/rules/decisions/, registered by frame type. A frame holds only what its decision
needs; ``kind`` names it in the state's JSON form (``{"f": kind, ...}``, the format of
``State.to_dict``, unchanged from the engine's dict frames).

Two *continuations* say what happens once a picked payment (:class:`PayFrame`) or a choice
of spaces (:class:`PickCellsFrame`) is complete: :class:`ResolveUse` (run the building's
function) and :class:`PlaceSettlement`.

``frame["b"]``, ``frame.get("seat")`` and ``frame["f"]`` read a frame by its JSON keys, for
code written against the dict frames (the tests of commit 01cc41c and before). New code reads
the attributes; the mapping view is read-only.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


class _Record:
    """JSON form and the read-only mapping view shared by frames and continuations."""

    kind: ClassVar[str]
    TAG: ClassVar[str] = "f"  # the JSON key naming the kind
    KEYS: ClassVar[dict[str, str]] = {}  # JSON key -> attribute, where they differ
    OPTIONAL: ClassVar[tuple[str, ...]] = ()  # attributes left out of the JSON while false

    def to_dict(self) -> dict:
        """The JSON form (a copy)."""
        names = {v: k for k, v in self.KEYS.items()}
        out: dict[str, Any] = {self.TAG: self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.OPTIONAL and not value:
                continue
            out[names.get(f.name, f.name)] = (value.to_dict() if isinstance(value, _Record)
                                              else copy.deepcopy(value))
        return out

    @classmethod
    def _from_json(cls, d: dict, nested) -> _Record:
        kw = {}
        for key, value in d.items():
            if key == cls.TAG:
                continue
            name = cls.KEYS.get(key, key)
            kw[name] = nested(value) if isinstance(value, dict) and name == "then" else value
        return cls(**copy.deepcopy(kw))

    def __getitem__(self, key: str):
        if key == self.TAG:
            return self.kind
        name = self.KEYS.get(key, key)
        if name not in {f.name for f in fields(self)}:
            raise KeyError(key)
        return getattr(self, name)

    def get(self, key: str, default=None):
        """Mapping-style read by JSON key (``default`` if the frame has no such key)."""
        try:
            return self[key]
        except KeyError:
            return default


# ----- continuations --------------------------------------------------------------------------
class Continuation(_Record):
    """What runs when a payment or a choice of spaces is complete."""

    TAG: ClassVar[str] = "do"


@dataclass
class ResolveUse(Continuation):
    """Run ``building``'s function with option ``data`` (its cost is paid)."""

    kind: ClassVar[str] = "resolve"
    KEYS: ClassVar[dict[str, str]] = {"b": "building"}
    user: int
    building: str
    loc: list | None  # [owner, col, row] where it stands, None for an unbuilt building
    via: str  # "clergy", "free" or "contract"
    chain: list[str]  # the buildings of this chain of free uses, this one last
    data: list


@dataclass
class PlaceSettlement(Continuation):
    """Put the settlement on its (reserved) space: its food and energy are paid."""

    kind: ClassVar[str] = "settle"
    KEYS: ClassVar[dict[str, str]] = {"s": "settlement"}
    user: int
    settlement: str
    cell: list[int]


CONTINUATIONS: dict[str, type[Continuation]] = {c.kind: c for c in (ResolveUse, PlaceSettlement)}


def continuation_from_dict(d: dict) -> Continuation:
    """Continuation of its JSON form."""
    return CONTINUATIONS[d["do"]]._from_json(d, continuation_from_dict)


# ----- frames ---------------------------------------------------------------------------------
class Frame(_Record):
    """A pending decision. ``actor`` is the seat that answers it: the attribute ``ACTOR``
    names (the user of a building or grant, the seat whose turn or phase it is, ...)."""

    ACTOR: ClassVar[str] = "user"

    @property
    def actor(self) -> int:
        return getattr(self, self.ACTOR)


@dataclass
class TurnFrame(Frame):
    """An action turn: one main action (``main`` once taken), extra actions, ``COMMIT``.

    ``bonus``: a bonus-round turn (RULES §12): build, or the prior on any building.
    """

    kind: ClassVar[str] = "turn"
    ACTOR: ClassVar[str] = "seat"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("bonus",)
    seat: int
    main: bool = False
    bonus: bool = False


@dataclass
class OptionFrame(Frame):
    """Which function of ``building`` to use (``OPTION i``; 0 places only)."""

    kind: ClassVar[str] = "option"
    KEYS: ClassVar[dict[str, str]] = {"b": "building"}
    user: int
    building: str
    loc: list | None  # [owner, col, row], None for an unbuilt building
    via: str  # "clergy", "free" or "contract"
    chain: list[str]


@dataclass
class PayFrame(Frame):
    """Tiles given one by one (``PAY good``, in goods order) until ``need`` is met."""

    kind: ClassVar[str] = "pay"
    user: int
    need: dict  # Cost.need(): food, energy2, points, distinct still owed
    then: Continuation
    last: int = -1  # the good given last (tiles go in goods order)
    paid: list[int] = field(default_factory=list)


@dataclass
class FreeUseFrame(Frame):
    """A free use of one of ``targets`` ([building, [owner, col, row] or None]) or ``SKIP``."""

    kind: ClassVar[str] = "free_use"
    user: int
    targets: list[list]
    chain: list[str]


@dataclass
class PriorBonusFrame(Frame):
    """After a build: the prior on ``building`` at once (``USE_PRIOR``) or ``SKIP``."""

    kind: ClassVar[str] = "prior_bonus"
    KEYS: ClassVar[dict[str, str]] = {"b": "building"}
    user: int
    building: str


@dataclass
class GrantBuildFrame(Frame):
    """A granted build (``BUILD``) or ``SKIP``."""

    kind: ClassVar[str] = "grant_build"
    user: int


@dataclass
class GrantSettleFrame(Frame):
    """A granted settlement (``SETTLE``) or ``SKIP``."""

    kind: ClassVar[str] = "grant_settle"
    user: int


@dataclass
class GrantFellCutFrame(Frame):
    """Fell trees and/or cut peat (each once, while still ``True``), or ``SKIP``."""

    kind: ClassVar[str] = "grant_fell_cut"
    user: int
    fell: bool = True
    cut: bool = True


@dataclass
class GrantLandFrame(Frame):
    """A free district and/or plot (each once, while still ``True``), or ``SKIP``."""

    kind: ClassVar[str] = "grant_land"
    user: int
    district: bool = True
    plot: bool = True


@dataclass
class PickCellsFrame(Frame):
    """Choose ``count`` spaces with ``feature`` (in row order), then run ``then``."""

    kind: ClassVar[str] = "pick_cells"
    KEYS: ClassVar[dict[str, str]] = {"kind": "feature"}
    user: int
    feature: str  # "forest", ...
    count: int
    then: Continuation
    picked: list[list[int]] = field(default_factory=list)


@dataclass
class NeutralBuildFrame(Frame):
    """Solo: the neutral builds every display building where the player says (SOLO §4.2)."""

    kind: ClassVar[str] = "neutral_build"
    ACTOR: ClassVar[str] = "seat"
    seat: int = 0


@dataclass
class NeutralContractFrame(Frame):
    """Solo: one paid work contract with the neutral prior, or ``SKIP`` (SOLO §4.2)."""

    kind: ClassVar[str] = "neutral_contract"
    ACTOR: ClassVar[str] = "seat"
    seat: int = 0


@dataclass
class SettleFrame(Frame):
    """A settlement turn: one landscape, one settlement, conversions, ``COMMIT``."""

    kind: ClassVar[str] = "settle"
    ACTOR: ClassVar[str] = "seat"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("hired", "free")
    seat: int
    bought: bool = False
    settled: bool = False
    # profile solo_hired_use_after_settle: [building, [owner, col, row]] of the hired use
    # still to take (``FREE_USE building``, until COMMIT)
    hired: list | None = None
    # the same profile: [targets, chain] of a free use the hired building granted (a Cloister
    # Garden's neighbour, ...), open until COMMIT (``FREE_USE building``)
    free: list | None = None


@dataclass
class ChooseClergyFrame(Frame):
    """The owner of a hired building chooses which clergyman goes there (RULES §9)."""

    kind: ClassVar[str] = "choose_clergy"
    ACTOR: ClassVar[str] = "chooser"
    chooser: int  # the owner, who answers
    user: int  # the hirer
    owner: int
    loc: list[int]


FRAME_TYPES: tuple[type[Frame], ...] = (
    TurnFrame, OptionFrame, PayFrame, FreeUseFrame, PriorBonusFrame, GrantBuildFrame,
    GrantSettleFrame, GrantFellCutFrame, GrantLandFrame, PickCellsFrame, NeutralBuildFrame,
    NeutralContractFrame, SettleFrame, ChooseClergyFrame)
BY_KIND: dict[str, type[Frame]] = {t.kind: t for t in FRAME_TYPES}


def frame_from_dict(d: dict) -> Frame:
    """Frame of its JSON form (``{"f": kind, ...}``)."""
    try:
        cls = BY_KIND[d["f"]]
    except KeyError:
        raise ValueError(f"unknown decision frame {d!r}") from None
    return cls._from_json(d, continuation_from_dict)
