"""Nothing is lost when the disk fills (issue 33): a write that fails after the work keeps it
in a fallback file or on stdout, a stopped sweep says how to resume, and progress off a
terminal is a short log. The failing file system is simulated: writes into one directory
raise ENOSPC, as on a full disk."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.search import progress, records
from solver.search.beam import beam_search
from tests.helpers import sweep_table

ROOT = Path(__file__).resolve().parents[2]
SOLO = ["solo", "--variant", "ireland", "--beam", "3"]


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    """Compile (or load) the beam's kernels once, before any run is timed or signalled."""
    beam_search("ireland", width=2)


@pytest.fixture
def disk(tmp_path, monkeypatch):
    """``full``: a directory whose writes fail with ENOSPC (from the n-th on, ``fail_after``
    counts the writes that still succeed); ``tmp``: $TMPDIR, where the fallbacks go."""

    class Disk:
        full = tmp_path / "full"
        tmp = tmp_path / "tmp"
        fail_after = 0
        full_tmp = False  # the fallback's directory is full too

    d = Disk()
    d.full.mkdir()
    d.tmp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(d.tmp))
    real = records.write_atomic

    def write_atomic(path, content, replace=False):
        parent = Path(path).resolve().parent
        if parent == d.tmp and d.full_tmp or d.full in (parent, *parent.parents):
            if d.fail_after <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            d.fail_after -= 1
        return real(path, content, replace=replace)

    monkeypatch.setattr(records, "write_atomic", write_atomic)
    return d


def _one_line(stderr: str, command: str) -> str:
    """The command's message about the failed write: a single line, no traceback."""
    assert "Traceback" not in stderr
    lines = [ln for ln in stderr.splitlines() if "cannot write" in ln]
    assert all(ln.startswith(command + ": ") for ln in lines), stderr
    assert len(lines) == 1, stderr
    return lines[0]


def test_solo_writes_the_record_to_the_fallback_when_the_disk_is_full(disk):
    out = disk.full / "x.json"
    res = CliRunner().invoke(main, SOLO + ["--out", str(out)])
    assert res.exit_code == 1, res.output
    kept = disk.tmp / "ora-solve-x.json"
    assert _one_line(res.stderr, "ora-solve solo") == (
        f"ora-solve solo: cannot write the record to {out} (No space left on device); "
        f"it was written to {kept} instead")
    assert list(disk.full.iterdir()) == []  # nothing half-written where it failed
    assert f"record written to {kept}" in res.stdout  # the usual summary, with its place
    rep = CliRunner().invoke(main, ["replay", str(kept)])
    assert rep.exit_code == 0 and "confirmed" in rep.output, rep.output
    assert records.verify_record(records.load_record(kept))[0]


def test_solo_prints_the_record_when_the_fallback_fails_too(disk):
    disk.full_tmp = True
    out = disk.full / "x.json"
    res = CliRunner().invoke(main, SOLO + ["--out", str(out)])
    assert res.exit_code == 1, res.output
    assert _one_line(res.stderr, "ora-solve solo") == (
        f"ora-solve solo: cannot write the record to {out} (No space left on device), nor to "
        f"{disk.tmp / 'ora-solve-x.json'} (No space left on device): it is printed on stdout")
    rec = json.loads(res.stdout)  # stdout is the record, whole
    assert rec["kind"] == records.KIND and records.verify_record(rec)[0]
    assert list(disk.full.iterdir()) == [] and list(disk.tmp.iterdir()) == []


def test_a_fallback_never_replaces_an_earlier_one(disk):
    (disk.tmp / "ora-solve-x.json").write_text("an earlier run's record\n")
    with pytest.raises(records.Unsaved) as e:
        records.write_record({"a": 1}, disk.full / "x.json")
    assert e.value.kept == disk.tmp / "ora-solve-x-2.json" and e.value.errno == errno.ENOSPC
    assert json.loads(e.value.kept.read_text()) == {"a": 1}
    assert (disk.tmp / "ora-solve-x.json").read_text() == "an earlier run's record\n"


def _rows(path: Path) -> list[dict]:
    """A sweep record's rows without the jobs' wall times (the rest is deterministic)."""
    rows = json.loads(path.read_text())["rows"]
    for r in rows:
        for run in r["runs"]:
            del run["seconds"]
    return rows


def _openings(out: Path, *more: str) -> list[str]:
    return ["openings", "--variant", "ireland", "--file", str(out.parent / "three.txt"),
            "--seeds", "0,1", "--beam", "1", "--jobs", "1", "--out", str(out), *more]


def test_a_sweep_that_cannot_save_a_job_stops_and_resumes_to_the_same_table(disk, tmp_path):
    (disk.full / "three.txt").write_text("CUT_PEAT 0 0; COMMIT\nFELL_TREES 1 0; COMMIT\n"
                                         "USE LR1; COMMIT\n")
    (tmp_path / "three.txt").write_text((disk.full / "three.txt").read_text())
    ref = CliRunner().invoke(main, _openings(tmp_path / "ref.json"))
    assert ref.exit_code == 0, ref.output
    out = disk.full / "o.json"
    jobs = disk.full / "o.jobs"
    disk.fail_after = 3  # the manifest and two jobs, then the disk is full
    res = CliRunner().invoke(main, _openings(out))
    assert res.exit_code == 1, res.output
    assert _one_line(res.stderr, "openings") == (
        f"openings: cannot write job c0001-s0 to {jobs / 'job-c0001-s0.json'} (No space left "
        f"on device); it was written to {disk.tmp / 'ora-solve-job-c0001-s0.json'} instead; "
        f"stopped: 2 of 6 jobs saved in {jobs}/; free some space and run the same command "
        "with --resume for the rest")
    assert sorted(p.name for p in jobs.glob("job-*")) == ["job-c0000-s0.json",
                                                           "job-c0000-s1.json"]
    assert not out.exists()
    # space freed for the jobs, not yet for the record: the table is printed all the same
    disk.fail_after = 4
    res = CliRunner().invoke(main, _openings(out, "--resume"))
    assert res.exit_code == 1, res.output
    assert "cannot write the sweep's record to" in _one_line(res.stderr, "openings")
    assert f"every job is saved in {jobs}/" in res.stderr
    assert sweep_table(res.stdout) == sweep_table(ref.stdout)
    assert _rows(disk.tmp / "ora-solve-o.json") == _rows(tmp_path / "ref.json")
    disk.fail_after = 100  # space freed
    res = CliRunner().invoke(main, _openings(out, "--resume"))
    assert res.exit_code == 0, res.output
    assert "6 jobs (0 run now)" in res.stdout
    assert sweep_table(res.stdout) == sweep_table(ref.stdout)
    assert _rows(out) == _rows(tmp_path / "ref.json")


def test_sigterm_stops_a_sweep_with_the_resume_hint(tmp_path):
    out = tmp_path / "o.json"
    jobs = tmp_path / "o.jobs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "openings", "--variant", "ireland", "--turns", "1",
         "--seeds", "0,1", "--beam", "1", "--jobs", "1", "--out", str(out)],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    end = time.monotonic() + 240
    while len(list(jobs.glob("job-*.json"))) < 2:  # the sweep is under way
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=120)
    saved = len(list(jobs.glob("job-*.json")))
    assert proc.returncode == 143, stderr.decode()
    assert 2 <= saved < 50 and not out.exists()
    assert stderr.decode().rstrip().splitlines()[-1] == (
        f"stopped: {saved} of 50 jobs saved in {jobs}/; run the same command with --resume "
        "for the rest")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_off_a_terminal_is_a_short_log():
    log = io.StringIO()
    with progress.bar(total=1000, desc="beam", file=log) as bar:
        for _ in range(1000):
            bar.update(1)
            bar.refresh()  # as the searches' bars do after every layer
    assert "\r" not in log.getvalue()
    assert log.getvalue().count("\n") == 2  # the first line and the last
    assert log.getvalue().splitlines()[-1].startswith("beam: 100%")
    tty = _Terminal()
    with progress.bar(total=1000, desc="beam", file=tty) as bar:
        for _ in range(1000):
            bar.update(1)
            bar.refresh()
    assert tty.getvalue().count("\r") > 100  # on a terminal: redrawn in place, as before
    quiet = io.StringIO()
    with progress.bar(total=10, file=quiet, quiet=True) as bar:
        bar.update(10)
    assert quiet.getvalue() == ""


def test_quiet_silences_the_bar(tmp_path):
    out = tmp_path / "x.json"
    res = CliRunner().invoke(main, SOLO + ["--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "beam 3 ireland" not in res.stderr and "record to" in res.stderr
    assert f"record written to {out}" in res.stdout
    loud = CliRunner().invoke(main, SOLO + ["--out", str(out)])
    assert "beam 3 ireland: 100%" in loud.stderr
