"""`ora-solve solo`'s choice of search: --beam, --mcts with --playout-width, --nrpa with
--iterations and --from/--at-round; their defaults are the search's, bad arguments exit 2,
and each writes a record that replays."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from solver.search import nrpa, records

RESULTS = Path(__file__).resolve().parents[2] / "results"


def test_solo_cli_rejects_bad_arguments():
    runner = CliRunner()
    for args in (["solo", "--variant", "spain"], ["solo", "--variant", "ireland", "--beam", "0"],
                 ["solo", "--variant", "ireland", "--beam", "3", "--mcts", "3"],
                 ["solo", "--variant", "ireland", "--time-limit", "-1"]):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, (args, res.output)


def test_solo_cli_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "line.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--beam", "2", "--out",
                                    str(out), "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output)
    assert json.loads(out.read_text()) == rec
    for key in ("command", "commit", "date", "versions", "profile", "profile_fields", "parameters",
                "seed", "nodes", "wall_seconds", "score", "line", "rounds"):
        assert key in rec
    res = CliRunner().invoke(main, ["replay", str(out)])
    assert res.exit_code == 0 and "confirmed" in res.output


def test_cli_mcts_default_is_the_search_default():
    from cli.solo import MCTS_DEFAULT
    from solver.search.mcts import DEFAULT_SIMULATIONS

    assert MCTS_DEFAULT == DEFAULT_SIMULATIONS


def test_cli_playout_width_help_and_range_are_the_search_defaults():
    from cli.solo import PLAYOUT_MAX
    from solver.search.mcts import PLAYOUT_WIDTH
    from solver.search.playouts.beam_playouts import MAX_WIDTH

    assert PLAYOUT_MAX == MAX_WIDTH
    help_text = CliRunner().invoke(main, ["solo", "--help"]).output
    assert (f"default {PLAYOUT_WIDTH['ireland']} in Ireland, {PLAYOUT_WIDTH['france']} in "
            "France") in " ".join(help_text.split())


def test_solo_cli_playout_width_sets_the_mcts_playouts_and_names_the_record(tmp_path):
    out = tmp_path / "m.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--mcts", "1",
                                    "--playout-width", "1", "--seed", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["parameters"]["playout_width"] == 1 and rec["algorithm"] == "mcts"
    assert "--mcts 1 --playout-width 1 --seed 3" in rec["command"]
    assert records.verify_record(rec)[0]
    for bad, words in ((["--playout-width", "3"], "--playout-width is an option of --mcts"),
                       (["--mcts", "1", "--playout-width", "0"], "--playout-width"),
                       (["--mcts", "1", "--playout-width", "129"], "--playout-width")):
        res = CliRunner().invoke(main, ["solo", "--variant", "france", *bad,
                                        "--out", str(tmp_path / "x.json")])
        assert res.exit_code == 2 and words in res.output, res.output
        assert not (tmp_path / "x.json").exists()


def test_cli_nrpa_iterations_default_is_the_search_default():
    from cli.solo import NRPA_ITERATIONS
    from solver.search.nrpa import ITERATIONS

    assert NRPA_ITERATIONS == ITERATIONS


def test_solo_cli_rejects_bad_nrpa_arguments(tmp_path):
    runner = CliRunner()
    for args in (["--nrpa", "0"], ["--nrpa", "1", "--mcts", "3"], ["--iterations", "5"],
                 ["--nrpa", "1", "--at-round", "30"], ["--nrpa", "1", "--iterations", "0"],
                 ["--seed-line", str(RESULTS / "ireland-beam100-seed0.json")]):
        res = runner.invoke(main, ["solo", "--variant", "ireland"] + args)
        assert res.exit_code == 2, (args, res.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    out = tmp_path / "o.json"
    ireland = str(RESULTS / "ireland-beam100-seed0.json")
    for args, message in (
            (["--from", str(bad)], f"{bad}: not a results record or game record"),
            (["--from", str(tmp_path / "none.json")], "cannot read"),
            (["--from", str(RESULTS / "france-beam100-seed0.json")],
             "is a france game, but --variant ireland was given"),
            (["--from", ireland, "--at-round", "40"], "round 40 is past the end of the line"),
            (["--from", ireland, "--opening", "COMMIT"], "not both"),
            (["--from", ireland, "--seed-line", ireland], "--seed-line is the old spelling")):
        res = runner.invoke(main, ["solo", "--variant", "ireland", "--nrpa", "1", "--out",
                                   str(out)] + args)
        assert res.exit_code == 2 and message in res.output, (args, res.output)
    assert not out.exists()


def test_solo_cli_nrpa_from_a_seed_line_writes_a_record(tmp_path):
    out = tmp_path / "nrpa.json"
    seed = RESULTS / "france-beam2000-seed0.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nrpa", "1",
                                    "--iterations", "2", "--from", str(seed),
                                    "--at-round", "32", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    rec = json.loads(out.read_text())
    assert rec["algorithm"] == "nrpa" and rec["score"]["total"] >= 512
    assert rec["parameters"] | {} == {"level": 1, "iterations": 2, "time_limit": None,
                                      "tau": nrpa.SEEDED_TAU, "seed_line": str(seed),
                                      "seed_score": 512, "from_round": 32,
                                      "priors": rec["parameters"]["priors"]}
    assert rec["position"]["source"] == f"{seed} at round 32"
    assert rec["line"][:rec["position"]["prefix_actions"]] == \
        json.loads(seed.read_text())["line"][:rec["position"]["prefix_actions"]]
    assert f"--from {seed} --at-round 32" in rec["command"] and records.verify_record(rec)[0]
    # the old spellings are aliases: the same search, the record names the new ones
    out2 = tmp_path / "old.json"
    res = CliRunner().invoke(main, ["solo", "--variant", "france", "--nrpa", "1",
                                    "--iterations", "2", "--seed-line", str(seed),
                                    "--from-round", "32", "--out", str(out2), "--json"])
    assert res.exit_code == 0, res.output
    old = json.loads(out2.read_text())
    assert (old["line"], old["parameters"], old["command"]) == \
        (rec["line"], rec["parameters"], rec["command"])
