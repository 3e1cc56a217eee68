"""Fast solo engine: codec round trip, differential selfcheck tier, regressions, kernels."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.fast import codec, selfcheck
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.rules import canonical as C

VARIANTS = ("ireland", "france")


def _replay(engine: FastEngine, history: list[int]):
    ref = C.canonical_initial_state(engine.variant)
    W = engine.initial_wide()
    for a in history:
        C.apply_canonical(ref, a)
        engine.step_wide(W, a)
    return ref, W


def _same(ref, W, engine) -> None:
    assert C.canonical_legal_actions(ref) == engine.legal_wide(W).tolist()
    assert np.array_equal(codec.pack(ref), engine.packed(W))
    s = ref.score()[0]
    assert engine.score_wide(W) == (s.total, s.goods, s.economic, s.dwelling)


def test_packed_state_fits_in_32_words():
    assert L.PACKED_WORDS <= 32
    assert L.PACKED_BITS == sum(int(c) * int(b) for _, c, b, _ in L.FIELDS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_initial_states_agree(engines, variant):
    _same(C.canonical_initial_state(variant), engines[variant].initial_wide(), engines[variant])


@pytest.mark.parametrize("variant", VARIANTS)
def test_codec_round_trip_along_random_games(engines, variant):
    e = engines[variant]
    for seed in range(3):
        rng = random.Random(seed)
        ref = C.canonical_initial_state(variant)
        while not ref.is_terminal():
            P = codec.pack(ref)
            back = codec.unpack(P, variant)
            want = ref.to_dict()
            got = back.to_dict()
            want.pop("history")
            got.pop("history")
            assert got == want
            assert np.array_equal(codec.pack(back), P)
            W = e.wide(P)
            assert np.array_equal(e.packed(W), P)
            C.apply_canonical(ref, rng.choice(C.canonical_legal_actions(ref)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_selfcheck_tier(variant):
    """The CI tier of `ora-solve selfcheck`: 200 seeded games per variant, 0 mismatches."""
    result = selfcheck.run(variant, 200, 0)
    assert result.games == 200
    assert not result.mismatches, str(result.mismatches[0])


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_selfcheck_thousand_games(variant):
    result = selfcheck.run(variant, 1000, 0)
    assert not result.mismatches, str(result.mismatches[0])


# ----- regressions found by the differential test ---------------------------------------------

def test_regression_fixed_gain_buildings_have_their_option(engines):
    """Bug: Houseboat, Harbor Promenade, Chapter House offered only 'place only' (fast)."""
    e = engines["ireland"]
    history = [249, 5, 1449, 246, 2, 1133, 6244, 6386, 8125, 1431, 1135, 184, 1, 8545, 0, 249, 4,
               0, 1150, 160, 2, 158, 2, 0, 0, 0, 586, 5, 0, 249, 2, 809, 808, 809, 803, 807, 807,
               803, 805, 14075, 184, 2, 246, 1, 250, 1, 159, 3, 580, 2, 160, 6, 247, 3, 6970,
               806, 803, 809, 809, 809, 14643, 0, 250, 1, 190, 2, 432, 3, 476, 3, 65, 15212, 249,
               5, 168, 1, 9548, 246, 2, 9402, 800, 809, 808, 809, 806, 14777, 168, 1, 249, 2, 0,
               184, 1, 203, 1, 250, 3, 490]
    ref, W = _replay(e, history)
    assert ref.frame["b"] == "I11"
    assert C.OPT0 + 1 in e.legal_wide(W).tolist()
    _same(ref, W, e)


def test_regression_neutral_builds_more_than_eight_in_one_phase(engines):
    """Bug: the fast engine kept only 8 neutral builds per phase (Ireland's display has 12)."""
    e = engines["ireland"]
    history = [1448, 1151, 1133, 250, 3, 0, 6394, 0, 249, 2, 1135, 0, 5965, 160, 1, 7972, 249, 3,
               154, 2, 182, 1, 1431, 251, 3, 160, 4, 424, 1, 590, 3, 580, 1, 0, 808, 806, 801,
               806, 801, 806, 807, 802, 801]
    ref, W = _replay(e, history)
    assert ref.frame["f"] == "neutral_contract"
    _same(ref, W, e)


def test_regression_single_option_buildings_are_canonical():
    """Bug: a canonical option whose data equalled the 'place only' option's () was dropped,
    so no single-option building (Priory, Castle, Grain Storage, ...) was ever used."""
    from tests.helpers import give, place

    s = C.canonical_initial_state("france")
    place(s, "F03", 3, 1)
    give(s, coin=1)
    b = __import__("solver.rules.cards", fromlist=["BUILDING_INDEX"]).BUILDING_INDEX["F03"]
    C.apply_canonical(s, C.USE0 + 2 * b)
    assert C.canonical_legal_actions(s) == [C.OPT0, C.OPT0 + 1]


# ----- kernels --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_rollout_is_seeded_and_ends(engines, variant):
    e = engines[variant]
    a = e.rollout(e.initial(), 7)
    b = e.rollout(e.initial(), 7)
    assert a == b and a[1] > 100


def test_step_rejects_an_illegal_action(engines):
    e = engines["ireland"]
    P = e.initial()
    with pytest.raises(ValueError, match="not legal"):
        e.step(P, 1)
    assert np.array_equal(P, e.initial())


def test_wide_rejects_a_malformed_state(engines):
    with pytest.raises(ValueError, match="uint64 words"):
        engines["ireland"].wide(np.zeros(3, dtype=np.uint64))


def test_engine_rejects_a_wide_state_of_the_wrong_type_or_size(engines):
    e = engines["ireland"]
    with pytest.raises(ValueError, match="int64 array of shape"):
        e.legal_wide(np.zeros(L.W_SIZE, dtype=np.int32))
    with pytest.raises(ValueError, match="int64 array of shape"):
        e.step_wide(np.zeros(L.W_SIZE - 1, dtype=np.int64), 0)
    with pytest.raises(ValueError, match="variant must be"):
        FastEngine("germany")


def test_engine_tables_are_one_array_shared_by_every_kernel(engines):
    e = engines["france"]
    assert e.T is e.tables.array and e.T.dtype == np.int64 and e.T.ndim == 2
