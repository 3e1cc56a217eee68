"""The strength suite (bench --strength): plans, signatures, seeds and its CLI."""

import json

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.search import records
from solver.search.bench import strength as S


def test_a_plan_is_the_buildings_built_by_round_18_in_order():
    rec = records.load_record("results/france-beam2000-seed0.json")
    plan = S.plan_of("france", rec["line"])
    built = [r for r in rec["rounds"]
             if int(r["when"].split()[1].rstrip(",")) <= S.PLAN_ROUND]
    texts = " ".join(a for r in built for a in r["actions"] if a.startswith("BUILD "))
    assert plan and all(f" {b} " in texts for b in plan)
    assert texts.count("BUILD ") == len(plan)
    assert S.plan_of("france", rec["line"], last_round=3) == plan[:1]  # Peat Coal Kiln, r3


def test_the_suite_repeats_its_signature_and_summarises_each_budget():
    a = S.run(("france",), (7,), (3,), nodes=400_000)
    b = S.run(("france",), (7,), (3,), nodes=400_000)
    assert a["signature"] == b["signature"]
    assert [r["budget"] for r in a["runs"]] == ["beam 3", "nodes 400000"]
    assert [s["budget"] for s in a["summary"]] == ["beam 3", "nodes 400000"]
    # each run keeps its stages (what each group and polish restart found)
    stages = a["runs"][1]["stages"]
    assert stages[0]["stage"] == "probe"
    assert max(s["score"] for s in stages) == a["runs"][1]["score"][0]
    assert all(records.verify_record(records.make_record(
        command="t", variant="france", algorithm="beam", params={}, seed=7, nodes=r["nodes"],
        seconds=r["seconds"], score=tuple(r["score"]), line=r["line"]))[0] for r in a["runs"])
    c = S.run(("france",), (8,), (3,), nodes=0)
    assert c["signature"] != a["signature"] and len(c["runs"]) == 1


def test_reporting_seeds_are_refused():
    with pytest.raises(ValueError, match="seeds 0, 2: seeds 0-2 report results"):
        S.check_seeds([0, 2, 5])


@pytest.mark.parametrize("args, message", [
    (["--seeds", "1,5"], "seeds 1: seeds 0-2 report results"),
    (["--beams", "", "--nodes", "0"], "nothing to run"),
    (["--beams", "abc"], "is not a comma-separated list"),
    (["--widths", "abc"], "is not a comma-separated list"),
    (["--widths", "2", "--beams", "3"], "--widths is the old spelling of --beams"),
    (["--nodes", "-3"], "is not a count of nodes"),
    (["--search"], "choose one of --search and --strength"),
])
def test_bad_strength_arguments_exit_2(args, message):
    res = CliRunner().invoke(main, ["bench", "--strength", *args])
    assert res.exit_code == 2 and message in res.output, res.output


def test_strength_options_need_strength():
    for option in ("--beams", "--widths"):
        res = CliRunner().invoke(main, ["bench", option, "5"])
        assert res.exit_code == 2 and "options of --strength" in res.output


def test_the_strength_cli_prints_the_table_and_writes_its_json(tmp_path):
    out = tmp_path / "s.json"
    res = CliRunner().invoke(main, ["bench", "--strength", "--variant", "france", "--seeds",
                                    "9", "--beams", "2", "--nodes", "0", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "france   beam 2" in res.output and "distinct plans 1/1" in res.output
    data = json.loads(out.read_text())
    assert data["signature"] in res.output and data["command"].startswith(
        "ora-solve bench --strength --seeds 9 --beams 2 --nodes 0 --variant france")
