"""solver.api, the notebook entry points: docs/api.md's example runs as written, and every
entry point's bad input raises ApiError with a clear message and writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver import api

ROOT = Path(__file__).resolve().parent.parent
LINE = ROOT / "results" / "ireland-beam2000-seed0.json"


def test_the_docs_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.S)
    assert len(blocks) >= 5
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), namespace)
    out = capsys.readouterr().out
    assert "unknown variant 'italy'" in out
    assert namespace["better"].score.total >= 1 and namespace["rows"][0]["rank"] == 1


def test_a_line_searched_saves_and_replays(tmp_path):
    pos = api.position(record=LINE, at_round=32)
    found = api.search(pos, beam=4)
    assert found.actions[:len(pos.prefix)] == pos.prefix
    path = found.save(tmp_path / "line.json")
    again = api.load(path)
    assert again.actions == found.actions and again.score == found.score
    assert api.replay(path).confirmed
    with pytest.raises(api.ApiError, match="a file is there"):
        found.save(path)


@pytest.mark.parametrize("call, message", [
    (lambda: api.position("italy"), "unknown variant 'italy'"),
    (lambda: api.search("italy", beam=4), "unknown variant 'italy'"),
    (lambda: api.sweep("italy"), "unknown variant 'italy'"),
    (lambda: api.load("no/such/record.json"), "cannot read no/such/record.json"),
    (lambda: api.replay("no/such/record.json"), "cannot read"),
    (lambda: api.position("ireland", opening="USE LR9"), "USE LR9|LR9"),
    (lambda: api.position(record=LINE, at_round=40), "40"),
    (lambda: api.position("france", record=api.load(LINE)), "ireland game, not france"),
    (lambda: api.search("ireland"), "exactly one budget"),
    (lambda: api.search("ireland", beam=0), "beam must be a positive number"),
    (lambda: api.search("ireland", beam=4, nodes=10), "exactly one budget"),
    (lambda: api.search("ireland", beam=4, weights="no/such/weights.json"), "cannot read"),
    (lambda: api.sweep("ireland", seeds=[]), "seeds must be a non-empty list"),
    (lambda: api.sweep("ireland", seeds=[1, 1]), "distinct"),
    (lambda: api.sweep("ireland", beam=0), "beam must be a positive integer"),
    (lambda: api.sweep("ireland", turns=9), "turns must be 1 to 4"),
])
def test_bad_input_raises_one_error_type(call, message):
    with pytest.raises(api.ApiError, match=message):
        call()


def test_a_record_of_another_kind_is_refused(tmp_path):
    bad = tmp_path / "sweep.json"
    bad.write_text('{"kind": "openings"}')
    with pytest.raises(api.ApiError, match="not an ora-solve solo line record"):
        api.load(bad)


def test_a_review_never_values_a_round_below_the_line(tmp_path):
    line = api.load(LINE)
    rv = api.review(line, rounds=32, beam=4, seeds=[0])
    assert [r["round"] for r in rv.rounds] == [32]
    assert rv.rounds[0]["value"] >= line.score.total and rv.best.score.total >= line.score.total
    with pytest.raises(api.ApiError, match="round 40 is past the end of the line"):
        api.review(line, rounds=(30, 40))
    with pytest.raises(api.ApiError, match="beam must be a positive integer"):
        api.review(line, rounds=32, beam=0)
