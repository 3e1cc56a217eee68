"""Perft counts from fixed positions (tests/data/perft.json, made by tools/gen_perft.py).

A mismatch means some action became legal or illegal somewhere in the tree: the assertion
prints the divide (count per first action, expected vs actual) so the branch can be followed
down with ``divide`` from the position reached by that action.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from solver.rules import new_initial_state
from solver.rules.perft import divide, perft

DATA = json.loads((pathlib.Path(__file__).parents[1] / "data" / "perft.json").read_text("utf-8"))
POSITIONS = DATA["positions"]


def _position(entry):
    """Replay the stored action-id prefix from the initial solo position."""
    state = new_initial_state(variant=entry["variant"], players=1, length="long",
                              profile=entry["profile"])
    for i, action in enumerate(entry["actions"]):
        assert action in state.legal_actions(), (
            f"{entry['name']}: prefix action {i} ({action}) is no longer legal")
        state.apply_action(action)
    return state


def _divide_report(expected: dict[str, int], actual: dict[str, int]) -> str:
    """Per-first-action table of expected vs actual counts, differences marked."""
    lines = [f"{'first action':<60} {'expected':>9} {'actual':>9}"]
    for text in list(expected) + [t for t in actual if t not in expected]:
        e, a = expected.get(text), actual.get(text)
        mark = "" if e == a else "   <-- differs"
        lines.append(f"{text:<60} {'-' if e is None else e:>9} {'-' if a is None else a:>9}"
                     f"{mark}")
    return "\n".join(lines)


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft_counts(entry):
    state = _position(entry)
    assert state.round == entry["round"] and state.frame["f"] == entry["frame"], (
        f"{entry['name']}: replay reached round {state.round}, frame {state.frame['f']}; "
        f"expected round {entry['round']}, frame {entry['frame']}")
    depth = max(int(d) for d in entry["counts"])
    actual_divide = divide(state, depth)
    actual = {str(d): perft(state, d) for d in range(1, depth)}
    actual[str(depth)] = sum(actual_divide.values())
    assert actual == entry["counts"] and actual_divide == entry["divide"], (
        f"{entry['name']} ({entry['shows']}): perft counts by depth\n"
        f"  expected {entry['counts']}\n  actual   {actual}\n"
        f"divide at depth {depth}:\n{_divide_report(entry['divide'], actual_divide)}")


def test_perft_depth_zero_and_terminal_are_one_leaf():
    state = new_initial_state("ireland")
    assert perft(state, 0) == 1
    end = _position(next(p for p in POSITIONS if p["name"] == "ireland-game-end"))
    while not end.is_terminal():
        end.apply_action(end.legal_actions()[0])
    assert perft(end, 0) == perft(end, 1) == perft(end, 5) == 1


def test_divide_sums_to_perft():
    state = new_initial_state("france")
    split = divide(state, 3)
    assert len(split) == len(state.legal_actions())
    assert sum(split.values()) == perft(state, 3)


def test_divide_report_marks_the_differing_branch():
    report = _divide_report({"COMMIT": 3, "USE x": 5}, {"COMMIT": 3, "USE x": 4, "NEW": 1})
    lines = report.splitlines()
    assert "differs" not in lines[1]
    assert "differs" in lines[2] and "differs" in lines[3]
