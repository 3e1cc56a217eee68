"""The reference engine's structure: typed frames, the decision table, and the payers.

* every frame type has exactly one decision module, and the State dispatches through it;
* frames keep the JSON form of the engine's old dict frames, and ``from_dict`` rebuilds them;
* an importer's named payment (``apply_explicit``, a :class:`NamedPayment`) and the engine's
  automatic payment reach the same state when they pay the same tiles, and the State keeps no
  payment mode of its own.
"""

from __future__ import annotations

import json
import random

import pytest

from solver.rules import RuleError, decisions, new_initial_state
from solver.rules import actions as A
from solver.rules import frames as F
from solver.rules.game import State
from solver.rules.payers import AUTOMATIC, NamedPayment
from tests.helpers import fresh

#: the JSON keys of each kind, as the dict frames of commit 01cc41c stored them
LEGACY_KEYS = {
    "turn": {"f", "seat", "main"}, "option": {"f", "user", "b", "loc", "via", "chain"},
    "pay": {"f", "user", "need", "last", "paid", "then"},
    "free_use": {"f", "user", "targets", "chain"}, "prior_bonus": {"f", "user", "b"},
    "grant_build": {"f", "user"}, "grant_settle": {"f", "user"},
    "grant_fell_cut": {"f", "user", "fell", "cut"}, "grant_land": {"f", "user", "district", "plot"},
    "pick_cells": {"f", "user", "kind", "count", "picked", "then"},
    "neutral_build": {"f", "seat"}, "neutral_contract": {"f", "seat"},
    "settle": {"f", "seat", "bought", "settled"},
    "choose_clergy": {"f", "chooser", "user", "owner", "loc"},
}


def _random_states(games: int, seed: int = 0):
    """Every state along seeded random games of all modes and both profiles."""
    rng = random.Random(seed)
    for _ in range(games):
        players = rng.choice([1, 2, 3, 4])
        s = new_initial_state(rng.choice(["france", "ireland"]), players,
                              rng.choice(["long", "short"]) if players > 1 else "long",
                              rng.choice(["rulebook", "kennerspiel"]))
        while not s.is_terminal():
            yield s
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.fixture(scope="module")
def frames_seen() -> dict[str, list[tuple[State, F.Frame]]]:
    seen: dict[str, list] = {}
    for s in _random_states(12):
        f = s.frame
        if len(seen.setdefault(f.kind, [])) < 20:
            c = s.clone()
            seen[f.kind].append((c, c.frame))
    return seen


_THEN = F.ResolveUse(user=0, building="F26", loc=[0, 1, 1], via="clergy", chain=["F26"],
                     data=[2])
#: frames that random play seldom reaches, built by hand
RARE = [F.PickCellsFrame(user=0, feature="forest", count=2, then=_THEN, picked=[[0, 1]]),
        F.ChooseClergyFrame(chooser=1, user=0, owner=1, loc=[1, 2, 0]),
        F.GrantSettleFrame(user=2), F.GrantBuildFrame(user=1),
        F.GrantLandFrame(user=0, district=False), F.GrantFellCutFrame(user=1, cut=False),
        F.PayFrame(user=0, need={"food": 2, "energy2": 0, "points": 0, "distinct": 0},
                   then=F.PlaceSettlement(user=0, settlement="S2", cell=[1, 0]))]


def test_every_frame_type_has_one_decision_module():
    assert set(decisions.DECISIONS) == set(F.FRAME_TYPES)
    assert len({t.kind for t in F.FRAME_TYPES}) == len(F.FRAME_TYPES)
    for t, module in decisions.DECISIONS.items():
        assert module.FRAME is t
        assert callable(module.legal) and callable(module.apply)


def test_frames_keep_their_json_form_and_round_trip(frames_seen):
    every = [f for items in frames_seen.values() for _, f in items] + RARE
    assert {f.kind for f in every} == set(LEGACY_KEYS)
    for f in every:
        d = f.to_dict()
        assert set(d) - {"bonus"} == LEGACY_KEYS[f.kind], d
        back = F.frame_from_dict(json.loads(json.dumps(d)))
        assert type(back) is type(f) and back == f


def test_frame_mapping_view_reads_json_keys():
    s = fresh("france")
    assert s.frame["f"] == "turn" == s.frame.kind and s.frame["seat"] == 0
    assert s.frame.get("bonus") is False and s.frame.get("user", 7) == 7
    with pytest.raises(KeyError):
        s.frame["user"]
    pick = F.PickCellsFrame(user=0, feature="forest", count=2, then=_THEN)
    assert pick["kind"] == "forest" and pick["then"]["b"] == "F26"
    assert pick.to_dict()["then"] == {"do": "resolve", "user": 0, "b": "F26", "loc": [0, 1, 1],
                                      "via": "clergy", "chain": ["F26"], "data": [2]}


def test_unknown_frame_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown decision frame .*'nap'"):
        F.frame_from_dict({"f": "nap", "seat": 0})


def test_current_player_is_the_frames_actor(frames_seen):
    for items in frames_seen.values():
        for s, f in items:
            assert s.current_player() == f.actor == f.get("chooser", f.get("user", f.get("seat")))


def test_state_dispatches_through_the_decision_table(monkeypatch):
    s = fresh("ireland")
    calls = []
    turn = decisions.DECISIONS[F.TurnFrame]
    original = turn.legal

    def legal(state, f):
        calls.append(("legal", f.kind))
        return original(state, f)

    monkeypatch.setattr(turn, "legal", legal)
    assert s.legal_actions() and calls == [("legal", "turn")]


def test_named_payment_equals_automatic_payment_of_the_same_goods():
    """Twin: the OPTION of an exact-goods price, paid automatically and as named tiles."""
    checked = 0
    for s in _random_states(12, seed=3):
        f = s.frame
        if not isinstance(f, F.OptionFrame) or checked >= 40:
            continue
        goods = s.g.owners[f.user].goods
        for i, opt in enumerate(s.frame_options()):
            c = opt.cost
            if i == 0 or c.coins or c.picked or not any(c.goods.values()):
                continue
            if any(goods[g] < n for g, n in c.goods.items()):
                continue
            auto, named = s.clone(), s.clone()
            auto.apply_action(A.make("OPTION", flag=i))
            named.apply_explicit(A.make("OPTION"), dict(c.goods), opt.data)
            da, dn = auto.to_dict(), named.to_dict()
            assert da.pop("history")[:-1] == dn.pop("history")[:-1]
            assert da == dn, (f.building, opt.label)
            checked += 1
    assert checked >= 10


def test_a_named_payment_short_of_the_price_is_refused_and_changes_nothing():
    checked = 0
    for s in _random_states(8, seed=5):
        f = s.frame
        if not isinstance(f, F.OptionFrame) or checked >= 10:
            continue
        for opt in s.frame_options()[1:]:
            if any(opt.cost.goods.values()) and not opt.cost.coins and not opt.cost.picked:
                before = s.to_dict()
                with pytest.raises(RuleError):
                    s.apply_explicit(A.make("OPTION"), {}, opt.data)
                assert s.to_dict() == before
                checked += 1
                break
    assert checked >= 5


def test_the_state_keeps_no_payment_mode():
    s = fresh("ireland")
    assert set(vars(s)) == {"g", "profile", "flow"}
    payer = NamedPayment({3: 2, 5: 0}, None)
    assert payer.payment == {3: 2} and payer.imported and not AUTOMATIC.imported
