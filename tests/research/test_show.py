"""`ora-solve show`: rounds, the text map against the reference state, pictures."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.research import show as S
from solver.rules.names import with_names

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "results" / "ireland-beam100-seed0.json"


@pytest.fixture(scope="module")
def record():
    return json.loads(RECORD.read_text())


def _parse_map(text: str) -> tuple[dict, set]:
    """(col, row) -> (terrain, content) read back from a text map, and the starred spaces."""
    lines = text.splitlines()
    cells, starred = {}, set()
    for line in lines[1:]:
        if not line[:3].strip().lstrip("-").isdigit():
            break
        row = int(line[:3])
        body = line[4:]
        for i, col in enumerate(S.COLS):
            chunk = body[i * S.CELL:(i + 1) * S.CELL].strip()
            if chunk:
                terrain, _, content = chunk.partition(":")
                cells[(col, row)] = (terrain, content.rstrip("*") or None)
                if chunk.endswith("*"):
                    starred.add((col, row))
    return cells, starred


@pytest.mark.parametrize("upto", [0, 61, 150, 203, None])
def test_text_map_matches_the_reference_state(record, upto):
    line = record["line"] if upto is None else record["line"][:upto]
    st = S.state_after("ireland", line)
    land = st.g.owners[0].land
    got, starred = _parse_map(S.text_map(st))
    want = {cell: (t, {"forest": "Fo", "moor": "Mo"}.get(c, c)) for cell, (t, c) in
            land.cells.items()}
    assert got == want
    clergy = {(p[1], p[2]) for o in st.g.owners for p in o.clergy if p and p[0] == 0}
    assert starred == clergy


def test_rounds_end_on_the_recorded_score(record):
    parts = S.rounds("ireland", record["line"])
    assert parts[-1].score == record["score"]
    assert parts[0].when == "round 1"
    assert any("settlement A" in p.when for p in parts)
    assert parts[-1].actions_done == len(record["line"])
    assert sum(len(p.actions) for p in parts) == len(record["line"])


def test_building_names():
    assert with_names("BUILD G07 at (3, 0)") == "BUILD Peat Coal Kiln (G07) at (3, 0)"
    assert with_names("G07: all peat") == "Peat Coal Kiln (G07): all peat"
    assert with_names("SETTLE S2 at (1, 2)") == "SETTLE S2 at (1, 2)"


def test_show_prints_rounds_and_writes_valid_pictures(tmp_path):
    png, svg = tmp_path / "l.png", tmp_path / "l.svg"
    res = CliRunner().invoke(main, ["show", str(RECORD), "--at-round", "12", "--png", str(png),
                                    "--svg", str(svg)])
    assert res.exit_code == 0, res.output
    assert "BUILD Peat Coal Kiln (G07) at (3, 0)" in res.output
    assert "landscape at round 12" in res.output and "goods: " in res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10000
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("args, message", [
    (["--at-round", "40"], "round 40 is past the end of the line"),
    (["--png", "/nonexistent-dir/x.png"], "cannot write /nonexistent-dir/x.png"),
])
def test_show_bad_input_exits_2(tmp_path, args, message):
    res = CliRunner().invoke(main, ["show", str(RECORD), "--svg", str(tmp_path / "a.svg")]
                             + args)
    assert res.exit_code == 2 and message in res.output
    assert not (tmp_path / "a.svg").exists()


def test_show_malformed_record(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = CliRunner().invoke(main, ["show", str(bad)])
    assert res.exit_code == 2 and "is not JSON" in res.output
