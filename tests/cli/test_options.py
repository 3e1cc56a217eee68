"""The options commands share (cli/options.py): every --help lists the options it listed
before the shared decorators, and the old spellings still work."""

from __future__ import annotations

import re
import sys

import pytest
from click.testing import CliRunner

from cli.main import main

# Every option each command's --help listed before the options were shared (--width and
# --widths of bench are now --beam and --beams, their old spellings hidden).
OPTIONS = {
    "analyse": "--variant --from --at-round --moves --opening --top --weights --seeds --beam "
               "--race --ladder --budget --time-limit --jobs --cluster --quiet --out --resume",
    "bench": "--variant --games --reference-games --seed --search --beam --layers --sample "
             "--strength --seeds --beams --nodes --out --json",
    "check-rules": "--variant --games --seed --profile --quiet",
    "openings": "--variant --turns --file --top --weights --seeds --beam --race --ladder --budget "
                "--time-limit --jobs --cluster --quiet --out --resume",
    "perft": "--variant --depth --divide --profile",
    "play": "--variant --random --seed --json --profile",
    "replay": "--profile --json",
    "report": "--html --jobs",
    "review": "--variant --rounds --seeds --beam --time-limit --weights --jobs --cluster "
              "--quiet --top --out --best-out --resume",
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


def test_a_command_line_skips_none_and_false_and_quotes_only_when_asked():
    from solver.search.records import command_line

    options = [("--a", None), ("--b", False), ("--c", True), ("--d", 0), ("--e", "x y"),
               ("--f", "")]
    assert command_line("tune", options) == "ora-solve tune --c --d 0 --e x y --f "
    assert command_line("tune", options, quote=True) == \
        "ora-solve tune --c --d 0 --e 'x y' --f ''"


RECORD = "results/france-beam100-seed0.json"


# solo's arguments and the command its record kept at 3204648, before the builder was shared
@pytest.mark.parametrize("args, command", [
    ("--variant france --beam 3 --seed 2 --out X", "--variant france --beam 3 --seed 2"),
    ("--variant ireland --mcts 1 --playout-width 1 --seed 3 --time-limit 30",
     "--variant ireland --mcts 1 --playout-width 1 --seed 3 --time-limit 30"),
    ("--variant france --mcts", "--variant france --mcts 16 --seed 0"),
    (f"--variant france --beam 2 --from {RECORD} --at-round 31",
     f"--variant france --beam 2 --seed 0 --from {RECORD} --at-round 31"),
    (f"--variant france --nrpa 1 --iterations 1 --seed-line {RECORD} --from-round 31",
     f"--variant france --nrpa 1 --iterations 1 --seed 0 --from {RECORD} --at-round 31"),
    ("--variant france --nrpa 2", "--variant france --nrpa 2 --iterations 100 --seed 0"),
    ("--variant france --nodes 3k", "--variant france --nodes 3000 --seed 0"),
    ("--variant ireland", "--variant ireland --seed 0 --time-limit 600"),
    ("--variant ireland --beam 2 --time-limit 2.5 --weights W",
     "--variant ireland --beam 2 --seed 0 --time-limit 2.5 --weights W"),
])
def test_solo_records_keep_the_command_they_kept_before(args, command, monkeypatch):
    from solver.search import solo
    from solver.search.evaluation import weights as weightsfile

    kept = []

    def run_solo(job, *, command, **kw):
        kept.append(command)
        raise SystemExit(0)

    monkeypatch.setattr(solo, "run_solo", run_solo)
    monkeypatch.setattr(weightsfile, "load", lambda path, variant: None)
    res = CliRunner().invoke(main, ["solo", *args.split()])
    assert res.exit_code == 0, res.output
    assert kept == ["ora-solve solo " + command]


def test_a_solo_opening_is_kept_in_quotes(monkeypatch):
    from solver.search import solo

    kept = []
    monkeypatch.setattr(solo, "run_solo", lambda job, *, command, **kw: kept.append(command)
                        or sys.exit(0))
    CliRunner().invoke(main, ["solo", "--variant", "ireland", "--beam", "2", "--opening",
                              "CUT_PEAT 0 0; COMMIT"])
    assert kept == ['ora-solve solo --variant ireland --beam 2 --seed 0 --opening '
                    '"CUT_PEAT 0 0; COMMIT"']


def test_a_signal_stops_a_command_with_128_plus_its_number():
    from solver.search.solo import exit_status

    assert (exit_status("SIGINT"), exit_status("SIGTERM")) == (130, 143)


def test_one_output_check_names_the_file_and_takes_a_free_name(tmp_path):
    from solver.search import records

    default = tmp_path / "made" / "r.json"
    first = records.output(None, default)
    assert first == records.Output(default, False) and default.parent.is_dir()
    default.write_text("{}")
    assert records.output(None, default).path == tmp_path / "made" / "r-2.json"
    assert records.output(None, default, resume=True) == records.Output(default, True)
    assert records.output(str(default), tmp_path / "x.json") == records.Output(default, True)
    with pytest.raises(records.OutputError, match=r"cannot write the weights file to .*/no/w"
                                                  r"\.json: no directory"):
        records.output(str(tmp_path / "no" / "w.json"), default, what="the weights file")
    with pytest.raises(records.OutputError, match="^cannot write .*made: it is a directory"):
        records.check_writable(tmp_path / "made", what=None)


def test_an_unwritable_bench_out_exits_2_with_one_line(tmp_path):
    out = tmp_path / "no" / "s.json"
    res = CliRunner().invoke(main, ["bench", "--strength", "--out", str(out)])
    assert res.exit_code == 2
    assert res.output == f"bench: cannot write the result to {tmp_path}/no/s.json: no directory " \
                         f"{tmp_path}/no/\n"


def test_no_cli_module_is_over_500_lines():
    from pathlib import Path

    long = {f.name: n for f in sorted((Path(__file__).parents[2] / "cli").glob("*.py"))
            if (n := len(f.read_text().splitlines())) > 500}
    assert not long, f"cli/ modules over 500 lines (split them by concern): {long}"


def test_variant_is_declared_once():
    from pathlib import Path

    cli = Path(__file__).parents[2] / "cli"
    found = {f.name: len(re.findall(r'option\(\s*"--variant"', f.read_text()))
             for f in sorted(cli.glob("*.py"))}
    assert {k: v for k, v in found.items() if v} == {"options.py": 1}


def test_the_tune_options_default_to_the_tuners_settings():
    from solver.search.evaluation.settings import METHODS, Settings

    default = Settings(variant="france")
    params = {p.name: p for p in main.commands["tune"].params}
    for name in ("generations", "population", "beam", "seed", "method", "sigma_scale",
                 "compare", "start_best"):
        assert params[name].default == getattr(default, name), name
    assert params["seeds"].default == ",".join(map(str, default.seeds))
    assert params["holdout"].default == ",".join(map(str, default.holdout))
    assert tuple(params["method"].type.choices) == METHODS
