"""Random self-play with invariants checked after every step, and invariants that must bite.

The fast tier plays 25 seeded games per variant (a few seconds); the slow tier plays 1000 per
variant (``pytest -m slow``, a few minutes). Broken states built by hand check that
``check_invariants`` really catches what it promises, so a weakened checker fails here.
"""

from __future__ import annotations

import pytest

from solver.rules import goods as G
from solver.rules import selfplay
from solver.rules.cards import BUILDINGS
from solver.rules.invariants import InvariantError, check_invariants
from solver.rules.selfplay import SelfPlayError, random_game, random_games
from tests.helpers import fresh, place

VARIANTS = ("ireland", "france")


# ----- random games ---------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_invariants(variant):
    results = list(random_games(variant, 25, seed=0))
    assert [r.seed for r in results] == list(range(25))
    assert all(r.steps > 100 for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_invariants_1000(variant):
    assert sum(1 for _ in random_games(variant, 1000, seed=0)) == 1000


def test_random_game_is_deterministic_and_ends():
    a, steps_a = random_game("france", 11)
    b, steps_b = random_game("france", 11, check=False)
    assert a.is_terminal() and steps_a == steps_b == len(a.history())
    assert a.history() == b.history()
    assert a.score()[0].total == b.score()[0].total


def test_failure_message_names_variant_seed_step_and_actions(monkeypatch):
    calls = {"n": 0}

    def broken_after_30(state):
        calls["n"] += 1
        if calls["n"] > 31:  # the initial position is check 1, step k is check k + 1
            raise InvariantError("seat 0 holds -1 of good 0")

    monkeypatch.setattr(selfplay, "check_invariants", broken_after_30)
    with pytest.raises(SelfPlayError) as info:
        random_game("ireland", 5)
    err = info.value
    text = str(err)
    assert "ireland seed 5" in text and "at step 31" in text
    assert "invariant broken" in text and "holds -1 of good 0" in text
    assert (err.variant, err.seed, err.step) == ("ireland", 5, 31)
    assert len(err.tail) == 10 and err.tail[-1].startswith("31: ")
    assert all(line in text for line in err.tail)


def test_engine_exception_is_reported_with_context(monkeypatch):
    from solver.rules.game import State

    real = State.apply_action

    def crash_on_step_7(self, action):
        if len(self.g.history) == 6:
            raise KeyError("boom")
        real(self, action)

    monkeypatch.setattr(State, "apply_action", crash_on_step_7)
    with pytest.raises(SelfPlayError, match=r"(?s)france seed 2 .*exception: KeyError.*step 7"):
        random_game("france", 2)


def test_game_that_never_ends_is_reported():
    with pytest.raises(SelfPlayError, match="no end after 50 steps"):
        random_game("ireland", 0, max_steps=50)


# ----- check_invariants catches broken states --------------------------------------------------
def test_fresh_states_pass():
    for variant in VARIANTS:
        check_invariants(fresh(variant))


def test_negative_goods_are_caught():
    state = fresh()
    state.g.owners[0].goods[G.WOOD] = -1
    with pytest.raises(InvariantError, match="holds -1"):
        check_invariants(state)


def test_cloister_far_from_any_cloister_is_caught():
    state = fresh()
    land = state.g.owners[0].land
    bid = next(k for k, b in BUILDINGS.items()
               if b.cloister and not b.heartland and "P" in b.terrain)
    land.cells[(1, 0)][1] = None  # clear a forest two columns from the Cloister Office
    assert not land.touches_cloister((1, 0))
    place(state, bid, 1, 0)
    with pytest.raises(InvariantError, match="touches no cloister"):
        check_invariants(state)


def test_two_clergy_on_one_space_are_caught():
    state = fresh()
    cell = state.g.owners[0].land.find("LR2")
    state.g.owners[0].clergy[0] = [0, *cell]
    check_invariants(state)
    state.g.owners[0].clergy[1] = [0, *cell]
    with pytest.raises(InvariantError, match="two clergymen"):
        check_invariants(state)


def test_building_on_wrong_terrain_is_caught():
    state = fresh()
    bid = next(k for k, b in BUILDINGS.items()
               if not b.cloister and not b.heartland and "P" not in b.terrain)
    place(state, bid, 3, 0)  # a plains space
    with pytest.raises(InvariantError, match="on terrain P"):
        check_invariants(state)


def test_building_both_built_and_in_display_is_caught():
    state = fresh()
    bid = next(b for b in state.g.display
               if not BUILDINGS[b].cloister and "P" in BUILDINGS[b].terrain)
    state.g.owners[0].land.cells[(3, 0)][1] = bid  # built, but not taken from the display
    with pytest.raises(InvariantError, match="both built and in the display"):
        check_invariants(state)


def test_lost_wonder_is_caught():
    state = fresh()
    state.g.wonders_left -= 1
    with pytest.raises(InvariantError, match="wonders"):
        check_invariants(state)
