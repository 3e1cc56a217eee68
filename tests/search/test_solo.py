"""The `ora-solve solo` job (solver/search/solo.py)."""

from __future__ import annotations

from solver.search import records


def test_a_record_names_the_commit_its_search_started_on(tmp_path, monkeypatch):
    from solver.search.solo import SoloJob, run_solo

    commits = iter(["aaaa-at-the-start", "bbbb-after-the-search"])
    monkeypatch.setattr(records, "git_commit", lambda cwd=None: next(commits))
    rec, _ = run_solo(SoloJob(variant="france", width=2), out=str(tmp_path / "r.json"),
                      command="test", quiet=True)
    assert rec["commit"] == "aaaa-at-the-start"
