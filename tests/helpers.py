"""Test helpers: set up positions directly and drive the engine by action text."""

from __future__ import annotations

from solver.rules import goods as G
from solver.rules import new_initial_state
from solver.rules.game import State


def fresh(variant: str = "ireland", profile: str = "rulebook") -> State:
    """A new solo game at its first decision (round 1, first turn)."""
    return new_initial_state(variant=variant, players=1, length="long", profile=profile)


def give(state: State, seat: int = 0, **goods: int) -> None:
    """Add goods by name (``give(s, wood=2, peat_coal=1)``; spaces in names become _)."""
    for name, n in goods.items():
        state.g.owners[seat].goods[G.BY_NAME[name.replace("_", " ")]] += n


def goods_of(state: State, seat: int = 0) -> dict[str, int]:
    """Non-zero goods of a player by name."""
    return {G.NAMES[i]: n for i, n in enumerate(state.g.owners[seat].goods) if n}


def place(state: State, bid: str, col: int, row: int, owner: int = 0) -> None:
    """Put a building onto a landscape directly, taking it out of the display/stacks."""
    g = state.g
    if bid in g.display:
        g.display.remove(bid)
    for stack in g.stacks.values():
        if bid in stack:
            stack.remove(bid)
    land = g.owners[owner].land
    assert (col, row) in land.cells, f"no land at ({col}, {row})"
    land.cells[(col, row)][1] = bid
    if bid in ("F21", "I21"):
        g.fee_raised = True


def to_display(state: State, bid: str) -> None:
    """Move a building from its stack into the display."""
    for stack in state.g.stacks.values():
        if bid in stack:
            stack.remove(bid)
    if bid not in state.g.display:
        state.g.display.append(bid)


def texts(state: State) -> list[str]:
    """The legal actions as text."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def act(state: State, text: str) -> None:
    """Apply the unique legal action whose text equals ``text`` (or, failing that, contains it)."""
    legal = state.legal_actions()
    strings = {a: state.action_to_string(a) for a in legal}
    exact = [a for a, s in strings.items() if s == text]
    if len(exact) == 1:
        state.apply_action(exact[0])
        return
    part = [a for a, s in strings.items() if text in s]
    if len(part) != 1:
        raise AssertionError(f"{len(part)} legal actions match {text!r}:\n  "
                             + "\n  ".join(strings.values()))
    state.apply_action(part[0])


def play(state: State, *steps: str) -> None:
    """Apply several actions by text."""
    for step in steps:
        act(state, step)


# ----- building-use helpers shared by the effect tests ------------------------------------------
PLACE_ONLY = "place only, use no function"
LB, PR = 0, 2  # clergy indices: first lay brother, prior


def options(s) -> list[str]:
    """Texts of the pending OPTION choices, without the ``Bxx: `` prefix."""
    assert s.frame["f"] == "option", s.frame
    return [t.split(": ", 1)[1] for t in texts(s)]


def free_targets(s) -> list[str]:
    """Building ids offered by a pending free-use frame."""
    assert s.frame["f"] == "free_use", s.frame
    return sorted(t.split()[1] for t in texts(s) if t.startswith("FREE_USE"))


def pay(s, *goods: str) -> None:
    """Give tiles for a picked payment, by good name."""
    for g in goods:
        act(s, f"PAY 1 {g}")


def back_at_turn(s) -> None:
    """The use is over: the turn frame is on top again with its main action spent."""
    assert s.frame["f"] == "turn" and s.frame["main"] is True, s.frame


def set_joker(s, value_index: int) -> None:
    """Put the joker where it yields ``values[value_index]``."""
    w = s.g.wheel
    w.tokens["joker"] = (w.arm - value_index) % 13


def sweep_table(output: str) -> list[str]:
    """The rows of a printed sweep table (header, candidate rows, footnotes), without the
    progress bar before it: what two runs of one sweep must print alike."""
    lines = output[output.index("  #  best"):].splitlines()
    return [ln for ln in lines if (ln[:3].strip().isdigit() and ln[3:4] == " ")
            or ln.lstrip().startswith("#")]
