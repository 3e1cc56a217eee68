"""`analyse --race` on a tiny real case: three rounds on a late position, the table's budget
column, the record's rounds, the CSV and chart, replay, a resumed race (half its jobs lost,
finished on another number of workers) giving the identical table, and its report page."""

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.research import report as R
from solver.research import stats as S
from tests.helpers import sweep_table
from tests.research.test_report import assert_self_contained
from tests.research.test_report_browser import CHROMIUM, check

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "results" / "ireland-beam100-seed0.json"
# 244 actions in: round 30, six distinct turns. From width 1 on seeds 0,1 up to width 4 the
# race runs three rounds (width 1 x 2 seeds, 2 x 2, 2 x 4: the budget of 48 has no room for
# width 4) and drops four turns in round 2 and one in round 3; 28 jobs of a second or less
RACE = ["analyse", "--from", str(RECORD), "--moves", "244", "--beam", "4", "--seeds", "0,1",
        "--top", "1", "--race", "--quiet"]


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    out = tmp_path_factory.mktemp("race") / "r.json"
    res = CliRunner().invoke(main, RACE + ["--jobs", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, res.output


def test_the_race_keeps_every_round_and_why_it_stopped(race):
    out, _ = race
    data = json.loads(out.read_text())
    rc = data["race"]
    assert [(r["width"], r["seeds"]) for r in rc["rounds"]] == [
        (1, [0, 1]), (2, [0, 1]), (2, [0, 1, 2, 3])]
    assert [len(r["ran"]) for r in rc["rounds"]] == [6, 6, 2]
    assert [len(r["dropped"]) for r in rc["rounds"]] == [0, 4, 1]
    assert rc["stopped"] == "separated: 1 candidate remains after round 3 (--top 1)"
    assert rc["spent"] == sum(r["cost"] for r in rc["rounds"]) == 44 <= rc["budget"] == 48
    # each round's drops are Holm's verdicts on that round's scores alone
    for rd in rc["rounds"]:
        rows = {r["candidate"]: r for r in data["rows"]}
        for d in rd["dropped"]:
            assert rows[d["candidate"]]["round"] == rd["round"] and d["p_holm"] <= 0.05
        if rd["round"] < len(rc["rounds"]):  # the next round runs exactly the survivors
            assert set(rc["rounds"][rd["round"]]["ran"]) == \
                set(rd["ran"]) - {d["candidate"] for d in rd["dropped"]}
    assert rc["survivors"] == [data["rows"][0]["candidate"]]
    assert data["statistics"]["comparisons"] == 1  # the final round's two candidates
    # every row's statistics come from one round: one width, that round's seeds
    for r in data["rows"]:
        assert [run["seed"] for run in r["runs"]] == r["seeds"]
        assert S.compare({0: r["scores"]})[0].best == r["best"] == max(r["scores"])


def test_the_table_says_which_round_each_row_is_at(race):
    out, output = race
    table = sweep_table(output)
    rows = json.loads(out.read_text())["rows"]
    assert table[0].split()[-2:] == ["budget", "candidate"]
    for line, r in zip(table[1:], rows):
        assert f" r{r['round']} {r['width']}x{len(r['seeds'])} " in line
    assert "round 2: width 2, seeds 0,1, 6 ran, 4 dropped (Holm over 5); cost 24, spent 36" \
        in output
    assert "stopped: separated: 1 candidate remains" in output
    with open(out.with_suffix(".csv")) as f:
        got = list(csv.DictReader(f))
    assert [(int(t["round"]), int(t["width"]), int(t["seeds_run"]), int(t["dropped"]))
            for t in got] == [(r["round"], r["width"], len(r["seeds"]), int(r["dropped"]))
                              for r in rows]
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"


def test_a_race_record_replays(race):
    out, _ = race
    rep = CliRunner().invoke(main, ["replay", str(out)])
    assert rep.exit_code == 0, rep.output
    assert "analyse race, 6 candidates, 3 rounds, 16 lines" in rep.output
    assert "every line confirmed" in rep.output


def test_a_resumed_race_on_two_workers_gives_the_identical_table(race, tmp_path):
    out, output = race
    part = tmp_path / "p.json"
    shutil.copytree(out.with_name("r.jobs"), tmp_path / "p.jobs")
    jobs = sorted((tmp_path / "p.jobs").glob("job-*.json"))
    assert len(jobs) == 28
    for f in jobs[::2]:
        f.unlink()  # as if killed with half the jobs done
    again = CliRunner().invoke(main, RACE + ["--jobs", "1", "--out", str(part)])
    assert again.exit_code == 2 and "pass --resume" in again.output
    res = CliRunner().invoke(main, RACE + ["--jobs", "2", "--out", str(part), "--resume"])
    assert res.exit_code == 0, res.output
    assert "28 jobs (14 run now)" in res.output
    assert sweep_table(res.output) == sweep_table(output)
    strip = (lambda d: {k: v for k, v in d.items() if k not in ("wall_seconds", "command",
                                                                 "jobs")})
    a, b = json.loads(out.read_text()), json.loads(part.read_text())
    assert [{k: v for k, v in r.items() if k != "runs"} for r in a["rows"]] == \
        [{k: v for k, v in r.items() if k != "runs"} for r in b["rows"]]
    assert a["race"] == b["race"] and strip(a)["statistics"] == strip(b)["statistics"]


def test_replay_refuses_a_race_whose_rows_do_not_show_its_drops(race, tmp_path):
    out, _ = race
    data = json.loads(out.read_text())
    data["race"]["rounds"][1]["dropped"][0]["scores"][0] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    rep = CliRunner().invoke(main, ["replay", str(path)])
    assert rep.exit_code == 1 and "but its row does not show that round's scores" in rep.output


def test_a_race_records_page_shows_each_rows_budget_and_the_races_rounds(race, tmp_path):
    out, _ = race
    data = json.loads(out.read_text())
    html = tmp_path / "race.html"
    page = R.write_report(out, html)
    assert_self_contained(html.read_text(encoding="utf-8"))
    assert "all 6 end the game on the recorded best" in page.verified
    assert [(r["round"], r["width"], r["seeds"], r["dropped"]) for r in page.data["rows"]] == \
        [(r["round"], r["width"], r["seeds"], r["dropped"]) for r in data["rows"]]
    race_ = page.data["race"]
    assert race_["stopped"] == data["race"]["stopped"] and race_["spent"] == 44
    assert [(r["round"], r["width"], r["seeds"], r["ran"], len(r["dropped"]), r["cost"])
            for r in race_["rounds"]] == [(1, 1, [0, 1], 6, 0, 12), (2, 2, [0, 1], 6, 4, 24),
                                          (3, 2, [0, 1, 2, 3], 2, 1, 8)]
    if CHROMIUM is None:
        pytest.skip("no chromium: the page's table is not drawn")
    _, dom = check(html, "sorting by mean puts 6 rows", "a click on a row draws its line")
    table = re.search(r'<table class="sweep">.*?</table>', dom, re.S).group(0)
    assert '<th data-key="budget">' in table and '<th data-key="dropped">' in table
    assert table.count(">r3 2x4</td>") == 2 and table.count(">round 2</td>") == 4
    assert "Stopped:</b> separated: 1 candidate remains after round 3" in dom
