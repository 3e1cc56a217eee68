"""`ora-solve bench --search` (solver/search/bench/speed.py) reproduces its figures."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import main


def _bench(*extra):
    res = CliRunner().invoke(main, ["bench", "--search", "--variant", "ireland", "--width", "3",
                                    "--layers", "2", "--sample", "1", "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_bench_search_signature_is_reproducible_and_the_profile_adds_up():
    a = _bench()
    b = _bench()
    assert a["signature"] == b["signature"]
    assert a["signature"]["nodes"] > 0 and len(a["signature"]["best"]) == 4
    assert a["children_per_s"] > 0
    for r in a["per_round"]:
        p = r["profile"]
        assert p["parents"] == 1 and p["steps"] >= p["new_children"] > 0
        assert set(p["share"]) >= {"legal generation", "policy filter", "hash", "evaluation",
                                   "step (incl. its forced-END check)"}
        assert sum(p["share"].values()) == pytest.approx(1.0, abs=0.01)


def test_bench_search_signature_follows_the_settings_and_bad_input_is_named(tmp_path):
    a, b = _bench(), _bench("--width", "5")
    assert a["signature"]["nodes"] < b["signature"]["nodes"]
    assert a["signature"]["beams"] != b["signature"]["beams"]
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    from solver.search.bench import speed as bench_search

    with pytest.raises(ValueError, match="x.json"):
        bench_search.run("ireland", width=2, layers=1, source=bad)
