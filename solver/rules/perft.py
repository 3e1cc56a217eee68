"""Perft: exact sizes of the legal-move tree, the engine's move-generation fingerprint.

As in chess engines (python-chess, Stockfish), ``perft(state, depth)`` counts the leaves of the
tree of legal action sequences ``depth`` actions deep; ``divide`` splits that count by the
first action. A terminal position is a leaf wherever it occurs (the game cannot go deeper);
depth 0 counts the position itself. Stored counts from fixed positions (tests/data/perft.json)
catch any change in which actions are legal, however small.
"""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    """Number of leaves of the legal-action tree ``depth`` plies below ``state``."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    if depth == 0 or state.is_terminal():
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)  # bulk count: every child is a leaf (terminal or not)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> dict[str, int]:
    """Perft split by first action: ``{action text: leaves below it}`` (depth >= 1).

    Texts are made unique: if two legal actions read the same, each gets its id appended.
    """
    if depth < 1:
        raise ValueError(f"divide needs depth >= 1, not {depth}")
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    out = {}
    for action, text in zip(legal, texts):
        if texts.count(text) > 1:
            text = f"{text} [{action}]"
        child = state.clone()
        child.apply_action(action)
        out[text] = perft(child, depth - 1)
    return out
