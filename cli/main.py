"""ora-solve command-line entry point: parse arguments, call the solver, print results."""

from __future__ import annotations

import json
import random
import sys
import time

import click

from cli.options import (
    VARIANTS,
    json_option,
    profile_option,
    quiet_option,
    seed_option,
    variant_option,
)
from cli.bench import register as register_bench
from cli.report import register as register_report
from cli.research import register as register_research
from cli.review import register as register_review
from cli.solo import register as register_solo
from cli.tune import register as register_tune

PERFT_MAX_DEPTH = 8  # the tree grows ~4-5x per ply: depth 7 takes ~8 s, depth 8 ~40 s


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
    help="ora-solve: rules engine, solver and tools for Ora et Labora solo and multiplayer games."
)
@click.version_option(version=_package_version(), prog_name="ora-solve")
def main() -> None:
    """ora-solve command group."""


@main.command()
@variant_option(required=True)
@click.option("--random", "random_play", is_flag=True, help="Play uniformly random legal actions.")
@seed_option("Random seed.")
@json_option()
@profile_option()
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


@main.command("check-rules")
@variant_option(default="both", allow_both=True, help="Variant to check, or both.")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Random games per variant.",
)
@seed_option("Seed of the first game (game i: S+i).")
@profile_option()
@quiet_option
def check_rules(variant: str, games: int, seed: int, profile: str, quiet: bool) -> None:
    """Play seeded random solo games, checking the rules' invariants after every step."""
    from solver.rules.selfplay import SelfPlayError, random_games
    from solver.search.progress import bar as progress_bar

    variants = VARIANTS if variant == "both" else (variant,)
    all_games = all_steps = 0
    with progress_bar(total=games * len(variants), unit="game", quiet=quiet,
                      dynamic_ncols=True) as bar:
        for v in variants:
            bar.set_description(v)
            totals = []
            steps = 0
            start = time.perf_counter()
            try:
                for result in random_games(v, games, seed, profile=profile):
                    totals.append(result.total)
                    steps += result.steps
                    bar.update(1)
            except SelfPlayError as e:
                bar.close()
                click.echo(f"check-rules: FAILED after {all_games + len(totals)} games", err=True)
                click.echo(str(e), err=True)
                sys.exit(1)
            seconds = time.perf_counter() - start
            all_games += len(totals)
            all_steps += steps
            bar.write(
                f"{v}: {len(totals)} games (seeds {seed}..{seed + games - 1}), {steps} steps, "
                f"score mean {sum(totals) / len(totals):.1f} min {min(totals)} "
                f"max {max(totals)}, {seconds:.1f} s",
                file=sys.stdout,
            )
    click.echo(f"check-rules: {all_games} games, {all_steps} steps, 0 failures")


@main.command()
@variant_option(required=True)
@click.option(
    "--depth",
    type=click.IntRange(min=0, max=PERFT_MAX_DEPTH),
    required=True,
    help="Plies to count below the initial position.",
)
@click.option(
    "--divide", "split", is_flag=True, help="Also print the count below each first action."
)
@profile_option()
def perft(variant: str, depth: int, split: bool, profile: str) -> None:
    """Count the legal-action tree below the initial solo position (perft)."""
    from solver.rules import new_initial_state
    from solver.rules import perft as P

    state = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    start = time.perf_counter()
    if split and depth >= 1:
        counts = P.divide(state, depth)
        for text, n in counts.items():
            click.echo(f"{text}: {n}")
        nodes = sum(counts.values())
        click.echo("")
    else:
        nodes = P.perft(state, depth)
    seconds = time.perf_counter() - start
    click.echo(f"perft {variant} depth {depth}: {nodes} nodes ({seconds:.2f} s)")


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@profile_option(("rulebook", "kennerspiel"), help="Rule profile (kennerspiel reproduces "
                "the engine that recorded the games).")
@json_option()
def replay(file: str, profile: str, as_json: bool) -> None:
    """Replay a game record, a kennerspiel command list or an `ora-solve solo` result.

    FILE is a kennerspiel game record (../shared/games schema); a kennerspiel command list
    (a text file with one command per line, such as `BUILD G07 3 1`, or a JSON list of command
    strings), opening with CONFIG and START; a results record written by `ora-solve solo`:
    its line is replayed through the reference engine and the score confirmed; or a sweep or
    review record (`openings`, `analyse`, `review`): every line in it confirmed. Exit 1 for an
    illegal move or an unconfirmed score, 2 for a malformed file or move.
    """
    from solver.rules.notation import NotationError, RecordError, load_game, replay_summary

    if _is_solo_record(file):
        _replay_solo_record(file, as_json)
        return
    from cli.research import is_sweep_record, replay_sweep

    if is_sweep_record(file):  # an `openings` / `analyse` record: every line replayed
        replay_sweep(file, as_json)
        return
    from cli.review import is_review_record, replay_review

    if is_review_record(file):  # a `review` record: every line replayed
        replay_review(file, as_json)
        return

    try:
        record = load_game(file)
        result = replay_summary(record, profile)
    except RecordError as e:
        click.echo(f"replay: malformed record: {e}", err=True)
        sys.exit(2)
    except NotationError as e:
        click.echo(str(e), err=True)
        sys.exit(2 if e.malformed else 1)
    if as_json:
        click.echo(json.dumps(result))
        return
    state = "finished" if result["finished"] else "not finished"
    click.echo(f"{file}: profile {profile}, round {result['round']}, {state}")
    click.echo(f"{'seat':<5}{'color':<6}{'total':>6}{'goods':>7}{'economic':>9}{'dwelling':>9}")
    for seat, p in enumerate(result["players"]):
        click.echo(f"{seat:<5}{p['color']:<6}{p['total']:>6}{p['goods']:>7}{p['economic']:>9}"
                   f"{p['dwelling']:>9}")


def _is_solo_record(file: str) -> bool:
    try:
        with open(file) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    from solver.search.records import KIND

    return isinstance(data, dict) and data.get("kind") == KIND


def _replay_solo_record(file: str, as_json: bool) -> None:
    from solver.search import records

    try:
        data = records.load_record(file)
    except records.RecordError as e:
        click.echo(f"replay: malformed results record: {e}", err=True)
        sys.exit(2)
    ok, message, score = records.verify_record(data)
    if as_json:
        click.echo(json.dumps({"confirmed": ok, "message": message, "recorded": data["score"],
                               "replayed": score}))
    else:
        click.echo(f"{file}: {data['variant']}, {len(data['line'])} actions, recorded "
                   f"{data['score']['total']} points")
        click.echo(("replay: " if ok else "replay FAILED: ") + message)
    if not ok:
        sys.exit(1)


@main.command()
@variant_option(required=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of seeded random games.")
@seed_option("Seed of the first game.")
@quiet_option
def selfcheck(variant: str, games: int, seed: int, quiet: bool) -> None:
    """Play random games in the fast and reference engines side by side, comparing every step."""
    from solver.fast import selfcheck as S
    from solver.search.progress import bar as progress_bar

    with progress_bar(total=games, desc=f"selfcheck {variant}", unit="game",
                      quiet=quiet) as bar:
        result = S.run(variant, games, seed, progress=bar.update)
    for m in result.mismatches:
        click.echo(str(m))
        click.echo(f"selfcheck: {result.games} games, {result.steps} steps, "
                   f"{len(result.mismatches)} mismatches")
        sys.exit(1)
    click.echo(f"selfcheck: {result.games} games, {result.steps} steps, 0 mismatches")


register_research(main)
register_review(main)
register_bench(main)
register_solo(main)
register_tune(main)
register_report(main)

if __name__ == "__main__":
    main()
