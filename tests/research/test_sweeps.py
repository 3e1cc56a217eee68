"""The job runner (solver/jobs), a sweep's run directory (solver/research/rundir.py) and the
sweeps `openings` and `analyse`."""

import csv
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver import jobs as J
from solver.research import beam_adapter as BA
from solver.research import positions as P
from solver.research import rundir as R
from solver.research import sweep as SW
from tests.helpers import sweep_table
from tests.research.helpers import Killed

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "results" / "ireland-beam100-seed0.json"
# 262 actions into that line: mid-turn in round 32, six distinct turns left, short jobs
ANALYSE = ["analyse", "--from", str(RECORD), "--moves", "262", "--beam", "3", "--seeds", "0,1",
           "--top", "3"]


def _jobs(n=6):
    return [J.Job(f"j{i}", {"i": i, "square": i * i}) for i in range(n)]


def test_run_dir_saves_each_job_and_resumes(tmp_path):
    man = {"kind": "toy", "n": 6}
    rd = R.RunDir(tmp_path / "run", man, resume=False)
    with pytest.raises(KeyboardInterrupt):
        R.run_sweep(dict, _jobs(), rd, Killed(3), progress=False)
    assert len(rd.finished()) == 3  # the finished jobs are saved, nothing half-written
    assert not list((tmp_path / "run").glob("*.part"))
    with pytest.raises(R.SweepError, match="pass --resume"):
        R.RunDir(tmp_path / "run", man, resume=False)
    with pytest.raises(R.SweepError, match="differs in n"):
        R.RunDir(tmp_path / "run", {"kind": "toy", "n": 7}, resume=True)
    rd = R.RunDir(tmp_path / "run", man, resume=True)
    ran = []

    def fn(payload):
        ran.append(payload["i"])
        return dict(payload)

    results = R.run_sweep(fn, _jobs(), rd, J.LocalBackend(1), progress=False)
    assert sorted(ran) == [3, 4, 5]  # only the rest ran
    assert {k: v["square"] for k, v in results.items()} == {f"j{i}": i * i for i in range(6)}


def test_pool_results_do_not_depend_on_workers(tmp_path):
    one = R.run_sweep(dict, _jobs(), R.RunDir(tmp_path / "a", {}, False), J.LocalBackend(1),
                      progress=False)
    two = R.run_sweep(dict, _jobs(), R.RunDir(tmp_path / "b", {}, False), J.LocalBackend(2),
                      progress=False)
    assert one == two


def test_openings_are_distinct_turns():
    cands = SW.openings(P.initial("ireland"), 1)
    assert len(cands) == 25
    states = set()
    for c in cands:
        pos = P.from_line("ireland", c.actions)
        states.add(pos.packed().tobytes())
        assert P.from_moves("ireland", [m.split() for m in c.moves.split("; ")]).prefix == \
            c.actions  # the kennerspiel form reads back as the same opening
    assert len(states) == 25


def test_openings_merge_lay_brother_transpositions():
    # bug: `openings --turns 2` listed these two as separate candidates, which then scored
    # the same on every seed: the state kept the two lay brothers in the other slot order
    def moves(text):
        return P.from_moves("ireland", [m.split() for m in text.split("; ")])

    a = moves("USE LR1; COMMIT; USE LR2 ShJo; COMMIT")
    b = moves("USE LR2 ShJo; COMMIT; USE LR1; COMMIT")
    assert a.packed().tobytes() != b.packed().tobytes()  # slot order differs ...
    assert BA.position_key(a.wide()) == BA.position_key(b.wide())  # ... the position does not
    base = P.initial("ireland")
    assert len(SW.from_positions(base, [a, b])) == 1
    # a prior and a lay brother on the same two spaces are different positions (Priory)
    c = moves("WITH_PRIOR; USE LR1; COMMIT; USE LR2 ShJo; COMMIT")
    assert len(SW.from_positions(base, [a, c])) == 2


def _rows(path):
    return [{k: v for k, v in r.items() if k not in ("runs",)} for r in
            json.loads(Path(path).read_text())["rows"]]


def test_analyse_table_record_csv_chart_and_replay(tmp_path):
    out = tmp_path / "a.json"
    res = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 6 and [r["rank"] for r in rows] == list(range(1, 7))
    assert [r["best"] for r in rows] == sorted((r["best"] for r in rows), reverse=True)
    assert sum(r["recorded"] for r in rows) == 1
    assert "the turn the position's own line played ranks" in res.output
    assert len(sweep_table(res.output)) == 1 + 3  # header and --top 3 rows
    with open(out.with_suffix(".csv")) as f:
        assert len(list(csv.DictReader(f))) == 6
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    assert ET.parse(out.with_suffix(".svg")).getroot().tag.endswith("svg")
    line = rows[0]["runs"][0]["line"]
    assert line[:262] == json.loads(RECORD.read_text())["line"][:262]
    rep = CliRunner().invoke(main, ["replay", str(out)])
    assert rep.exit_code == 0 and "every line confirmed" in rep.output, rep.output
    best = sorted((tmp_path / "a.best").glob("rank*.json"))
    assert [p.name for p in best] == ["rank01.json", "rank02.json", "rank03.json"]
    assert "1. best line (seed " in res.output
    rep = CliRunner().invoke(main, ["replay", str(best[0])])
    assert rep.exit_code == 0 and f"confirmed: {rows[0]['best']} points" in rep.output


def test_analyse_resume_gives_the_same_table(tmp_path):
    full, part = tmp_path / "full.json", tmp_path / "part.json"
    a = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(full)])
    b = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(part)])
    assert a.exit_code == 0 and b.exit_code == 0
    jobs = sorted((tmp_path / "part.jobs").glob("job-*.json"))
    for f in jobs[::2]:
        f.unlink()  # as if killed with half the jobs done
    again = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(part)])
    assert again.exit_code == 2 and "pass --resume" in again.output
    c = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(part), "--resume"])
    assert c.exit_code == 0, c.output
    assert f"12 jobs ({len(jobs[::2])} run now)" in c.output
    assert sweep_table(c.output) == sweep_table(a.output)
    assert _rows(part) == _rows(full)


@pytest.mark.slow
def test_analyse_jobs_1_and_2_give_the_same_table(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    a = CliRunner().invoke(main, ANALYSE + ["--jobs", "1", "--out", str(one)])
    b = CliRunner().invoke(main, ANALYSE + ["--jobs", "2", "--out", str(two)])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert sweep_table(a.output) == sweep_table(b.output)
    assert _rows(one) == _rows(two)


def test_openings_file_merges_duplicates(tmp_path):
    f = tmp_path / "openings.txt"
    f.write_text("CUT_PEAT 0 0; COMMIT\n# the same opening again:\nCUT_PEAT 0 0 ; COMMIT\n"
                 "FELL_TREES 1 0; COMMIT\n")
    out = tmp_path / "o.json"
    res = CliRunner().invoke(main, ["openings", "--variant", "ireland", "--file", str(f),
                                    "--seeds", "0", "--beam", "1", "--jobs", "1",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = json.loads(out.read_text())["rows"]
    assert sorted(r["label"] for r in rows) == ["CUT (0, 0)", "FELL (1, 0)"]


@pytest.mark.parametrize("args, message", [
    (["openings", "--variant", "ireland", "--file", "{bad}"], "line 2: move 3 (BUILD G07 3 0)"),
    (["openings", "--variant", "ireland", "--turns", "1", "--seeds", "0,x"],
     "is not a comma-separated list"),
    (["openings", "--variant", "ireland", "--turns", "1", "--out", "/nonexistent/o.json"],
     "cannot write /nonexistent/o.json"),
    (["analyse", "--from", str(RECORD), "--at-round", "33"], "round 33 is past the end"),
    (["analyse", "--variant", "ireland", "--opening", "USE ZZ01"], "unknown building 'ZZ01'"),
])
def test_sweep_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    bad = tmp_path / "bad.txt"
    bad.write_text("CUT_PEAT 0 0; COMMIT\nCUT_PEAT 0 0; COMMIT; BUILD G07 3 0\n")
    args = [str(bad) if a == "{bad}" else a for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "x.json")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert [p.name for p in tmp_path.iterdir()] == ["bad.txt"]


def test_turn_labels_split_turns_and_join_options():
    base = P.initial("ireland")
    pos = P.resolve("ireland", opening="USE LR3; COMMIT; COMMIT; CUT_PEAT 0 0; COMMIT")
    assert SW.turn_label(base.state, pos.prefix) == \
        "USE Cloister Office (LR3) with lay brother: own indicator | pass | CUT (0, 0)"


SWEEPS = sorted((ROOT / "results" / "sweeps").glob("*.json"))
# the default tier replays every committed line on the fast engine and the head of each
# table on the reference engine; the slow tier replays every line on the reference engine
# (that took over 6 minutes on 2 cores, and the best lines of the big records alone about 4)
TOP_ROWS = 10


@pytest.mark.parametrize("path", SWEEPS, ids=lambda p: p.name)
def test_every_committed_sweep_replays_on_the_fast_engine(path):
    data = json.loads(path.read_text())
    assert data["kind"] == SW.KIND
    assert SW.verify_sweep(data, fast=True) == []


@pytest.mark.parametrize("path", SWEEPS, ids=lambda p: p.name)
def test_every_committed_sweeps_leading_rows_replay_on_the_reference_engine(path):
    data = json.loads(path.read_text())
    assert SW.verify_sweep(data, workers=min(2, os.cpu_count() or 1), best_only=True,
                           top=TOP_ROWS) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", SWEEPS, ids=lambda p: p.name)
def test_every_committed_sweep_replays(path):
    data = json.loads(path.read_text())
    assert SW.verify_sweep(data, workers=min(2, os.cpu_count() or 1)) == []


def test_a_fast_replay_names_the_same_bad_runs_as_the_reference():
    data = json.loads(min(SWEEPS, key=lambda p: p.stat().st_size).read_text())
    rows = [r for r in data["rows"] if r.get("runs")][:3]
    data["rows"] = rows
    rows[0]["runs"][0]["score"]["total"] += 1  # a wrong score
    rows[1]["runs"][0]["line"].insert(3, 999_999)  # an illegal action
    rows[-1]["runs"][-1]["line"] = rows[-1]["runs"][-1]["line"][:-5]  # an unfinished line
    fast, ref = SW.verify_sweep(data, fast=True), SW.verify_sweep(data)
    assert len(fast) == 3
    assert [m.split(":")[0] for m in fast] == [m.split(":")[0] for m in ref]
    assert "illegal" in fast[1] and "before the game is over" in fast[2]


def test_top_replays_only_the_leading_rows():
    data = json.loads(min(SWEEPS, key=lambda p: p.stat().st_size).read_text())
    rows = [r for r in data["rows"] if r.get("runs")][:3]
    data["rows"] = rows
    rows[2]["runs"][0]["score"]["total"] += 1  # wrong, but past the head
    assert SW.verify_sweep(data, fast=True, top=2) == []
    assert len(SW.verify_sweep(data, fast=True, top=3)) == 1


def test_a_best_only_replay_checks_each_rows_best_line():
    data = json.loads(min(SWEEPS, key=lambda p: p.stat().st_size).read_text())
    rows = [r for r in data["rows"] if len(r.get("runs", [])) > 1][:2]
    data["rows"] = rows
    best = max(rows[0]["runs"], key=lambda r: r["score"]["total"])
    worse = next(r for r in rows[0]["runs"] if r is not best)
    worse["score"]["total"] += 1  # a wrong score on a line that is not the best: unseen
    assert SW.verify_sweep(data, best_only=True) == []
    assert len(SW.verify_sweep(data)) == 1
    best["score"]["total"] += 1000  # a wrong best: seen
    assert len(SW.verify_sweep(data, best_only=True)) == 1


def test_a_parallel_replay_names_the_same_bad_runs_as_a_serial_one():
    data = json.loads(min(SWEEPS, key=lambda p: p.stat().st_size).read_text())
    rows = [r for r in data["rows"] if r.get("runs")][:3]
    data["rows"] = rows
    rows[0]["runs"][0]["score"]["total"] += 1  # one wrong score
    rows[-1]["runs"][-1]["line"] = rows[-1]["runs"][-1]["line"][:-5]  # one unfinished line
    serial = SW.verify_sweep(data)
    assert len(serial) == 2 and serial[0].startswith(f"candidate {rows[0]['candidate']} ")
    assert SW.verify_sweep(data, workers=2) == serial
