"""Results records (solver/search/records.py): a wrong score or an illegal move is caught, a
bad file is named, and every record committed under results/ replays on the reference
engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.search import records
from solver.search.beam import beam_search

RESULTS = Path(__file__).resolve().parents[2] / "results"


def test_verify_record_rejects_a_wrong_score_and_an_illegal_move(tmp_path):
    r = beam_search("ireland", width=2)
    rec = records.make_record(command="test", variant="ireland", algorithm="beam",
                              params={}, seed=0, nodes=r.nodes, seconds=r.seconds,
                              score=r.score, line=r.line)
    bad = json.loads(json.dumps(rec))
    bad["score"]["total"] += 1
    ok, message, _ = records.verify_record(bad)
    assert not ok and "differs" in message
    bad = json.loads(json.dumps(rec))
    bad["line"][3] = 99999
    ok, message, _ = records.verify_record(bad)
    assert not ok and "illegal" in message
    path = tmp_path / "r.json"
    path.write_text(json.dumps(bad))
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 1 and "FAILED" in res.output


def test_load_record_names_the_problem(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(records.RecordError, match="not JSON"):
        records.load_record(p)
    p.write_text(json.dumps({"kind": records.KIND, "variant": "ireland", "line": "no"}))
    with pytest.raises(records.RecordError, match="'line'"):
        records.load_record(p)


# every line record under results/, recursively (runs/ too): not weights/ (weights files of
# `ora-solve tune`), sweeps/ (sweep records, replayed by tests/research/test_sweeps.py) nor
# reviews/ (review records, replayed by tests/research/test_review.py; a review's better
# line, <stem>.best.json, is a line record and replays here)
COMMITTED = sorted((p for p in RESULTS.rglob("*.json")
                    if p.relative_to(RESULTS).parts[0] not in ("weights", "sweeps", "reviews")
                    or p.name.endswith(".best.json")),
                   key=lambda p: p.relative_to(RESULTS).as_posix())


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.relative_to(RESULTS).as_posix())
def test_every_committed_result_replays_on_the_reference_engine(path):
    data = records.load_record(path)
    ok, message, _ = records.verify_record(data)
    assert ok, f"{path.relative_to(RESULTS)}: {message}"


def test_a_record_names_the_commit_its_work_started_on(monkeypatch):
    # bug: a review that ran 46 minutes named the commit made while it ran
    records.code_commit.cache_clear()
    monkeypatch.setattr(records, "git_commit", lambda cwd=None: "a" * 40)
    assert records.code_commit() == "a" * 40
    monkeypatch.setattr(records, "git_commit", lambda cwd=None: "b" * 40)
    assert records.code_commit() == "a" * 40
    records.code_commit.cache_clear()
