"""`ora-solve solo` never loses its work: signals, output paths, atomic and fresh records,
and the whole command ending within its time limit."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.search import records
from solver.search import solo as S
from solver.search.beam import beam_search

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    """Compile (or load) the beam's kernels once, so that subprocesses load them from the
    cache instead of timing a compile."""
    beam_search("france", width=2)


def _solo(args: list[str], cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "cli.main", "solo", *args], cwd=cwd,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(proc: subprocess.Popen, marker: bytes, timeout: float = 240.0) -> bytes:
    """Read the process's stderr until ``marker`` shows (the progress bar's postfix after a
    layer), so that the search is under way; return what was read."""
    seen = b""
    end = time.monotonic() + timeout
    fd = proc.stderr.fileno()
    while marker not in seen:
        assert proc.poll() is None, (proc.returncode, seen.decode(errors="replace"))
        assert time.monotonic() < end, seen.decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            seen += os.read(fd, 65536)
    return seen


def _interrupt(args, signum, tmp_path):
    out = tmp_path / "line.json"
    proc = _solo([*args, "--out", str(out)], tmp_path)
    _wait_for(proc, b"round ")
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=120)
    return proc.returncode, stdout.decode(), stderr.decode(), out


# off a terminal the bar logs a line at most every 30 s (solver/search/progress.py), so the
# first "round" can come 30 s in: the beam must still be searching then (regression: a width
# of 400 had finished and the signal came during the write, complete=True)
@pytest.mark.parametrize("args", [["--variant", "ireland", "--beam", "3000"],
                                  ["--variant", "france", "--mcts", "200",
                                   "--playout-width", "2"]],
                         ids=["beam", "mcts"])
def test_sigint_writes_an_interrupted_record_that_replays(args, tmp_path):
    code, stdout, stderr, out = _interrupt(args, signal.SIGINT, tmp_path)
    assert code == 130, stderr
    assert "interrupted by SIGINT" in stderr and "Aborted" not in stderr + stdout
    rec = json.loads(out.read_text())
    assert rec["interrupted"] is True and rec["signal"] == "SIGINT"
    assert rec["complete"] is False
    assert f"record written to {out}" in stdout
    res = CliRunner().invoke(main, ["replay", str(out)])
    assert res.exit_code == 0 and "confirmed" in res.output, res.output
    assert [p.name for p in tmp_path.iterdir()] == ["line.json"]  # no temp file left


def test_sigterm_stops_the_default_search_and_exits_143(tmp_path):
    # a long limit: the signal comes at the first layer, but on a loaded machine loading
    # the kernels alone took most of a 200 s limit and the search ended before any layer
    code, _, stderr, out = _interrupt(["--variant", "france", "--time-limit", "1000"],
                                      signal.SIGTERM, tmp_path)
    assert code == 143, stderr
    assert "interrupted by SIGTERM" in stderr
    rec = json.loads(out.read_text())
    assert rec["interrupted"] is True and rec["signal"] == "SIGTERM"
    assert rec["parameters"] == {"schedule": "time", "time_limit": 1000.0}
    assert records.verify_record(rec)[0]


@pytest.mark.parametrize("out", ["/proc/ora-solve-x.json", "{tmp}/no/such/dir/x.json",
                                 "{tmp}/file.json/x.json"])
def test_an_unwritable_out_exits_2_before_any_search(out, tmp_path, monkeypatch):
    def no_search(*a, **k):
        raise AssertionError("the search started")

    monkeypatch.setattr(S, "beam_search", no_search)
    monkeypatch.setattr(S, "timed_beam_search", no_search)
    (tmp_path / "file.json").write_text("{}")
    out = out.format(tmp=tmp_path)
    t = time.perf_counter()
    res = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2", "--out", out])
    assert time.perf_counter() - t < 20
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and out in lines[0] and "Traceback" not in res.output
    assert not Path(out).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.json"]


def test_an_unwritable_out_exits_2_at_once_from_the_command_line(tmp_path):
    t = time.perf_counter()
    proc = _solo(["--variant", "ireland", "--out", "/proc/ora-solve-x.json"], tmp_path)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2, stderr
    assert time.perf_counter() - t < 30  # no search (the default one takes 600 s)
    assert stderr.decode().strip().count("\n") == 0 and b"/proc/ora-solve-x.json" in stderr
    assert not list(tmp_path.iterdir())  # not even results/


def test_a_results_directory_that_cannot_be_made_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("results").write_text("not a directory")
    res = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2"])
    assert res.exit_code == 2 and "results" in res.output
    assert Path("results").read_text() == "not a directory"


def test_an_existing_record_is_never_overwritten_unless_out_names_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("results").mkdir()
    kept = Path("results/france-beam2-seed0.json")
    kept.write_text("the committed record\n")
    args = ["solo", "--variant", "france", "--beam", "2"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "record written to results/france-beam2-seed0-2.json" in res.output
    res = CliRunner().invoke(main, args)
    assert "record written to results/france-beam2-seed0-3.json" in res.output
    assert kept.read_text() == "the committed record\n"
    first = json.loads(Path("results/france-beam2-seed0-2.json").read_text())
    assert records.verify_record(first)[0]
    res = CliRunner().invoke(main, args + ["--out", str(kept)])
    assert res.exit_code == 0 and f"record written to {kept}" in res.output
    assert json.loads(kept.read_text())["line"] == first["line"]
    assert sorted(p.name for p in Path("results").iterdir()) == [
        "france-beam2-seed0-2.json", "france-beam2-seed0-3.json", "france-beam2-seed0.json"]


def test_default_names_say_the_budget():
    assert S.SoloJob("ireland", 0, time_limit=600.0).name == "ireland-t600-seed0.json"
    assert S.SoloJob("france", 3, width=2000).name == "france-beam2000-seed3.json"
    assert S.SoloJob("france", 1, width=500, time_limit=60).name == \
        "france-beam500-t60-seed1.json"
    assert S.SoloJob("ireland", 2, simulations=200).name == "ireland-mcts200-seed2.json"


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("old\n")

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        records.write_record({"a": 1}, target, replace=True)
    with pytest.raises(OSError):
        records.write_record({"a": 1}, tmp_path / "new.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    assert target.read_text() == "old\n"
    monkeypatch.undo()
    assert records.write_record({"a": 1}, target, replace=True) == target
    assert records.write_record({"a": 2}, target) == tmp_path / "r-2.json"
    assert json.loads(target.read_text()) == {"a": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r-2.json", "r.json"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_whole_command_ends_within_its_time_limit(tmp_path):
    t = time.perf_counter()
    proc = _solo(["--variant", "france", "--time-limit", "20"], tmp_path)
    stdout, stderr = proc.communicate(timeout=120)
    wall = time.perf_counter() - t
    assert proc.returncode == 0, stderr
    assert wall < 20 + 1.0, wall  # + the interpreter's start, before the command's clock
    rec = json.loads((tmp_path / "results" / "france-t20-seed0.json").read_text())
    assert rec["interrupted"] is False and rec["command"].endswith("--time-limit 20")
    assert b"record written to results/france-t20-seed0.json" in stdout
    assert b"/20 s" in stderr and b"s left" in stderr  # seconds against the limit
    # stderr is not a terminal: the bar is a log of a line or two, not a redraw per layer
    assert stderr.count(b"\r") + stderr.count(b"\n") < 50, stderr.decode()


def test_the_nodes_option_writes_a_named_record_and_counts_nodes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nodes", "120k",
                                    "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "record written to results/france-n120k-seed2.json" in res.output
    assert "/120k nodes" in res.output  # the bar counts children against the budget
    rec = json.loads(Path("results/france-n120k-seed2.json").read_text())
    assert rec["command"] == "ora-solve solo --variant france --nodes 120000 --seed 2"
    assert rec["parameters"] == {"schedule": "nodes", "node_limit": 120_000,
                                 "time_limit": None}
    # a beam stops before a layer guessed to pass the budget: one above the guess passes
    # it by part of one layer, a small share of it
    assert 100_000 < rec["nodes"] < 1.05 * 120_000 and records.verify_record(rec)[0]
    assert rec["interrupted"] is False


@pytest.mark.parametrize("args, message", [
    (["--nodes", "abc"], "'abc' is not a count of nodes"),
    (["--nodes", "0"], "the node budget must be at least 1"),
    (["--nodes", "5x"], "'5x' is not a count of nodes"),
    (["--nodes", "1M", "--beam", "10"], "--nodes budgets the default beam schedule"),
    (["--nodes", "1M", "--mcts", "10"], "--nodes budgets the default beam schedule"),
])
def test_bad_node_budgets_exit_2_and_write_nothing(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["solo", "--variant", "ireland", *args])
    assert res.exit_code == 2 and message in res.output, res.output
    assert not (tmp_path / "results").exists()


def test_node_budgets_read_suffixes_and_name_records():
    from cli.options import NodeCount
    assert [NodeCount().convert(t, None, None) for t in ("20M", "500k", "2g", "1234", 7)] == \
        [20_000_000, 500_000, 2_000_000_000, 1234, 7]
    assert S.SoloJob("france", 1, node_limit=20_000_000).name == "france-n20M-seed1.json"
    assert S.SoloJob("ireland", 0, node_limit=1234, time_limit=60).name == \
        "ireland-n1234-t60-seed0.json"
