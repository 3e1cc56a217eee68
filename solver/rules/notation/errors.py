"""The two errors of the notation package: a move that fails, and a record that is malformed."""

from __future__ import annotations


class NotationError(ValueError):
    """A move that cannot be parsed, mapped or applied: ``move N (TOKENS): REASON``.

    ``malformed`` is True when no game state could accept the move (an unknown command, a
    missing parameter, a bad resource string), False when the rules reject it here.
    """

    def __init__(self, index: int, tokens: list[str], reason: str, malformed: bool = True):
        self.index = index
        self.tokens = list(tokens)
        self.reason = reason
        self.malformed = malformed
        super().__init__(f"move {index} ({' '.join(tokens)}): {reason}")


class RecordError(ValueError):
    """A game record that is malformed (wrong schema), not a move the engine rejects."""
