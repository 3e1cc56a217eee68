"""Conformance: the recorded kennerspiel games (tests/data/games/, copied from
../shared/games/) replay under the ``kennerspiel`` profile to kennerspiel's recorded results.

Complete games must reach exactly the recorded final scores (total, goods, economic,
dwelling of every player); every game must match the goods and score totals of every
``commit_snapshots`` entry; exporting the replayed game to notation and importing it again
must give the same final state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.rules.notation import (
    NotationError,
    config_from_record,
    export_history,
    ks_goods,
    replay_record,
)

GAMES = Path(__file__).parents[2] / "data" / "games"
RECORDS = sorted(p.stem for p in GAMES.glob("*.json"))


def _load(name: str) -> dict:
    return json.loads((GAMES / f"{name}.json").read_text(encoding="utf-8"))


def _scores(rp):
    return [{"color": rp.state.g.owners[i].colour, "total": s.total, "goods": s.goods,
             "economic": s.economic, "dwelling": s.dwelling}
            for i, s in enumerate(rp.state.score())]


def test_corpus_is_complete():
    assert len(RECORDS) == 18
    complete = [n for n in RECORDS if _load(n)["complete"]]
    assert len(complete) == 11


@pytest.mark.parametrize("name", RECORDS)
def test_replay_matches_kennerspiel(name):
    rec = _load(name)
    snaps = {s["after_move"]: s for s in rec["commit_snapshots"]}
    checked = []

    def on_commit(i, rp):
        snap = snaps.get(i)
        if snap is None:
            return
        for seat in range(rp.config.players):
            o = rp.state.g.owners[seat]
            assert ks_goods(o.goods) == snap["goods"].get(o.colour, {}), (
                f"goods of {o.colour} after move {i}")
            assert rp.state.score()[seat].total == snap["score_totals"][o.colour], (
                f"score of {o.colour} after move {i}")
        checked.append(i)

    rp = replay_record(rec, "kennerspiel", on_commit=on_commit)
    assert len(checked) == len(snaps)
    keys = ("color", "total", "goods", "economic", "dwelling")
    if rec["complete"]:
        assert rp.state.is_terminal()
        expected = rec["final_scores"]
    else:
        assert not rp.state.is_terminal()
        expected = rec["scores_after_last_move"]
    assert _scores(rp) == [{k: e[k] for k in keys} for e in expected]


@pytest.mark.parametrize("name", RECORDS)
def test_export_then_import_gives_the_same_state(name):
    rec = _load(name)
    rp = replay_record(rec, "kennerspiel")
    moves = export_history(rp.config, rp.state.history(), "kennerspiel")
    assert moves[0][0] == "CONFIG" and moves[1][0] == "START"
    again = replay_record({"config": rec["config"], "start": rec["start"], "moves": moves},
                          "kennerspiel")
    a, b = rp.state.to_dict(), again.state.to_dict()
    a.pop("history"), b.pop("history")
    assert a == b


def test_unknown_token_is_an_error_naming_the_move():
    rec = _load("ken-game29767")
    rec = dict(rec, moves=rec["moves"][:4] + [["USE", "LR1", "Xx"]], actors=None)
    with pytest.raises(NotationError) as e:
        replay_record(rec, "kennerspiel")
    assert str(e.value).startswith("move 4 (USE LR1 Xx): ")
    assert "Xx" in str(e.value)


def test_unknown_command_is_an_error():
    rec = _load("ken-game29767")
    rec = dict(rec, moves=rec["moves"][:2] + [["JUMP", "1"]], actors=None)
    with pytest.raises(NotationError, match=r"^move 2 \(JUMP 1\): unknown command"):
        replay_record(rec, "kennerspiel")


def test_rejected_move_keeps_the_reason():
    rec = _load("ken-game29767")
    rec = dict(rec, moves=rec["moves"][:2] + [["BUILD", "G01", "3", "1"]], actors=None)
    with pytest.raises(NotationError, match=r"^move 2 \(BUILD G01 3 1\): "):
        replay_record(rec, "kennerspiel")


def test_config_is_read_from_the_record():
    cfg = config_from_record(_load("wl-game44462"))
    assert (cfg.players, cfg.country, cfg.length) == (3, "ireland", "short")
    assert cfg.seat_colours == ["R", "G", "B"]
