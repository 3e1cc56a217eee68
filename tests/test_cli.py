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
