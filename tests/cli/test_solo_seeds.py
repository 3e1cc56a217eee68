"""`ora-solve solo --seeds A,B,C` on the local pool (solver/research/solo_seeds.py): the best
line is the record, the spread is in it and on screen, an interrupt keeps what finished."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from solver import jobs as J

ARGS = ["solo", "--variant", "ireland", "--beam", "2", "--seeds", "0,1,2", "--jobs", "1"]


def test_seeds_keep_the_best_line_and_report_the_spread(tmp_path):
    out = tmp_path / "s.json"
    res = CliRunner().invoke(main, ARGS + ["--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    sweep = rec["seed_sweep"]
    scores = sweep["scores"]
    assert sweep["seeds"] == sweep["finished"] == [0, 1, 2] and len(scores) == 3
    assert rec["score"]["total"] == max(scores) == sweep["max"]
    assert rec["seed"] == sweep["best_seed"] == [0, 1, 2][scores.index(max(scores))]
    assert sweep["min"] == min(scores) and abs(sweep["mean"] - sum(scores) / 3) < 0.01
    assert "--seeds 0,1,2" in rec["command"] and rec["interrupted"] is False
    assert f"spread over 3 seeds: mean {sum(scores) / 3:.1f}, min {min(scores)}, max " \
           f"{max(scores)}" in res.output
    for s, total in zip((0, 1, 2), scores):  # every seed's score on screen
        assert any(ln.split()[:2] == [str(s), str(total)] for ln in res.output.splitlines())
    rep = CliRunner().invoke(main, ["replay", str(out)])
    assert rep.exit_code == 0 and f"confirmed: {max(scores)} points" in rep.output
    one = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2", "--seed",
                                    str(rec["seed"]), "--out", str(tmp_path / "one.json")])
    assert one.exit_code == 0  # the sweep's best seed is the same search as solo --seed S
    assert json.loads((tmp_path / "one.json").read_text())["line"] == rec["line"]



def test_regression_a_seed_sweeps_record_names_its_stage_weightings(tmp_path):
    """Regression: once the search named its own portfolio (``SearchResult.weightings``), the
    seed sweep's record, built from the workers' results, lost ``stage_weightings``."""
    out = tmp_path / "s.json"
    res = CliRunner().invoke(main, ARGS[:-4] + ["--seeds", "0,1", "--jobs", "1", "--out",
                                                str(out)])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    one = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2", "--seed",
                                    str(rec["seed"]), "--out", str(tmp_path / "one.json")])
    assert one.exit_code == 0, one.output
    names = json.loads((tmp_path / "one.json").read_text())["weights"]["stage_weightings"]
    assert names and rec["weights"]["stage_weightings"] == names

def test_an_interrupted_seed_sweep_keeps_what_finished_and_resumes(tmp_path, monkeypatch):
    out = tmp_path / "s.json"
    run = J.LocalBackend.run

    def one_then_ctrl_c(self, fn, jobs):
        for k, pair in enumerate(run(self, fn, jobs)):
            if k == 1:
                raise KeyboardInterrupt
            yield pair

    monkeypatch.setattr(J.LocalBackend, "run", one_then_ctrl_c)
    res = CliRunner().invoke(main, ARGS + ["--out", str(out)])
    assert res.exit_code == 130, res.output
    rec = json.loads(out.read_text())
    assert rec["interrupted"] is True and rec["signal"] == "SIGINT"
    assert rec["seed_sweep"]["finished"] == [0] and rec["seed_sweep"]["missing"] == [1, 2]
    assert "not finished: seeds 1, 2" in res.output and "--resume" in res.output
    again = CliRunner().invoke(main, ARGS + ["--out", str(out)])
    assert again.exit_code == 2 and "pass --resume" in again.output
    monkeypatch.undo()
    done = CliRunner().invoke(main, ARGS + ["--out", str(out), "--resume"])
    assert done.exit_code == 0, done.output
    rec = json.loads(out.read_text())
    assert rec["interrupted"] is False and rec["seed_sweep"]["finished"] == [0, 1, 2]


def test_seed_options_are_checked():
    for extra, message in ((["--seed", "3"], "not both"), (["--seeds", "1,1"], "each once"),
                           (["--seeds", "a"], "comma-separated")):
        args = ["solo", "--variant", "ireland", "--beam", "2"] + extra
        if extra[0] == "--seed":
            args += ["--seeds", "0,1"]
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2 and message in res.output, res.output
    res = CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2", "--jobs",
                                    "2"])
    assert res.exit_code == 2 and "options of --seeds" in res.output


def test_seed_sweep_searches_with_the_given_weights(tmp_path):
    # bug (at the merge of --seeds and --weights): the seeds' jobs dropped the weights file
    weights = "results/weights/france-beam10-seed0.json"
    out = tmp_path / "w.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--beam", "2", "--seeds",
                                    "0,1", "--jobs", "1", "--weights", weights,
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["weights"]["file"] == weights and "--weights " + weights in rec["command"]
    one = CliRunner().invoke(main, ["solo", "--variant", "france", "--beam", "2", "--seed",
                                    str(rec["seed"]), "--weights", weights,
                                    "--out", str(tmp_path / "one.json")])
    assert one.exit_code == 0, one.output
    assert json.loads((tmp_path / "one.json").read_text())["line"] == rec["line"]


def test_an_nrpa_job_with_its_seed_line_travels_as_json():
    from solver.research.positions import from_line
    from solver.research.solo_seeds import job_of, payload
    from solver.search.solo import SeedLine, SoloJob

    line = json.loads(Path("results/ireland-beam100-seed0.json").read_text())["line"]
    seed = SeedLine("results/ireland-beam100-seed0.json", tuple(line), 405, 31)
    pos = from_line("ireland", line, 31, source="results/ireland-beam100-seed0.json at round 31")
    job = SoloJob(variant="ireland", nrpa=1, iterations=2, position=pos, seed_line=seed)
    back = job_of(json.loads(json.dumps(payload(job, 3))))
    assert back.seed_line == seed and back.seed == 3 and back.position.prefix == pos.prefix
    assert back.parameters == job.parameters and back.name == job.file_name("seed3")


def test_a_job_travels_as_json_with_every_field_regression_playout_width_dropped():
    """--seeds sweeps once lost --playout-width on the way to the workers."""
    from dataclasses import replace

    from solver.research.solo_seeds import job_of, payload
    from solver.search.solo import SoloJob

    for job in (SoloJob(variant="france", simulations=20, playout_width=3, time_limit=30.0),
                SoloJob(variant="ireland", node_limit=2_000_000, time_limit=90.0),
                SoloJob(variant="france", width=40, iterations=5)):
        back = job_of(json.loads(json.dumps(payload(job, 4))))
        assert back == replace(job, seed=4)
        assert back.playout_width == job.playout_width and back.node_limit == job.node_limit
