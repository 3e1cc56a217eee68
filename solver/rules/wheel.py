"""The production wheel (RULES §6): arm, indicators, yields, the joker, the solo removal.

Model of RULES §6.2: ``arm`` goes 0..12; each indicator stores the arm position ``t`` when it
was last reset; its yield is ``values[(arm - t) % 13]``. A removed (solo) or not-yet-introduced
indicator is absent from ``tokens``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import GAME

TOKENS = ("grain", "sheep", "clay", "coin", "wood", "peat", "joker", "grapes", "stone")


@dataclass
class Wheel:
    """Arm position and the reset position of each indicator in play."""

    values: list[int]
    arm: int = 0
    tokens: dict[str, int] = field(default_factory=dict)

    @classmethod
    def new(cls, side: str) -> Wheel:
        """RULES §4.1 step 3: the seven starting indicators on space 0."""
        return cls(values=list(GAME["wheel"][side]), arm=0,
                   tokens={t: 0 for t in GAME["wheel"]["start_tokens"]})

    def yield_of(self, token: str) -> int:
        """Current yield of an indicator (0 if it is not on the wheel)."""
        t = self.tokens.get(token)
        return 0 if t is None else self.values[(self.arm - t) % 13]

    def source(self, token: str, joker: bool) -> str | None:
        """The indicator that serves a take of ``token``: itself, or the joker (RULES §6.3)."""
        if not joker and token in self.tokens:
            return token
        if "joker" in self.tokens:
            return "joker"
        return None

    def choices(self, token: str) -> list[bool]:
        """The distinct ways to take ``token``: [False] own token, [True] joker, or both."""
        out = []
        if token in self.tokens:
            out.append(False)
        if "joker" in self.tokens and token != "joker":
            out.append(True)
        return out or [False]

    def take(self, token: str, joker: bool) -> int:
        """Take a good from the wheel: return the yield and reset the indicator used."""
        src = self.source(token, joker)
        if src is None:
            return 0
        amount = self.yield_of(src)
        self.tokens[src] = self.arm
        return amount

    def rotate(self, solo: bool) -> list[str]:
        """RULES §6.2: turn the arm one space; indicators on 10 are pushed (solo: removed).

        Returns the indicators removed (solo only).
        """
        nxt = (self.arm + 1) % 13
        removed = []
        for tok, t in list(self.tokens.items()):
            if t == nxt:
                if solo:
                    del self.tokens[tok]
                    removed.append(tok)
                else:
                    self.tokens[tok] = (nxt + 1) % 13
        self.arm = nxt
        return removed

    def introduce(self, token: str) -> None:
        """RULES §6.5: put a new indicator (grapes, stone) on space 0."""
        self.tokens[token] = self.arm

    def to_dict(self) -> dict:
        return {"values": list(self.values), "arm": self.arm, "tokens": dict(self.tokens)}

    @classmethod
    def from_dict(cls, d: dict) -> Wheel:
        return cls(values=list(d["values"]), arm=d["arm"], tokens=dict(d["tokens"]))
