"""ora-solve command-line entry point: parse arguments, call the solver, print results."""

from __future__ import annotations

import json
import random

import click

VARIANTS = ("ireland", "france")
PROFILES = ("rulebook",)


def _package_version() -> str:
    """Return the installed ora-solve version, or a placeholder when running from source."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ora-solve")
    except PackageNotFoundError:
        return "0.1.0+source"


def _play_random(state, rng: random.Random):
    """Play uniformly random legal actions until the game ends; return the terminal state."""
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@click.group(
    help="ora-solve: rules engine, solver and tools for Ora et Labora solo and "
    "multiplayer games."
)
@click.version_option(version=_package_version(), prog_name="ora-solve")
def main() -> None:
    """ora-solve command group."""


@main.command()
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    required=True,
    help="Game variant.",
)
@click.option("--random", "random_play", is_flag=True, help="Play uniformly random legal actions.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    default="rulebook",
    show_default=True,
    help="Rule profile.",
)
def play(variant: str, random_play: bool, seed: int, as_json: bool, profile: str) -> None:
    """Play one seeded solo game on the reference engine and print the final score."""
    if not random_play:
        raise click.UsageError("only --random play is implemented: pass --random")

    from solver.rules import new_initial_state

    state = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    state = _play_random(state, random.Random(seed))
    sc = state.score()[0]
    result = {
        "total": int(sc.total),
        "goods": int(sc.goods),
        "economic": int(sc.economic),
        "dwelling": int(sc.dwelling),
        "rounds": int(state.round),
    }

    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"Ora et Labora solo, {variant}, profile {profile}, seed {seed}")
    click.echo(f"rounds played: {result['rounds']}")
    for key in ("goods", "economic", "dwelling", "total"):
        click.echo(f"{key:<9}{result[key]:>4}")


if __name__ == "__main__":
    main()
