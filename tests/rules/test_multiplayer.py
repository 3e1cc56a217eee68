"""Multiplayer rules of the reference engine (RULES §3-§13): flows, contracts, bonus round.

Seeded random games of all 16 configurations (France/Ireland x 2/3/4 players x long/short)
play to their end with the invariants checked after every step (a fast tier here, a larger
``slow`` tier), plus targeted tests of each multiplayer rule.
"""

from __future__ import annotations

import random

import pytest

from solver.rules import actions as A
from solver.rules import goods as G
from solver.rules import new_initial_state
from solver.rules.invariants import check_invariants
from solver.rules.profile import KENNERSPIEL, RULEBOOK
from solver.rules.schedule import script
from tests.helpers import give, place

CONFIGS = [(v, p, n) for v in ("france", "ireland") for p in (2, 3, 4) for n in ("long", "short")]


def play_random(variant, players, length, seed, profile="rulebook", build_bias=0.0):
    """Play a seeded random game to its end, checking invariants; return (state, steps)."""
    state = new_initial_state(variant=variant, players=players, length=length, profile=profile)
    check_invariants(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action at step {steps}"
        builds = [a for a in legal if A.decode(a).kind == "BUILD"]
        if builds and rng.random() < build_bias:
            action = rng.choice(builds)
        else:
            action = rng.choice(legal)
        state.apply_action(action)
        check_invariants(state)
        steps += 1
        assert steps < 20_000, "the game does not end"
    return state, steps


@pytest.mark.parametrize("variant,players,length", CONFIGS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_game_plays_to_the_end(variant, players, length, seed):
    state, steps = play_random(variant, players, length, seed)
    assert state.is_terminal() and steps > 100
    scores = state.score()
    assert len(scores) == players
    for sc in scores:
        assert sc.total == sc.goods + sc.economic + sc.dwelling
    if players >= 3:
        assert state.round == (25 if length == "long" else 13)  # the bonus round was played
        assert state.g.phase == "E"


@pytest.mark.parametrize("variant,players,length", CONFIGS)
def test_random_game_kennerspiel_profile(variant, players, length):
    state, _ = play_random(variant, players, length, 3, profile="kennerspiel")
    assert state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,length", CONFIGS)
@pytest.mark.parametrize("profile", ["rulebook", "kennerspiel"])
def test_random_games_slow(variant, players, length, profile):
    for seed in range(10, 30):
        state, _ = play_random(variant, players, length, seed, profile=profile,
                               build_bias=0.9 if seed % 2 else 0.0)
        assert state.is_terminal()


# ----- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players,length,clergy,moors,forests", [
    (2, "long", 3, 2, 3), (2, "short", 3, 2, 3), (3, "long", 3, 2, 3), (4, "long", 3, 2, 3),
    (3, "short", 2, 1, 2), (4, "short", 2, 1, 2)])
def test_setup_clergy_heartland_and_starting_goods(players, length, clergy, moors, forests):
    s = new_initial_state("france", players, length)
    for o in s.g.owners:
        assert len(o.clergy) == clergy
        assert len(o.land.features("moor")) == moors
        assert len(o.land.features("forest")) == forests
        have = {G.NAMES[i]: n for i, n in enumerate(o.goods) if n}
        base = {"wood": 1, "clay": 1, "peat": 1, "coin": 1, "grain": 1, "sheep": 1}
        if length == "short" and players >= 3:
            base["grain"] += 1  # round 1 goods: grain + sheep (RULES §7.3)
            base["sheep"] += 1
        assert have == base
    assert s.g.wheel.values[1] == (1 if (players, length) == (2, "short") else 2)


@pytest.mark.parametrize("players,length,count", [(2, "long", 24), (2, "short", 24),
                                                  (3, "long", 33), (4, "long", 41),
                                                  (3, "short", 24), (4, "short", 33)])
def test_building_sets(players, length, count):
    s = new_initial_state("ireland", players, length)
    assert len(s.g.display) + sum(len(v) for v in s.g.stacks.values()) == count


def test_kennerspiel_short_games_use_the_long_lists():
    s = new_initial_state("ireland", 4, "short", profile="kennerspiel")
    assert len(s.g.display) + sum(len(v) for v in s.g.stacks.values()) == 41


# ----- flow ----------------------------------------------------------------------------------
def _turns_of_round(steps, r):
    i = steps.index(("round", r))
    out = []
    for st in steps[i + 1:]:
        if st[0] in ("round", "bonus_round"):
            break
        if st[0] == "turn":
            out.append(st[1])
    return out


def test_turn_order_and_start_players_extra_action():
    steps = script(4, "long", RULEBOOK)
    assert _turns_of_round(steps, 1) == [0, 1, 2, 3, 0]
    assert _turns_of_round(steps, 2) == [1, 2, 3, 0, 1]
    steps = script(3, "long", RULEBOOK)
    assert _turns_of_round(steps, 3) == [2, 0, 1, 2]


@pytest.mark.parametrize("players,length,profile,expected", [
    (4, "long", RULEBOOK, {"A": (7, 2), "B": (10, 1), "C": (16, 3), "D": (19, 2)}),
    (3, "long", RULEBOOK, {"A": (6, 2), "B": (11, 1), "C": (15, 2), "D": (20, 1)}),
    (3, "short", RULEBOOK, {"A": (3, 2), "B": (5, 1), "C": (7, 0), "D": (9, 2)}),
])
def test_settlement_phases_start_with_the_rounds_start_player(players, length, profile,
                                                                expected):
    steps = script(players, length, profile)
    for letter, (rnd, first) in expected.items():
        i = steps.index(("round", rnd))
        settles = [st for st in steps[i:] if st[0] == "settle" and st[1] == letter]
        assert [st[2] for st in settles] == [(first + k) % players for k in range(players)]
        # rulebook: the phase follows the round's rotation
        assert steps.index(settles[0]) > i
        # kennerspiel: the phase comes before the rotation of the round it opens
        ks = script(players, length, KENNERSPIEL)
        ks_first = ks.index(("settle", letter, first))
        assert ks_first < ks.index(("round", rnd)) and ks_first > ks.index(("round", rnd - 1))
    e = [st[2] for st in steps if st[0] == "settle" and st[1] == "E"]
    assert e == list(range(players))


def test_grapes_and_stone_enter_after_rotation_rulebook_and_before_in_kennerspiel():
    s = new_initial_state("france", 4, "long")
    while s.round < 8:
        s.apply_action(A.make("COMMIT"))
    assert "grapes" in s.g.wheel.tokens and s.g.wheel.yield_of("grapes") == 0
    assert "stone" not in s.g.wheel.tokens
    k = new_initial_state("france", 4, "long", profile="kennerspiel")
    while k.round < 8:
        k.apply_action(A.make("COMMIT"))
    assert k.g.wheel.yield_of("grapes") == 2  # quirk 5 (D12)
    k3 = new_initial_state("france", 3, "long", profile="kennerspiel")
    while k3.round < 8:
        k3.apply_action(A.make("COMMIT"))
    assert "grapes" not in k3.g.wheel.tokens  # 3 players: round 9 in kennerspiel


def test_ireland_never_gets_grapes():
    s = new_initial_state("ireland", 3, "short")
    while s.round < 7:
        s.apply_action(A.make("COMMIT") if s.frame["f"] != "settle" else A.make("COMMIT"))
    assert "grapes" not in s.g.wheel.tokens and "stone" in s.g.wheel.tokens


def test_short_round_goods_arrive_before_the_settlement_phase():
    s = new_initial_state("france", 3, "short")
    while s.frame["f"] != "settle":
        s.apply_action(A.make("COMMIT"))
    assert s.round == 3
    # round goods 1..3: grain+sheep, grain+clay, grain+wood, on top of the starting goods
    assert s.g.owners[0].goods[G.WOOD] == 2 and s.g.owners[0].goods[G.GRAIN] == 4
    k = new_initial_state("france", 3, "short", profile="kennerspiel")
    while k.frame["f"] != "settle":
        k.apply_action(A.make("COMMIT"))
    assert k.g.owners[0].goods[G.WOOD] == 1  # quirk 3: round 3's goods come after the phase


def test_short_game_bonus_production_goes_to_every_player():
    s = new_initial_state("france", 3, "short")
    before = [list(o.goods) for o in s.g.owners]
    s.apply_action(A.make("USE", "LR1", flag=0))  # Clay Mound
    s.apply_action(A.make("OPTION", flag=1))
    gained = [s.g.owners[i].goods[G.CLAY] - before[i][G.CLAY] for i in range(3)]
    assert gained == [3, 1, 1]  # wheel yield 2 + bonus 1 for the user; 1 for the others
    s.apply_action(A.make("COMMIT"))
    s.apply_action(A.make("FELL_TREES", col=1, row=1))
    assert s.g.owners[0].goods[G.WOOD] == before[0][G.WOOD] + 1
    assert s.g.owners[1].goods[G.WOOD] == before[1][G.WOOD] + 3


def test_long_game_has_no_bonus_production():
    s = new_initial_state("france", 3, "long")
    s.apply_action(A.make("USE", "LR1", flag=0))
    s.apply_action(A.make("OPTION", flag=1))
    assert s.g.owners[1].goods[G.CLAY] == 1


# ----- work contracts ------------------------------------------------------------------------
def _contract_ready():
    s = new_initial_state("france", 3, "long")
    return s


def test_work_contract_owner_chooses_and_is_paid():
    s = _contract_ready()
    s.apply_action(A.make("WORK_CONTRACT", "LG1", flag=0, extra=0))
    f = s.frame
    assert f["f"] == "choose_clergy" and s.current_player() == 1
    assert s.g.owners[0].goods[G.COIN] == 0 and s.g.owners[1].goods[G.COIN] == 2
    s.apply_action(A.make("CHOOSE_CLERGY", flag=1))  # the owner sends its prior
    o = s.g.owners[1]
    assert o.clergy[o.prior] == [1, 4, 0]
    assert s.current_player() == 0 and s.frame["f"] == "option"
    s.apply_action(A.make("OPTION", flag=1))
    assert s.g.owners[0].goods[G.CLAY] == 3


def test_work_contract_without_choice_places_the_only_kind():
    s = _contract_ready()
    o = s.g.owners[1]
    o.clergy[o.prior] = [1, 2, 1]  # prior on its Farmyard
    s.apply_action(A.make("WORK_CONTRACT", "LG1", flag=0, extra=0))
    assert s.frame["f"] == "option"
    assert o.clergy[0] == [1, 4, 0]


def test_work_contract_needs_a_free_clergyman_of_the_owner():
    s = _contract_ready()
    o = s.g.owners[1]
    o.clergy[:] = [[1, 2, 1], [1, 4, 1], [1, 0, 0]]
    assert all(A.decode(a).building not in ("LG1", "LG2", "LG3") for a in s.legal_actions()
               if A.decode(a).kind == "WORK_CONTRACT")


def test_work_contract_price_two_after_winery_and_present():
    s = _contract_ready()
    place(s, "F21", 3, 1, owner=2)
    give(s, 0, wine=1, coin=1)
    s.apply_action(A.make("WORK_CONTRACT", "LG1", flag=0, extra=0))
    assert s.g.owners[1].goods[G.COIN] == 3  # 2 coins to the owner
    s2 = _contract_ready()
    give(s2, 0, wine=1)
    s2.apply_action(A.make("WORK_CONTRACT", "LG1", flag=0, extra=1))
    assert s2.g.owners[1].goods[G.COIN] == 1 and s2.g.owners[0].goods[G.WINE] == 0


# ----- bonus round ---------------------------------------------------------------------------
def _to_bonus_round(players=3, length="short"):
    s = new_initial_state("france", players, length)
    while not s.g.bonus_round:
        s.apply_action(A.make("COMMIT"))
    return s


def test_bonus_round_prior_on_another_players_occupied_building():
    s = _to_bonus_round()
    assert s.round == 13 and s.current_player() == 0
    other = s.g.owners[1]
    other.clergy[0] = [1, 4, 0]  # its lay brother on its Clay Mound
    legal = {s.action_to_string(a) for a in s.legal_actions()}
    assert "USE LG1 Clay Mound with prior" in legal
    assert not any(t.startswith(("WORK_CONTRACT", "FELL_TREES", "CUT_PEAT")) for t in legal)
    s.apply_action(A.make("USE", "LG1", flag=1))
    me = s.g.owners[0]
    assert me.clergy[me.prior] == [1, 4, 0]
    check_invariants(s)
    s.apply_action(A.make("OPTION", flag=1))
    assert s.frame["f"] == "turn" and s.frame["main"]


def test_bonus_round_returns_priors_only():
    s = new_initial_state("france", 3, "short")
    o = s.g.owners[2]
    while s.round < 12:
        s.apply_action(A.make("COMMIT"))
    o.clergy[0] = [2, 4, 0]
    while not s.g.bonus_round:
        s.apply_action(A.make("COMMIT"))
    assert o.clergy[0] == [2, 4, 0] and o.clergy[o.prior] is None


# ----- two-player end ------------------------------------------------------------------------
def test_two_player_printed_game_ends_one_action_after_display_runs_out():
    s = new_initial_state("france", 2, "short")
    while s.round < 29:
        s.apply_action(A.make("COMMIT"))
    assert s.round == 29 and not s.is_terminal()
    s.g.display[:] = s.g.display[:1]
    s.apply_action(A.make("COMMIT"))
    s.apply_action(A.make("COMMIT"))
    assert s.round == 30 and s.current_player() == 1
    s.apply_action(A.make("COMMIT"))  # the other player's single final action
    assert s.is_terminal()


def test_two_player_long_ends_at_the_end_of_the_round():
    for profile, rounds in (("rulebook", 30), ("kennerspiel", 31)):
        s = new_initial_state("ireland", 2, "long", profile=profile)
        while s.round < 30:
            s.apply_action(A.make("COMMIT"))
        s.apply_action(A.make("COMMIT"))
        s.apply_action(A.make("COMMIT"))
        s.g.display[:] = s.g.display[:3]  # the display runs down in the round's third turn
        s.apply_action(A.make("COMMIT"))
        # kennerspiel checks before each third turn only (quirk 6): one more round
        while not s.is_terminal():
            s.apply_action(A.make("COMMIT"))
        assert s.round == rounds, profile


# ----- multiplayer-only buildings ------------------------------------------------------------
def test_carpentry_removes_a_forest_then_builds():
    s = new_initial_state("france", 4, "long")
    place(s, "F10", 3, 0)
    give(s, 0, wood=1)
    s.apply_action(A.make("USE", "F10", flag=0))
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    assert any("remove the forest at (1, 0)" in t for t in texts)
    opt = next(a for a in s.legal_actions() if "(1, 0)" in s.action_to_string(a))
    s.apply_action(opt)
    assert s.g.owners[0].land.content((1, 0)) is None
    assert s.frame["f"] == "grant_build"
    s.apply_action(A.make("BUILD", "G07", 1, 0))  # Peat Coal Kiln costs 1 clay
    assert s.g.owners[0].land.content((1, 0)) == "G07"


def test_grapevine_uses_the_joker_before_grapes_enter():
    s = new_initial_state("france", 3, "long")
    s.g.owners[0].land.cells[(3, 0)][0] = "H"
    place(s, "F14", 3, 0)
    s.apply_action(A.make("USE", "F14", flag=0))
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    assert any("grapes with the joker" in t for t in texts)


@pytest.mark.parametrize("players,length,profile,limit", [
    (3, "long", "rulebook", 8), (2, "short", "rulebook", 6), (2, "short", "kennerspiel", 8),
    (2, "long", "rulebook", 6)])
def test_house_of_the_brotherhood_rate(players, length, profile, limit):
    s = new_initial_state("france", players, length, profile=profile)
    place(s, "G41", 3, 1)
    place(s, "G02", 3, 0)
    s.g.owners[0].land.cells[(2, 0)][1] = None
    place(s, "F09", 2, 0)  # 4 cloisters: office, House, Courtyard, Garden
    give(s, 0, coin=5)
    s.apply_action(A.make("USE", "G41", flag=0))
    best = max(sum(n * p for n, p in zip(opt.data[0], (2, 3, 4, 8)))
               for opt in s._options(s.frame)[1:])
    assert best == limit
