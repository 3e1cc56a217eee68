"""The options commands share (cli/options.py): every --help lists the options it listed
before the shared decorators, and the old spellings still work."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cli.main import main

# Every option each command's --help listed before the options were shared (--width and
# --widths of bench are now --beam and --beams, their old spellings hidden).
OPTIONS = {
    "analyse": "--variant --from --at-round --moves --opening --top --weights --seeds --beam "
               "--time-limit --jobs --cluster --quiet --out --resume",
    "bench": "--variant --games --reference-games --seed --search --beam --layers --sample "
             "--strength --seeds --beams --nodes --out --json",
    "check-rules": "--variant --games --seed --profile --quiet",
    "openings": "--variant --turns --file --weights --seeds --beam --time-limit --jobs "
                "--cluster --quiet --out --resume",
    "perft": "--variant --depth --divide --profile",
    "play": "--variant --random --seed --json --profile",
    "replay": "--profile --json",
    "selfcheck": "--variant --games --seed --quiet",
    "show": "--at-round --png --svg",
    "solo": "--variant --beam --mcts --playout-width --nrpa --iterations --seed --seeds "
            "--time-limit --nodes --out --json --jobs --cluster --resume --weights --quiet "
            "--from --at-round --moves --opening",
    "tune": "--variant --generations --population --seeds --holdout --beam --jobs --cluster "
            "--start --start-best --method --sigma-scale --compare --out --seed --quiet",
}
HIDDEN = {"bench": ["--width", "--widths"], "solo": ["--seed-line", "--from-round"]}


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_every_help_lists_its_options_in_order_and_hides_the_old_spellings(command):
    res = CliRunner().invoke(main, [command, "--help"])
    assert res.exit_code == 0, res.output
    listed = re.findall(r"^  (--[a-z-]+)", res.output.split("\nOptions:\n")[1], flags=re.M)
    assert listed == OPTIONS[command].split() + ["--help"]
    assert set(main.commands) == set(OPTIONS)
    for old in HIDDEN.get(command, []):
        assert old not in listed


def _bench_search(monkeypatch):
    """bench --search with the search replaced by one that returns its arguments."""
    from solver.search.bench import speed as bench_search

    monkeypatch.setattr(bench_search, "run", lambda variant, **kw: kw)
    monkeypatch.setattr(bench_search, "format_text", lambda r: f"width {r['width']}")
    return lambda *args: CliRunner().invoke(main, ["bench", "--search", *args])


def test_bench_takes_the_width_as_beam_and_as_its_old_spelling(monkeypatch):
    bench = _bench_search(monkeypatch)
    assert bench().output.strip() == "width 100"
    assert bench("--beam", "3").output.strip() == "width 3"
    assert bench("--width", "3").output.strip() == "width 3"
    res = bench("--width", "0")
    assert res.exit_code == 2 and "'--width'" in res.output
    res = bench("--width", "3", "--beam", "4")
    assert res.exit_code == 2 and "--width is the old spelling of --beam" in res.output


def test_bench_strength_takes_its_widths_as_beams_and_as_the_old_spelling(monkeypatch):
    from solver.search.bench import strength as bench_strength

    runs = []
    monkeypatch.setattr(bench_strength, "run", lambda variants, seeds, widths, nodes,
                        progress=None: runs.append(list(widths)) or {"runs": []})
    monkeypatch.setattr(bench_strength, "format_text", lambda r: "")
    for option in ("--beams", "--widths"):
        res = CliRunner().invoke(main, ["bench", "--strength", option, "2,3", "--nodes", "0"])
        assert res.exit_code == 0, res.output
    assert runs == [[2, 3], [2, 3]]


def test_solo_old_spellings_and_their_new_ones_are_not_both_given(tmp_path):
    for old, new in (("--seed-line", "--from"), ("--from-round", "--at-round")):
        value = "3" if old == "--from-round" else str(tmp_path / "x.json")
        res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nrpa", "1", old, value,
                                        new, value])
        assert res.exit_code == 2 and f"{old} is the old spelling of {new}" in res.output
