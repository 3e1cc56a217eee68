"""What the importer and exporter read of the engine's pending decision: its kind, the
building being used, who decides, and the frame's options.

This is the only module of the package that knows the fields of the engine's decision frames
(the typed frames of solver/rules/frames.py); everything else asks :func:`pending`,
:func:`building_use` or :func:`listed_options`, so a change of the frames' representation is
ported here alone.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pending:
    """A copy of the facts of the pending decision frame that notation needs."""

    kind: str | None  # "turn", "option", "pay", "free_use", ...; None: no frame
    building: str | None = None  # option frames: the building being used
    user: int | None = None  # the seat deciding a follow-up (option, grant, pay, ...)
    seat: int | None = None  # the seat whose turn (or settlement turn) it is, else ``user``
    bonus: bool = False  # turn frames: a bonus-round turn (the prior is placed)
    main_spent: bool = False  # turn frames: the main action has been taken
    targets: tuple[str, ...] = ()  # free_use frames: the buildings that may be used
    land: tuple[str, ...] = ()  # grant_land frames: the free purchases still open

    def __str__(self) -> str:
        return str(self.kind)


def pending(state) -> Pending:
    """The pending decision of ``state`` (kind None when nothing is pending)."""
    f = state.frame
    if f is None:
        return Pending(None)
    user = getattr(f, "user", None)
    return Pending(kind=f.kind, building=getattr(f, "building", None), user=user,
                   seat=getattr(f, "seat", user), bonus=bool(getattr(f, "bonus", False)),
                   main_spent=bool(getattr(f, "main", False)),
                   targets=tuple(t[0] for t in getattr(f, "targets", ())),
                   land=tuple(k for k, attr in (("BUY_DISTRICT", "district"),
                                                ("BUY_PLOT", "plot"))
                              if f.kind == "grant_land" and getattr(f, attr)))


def kind(state) -> str | None:
    """The kind of the pending decision frame (None when nothing is pending)."""
    f = state.frame
    return None if f is None else f.kind


def building_use(state):
    """The :class:`~solver.rules.effects.Use` of the pending option frame."""
    return state.use_of(state.frame)


def listed_options(state) -> list:
    """The options of the pending option frame, indexed as the ``OPTION`` flag indexes them."""
    return state.frame_options()
