"""Seeded random self-play on the reference engine, with invariants checked after every step.

``random_game(variant, seed)`` plays one solo game choosing uniformly among the legal actions
with ``random.Random(seed)``; ``random_games(variant, games, seed)`` plays games with seeds
``seed, seed + 1, ...`` and yields one :class:`GameResult` each (for progress bars). Any
exception or broken invariant becomes a :class:`SelfPlayError` whose message names the
variant, seed, step and the last actions as text, so the failure can be replayed exactly.
"""

from __future__ import annotations

import random
import traceback
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from .game import State, new_initial_state
from .invariants import InvariantError, check_invariants

TAIL = 10  # actions shown in an error message
MAX_STEPS = 20_000  # random games end after ~200-300 steps; far more means the game never ends


class SelfPlayError(AssertionError):
    """A random game crashed, broke an invariant or never ended; the message says where."""

    def __init__(self, message: str, variant: str, seed: int, step: int, tail: list[str]):
        super().__init__(message)
        self.variant = variant
        self.seed = seed
        self.step = step
        self.tail = tail


@dataclass(frozen=True)
class GameResult:
    """One finished random game: its seed, final score total and number of actions."""

    variant: str
    seed: int
    total: int
    steps: int


def random_game(variant: str, seed: int, profile: str = "rulebook", check: bool = True,
                max_steps: int = MAX_STEPS) -> tuple[State, int]:
    """Play one seeded uniformly random solo game; return (terminal state, steps taken).

    Step ``k`` is the k-th action applied (step 0 is the initial position). With ``check``,
    ``check_invariants`` runs on the initial position and after every step.
    """
    rng = random.Random(seed)
    tail: deque[str] = deque(maxlen=TAIL)
    step = 0
    state = None

    def fail(what: str, exc: BaseException | None) -> SelfPlayError:
        lines = [f"{variant} seed {seed} (profile {profile}): {what} at step {step}",
                 f"last {len(tail)} actions (step: id text):"] + [f"  {t}" for t in tail]
        if state is not None:
            lines.append(f"replay: random_game({variant!r}, {seed}, profile={profile!r}); "
                         f"{len(state.history())} actions were applied")
        if exc is not None:
            lines.append("".join(traceback.format_exception(exc)).rstrip())
        return SelfPlayError("\n".join(lines), variant, seed, step, list(tail))

    try:
        state = new_initial_state(variant=variant, players=1, length="long", profile=profile)
        if check:
            check_invariants(state)
        while not state.is_terminal():
            if step >= max_steps:
                raise fail(f"no end after {max_steps} steps", None)
            legal = state.legal_actions()
            if not legal:
                raise fail("no legal action in a non-terminal state", None)
            action = rng.choice(legal)
            step += 1
            tail.append(f"{step}: {action} {state.action_to_string(action)}")
            state.apply_action(action)
            if check:
                check_invariants(state)
    except SelfPlayError:
        raise
    except Exception as e:  # every failure is reported with its context
        what = "invariant broken" if isinstance(e, InvariantError) else "exception"
        raise fail(f"{what}: {type(e).__name__}: {e}", e) from e
    return state, step


def random_games(variant: str, games: int, seed: int = 0, profile: str = "rulebook",
                 check: bool = True) -> Iterator[GameResult]:
    """Play ``games`` random games with seeds ``seed + i``, yielding each result as it ends."""
    for i in range(games):
        state, steps = random_game(variant, seed + i, profile=profile, check=check)
        yield GameResult(variant, seed + i, int(state.score()[0].total), steps)
