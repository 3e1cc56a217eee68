"""The command-list and prefix API of solver.rules.notation: kennerspiel command lists read
as records, kennerspiel moves applied to a fresh solo game (the research workflow's prefix),
and the inverse, engine actions written as kennerspiel commands one by one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solver.rules import actions as A
from solver.rules import new_initial_state
from solver.rules.notation import (
    GameConfig,
    NotationError,
    RecordError,
    apply_moves,
    command_for_action,
    export_actions,
    export_history,
    parse_command_list,
    record_from_commands,
    replay_record,
    solo_state,
)

GAMES = Path(__file__).parents[2] / "data" / "games"


def _same_state(a, b) -> bool:
    da, db = a.to_dict(), b.to_dict()
    da.pop("history"), db.pop("history")
    return da == db


def _random_solo(variant: str, seed: int, steps: int | None = None):
    st = new_initial_state(variant, 1, "long")
    rng = random.Random(seed)
    while not st.is_terminal() and (steps is None or len(st.history()) < steps):
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_parse_command_list_splits_on_whitespace_and_skips_blank_and_comment_lines():
    text = "CONFIG 1 france long\n\n# opening\nSTART  R\tW\n   USE LR2 Sh  \r\n  # x\nCOMMIT"
    assert parse_command_list(text) == [["CONFIG", "1", "france", "long"], ["START", "R", "W"],
                                        ["USE", "LR2", "Sh"], ["COMMIT"]]


def test_record_from_commands_reads_config_and_start():
    rec = record_from_commands([["CONFIG", "3", "ireland", "short"], ["START", "B", "R", "G"],
                                ["COMMIT"]])
    assert rec["config"] == {"players": 3, "country": "ireland", "length": "short"}
    assert rec["start"]["seat_colors"] == ["B", "R", "G"] and rec["start"]["seed"] is None


def test_seeded_solo_start_takes_the_neutral_colour_from_the_moves():
    moves = [["CONFIG", "1", "france", "long"], ["START", "42", "R"],
             ["WORK_CONTRACT", "LB1", "Pn"], ["USE", "LB1"], ["COMMIT"]]
    assert record_from_commands(moves)["start"]["neutral_color"] == "B"
    assert record_from_commands(moves[:2])["start"]["neutral_color"] is None


def test_seeded_start_seat_order_is_the_one_the_moves_fit():
    rec = json.loads((GAMES / "ken-game-c4-1.json").read_text())  # START 98369 R W
    made = record_from_commands(rec["moves"])
    rp = replay_record(made, "kennerspiel")
    assert [o.colour for o in rp.state.g.owners] == rec["start"]["seat_colors"] == ["W", "R"]


def test_ambiguous_seat_order_is_a_record_error():
    rec = record_from_commands([["CONFIG", "2", "france", "long"], ["START", "42", "R", "B"],
                                ["COMMIT"]])
    with pytest.raises(RecordError, match="fit 2 orders"):
        replay_record(rec)


def test_solo_state_applies_a_prefix_to_a_fresh_rulebook_solo_game():
    st = solo_state(["USE LR2 Sh", ["COMMIT"], "FELL_TREES 1 0", "COMMIT"], "france")
    fresh = new_initial_state("france", 1, "long")
    assert st.profile.name == "rulebook" and st.g.variant == "france"
    assert st.round == fresh.round + 1 and st.current_player() == 0
    assert st.g.owners[0].goods != fresh.g.owners[0].goods
    text = "USE LR2 Sh\nCOMMIT\n# c\nFELL_TREES 1 0\nCOMMIT\n"
    assert solo_state(text, "france").to_dict() == st.to_dict()


@pytest.mark.parametrize("moves,message,malformed", [
    (["USE LR2 Sh", "BUILD G01"], "move 1 (BUILD G01): expected BUILD <building> <col> <row>",
     True),
    (["USE LR2 Sh", "USE LR3"], "move 1 (USE LR3): ", False),
    (["COMMIT", "WITH_PRIOR"], "move 1 (WITH_PRIOR): WITH_PRIOR must be followed by the USE",
     True),
])
def test_prefix_errors_name_the_move(moves, message, malformed):
    with pytest.raises(NotationError) as e:
        solo_state(moves, "france")
    assert str(e.value).startswith(message) and e.value.malformed is malformed


def test_apply_moves_numbers_moves_from_first_index():
    st = new_initial_state("ireland", 1, "long")
    with pytest.raises(NotationError, match=r"^move 12 \(DANCE\): unknown command"):
        apply_moves(st, ["USE LR1", "DANCE"], first_index=11)


@pytest.mark.parametrize("variant,seed,cut", [("france", 4, 60), ("ireland", 2, 75),
                                               ("france", 5, 101)])
def test_engine_line_written_from_a_prefix_is_the_export_of_the_whole_game(variant, seed, cut):
    full = _random_solo(variant, seed)
    line = full.history()
    prefix = new_initial_state(variant, 1, "long")
    for a in line[:cut]:
        prefix.apply_action(a)
    while prefix.frame["f"] in ("pay", "pick_cells"):  # a line is written from a decision
        prefix.apply_action(line[cut])
        cut += 1
    before = prefix.to_dict()
    tail = export_actions(prefix, line[cut:])
    assert prefix.to_dict() == before  # not changed
    head = export_actions(new_initial_state(variant, 1, "long"), line[:cut])
    cols = [o.colour for o in full.g.owners]
    whole = export_history(GameConfig(1, variant, "long", cols[:1], cols[1]), line)
    assert head + tail == whole[2:]
    assert _same_state(solo_state(head + tail, variant), full)


def test_command_for_action_writes_one_move_per_action():
    st = new_initial_state("france", 1, "long")
    fell = next(a for a in st.legal_actions() if st.action_to_string(a) == "FELL_TREES at (1, 0)")
    assert command_for_action(st, fell) == [["FELL_TREES", "1", "0"]]
    assert command_for_action(st, A.make("COMMIT")) == [["COMMIT"]]
    use = A.make("USE", "LR2", flag=0)
    assert command_for_action(st, use) == []  # written with the option that follows
    st.apply_action(use)
    sheep = next(a for a in st.legal_actions() if "sheep" in st.action_to_string(a))
    assert command_for_action(st, sheep) == [["USE", "LR2", "Sh"]]
    assert st.frame["f"] == "option"  # the state is not changed
