"""The beam's faster expansion keeps its meaning, and `bench --search` reproduces its figures."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from cli.main import main
from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.fast.kernels.api import legal, score, step
from solver.fast.kernels.step import DEFERRED
from solver.search.beam import expansion as EX
from solver.search.beam.lines import Lines
from solver.search.beam.policy import policy_filter
from solver.search.beam.run import layer
from solver.search.common import state_hash
from solver.search.evaluation import features as E
from solver.search.evaluation.features import PORTFOLIO, chamber_progress, evaluate, wonder_path


def _playout_states(variant, games=6, every=7):
    """States along seeded random playouts (every few steps)."""
    e = FastEngine(variant)
    rng = np.random.default_rng(1)
    out = []
    for _ in range(games):
        W = e.initial_wide()
        k = 0
        while W[L.DONE] == 0:
            acts = e.legal_wide(W)
            e.step_wide(W, int(acts[rng.integers(len(acts))]))
            k += 1
            if k % every == 0:
                out.append(W.copy())
        out.append(W.copy())
    return e, out


def _reference_evaluate(T, W, w):
    """The evaluation as it was written on kernels.api.score (two passes, allocating)."""
    sc = np.zeros(4, dtype=np.int64)
    score(T, W, sc)
    if W[L.DONE]:
        return float(sc[0])
    left = max(0.0, (32.0 - W[L.ROUND] + 1.0) / 32.0) ** w[E.W_FADE]
    pot = 0.0
    for g in range(L.N_GOODS):
        pot += w[g] * W[L.GOODS + g]
    pot += w[E.W_HOPE] * (int(W[L.SETTL]) & 0xFF).bit_count()
    space = feats = 0
    for x in range(L.N_CELLS):
        t = W[L.TERR + x]
        if t in (L.T_NONE, L.T_FILLER, L.T_WATER):
            continue
        c = W[L.GRID + x]
        space += c == L.C_EMPTY
        feats += c in (L.C_FOREST, L.C_MOOR)
    pot += w[E.W_SPACE] * space + w[E.W_FEATURE] * feats
    if w[E.W_WONDER_HOPE] != 0.0 and W[L.WONDERS] > 0:
        pot += w[E.W_WONDER_HOPE] * chamber_progress(T, W)
    if w[E.W_WONDER_PATH] != 0.0 and W[L.WONDERS] > 0:
        pot += w[E.W_WONDER_PATH] * wonder_path(T, W)
    return float(sc[0]) + left * pot


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_one_pass_evaluation_equals_the_score_based_one_bit_for_bit(variant):
    e, states = _playout_states(variant)
    with_path = PORTFOLIO[0].copy()
    with_path[28] = 12.0  # the wonder-path term on (the hand-set weightings leave it off)
    for w in (PORTFOLIO[0], PORTFOLIO[2], with_path):
        for W in states:
            assert evaluate(e.T, W, w) == _reference_evaluate(e.T, W, w)


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_turn_step_is_step_and_defers_only_the_end_of_a_turn_after_its_main_action(variant):
    e, states = _playout_states(variant, games=3, every=3)
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    buf = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    seen = {"handed": 0, "forced": 0, "open": 0}
    for W in states:
        if W[L.DONE]:
            continue
        for a in e.legal_wide(W)[:8]:
            X = W.copy()
            step(e.T, X, int(a), scratch)
            Y = W.copy()
            n = EX.turn_step(e.T, Y, int(a), scratch)
            if n == DEFERRED:
                fb = L.FRAMES + L.FRAME_SIZE * (Y[L.FDEPTH] - 1)
                assert Y[fb + L.F_KIND] == L.K_SLOT and Y[fb + L.F_AUX] & 1
                m = legal(e.T, Y, buf)
                assert buf[0] == I.END  # the policy keeps only END (policy_filter agrees)
                assert policy_filter(e.T, Y, buf, m, 0, scratch) == 1 and scratch[0] == I.END
                if EX.end_was_forced(e.T, Y, buf):
                    seen["forced"] += 1
                    step(e.T, Y, I.END, scratch)  # what step() did by itself
                else:
                    seen["open"] += 1
                assert (X == Y).all()
                continue
            assert (X == Y).all()
            if n >= 0:
                seen["handed"] += 1
                got = np.sort(scratch[:n])
                m = legal(e.T, Y, buf)
                assert got.tolist() == buf[:m].tolist()
    assert seen["handed"] > 0 and seen["open"] + seen["forced"] > 0, seen


def test_sort_small_sorts():
    rng = np.random.default_rng(0)
    for n in (0, 1, 2, 17, 300):
        a = rng.integers(0, 5000, size=n + 3)
        want = np.sort(a[:n])
        EX.sort_small(a, n)
        assert a[:n].tolist() == want.tolist()


def test_a_layer_keeps_distinct_children_best_first_and_their_lines_replay():
    e = FastEngine("france")
    W = e.initial_wide()
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    w = PORTFOLIO[0]
    parents = W[None, :].copy()
    lines = Lines([[]])
    for _ in range(3):
        kids, parent, flat, offsets, n = layer(e.T, parents, w, 64, 40, 0.0,
                                               np.uint64(0), scratch)
        lines = lines.extend(parent, flat, offsets)
        hashes = [state_hash(k) for k in kids]
        assert len(set(hashes)) == len(kids) and 0 < len(kids) <= 40 and n >= len(kids)
        evals = [evaluate(e.T, k, w) for k in kids]
        assert evals == sorted(evals, reverse=True)
        parents = kids
    for i in (0, len(parents) - 1):
        X = e.initial_wide()
        for a in lines[i]:
            e.step_wide(X, a)
        assert (X == parents[i]).all()


def test_expand_all_writes_what_expand_finds_parent_by_parent():
    """The lanes of expand_all take parents in whatever order the threads reach them; each
    parent's slots hold exactly what a lone expand of it finds."""
    e, states = _playout_states("ireland", games=2, every=3)
    parents = np.array([s for s in states if s[L.DONE] == 0][:60])
    keep, w, salt = 24, PORTFOLIO[0], np.uint64(12345)
    P = len(parents)
    paths = np.zeros((P * keep, EX.MAXD), dtype=np.int64)
    lens = np.zeros(P * keep, dtype=np.int64)
    evals = np.full(P * keep, -1e18)
    hashes = np.zeros(P * keep, dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    EX.expand_all(e.T, parents, w, keep, paths, lens, evals, hashes, counts, 0.05, salt)
    for p in range(P):
        pa = np.zeros((keep, EX.MAXD), dtype=np.int64)
        le = np.zeros(keep, dtype=np.int64)
        ev = np.full(keep, -1e18)
        ha = np.zeros(keep, dtype=np.uint64)
        n = EX.expand(e.T, parents[p], w, keep, pa, le, ev, ha, 0.05, salt)
        lo = p * keep
        assert counts[p] == n > 0
        assert (ha[:n] == hashes[lo:lo + n]).all() and (ev[:n] == evals[lo:lo + n]).all()
        for k in range(n):
            assert pa[k, :le[k]].tolist() == paths[lo + k, :lens[lo + k]].tolist()


def _bench(*extra):
    res = CliRunner().invoke(main, ["bench", "--search", "--variant", "ireland", "--width", "3",
                                    "--layers", "2", "--sample", "1", "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_bench_search_signature_is_reproducible_and_the_profile_adds_up():
    a = _bench()
    b = _bench()
    assert a["signature"] == b["signature"]
    assert a["signature"]["nodes"] > 0 and len(a["signature"]["best"]) == 4
    assert a["children_per_s"] > 0
    for r in a["per_round"]:
        p = r["profile"]
        assert p["parents"] == 1 and p["steps"] >= p["new_children"] > 0
        assert set(p["share"]) >= {"legal generation", "policy filter", "hash", "evaluation",
                                   "step (incl. its forced-END check)"}
        assert sum(p["share"].values()) == pytest.approx(1.0, abs=0.01)


def test_bench_search_signature_follows_the_settings_and_bad_input_is_named(tmp_path):
    a, b = _bench(), _bench("--width", "5")
    assert a["signature"]["nodes"] < b["signature"]["nodes"]
    assert a["signature"]["beams"] != b["signature"]["beams"]
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    from solver.search.bench import speed as bench_search

    with pytest.raises(ValueError, match="x.json"):
        bench_search.run("ireland", width=2, layers=1, source=bad)
