"""The report's pages in a real browser: headless Chromium runs each page's own self-check
(``#selftest``: the slider changes the drawn round, the arrow keys step, a sweep's table
sorts and a click opens a line, a click on a review's round opens its line at that round)
and the test reads its verdict from the dumped DOM; anything the page wrote to the console
(it writes nothing when all is well) fails the test.

Skipped where no Chromium is installed (Debian: ``apt-get install chromium``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from solver.research import report as R

ROOT = Path(__file__).resolve().parents[2]
FULL_LINE = ROOT / "results" / "ireland-beam2000-seed0.json"
SWEEP = ROOT / "results" / "sweeps" / "openings-ireland-t2-beam20.json"
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium"
                                        if Path("/usr/bin/chromium").exists() else None)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH or at "
                                "/usr/bin/chromium: the browser check needs Debian's chromium")


def run_in_browser(page: Path) -> tuple[str, list[str], str]:
    """The self-check's text from the page's DOM after its script ran, the console lines
    the browser logged for it, and the DOM."""
    res = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", "--virtual-time-budget=5000", "--dump-dom", page.as_uri() + "#selftest"],
        capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="selftest">(.*?)</pre>', res.stdout, re.S)
    console = [ln for ln in res.stderr.splitlines() if ":CONSOLE" in ln]
    return (m.group(1) if m else f"no self-check in the DOM (exit {res.returncode}): "
            + res.stderr[-2000:]), console, res.stdout


def check(page: Path, *expected: str) -> tuple[str, str]:
    """The page's self-check passed, nothing on the console, each ``expected`` text in the
    verdict; (the verdict, the DOM)."""
    verdict, console, dom = run_in_browser(page)
    assert console == [], console
    assert verdict.endswith("SELFTEST PASS"), verdict
    for text in expected:
        assert text in verdict
    return verdict, dom


def test_the_full_line_page_works_in_chromium(tmp_path):
    out = tmp_path / "line.html"
    R.write_report(FULL_LINE, out)
    check(out, "the drawn landscape changed", "the right arrow key steps")


def test_a_sweep_page_sorts_and_opens_a_line_in_chromium(tmp_path):
    data = json.loads(SWEEP.read_text())
    data["rows"] = data["rows"][:6]
    for i, row in enumerate(data["rows"]):  # as a format-2 record has them
        row["p_holm"] = round(1 - 0.15 * i, 2)
    small = tmp_path / "sweep.json"
    small.write_text(json.dumps(data))
    out = tmp_path / "sweep.html"
    R.write_report(small, out)
    _, dom = check(out, "sorting by mean puts 6 rows", "a click on a row draws its line",
                   "the drawn landscape changed")
    assert '<th data-key="p_holm"' in dom and ">0.250</td>" in dom
    low = min(data["rows"], key=lambda r: (r["mean"], r["rank"]))  # first once sorted up
    assert f"Candidate {low['candidate']} (rank {low['rank']})" in dom


def test_a_review_page_opens_a_round_in_chromium(small_review, tmp_path):
    out = tmp_path / "review.html"
    R.write_report(small_review, out)
    _, dom = check(out, "the best line opens", "a click on round 32 draws its line at that round",
                   "the chart marks the round opened", "the drawn landscape changed")
    assert "rounds ranked by points lost" in dom.lower() and "round 31: 6 points lost" in dom
    assert '<div class="valuechart"><svg' in dom and "V(R) 405</text>" in dom  # at round 32


@pytest.mark.slow
def test_the_committed_sweep_page_sorts_282_rows_without_a_stall(tmp_path):
    out = tmp_path / "sweep.html"
    R.write_report(SWEEP, out, workers=2)
    assert out.stat().st_size < 5_000_000
    verdict, _ = check(out, "sorting by mean puts 282 rows", "a click on a row draws its line")
    sort_ms = float(re.search(r"sort time: ([\d.]+) ms", verdict).group(1))
    assert sort_ms < 200  # two sorts of 282 rows: a stall would be hundreds of ms
