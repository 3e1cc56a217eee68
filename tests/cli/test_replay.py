"""Tests for ``ora-solve replay`` (exit codes, JSON shape, text output)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

GAMES = Path(__file__).parents[1] / "data" / "games"


def _run(*args):
    return CliRunner().invoke(main, ["replay", *map(str, args)])


def test_replay_json_matches_recorded_final_scores():
    r = _run(GAMES / "wl-game44462.json", "--profile", "kennerspiel", "--json")
    assert r.exit_code == 0, r.output + r.stderr
    data = json.loads(r.stdout)
    assert set(data) == {"finished", "round", "players"}
    assert data["finished"] is True and data["round"] == 13
    assert [(p["color"], p["total"]) for p in data["players"]] == [("R", 180), ("G", 204),
                                                                   ("B", 177)]
    assert set(data["players"][0]) == {"color", "total", "goods", "economic", "dwelling"}


def test_replay_text_lists_every_player():
    r = _run(GAMES / "ken-game29767.json", "--profile", "kennerspiel")
    assert r.exit_code == 0
    assert "not finished" in r.stdout and "R" in r.stdout and " 9 " in r.stdout


def test_rejected_move_exits_1_naming_the_move(tmp_path):
    rec = json.loads((GAMES / "ken-game29767.json").read_text())
    rec["moves"] = rec["moves"][:2] + [["BUILD", "G01", "3", "1"]]
    rec.pop("actors")
    f = tmp_path / "g.json"
    f.write_text(json.dumps(rec))
    r = _run(f, "--profile", "kennerspiel")
    assert r.exit_code == 1
    assert r.stderr.startswith("move 2 (BUILD G01 3 1): ")


def test_malformed_file_exits_2(tmp_path):
    f = tmp_path / "g.json"
    f.write_text('{"config": {"players": 5, "country": "france", "length": "long"}, '
                 '"start": {}, "moves": []}')
    r = _run(f)
    assert r.exit_code == 2 and "players" in r.stderr
    f.write_text("not json")
    r = _run(f)
    assert r.exit_code == 2 and "JSON" in r.stderr


# ----- kennerspiel command lists (issue 15 item 2) -------------------------------------------
def _commands(name: str) -> tuple[list[str], dict]:
    """A corpus game's moves written as kennerspiel command strings, and the record."""
    rec = json.loads((GAMES / f"{name}.json").read_text())
    return [" ".join(m) for m in rec["moves"]], rec


def _recorded(rec: dict) -> list[tuple]:
    scores = rec["final_scores"] or rec["scores_after_last_move"]
    return [(p["color"], p["total"], p["goods"], p["economic"], p["dwelling"]) for p in scores]


def _replayed(stdout: str) -> list[tuple]:
    return [(p["color"], p["total"], p["goods"], p["economic"], p["dwelling"])
            for p in json.loads(stdout)["players"]]


def test_plain_command_list_replays_to_the_recorded_scores(tmp_path):
    lines, rec = _commands("wl-game29767")  # complete solo France game, R 428
    assert lines[:2] == ["CONFIG 1 france long", "START R W"]
    text = "# wl-game29767 as a command list\n" + "\n".join(
        lines[:50] + ["", "  # a comment line"] + ["  " + x.replace(" ", "\t ") for x in lines[50:]]
    ) + "\n"
    f = tmp_path / "game.txt"
    f.write_text(text)
    r = _run(f, "--profile", "kennerspiel", "--json")
    assert r.exit_code == 0, r.output + r.stderr
    assert json.loads(r.stdout)["finished"] is True
    assert _replayed(r.stdout) == _recorded(rec) and _recorded(rec)[0][1] == 428


def test_text_output_of_a_command_list(tmp_path):
    lines, _ = _commands("wl-game44462")
    f = tmp_path / "game.txt"
    f.write_text("\n".join(lines))
    r = _run(f, "--profile", "kennerspiel")
    assert r.exit_code == 0, r.output + r.stderr
    assert "round 13, finished" in r.stdout
    assert [ln.split()[1:3] for ln in r.stdout.splitlines()[2:]] == [["R", "180"], ["G", "204"],
                                                                   ["B", "177"]]


def test_json_command_list_with_a_seeded_start_replays(tmp_path):
    lines, rec = _commands("ken-game4aedf9e5")  # START 1699 R G B: kennerspiel seated G B R
    assert lines[1] == "START 1699 R G B" and rec["start"]["seat_colors"] == ["G", "B", "R"]
    f = tmp_path / "game.json"
    f.write_text(json.dumps(lines))
    r = _run(f, "--profile", "kennerspiel", "--json")
    assert r.exit_code == 0, r.output + r.stderr
    assert _replayed(r.stdout) == _recorded(rec)


def _bad(tmp_path, lines, name="game.txt"):
    f = tmp_path / name
    f.write_text(json.dumps(lines) if name.endswith(".json") else "\n".join(lines))
    return _run(f, "--profile", "kennerspiel")


@pytest.mark.parametrize("move,reason", [
    ("BUILD G01 3", "expected BUILD <building> <col> <row>, got 2 parameters"),
    ("BUILD G99 3 1", "parameter 1 'G99': unknown building"),
    ("FELL_TREES one 0", "parameter 1 'one': expected an integer"),
    ("BUY_DISTRICT 2 FOREST", "parameter 2 'FOREST': expected PLAINS or HILLS"),
    ("CONVERT GnXx", "parameter 1 'GnXx': unknown resource code 'Xx' in 'GnXx'"),
    ("DANCE", "unknown command 'DANCE'"),
    ("USE LR2 Xy", "unknown resource code 'Xy' in 'Xy'"),
])
def test_malformed_command_exits_2_naming_the_move(tmp_path, move, reason):
    lines = _commands("wl-game29767")[0][:6] + [move] + ["COMMIT"]
    r = _bad(tmp_path, lines)
    assert r.exit_code == 2
    assert r.stderr == f"move 6 ({move}): {reason}\n" and r.stdout == ""


def test_malformed_move_late_in_the_list_is_reported_before_any_replay(tmp_path):
    lines = _commands("wl-game29767")[0]
    lines[120] = "SETTLE SR9 1 1 MtMt"
    r = _bad(tmp_path, lines, "game.json")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("move 120 (SETTLE SR9 1 1 MtMt): parameter 1 'SR9'")


@pytest.mark.parametrize("lines,start", [
    (["CONFIG 5 france long", "START R W"], "move 0 (CONFIG 5 france long): players must be 1-4"),
    (["CONFIG 2 france", "START R B"], "move 0 (CONFIG 2 france): expected CONFIG <players>"),
    (["CONFIG 2 france long", "START R R"],
     "move 1 (START R R): expected START [<seed>] and 2 different colours"),
    (["START R W", "CONFIG 1 france long"],
     "move 0 (START R W): a command list opens with CONFIG and then START"),
])
def test_malformed_setup_exits_2(tmp_path, lines, start):
    r = _bad(tmp_path, lines + ["COMMIT"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith(start)


def test_illegal_command_exits_1_naming_the_move(tmp_path):
    r = _bad(tmp_path, ["CONFIG 1 france long", "START R W", "USE LR1", "USE LR2 Sh"])
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("move 3 (USE LR2 Sh): ")


def test_illegal_command_of_a_seeded_game_names_the_move(tmp_path):
    lines = _commands("ken-game-c4")[0] + ["BUILD G01 3 1"]
    r = _bad(tmp_path, lines, "game.json")
    assert r.exit_code == 1
    assert r.stderr.startswith(f"move {len(lines) - 1} (BUILD G01 3 1): ")


def test_seat_order_the_moves_leave_open_exits_2(tmp_path):
    r = _bad(tmp_path, ["CONFIG 2 france long", "START 42 R B", "COMMIT"])
    assert r.exit_code == 2 and "fit 2 orders (R B, B R)" in r.stderr


def test_json_list_of_non_commands_exits_2(tmp_path):
    r = _bad(tmp_path, ["CONFIG 1 france long", 7], "game.json")
    assert r.exit_code == 2 and "entry 1 of the command list" in r.stderr
