"""results/README.md is what tools/results_table.py writes, names every record, and the
script's filing rule (best per variant, budget and seed on top, the rest in runs/)."""

from __future__ import annotations

import datetime
import importlib.util
import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"

_spec = importlib.util.spec_from_file_location("results_table", ROOT / "tools" / "results_table.py")
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def test_results_readme_is_what_the_script_writes():
    assert (RESULTS / "README.md").read_text() == T.render(), \
        "results/README.md is stale: run python tools/results_table.py"


def test_every_record_under_results_is_in_the_readme():
    # every JSON under results/ but the weights files and the finished jobs of a sweep or a
    # review (<OUT stem>.jobs/, scratch that git ignores), found here independently of the
    # script
    records = sorted(p.relative_to(RESULTS).as_posix() for p in RESULTS.rglob("*.json")
                     if p.relative_to(RESULTS).parts[0] != "weights"
                     and not any(part.endswith(".jobs") for part in p.relative_to(RESULTS).parts))
    assert len(records) > 50
    cells = {line.rstrip().rsplit("|", 2)[-2].strip() for line in
             (RESULTS / "README.md").read_text().splitlines() if line.startswith("| ")}
    missing = [r for r in records if f"`{r}`" not in cells]
    assert not missing, f"not in results/README.md's tables: {missing}"


def _record(folder: Path, name: str, total: int, commit: str, day: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"score": {"total": total}, "commit": commit, "created": day}))
    return path


def _names(moves, results):
    return [(s.relative_to(results).as_posix(), d.relative_to(results).as_posix())
            for s, d in moves]


def test_filing_keeps_the_best_under_the_plain_name_and_moves_the_rest_to_runs(tmp_path):
    r = tmp_path
    _record(r, "ireland-t60-seed0.json", 498, "110a0c0" + "0" * 33, "2026-12-01")
    _record(r, "ireland-t60-seed0-2.json", 531, "8038a7a" + "0" * 33, "2026-12-02")
    _record(r, "ireland-t60-seed0-3.json", 531, "8cf8c28" + "0" * 33, "2026-12-02")  # tie: later
    _record(r, "ireland-t60-seed0-4.json", 509, "8cf8c28" + "0" * 33 + "-dirty", "2026-12-02")
    _record(r, "ireland-t60-seed1.json", 530, "495708b" + "0" * 33, "2026-12-02")  # alone
    _record(r, "ireland-beam2000-seed0.json", 503, "11eefaf" + "0" * 33, "2026-11-29")
    _record(r, "ireland-beam2000-seed0-2.json", 536, "3f57b53" + "0" * 33, "2026-12-04")
    _record(r, "france-t600-seed2-2.json", 536, "628bff3" + "0" * 33, "2026-12-04")  # no plain
    _record(r, "runs/2026-12-02-8cf8c28/ireland-t60-seed0.json", 480, "8cf8c28", "2026-12-02")
    _record(r, "weights/ireland-beam10-seed0-2.json", 0, "x", "2026-12-02")
    assert _names(T.filing(r), r) == [
        ("ireland-beam2000-seed0-2.json", "runs/2026-12-04-3f57b53/ireland-beam2000-seed0.json"),
        ("ireland-t60-seed0-3.json", "runs/2026-12-02-8cf8c28/ireland-t60-seed0-2.json"),
        ("ireland-t60-seed0-4.json", "runs/2026-12-02-8cf8c28-dirty/ireland-t60-seed0.json"),
        ("ireland-t60-seed0.json", "runs/2026-12-01-110a0c0/ireland-t60-seed0.json"),
        ("france-t600-seed2-2.json", "france-t600-seed2.json"),
        ("ireland-t60-seed0-2.json", "ireland-t60-seed0.json"),
    ]
    for src, dest in T.filing(r):
        T.move(src, dest)  # not tracked by git here: plain renames
    assert T.filing(r) == []
    assert json.loads((r / "ireland-t60-seed0.json").read_text())["score"]["total"] == 531


def test_the_committed_records_are_filed():
    assert T.filing() == [], \
        "records to file: run python tools/results_table.py --file (then commit the moves)"


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: a path under results/ (globs and <placeholders> allowed; V stands for a variant)
RESULTS_PATH = re.compile(r"(?<![\w/.-])results/[\w./*\[\]<>-]*")
#: a record named relative to results/ in a table cell (docs/search.md's history tables)
TABLE_RECORD = re.compile(r"`((?:runs/[\w-]+/)?[a-z]+-[\w*\[\]-]*seed[\w*\[\]-]*\.json)`")


def _pointers():
    for doc in DOCS:
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            where = f"{doc.relative_to(ROOT)}:{n}"
            for m in RESULTS_PATH.finditer(line):
                if line[:m.start()].endswith("--out "):
                    continue  # where an example command writes, not a pointer
                yield where, m[0].rstrip(".,:;"), ROOT
            if line.startswith("|"):
                for m in TABLE_RECORD.finditer(line):
                    yield where, m[1], RESULTS


def test_every_results_path_named_in_readme_and_docs_exists():
    pointers = list(_pointers())
    assert len(pointers) > 20
    missing = []
    for where, text, base in pointers:
        pattern = re.sub(r"<[^>]*>", "*", text).replace("results/V-", "results/*-")
        if not list(base.glob(pattern)) and not (base / pattern).exists():
            missing.append(f"{where}: {text}")
    assert not missing, "paths under results/ that name no file:\n" + "\n".join(missing)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _commit(repo: Path, message: str, day: str) -> None:
    """Commit everything in ``repo`` dated ``day`` (YYYY-MM-DD, noon)."""
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message,
         f"--date={day}T12:00:00")


def test_a_new_record_under_a_name_used_before_is_dated_by_its_file_not_by_git(tmp_path):
    """Regression: a new record, not yet committed, named like a record git added days
    before (results/ireland-t60-seed0-2.json, filed away since) took that record's day."""
    import os

    _git(tmp_path, "init", "-q")
    old = tmp_path / "ireland-t60-seed0-2.json"
    old.write_text("{}")
    _commit(tmp_path, "old", "2026-12-02")
    _git(tmp_path, "rm", "-q", old.name)
    _commit(tmp_path, "moved", "2026-12-03")
    old.write_text("{}")  # a new run under the free name
    os.utime(old, (1796644800, 1796644800))  # 2026-12-07 (UTC noon)
    assert T.run_day(old, {}) == "2026-12-07"


def test_a_committed_record_that_replaced_another_under_its_name_is_dated_by_its_commit(
        tmp_path):
    """Regression: ireland-t600-seed0.json (527, f4e1a64), committed on 2026-12-06 in place of
    an older record of that name, was filed under runs/2026-12-01-f4e1a64/, the day git first
    added the name."""
    _git(tmp_path, "init", "-q")
    record = tmp_path / "ireland-t600-seed0.json"
    record.write_text('{"score": 517}')
    _commit(tmp_path, "first", "2026-12-01")
    record.write_text('{"score": 527}')  # a better run takes the name
    _commit(tmp_path, "replaced", "2026-12-06")
    (tmp_path / "other.txt").write_text("later work")
    _commit(tmp_path, "later", "2026-12-07")
    assert T.run_day(record, {}) == "2026-12-06"
    record.write_text('{"score": 552}')  # replaced again, not yet committed: the file's day
    assert T.run_day(record, {}) == datetime.date.fromtimestamp(
        record.stat().st_mtime).isoformat()


def test_a_record_rewritten_by_a_later_commit_is_dated_by_its_code_commit(tmp_path):
    """Regression: france-beam100-seed0.json (run at a 2026-11-29 commit) would have been
    dated 2026-11-30, the day a format change rewrote it, by the last commit that changed
    the file."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "code.py").write_text("search = 1")
    _commit(tmp_path, "the code", "2026-11-29")
    code = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True,
                          text=True, check=True).stdout.strip()
    record = tmp_path / "france-beam100-seed0.json"
    for body, day in (({"commit": code, "score": 450}, "2026-11-29"),
                      ({"commit": code, "score": 450, "rounds": []}, "2026-11-30")):
        record.write_text(json.dumps(body))  # run, then rewritten by a format change
        _commit(tmp_path, "record", day)
    assert T.run_day(record, json.loads(record.read_text())) == "2026-11-29"
    dirty = {"commit": code[:7] + "-dirty"}  # run on an edited tree of that commit
    assert T.run_day(record, dirty) == "2026-11-29"
    assert T.run_day(record, dirty | {"date": "2026-12-08T09:30:00+00:00"}) == "2026-12-08"
