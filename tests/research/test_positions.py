"""Positions to search from (solver/research/positions.py; complete_line: an NRPA seed line)
and `solo --from/--opening`."""

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from solver.research import beam_adapter as BA
from solver.research import positions as P
from solver.search import records
from solver.search.beam import beam_search

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
RECORD = RESULTS / "ireland-beam100-seed0.json"


@pytest.fixture(scope="module")
def line():
    return json.loads(RECORD.read_text())["line"]


def test_at_round_cuts_at_the_first_turn_of_the_round(line):
    pos = P.resolve(None, str(RECORD), at_round=12)
    W, prefix = BA.state_at_round("ireland", line, 12)
    assert pos.prefix == prefix and pos.round == 12
    assert np.array_equal(pos.wide(), W)  # reference state through the codec = fast replay
    assert pos.line == line
    assert pos.own_turn() == line[len(prefix):len(prefix) + len(pos.own_turn())]


def test_moves_cut_and_kennerspiel_round_trip(line):
    pos = P.resolve(None, str(RECORD), moves=40)
    assert pos.prefix == line[:40]
    moves = pos.moves()
    assert moves[0][0] in P.NA.COMMANDS
    again = P.from_moves("ireland", moves)
    assert again.prefix == pos.prefix
    assert np.array_equal(again.packed(), pos.packed())


def test_opening_and_move_list_file(tmp_path):
    text = "CUT_PEAT 0 0; COMMIT; USE LR1; COMMIT"
    pos = P.resolve("ireland", opening=text)
    assert [m[0] for m in pos.moves()] == ["CUT_PEAT", "COMMIT", "USE", "COMMIT"]
    f = tmp_path / "moves.txt"
    f.write_text("# my opening\nCUT_PEAT 0 0\nCOMMIT\n\nUSE LR1\nCOMMIT\n")
    assert P.resolve("ireland", str(f)).prefix == pos.prefix
    assert P.resolve("ireland", str(f), moves=2).prefix == pos.prefix[:1]


def test_corpus_record_in_other_colours(tmp_path):
    moves = [["CONFIG", "1", "ireland", "long"], ["START", "G", "W"], ["CUT_PEAT", "0", "0"],
             ["COMMIT"], ["USE", "LG1"], ["COMMIT"]]
    rec = {"config": {"players": 1, "country": "ireland", "length": "long"},
           "start": {"seat_colors": ["G"], "neutral_color": "W"}, "moves": moves}
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec))
    pos = P.resolve(None, str(f))
    assert pos.prefix == P.resolve("ireland", opening="CUT_PEAT 0 0; COMMIT; USE LR1; COMMIT"
                                   ).prefix


@pytest.mark.parametrize("kwargs, message", [
    ({"opening": "CUT_PEAT 0 0; COMMIT; BUILD G07 3 0"},
     "move 3 (BUILD G07 3 0): "),
    ({"opening": "USE XX99"}, "move 1 (USE XX99): unknown building 'XX99'"),
    ({"opening": "BUILD ZZ9 3 0"}, "move 1 (BUILD ZZ9 3 0): unknown building 'ZZ9'"),
    ({"opening": "BUILD G07 x 0"}, "parameter 2 of BUILD must be an integer"),
    ({"opening": "cut_peat 0 0"}, "move 1 (cut_peat 0 0): unknown command 'cut_peat'"),
    ({"opening": "CUT_PEAT 0"}, "move 1 (CUT_PEAT 0): expected CUT_PEAT"),
    ({"from_file": str(RECORD), "at_round": 40}, "round 40 is past the end of the line"),
    ({"from_file": str(RECORD), "moves": 9999}, "--moves 9999: the line has only"),
    ({"from_file": "/nonexistent/x.json"}, "cannot read /nonexistent/x.json"),
])
def test_bad_prefixes_name_the_move(kwargs, message):
    with pytest.raises(P.PositionError) as e:
        P.resolve("ireland", **kwargs)
    assert message in str(e.value)


def test_beam_search_from_a_position_keeps_the_prefix(line):
    pos = P.resolve(None, str(RECORD), at_round=30)
    r = beam_search("ireland", 5, 0, start=pos.start())
    assert r.line[:len(pos.prefix)] == pos.prefix
    rec = records.make_record(command="t", variant="ireland", algorithm="beam", params={},
                              seed=0, nodes=r.nodes, seconds=r.seconds, score=r.score,
                              line=r.line)
    ok, message, _ = records.verify_record(rec)
    assert ok, message
    # a wide start gives the same line as the packed one
    assert beam_search("ireland", 5, 0, start=(pos.wide(), pos.prefix)).line == r.line


def _solo(args, tmp_path):
    out = tmp_path / "rec.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "5",
                                    "--out", str(out)] + args)
    return res, out


def test_solo_from_a_position_writes_a_replayable_record(tmp_path):
    res, out = _solo(["--from", str(RECORD), "--at-round", "31"], tmp_path)
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["position"]["round"] == 31 and "--at-round 31" in rec["command"]
    assert rec["line"][:rec["position"]["prefix_actions"]] == \
        json.loads(RECORD.read_text())["line"][:rec["position"]["prefix_actions"]]
    replay = CliRunner().invoke(main, ["replay", str(out)])
    assert replay.exit_code == 0 and "confirmed" in replay.output


@pytest.mark.parametrize("args, message", [
    (["--opening", "CUT_PEAT 0 0; COMMIT; BUILD G07 3 0"], "solo: move 3 (BUILD G07 3 0)"),
    (["--opening", "USE NOPE"], "unknown building 'NOPE'"),
    (["--from", str(RECORD), "--at-round", "99"], "round 99 is past the end"),
])
def test_solo_bad_position_exits_2_and_writes_nothing(tmp_path, args, message):
    res, out = _solo(args, tmp_path)
    assert res.exit_code == 2
    assert message in res.output
    assert not out.exists()


def test_nrpa_seed_line_must_be_a_complete_game(tmp_path):
    from solver.research.positions import PositionError, complete_line

    half = tmp_path / "half.json"
    rec = json.loads((RESULTS / "ireland-beam100-seed0.json").read_text())
    rec["line"] = rec["line"][:40]
    half.write_text(json.dumps(rec))
    with pytest.raises(PositionError, match="its line stops in round 8, before the game ends"):
        complete_line("ireland", str(half))
    full, cut = complete_line("ireland", str(RESULTS / "ireland-beam100-seed0.json"), 31)
    assert full.state.is_terminal() and full.line == cut.line and cut.round == 31
    assert cut.line[:len(cut.prefix)] == cut.prefix and len(cut.prefix) < len(full.line)
