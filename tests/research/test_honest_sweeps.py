"""Issue 31, item 2, on tiny real sweeps: the table's p Holm column and footnotes, the best
score as a lower bound, the record's and the CSV's correction, and records of format 1 (made
before the correction) still replaying and rendering."""

import csv
import io
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.research import stats as S
from solver.research import sweep as SW

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "results" / "ireland-beam100-seed0.json"
# 244 actions into that line: round 30, six distinct turns; at width 3 one of them varies
# with the seed (so the sweep has a pooled variance) and the others do not (ties)
NOISY = ["analyse", "--from", str(RECORD), "--moves", "244", "--beam", "3", "--seeds", "0,1,2",
         "--top", "6"]
# 262 actions in, width 2: no score varies with the seed at all
FLAT = ["analyse", "--from", str(RECORD), "--moves", "262", "--beam", "2", "--seeds", "0,1,2",
        "--top", "6", "--jobs", "1"]
NEW_FIELDS = ("p", "p_holm", "behind_uncorrected", "variance")


def _table(output: str) -> list[str]:
    """The printed table with its footnotes (up to the best lines)."""
    lines = output[output.index("  #  best"):].splitlines()
    return lines[: next(i for i, ln in enumerate(lines) if ln.startswith("  1. best line"))]


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    out = tmp_path_factory.mktemp("noisy") / "a.json"
    res = CliRunner().invoke(main, NOISY + ["--jobs", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, res.output


def test_the_table_has_p_holm_and_says_what_best_and_behind_are(noisy):
    out, output = noisy
    table = _table(output)
    assert table[0].split()[-4:] == ["p", "Holm", "behind", "candidate"]
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 6
    for line, r in zip(table[1:7], rows):
        cells = line.split()
        assert int(cells[0]) == r["rank"] and int(cells[1]) == r["best"] == max(r["scores"])
        assert ("yes" in cells) == r["clearly_behind"]
    notes = "\n".join(table[7:])
    assert "a proven lower bound on the candidate's value" in notes
    assert "Holm-corrected over 5 comparisons, family-wise 5%" in notes
    k = sum(r["clearly_behind"] for r in rows)
    assert f"{k} of 5 (" in notes
    assert "pooled" in notes and "tied seeds never make an interval a point" in notes


def test_the_record_names_the_correction_and_its_flags_are_holms(noisy):
    out, _ = noisy
    data = json.loads(out.read_text())
    assert data["format"] == 2
    st = data["statistics"]
    assert st["correction"] == "holm" and st["family_wise_level"] == 0.05
    assert st["comparisons"] == 5 and "lower bound" in st["best"]
    rows = data["rows"]
    assert rows[0]["p"] is None and rows[0]["p_holm"] is None and not rows[0]["clearly_behind"]
    reject, adjusted = S.holm([r["p"] for r in rows[1:]])
    assert [r["clearly_behind"] for r in rows[1:]] == reject
    assert [r["p_holm"] for r in rows[1:]] == pytest.approx(adjusted)
    assert st["clearly_behind"] == sum(reject)
    assert st["behind_uncorrected"] == sum(r["p"] <= 0.05 for r in rows[1:])
    # this position has both kinds of candidate: one whose seeds differ, the rest tied
    assert any(len(set(r["scores"])) > 1 for r in rows)
    tied = [r for r in rows if len(set(r["scores"])) == 1]
    assert tied and st["pooled"]["within_sd"] > 0
    for r in tied:  # no point intervals, no p of 0
        assert r["ci"][1] - r["ci"][0] > 0
    for r in rows[1:]:
        assert r["diff_ci"][1] - r["diff_ci"][0] > 0 and r["p"] > 0
        assert r["variance"] in ("own", "pooled")
    # the table is a function of the scores alone (so not of --jobs)
    again = S.compare({r["candidate"]: r["scores"] for r in rows}, "best")
    assert [c.candidate for c in again] == [r["candidate"] for r in rows]
    assert [c.p_holm for c in again] == [r["p_holm"] for r in rows]


def test_the_csv_carries_p_values_and_the_correction(noisy):
    out, _ = noisy
    rows = json.loads(out.read_text())["rows"]
    with open(out.with_suffix(".csv")) as f:
        table = list(csv.DictReader(f))
    assert [int(t["best"]) for t in table] == [r["best"] for r in rows]
    assert {t["correction"] for t in table} == {"holm"}
    assert table[0]["p_holm"] == "" and table[0]["variance"] == ""
    for t, r in zip(table[1:], rows[1:]):
        assert float(t["p_holm"]) == pytest.approx(r["p_holm"], rel=1e-5)
        assert int(t["clearly_behind"]) == r["clearly_behind"]
        assert t["variance"] == r["variance"]


def test_the_table_does_not_depend_on_jobs(noisy, tmp_path):
    _, one = noisy
    res = CliRunner().invoke(main, NOISY + ["--jobs", "2", "--out", str(tmp_path / "b.json")])
    assert res.exit_code == 0, res.output
    assert _table(res.output) == _table(one)


def test_a_sweep_without_variance_is_judged_by_the_sign_test(tmp_path):
    out = tmp_path / "flat.json"
    res = CliRunner().invoke(main, FLAT + ["--out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    rows = data["rows"]
    assert all(len(set(r["scores"])) == 1 for r in rows)  # every seed alike
    assert data["statistics"]["pooled"]["within_sd"] == 0
    for r in rows[1:]:
        assert r["variance"] == "none" and all(math.isnan(v) for v in r["diff_ci"])
        assert r["p"] == (0.125 if r["diff"] < 0 else 1.0)  # 2^-3 for three lower seeds
        assert not r["clearly_behind"]
    assert "exact sign test" in "\n".join(_table(res.output))


def _old(data: dict) -> dict:
    """A record as format 1 wrote it: no statistics, no p-values."""
    old = {k: v for k, v in data.items() if k != "statistics"} | {"format": 1}
    old["rows"] = [{k: v for k, v in r.items() if k not in NEW_FIELDS} for r in data["rows"]]
    return old


def test_a_format_1_record_replays_and_renders(noisy, tmp_path):
    out, _ = noisy
    old = _old(json.loads(out.read_text()))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    rep = CliRunner().invoke(main, ["replay", str(path)])
    assert rep.exit_code == 0 and "every line confirmed" in rep.output, rep.output
    text = SW.format_table(old["rows"], spread=True)
    assert "with no correction" in text and "a record made before the correction" in text
    table = list(csv.DictReader(io.StringIO(SW.to_csv(old["rows"]))))
    assert {t["correction"] for t in table} == {"none"} and table[1]["p_holm"] == ""
    from solver.research.draw import sweep_chart

    sweep_chart(old["rows"], "old", [str(tmp_path / "old.png")])
    assert (tmp_path / "old.png").read_bytes()[:4] == b"\x89PNG"


def test_the_committed_format_1_sweep_renders():
    path = ROOT / "results" / "sweeps" / "openings-ireland-t2-beam20.json"
    data = json.loads(path.read_text())
    assert data.get("format") == 1 and "statistics" not in data
    text = SW.format_table(data["rows"], top=3)
    assert len(text.splitlines()) == 1 + 3 + 4  # header, 3 rows, 4 lines of footnotes
    assert "62 of 281, with no correction" in text.replace("\n", " ")
    assert SW.to_csv(data["rows"]).count("\n") == 1 + 282
