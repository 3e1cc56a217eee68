"""Tests for the ora-solve command-line interface."""

import json

from click.testing import CliRunner

from cli.main import main

PLAY_ARGS = ["play", "--variant", "ireland", "--random", "--seed", "7", "--json"]


def _invoke(args):
    """Invoke the CLI in-process and return the click Result."""
    return CliRunner().invoke(main, args)


def test_help_lists_play():
    result = _invoke(["--help"])
    assert result.exit_code == 0, result.output
    assert "play" in result.output


def test_play_json_score_breakdown():
    result = _invoke(PLAY_ARGS)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"total", "goods", "economic", "dwelling", "rounds"}
    for key, value in data.items():
        assert isinstance(value, int) and not isinstance(value, bool), key
    assert data["total"] == data["goods"] + data["economic"] + data["dwelling"]
    assert data["rounds"] == 32


def test_play_is_deterministic_for_a_seed():
    first = _invoke(PLAY_ARGS)
    second = _invoke(PLAY_ARGS)
    assert first.exit_code == 0, first.output
    assert second.exit_code == 0, second.output
    assert first.output == second.output


def test_bad_variant_is_usage_error():
    result = _invoke(["play", "--variant", "spain", "--random"])
    assert result.exit_code == 2
    assert "--variant" in result.output


def test_play_without_random_is_usage_error():
    result = _invoke(["play", "--variant", "ireland"])
    assert result.exit_code == 2
    assert "only --random play is implemented" in result.output


def test_check_rules_summary_and_last_line():
    result = CliRunner().invoke(
        main, ["check-rules", "--variant", "both", "--games", "2", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()  # the progress bar goes to stderr
    assert lines[-1].startswith("check-rules: 4 games, ") and lines[-1].endswith(" 0 failures")
    assert any(line.startswith("ireland: 2 games") for line in lines)
    assert any(line.startswith("france: 2 games") for line in lines)


def test_check_rules_failure_exits_1(monkeypatch):
    from solver.rules import selfplay

    def broken(state):
        if len(state.history()) == 12:
            raise selfplay.InvariantError("planted failure")

    monkeypatch.setattr(selfplay, "check_invariants", broken)
    result = CliRunner().invoke(main, ["check-rules", "--variant", "france", "--games", "3"])
    assert result.exit_code == 1
    assert "france seed 0" in result.output and "step 12" in result.output
    assert "planted failure" in result.output
    assert "0 failures" not in result.output


def test_check_rules_bad_args_are_usage_errors():
    for args in (["--variant", "spain"], ["--games", "0"], ["--seed", "x"],
                 ["--profile", "house"]):
        result = _invoke(["check-rules", *args])
        assert result.exit_code == 2, (args, result.output)


def test_perft_command_counts_and_divides():
    result = _invoke(["perft", "--variant", "ireland", "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert "perft ireland depth 2: 49 nodes" in result.output
    result = _invoke(["perft", "--variant", "ireland", "--depth", "2", "--divide"])
    assert result.exit_code == 0, result.output
    assert "COMMIT (end turn): " in result.output
    assert "depth 2: 49 nodes" in result.output.splitlines()[-1]
    assert _invoke(["perft", "--variant", "ireland", "--depth", "-1"]).exit_code == 2
