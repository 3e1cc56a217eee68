"""The OpenSpiel-shaped State API: to_dict/from_dict, clone, history replay, players, returns."""

from __future__ import annotations

import copy
import json
import random

import pytest

from solver.rules import RuleError, new_initial_state
from solver.rules.actions import make
from solver.rules.game import State
from tests.helpers import act, fresh, give

FRAME_KINDS = ("turn", "option", "pay", "neutral_build", "neutral_contract", "settle")


def random_game(seed: int, variant: str = "ireland", profile: str = "rulebook"):
    """Play a seeded random game; return the final state and snapshots (clones) along the way:
    the first state of every frame kind met, plus every 40th decision."""
    s = new_initial_state(variant=variant, players=1, length="long", profile=profile)
    rng = random.Random(seed)
    snaps, seen, n = [], set(), 0
    while not s.is_terminal():
        kind = s.frame["f"]
        if kind not in seen or n % 40 == 0:
            seen.add(kind)
            snaps.append(s.clone())
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    return s, snaps


@pytest.fixture(scope="module")
def game2():
    return random_game(2)


def roundtrip(s) -> State:
    text = json.dumps(s.to_dict())
    return State.from_dict(json.loads(text))


def test_snapshots_cover_payment_and_settlement_frames(game2):
    _, snaps = game2
    kinds = {t.frame["f"] for t in snaps}
    assert set(FRAME_KINDS) <= kinds, kinds
    assert any(t.frame["f"] == "pay" and t.g.phase for t in snaps)  # a settlement payment


def test_to_dict_from_dict_roundtrip(game2):
    final, snaps = game2
    for s in snaps + [final]:
        r = roundtrip(s)
        assert r.to_dict() == s.to_dict()
        assert r.legal_actions() == s.legal_actions()
        assert [r.action_to_string(a) for a in r.legal_actions()] == \
               [s.action_to_string(a) for a in s.legal_actions()]
        assert r.current_player() == s.current_player()
        assert r.is_terminal() == s.is_terminal()
        assert r.score() == s.score()
        assert r.profile == s.profile


def test_roundtrip_state_plays_on_identically(game2):
    """Restored mid-payment / mid-settlement states continue exactly like the originals."""
    _, snaps = game2
    for s in snaps:
        if s.frame["f"] not in ("pay", "settle", "neutral_build", "neutral_contract"):
            continue
        a, b = s.clone(), roundtrip(s)
        rng = random.Random(99)
        while not a.is_terminal():
            act_id = rng.choice(a.legal_actions())
            a.apply_action(act_id)
            b.apply_action(act_id)
        assert b.is_terminal()
        assert b.to_dict() == a.to_dict()
        assert b.returns() == a.returns()


@pytest.mark.parametrize("variant,profile", [("france", "rulebook"),
                                             ("ireland", "kennerspiel")])
def test_roundtrip_other_variant_and_profile(variant, profile):
    final, snaps = random_game(5, variant, profile)
    for s in snaps + [final]:
        r = roundtrip(s)
        assert r.profile.name == profile
        assert r.to_dict() == s.to_dict()
        assert r.legal_actions() == s.legal_actions()


def test_from_dict_does_not_alias_its_input():
    s = fresh()
    d = json.loads(json.dumps(s.to_dict()))
    keep = copy.deepcopy(d)
    r = State.from_dict(d)
    act(r, "USE LR1 Clay Mound with lay brother")
    act(r, "LR1: take 2 clay")
    assert d == keep


def test_regression_to_dict_is_a_snapshot():
    s = fresh()
    d = s.to_dict()
    keep = copy.deepcopy(d)
    act(s, "USE LR1 Clay Mound with lay brother")
    act(s, "LR1: take 2 clay")
    assert d == keep


def test_regression_mutating_to_dict_output_leaves_state_alone():
    s = fresh()
    before = json.dumps(s.to_dict())
    d = s.to_dict()
    d["owners"][0]["goods"][10] = 99   # 99 coins
    d["display"].clear()
    assert json.dumps(s.to_dict()) == before


def test_clone_independence(game2):
    _, snaps = game2
    for s in snaps[:6]:
        before = json.dumps(s.to_dict())
        c = s.clone()
        assert c.to_dict() == s.to_dict()
        c.apply_action(c.legal_actions()[-1])
        c.g.owners[0].goods[10] += 7
        c.g.owners[0].land.cells[(3, 0)][1] = "G07"
        c.g.display.append("X")
        c.g.wheel.arm = (c.g.wheel.arm + 5) % 13
        assert json.dumps(s.to_dict()) == before
    # and the other way round
    s = fresh()
    c = s.clone()
    act(s, "FELL_TREES at (1, 0)")
    assert c.to_dict() == fresh().to_dict()


def test_history_replay(game2):
    final, snaps = game2
    for s in snaps + [final]:
        r = fresh()
        for a in s.history():
            r.apply_action(a)
        assert r.to_dict() == s.to_dict()
    assert final.history() == final.to_dict()["history"]
    h = final.history()
    h.append(12345)
    assert final.history() != h   # history() is a copy


def test_illegal_action_is_not_recorded_in_history():
    s = fresh()
    with pytest.raises(RuleError):
        s.apply_action(make("BUILD", "G01", 3, 0))
    assert s.history() == []
    act(s, "COMMIT")
    assert s.history() == [make("COMMIT")]


def test_current_player_and_terminal(game2):
    final, snaps = game2
    for s in snaps:
        assert not s.is_terminal()
        assert s.current_player() == 0
        legal = s.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert s.returns() == [0.0]
    assert final.is_terminal()
    assert final.current_player() == -4
    assert final.legal_actions() == []
    assert final.round == 32 and final.g.phase == "E"


def test_action_to_string_for_every_legal_action(game2):
    _, snaps = game2
    for s in snaps:
        strings = [s.action_to_string(a) for a in s.legal_actions()]
        for a, text in zip(s.legal_actions(), strings):
            assert isinstance(text, str) and text and not text.startswith("<invalid"), (a, text)
        assert len(set(strings)) == len(strings), strings  # text identifies the action


def test_every_legal_action_applies(game2):
    """Nothing in legal_actions() is refused by apply_action()."""
    _, snaps = game2
    for s in snaps:
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            assert c.history()[-1] == a


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_returns_equal_score_total_at_end(seed):
    final, _ = random_game(seed)
    sc = final.score()[0]
    assert final.returns() == [float(sc.total)]
    assert sc.total == sc.goods + sc.economic + sc.dwelling


def test_returns_zero_before_end_even_with_points():
    s = fresh()
    give(s, book=3)
    assert s.score()[0].total == 6
    assert s.returns() == [0.0]
