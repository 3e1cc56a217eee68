"""Tests for ``ora-solve replay`` (exit codes, JSON shape, text output)."""

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

GAMES = Path(__file__).parent / "data" / "games"


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
