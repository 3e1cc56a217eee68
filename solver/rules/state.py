"""The game state as plain data: players, the neutral player, wheel, display, stacks, frames.

Everything here is JSON-serialisable through ``to_dict``/``from_dict``. The rules that change
this data live in solver/rules/flow.py, decisions/, moves.py and effects.py; the decision
stack holds the typed frames of solver/rules/frames.py (JSON: ``{"f": kind, ...}``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .frames import Frame, frame_from_dict
from .landscape import Landscape
from .wheel import Wheel

LAY_BROTHER, PRIOR = 0, 1


def off_board(pos) -> bool:
    """Whether a clergy position is placed but on no space (displaced, see Owner)."""
    return pos is not None and pos[1] is None


@dataclass
class Owner:
    """A player, or the solo neutral player (``neutral``: no goods, actions or score).

    ``clergy`` holds one position per clergyman, lay brothers first and the prior last: None
    when at home, else ``[owner index, col, row]`` of the space it stands on, or
    ``[owner index, None, None]`` when it was displaced from a space of that owner (profile
    ``occupied_use_displaces``): placed, but on no space (:func:`off_board`).
    """

    colour: str
    land: Landscape
    clergy: list
    goods: list[int] = field(default_factory=list)
    settlements: list[str] = field(default_factory=list)  # settlement cards in hand
    bought_land: bool = False  # the landscape purchase of this round (or turn) is used
    neutral: bool = False

    @property
    def prior(self) -> int:
        """Index of the prior in ``clergy``."""
        return len(self.clergy) - 1

    def free_clergy(self, kind: int) -> int | None:
        """Index of an unplaced clergyman of that kind (lay brother 0 / prior 1), or None."""
        if kind == PRIOR:
            return self.prior if self.clergy[self.prior] is None else None
        for i in range(self.prior):
            if self.clergy[i] is None:
                return i
        return None

    def all_placed(self) -> bool:
        return all(c is not None for c in self.clergy)

    def to_dict(self) -> dict:
        return {"colour": self.colour, "land": self.land.to_list(), "clergy": self.clergy,
                "goods": self.goods, "settlements": self.settlements,
                "bought_land": self.bought_land, "neutral": self.neutral}

    @classmethod
    def from_dict(cls, d: dict) -> Owner:
        return cls(colour=d["colour"], land=Landscape.from_list(d["land"]),
                   clergy=[None if c is None else list(c) for c in d["clergy"]],
                   goods=list(d["goods"]), settlements=list(d["settlements"]),
                   bought_land=d["bought_land"], neutral=d["neutral"])


@dataclass
class GameState:
    """All of a game's data. ``owners``: seats 0..N-1, then the solo neutral player."""

    variant: str
    players: int
    length: str
    profile: str
    owners: list[Owner]
    wheel: Wheel
    display: list[str]
    stacks: dict[str, list[str]]
    district_prices: list[int]
    plot_prices: list[int]
    wonders_left: int = 8
    fee_raised: bool = False  # a Winery / Whiskey Distillery has been built
    round: int = 0
    phase: str = ""  # the last settlement phase held ("" before A)
    step: int = 0  # position in the flow script (solver/rules/schedule.py)
    frames: list[Frame] = field(default_factory=list)  # decision stack, top last
    neutral_built: list[str] = field(default_factory=list)  # built by the neutral this phase
    done: bool = False
    history: list[int] = field(default_factory=list)
    bonus_round: bool = False  # RULES §12: the bonus round (and settlement E after it) is on
    end_after: int | None = None  # flow position after which the game ends (RULES §13)
    # profile land_in_neutral_phase: the solo settlement phase's purchase was made during the
    # neutral's builds (the settlement turn then has it used)
    neutral_phase_bought: bool = False
    # profile solo_hired_use_after_settle: the hired use of the phase's contract, handed to the
    # settlement turn ([building, [owner, col, row]])
    neutral_hired: list | None = None

    def to_dict(self) -> dict:
        return {
            "variant": self.variant, "players": self.players, "length": self.length,
            "profile": self.profile, "owners": [o.to_dict() for o in self.owners],
            "wheel": self.wheel.to_dict(), "display": self.display,
            "stacks": self.stacks, "district_prices": self.district_prices,
            "plot_prices": self.plot_prices, "wonders_left": self.wonders_left,
            "fee_raised": self.fee_raised, "round": self.round, "phase": self.phase,
            "step": self.step, "frames": [f.to_dict() for f in self.frames],
            "neutral_built": self.neutral_built,
            "done": self.done, "history": self.history, "bonus_round": self.bonus_round,
            "end_after": self.end_after, "neutral_phase_bought": self.neutral_phase_bought,
            "neutral_hired": self.neutral_hired,
        }

    @classmethod
    def from_dict(cls, d: dict) -> GameState:
        import copy

        d = copy.deepcopy(d)
        return cls(
            variant=d["variant"], players=d["players"], length=d["length"],
            profile=d["profile"], owners=[Owner.from_dict(o) for o in d["owners"]],
            wheel=Wheel.from_dict(d["wheel"]), display=d["display"], stacks=d["stacks"],
            district_prices=d["district_prices"], plot_prices=d["plot_prices"],
            wonders_left=d["wonders_left"], fee_raised=d["fee_raised"], round=d["round"],
            phase=d["phase"], step=d["step"], frames=[frame_from_dict(f) for f in d["frames"]],
            neutral_built=d["neutral_built"], done=d["done"], history=d["history"],
            bonus_round=d.get("bonus_round", False), end_after=d.get("end_after"),
            neutral_phase_bought=d.get("neutral_phase_bought", False),
            neutral_hired=d.get("neutral_hired"),
        )
