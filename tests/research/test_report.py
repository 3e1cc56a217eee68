"""`ora-solve report`: pages by record kind (a line, a sweep, a review, a tuning record),
self-contained, every name of the line in them; names everywhere (the neutral's builds,
wrapped chart labels); the shared landscape cells. A race record's page is tested beside the
race it reports (test_race_sweeps.py)."""

from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.research import draw
from solver.research import report as R
from solver.research import review as RV
from solver.research import show as S
from solver.research.landscape import cells
from solver.rules.cards import BUILDINGS
from solver.search import records

ROOT = Path(__file__).resolve().parents[2]
LINE = ROOT / "results" / "ireland-beam100-seed0.json"
FULL_LINE = ROOT / "results" / "ireland-beam2000-seed0.json"
SWEEP = ROOT / "results" / "sweeps" / "openings-ireland-t2-beam20.json"
WEIGHTS = ROOT / "results" / "weights" / "ireland-beam20-seed0-interrupted.json"


class Fetches(HTMLParser):
    """Every element of a page that would load something: a script, stylesheet, image,
    frame, object or media source with an address."""

    def __init__(self):
        super().__init__()
        self.loads: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        for key in ("src", "href", "data", "srcset", "poster"):
            if a.get(key) and not (tag == "a" and a[key].startswith("#")):
                self.loads.append(f"<{tag} {key}={a[key]!r}>")
        if tag == "link":
            self.loads.append(f"<link {a}>")


def assert_self_contained(text: str) -> None:
    """No network address, no element loading a file, no CSS import or url()."""
    assert not re.search(r"https?://|//[a-z0-9-]+\.[a-z]{2,}/", text, re.I), "a network address"
    p = Fetches()
    p.feed(text)
    assert p.loads == []
    assert p.scripts >= 2  # the data blocks and the inline script
    assert "@import" not in text and "url(" not in text
    assert not re.search(r"\b(fetch|XMLHttpRequest|WebSocket|EventSource)\s*\(", text)


def line_names(variant: str, line: list[int]) -> set[str]:
    """The printed name of every building and settlement standing anywhere at the end of the
    line, or named in one of its actions."""
    st = S.state_after(variant, line)
    names = {c.name for o in range(len(st.g.owners)) for c in cells(st, o)
             if c.kind in ("building", "cloister", "settlement")}
    for part in S.rounds(variant, line):
        for text in part.actions:
            names |= {BUILDINGS[i].name for i in re.findall(r"\(([A-Z]{1,2}\d\d|L[RGBW]\d)\)",
                                                             text)}
    return names


@pytest.fixture(scope="module")
def line_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "line.html"
    R.write_report(LINE, out)
    return out.read_text(encoding="utf-8")


# ===== names everywhere =========================================================================

def test_the_neutrals_builds_name_their_building_in_records_and_show():
    data = json.loads(LINE.read_text())
    texts = [a for part in records.readable_line("ireland", data["line"]) for a in
             part["actions"] if a.startswith("NEUTRAL")]
    # a record's rounds say what show says: the building's name and id
    assert texts and all(re.fullmatch(r"NEUTRAL BUILD .+ \(([GI]\d\d)\) at \(\d, \d\)", t)
                         for t in texts)
    shown = [a for p in S.rounds("ireland", data["line"]) for a in p.actions
             if a.startswith("NEUTRAL")]
    assert shown == texts
    ids = [re.search(r"\(([GI]\d\d)\)", t).group(1) for t in texts]
    assert all(f"{BUILDINGS[b].name} ({b})" in t for b, t in zip(ids, texts))


def test_old_records_without_the_neutrals_names_still_load_and_print():
    data = records.load_record(FULL_LINE)  # written before: "NEUTRAL BUILD at (2, 0)"
    assert any(a.startswith("NEUTRAL BUILD at") for p in data["rounds"] for a in p["actions"])
    res = CliRunner().invoke(main, ["replay", str(FULL_LINE)])
    assert res.exit_code == 0, res.output


def test_long_chart_labels_wrap_and_keep_every_word():
    row = {"rank": 7, "recorded": True, "label": "USE Cloister Office (LR3) with lay brother:"
           " own indicator, then a long option text that goes on | CONTRACT Builders' Market"
           " (G13) prior coins: place only and a further long text beyond eighty characters"}
    label = draw._tick_label(row)
    assert "…" not in label
    assert all(len(line) <= 80 for line in label.splitlines())
    assert label.split() == ("7. * " + row["label"].replace(" | ", " ")).split()


def test_landscape_cells_are_the_reference_state():
    data = json.loads(LINE.read_text())
    st = S.state_after("ireland", data["line"][:150])
    for owner in (0, 1):
        got = {(c.col, c.row): (c.terrain, c.item) for c in cells(st, owner)}
        assert got == {k: (t, i) for k, (t, i) in st.g.owners[owner].land.cells.items()}
    clergy = {(c.col, c.row) for c in cells(st, 0) if c.clergy}
    assert clergy == {(p[1], p[2]) for o in st.g.owners for p in o.clergy if p and p[0] == 0}


# ===== the pages ================================================================================

def test_a_line_page_is_self_contained_and_names_every_building(line_page):
    assert_self_contained(line_page)
    data = json.loads(LINE.read_text())
    names = line_names("ireland", data["line"])
    assert len(names) > 20
    assert [n for n in names if n not in line_page] == []
    assert "Verified on the reference engine" in line_page
    assert data["command"] in line_page and data["commit"] in line_page


def test_a_line_page_holds_every_round_replayed():
    data = json.loads(LINE.read_text())
    page = R.build(data, str(LINE))
    rows = page.lines[0]["rows"]
    parts = S.rounds("ireland", data["line"])
    assert [r["w"] for r in rows] == ["start"] + [p.when for p in parts]
    assert rows[-1]["s"] == [data["score"][k] for k in ("total", "goods", "economic",
                                                        "dwelling")]
    assert [[page.strings.items[i] for i in r["a"]] for r in rows[1:]] == \
        [p.actions for p in parts]
    assert page.lines[0]["terminal"] and page.lines[0]["error"] is None


def test_a_line_page_names_the_day_its_record_was_made_when_it_has_one():
    data = json.loads(LINE.read_text())
    assert "date" not in data  # a record from before the field: no row for it
    assert "date" not in dict(R.build(data, str(LINE)).data["provenance"])
    data["date"] = "2026-12-07T15:23:42+00:00"
    rows = R.build(data, str(LINE)).data["provenance"]
    assert [k for k, _ in rows][:3] == ["command", "commit", "date"]
    assert dict(rows)["date"] == data["date"]


def test_a_full_line_report_is_small_and_quick(tmp_path):
    out = tmp_path / "full.html"
    start = time.perf_counter()
    res = CliRunner().invoke(main, ["report", str(FULL_LINE), "--html", str(out)])
    seconds = time.perf_counter() - start
    assert res.exit_code == 0, res.output
    assert "confirmed: 503 points" in res.output
    assert out.stat().st_size < 2_000_000 and seconds < 10


def test_a_line_the_engine_refuses_is_reported_not_verified(tmp_path):
    data = json.loads(LINE.read_text())
    data["line"] = data["line"][:40] + [99999] + data["line"][41:]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    page = R.build(R.load(bad), str(bad))
    assert page.verified.startswith("NOT verified") and "illegal" in page.verified
    assert page.lines[0]["error"] and page.lines[0]["rows"][-1]["n"] <= 40


def test_a_sweep_page_holds_each_candidates_best_line(tmp_path):
    data = json.loads(SWEEP.read_text())
    data["rows"] = data["rows"][:3]
    small = tmp_path / "sweep.json"
    small.write_text(json.dumps(data))
    out = tmp_path / "sweep.html"
    page = R.write_report(small, out)
    text = out.read_text(encoding="utf-8")
    assert_self_contained(text)
    assert page.view == "sweep" and len(page.lines) == 3
    assert "all 3 end the game on the recorded best" in page.verified
    for row, line in zip(data["rows"], page.lines):
        assert line["rows"][-1]["s"][0] == row["best"]
        assert row["label"] in text
    best = next(r["line"] for r in data["rows"][0]["runs"]
                if r["seed"] == data["rows"][0]["best_seed"])
    assert [n for n in line_names("ireland", best) if n not in text] == []


def test_a_review_page_holds_its_rounds_and_every_name_of_its_best_line(small_review,
                                                                        tmp_path):
    data = json.loads(small_review.read_text())
    out = tmp_path / "review.html"
    page = R.write_report(small_review, out)
    text = out.read_text(encoding="utf-8")
    assert_self_contained(text)
    assert page.view == "review" and page.data["ok"]
    n = 1 + sum(1 + len(r["runs"]) for r in data["rounds"])  # the line, V lines and runs
    assert f"all {n} confirmed" in page.verified
    best = data["best"]["line"]
    assert best != data["reviewed"]["line"]  # this review found a better line
    assert [nm for nm in line_names("ireland", best) if nm not in text] == []
    shown = page.data["rounds"]
    assert [(r["round"], r["value"], r["found"], r["loss"]) for r in shown] == \
        [(r["round"], r["value"], r["found"], r["loss"]) for r in data["rounds"]]
    assert page.data["lost"] == [r["round"] for r in RV.ranking(data["rounds"])] == [31]
    for r, row in zip(shown, data["rounds"]):  # each round opens the line reaching its V(R)
        assert r["own_turn_text"] in text and r["turn_text"] in text
        assert page.lines[r["li"]]["rows"][-1]["s"][0] == row["value"]
    assert page.lines[0]["rows"][-1]["s"][0] == data["reviewed"]["score"]["total"]
    assert page.lines[page.data["best"]["li"]]["rows"][-1]["s"][0] == \
        data["best"]["score"]["total"]
    assert len(page.lines) == 2  # the reviewed line and the better one, each once
    assert data["command"] in text and data["commit"] in text


def test_a_review_page_says_which_line_does_not_replay(small_review, tmp_path):
    data = json.loads(small_review.read_text())
    data["rounds"][1]["runs"][0]["score"]["total"] += 1
    page = R.build(data, "tampered.json")
    assert not page.data["ok"] and "4 of 5 confirmed; not confirmed: round 32 seed 0" in \
        page.verified
    assert 'class="verified bad"' in R.render(page)


def test_a_tuning_page_shows_the_weights_and_history(tmp_path):
    out = tmp_path / "tuning.html"
    page = R.write_report(WEIGHTS, out)
    text = out.read_text(encoding="utf-8")
    assert_self_contained(text)
    assert page.view == "tuning" and '"history":[{"generation":0' in text


def test_a_new_kind_is_one_builder(monkeypatch):
    """A new kind of record needs one registered function."""
    monkeypatch.setitem(R.BUILDERS, "example", lambda data, source, workers=1: R.Page(
        "example", source, {"rounds": data["rounds"]}))
    page = R.build({"kind": "example", "rounds": [{"round": 1, "value": 400}]}, "r")
    assert page.view == "example" and R.render(page).startswith("<!doctype html>")


@pytest.mark.parametrize("content, message", [
    ({"kind": "nonsense"}, "no report for a record of kind 'nonsense'"),
    ([1, 2], "no report for a record of kind None"),
    ({"kind": "ora-solve solo line", "variant": "spain", "line": [], "score": {}},
     "unknown variant 'spain'"),
    ("not json", "is not JSON"),
    ({"kind": "ora-solve review", "variant": "ireland", "rounds": []},
     "field 'reviewed' is missing or not a dict"),
    ({"kind": "ora-solve review", "variant": "ireland", "reviewed": {"line": []}, "best": {},
      "rounds": [{"round": 3}]}, "not a review record (KeyError"),
])
def test_report_bad_record_exits_2_and_writes_nothing(tmp_path, content, message):
    rec = tmp_path / "rec.json"
    rec.write_text(content if isinstance(content, str) else json.dumps(content))
    out = tmp_path / "out.html"
    res = CliRunner().invoke(main, ["report", str(rec), "--html", str(out)])
    assert res.exit_code == 2 and message in res.output
    assert not out.exists()


def test_report_unwritable_output_exits_2(tmp_path):
    res = CliRunner().invoke(main, ["report", str(LINE), "--html",
                                    str(tmp_path / "no" / "out.html")])
    assert res.exit_code == 2 and "cannot write the report" in res.output
