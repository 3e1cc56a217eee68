"""The beam's search policy inside a turn (solver/search/beam/policy.py): on states along seeded
random playouts, ``policy_filter`` trims the legal actions as its module docstring says, and
nothing else."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.ids import BC_ECON, R_BUILDINGS
from solver.fast.kernels.api import legal
from solver.fast.kernels.frames import top
from solver.fast.kernels.wheel import token_yield
from solver.search.beam.policy import BUILD_CELLS, SETTLE_CELLS, policy_filter
from tests.search.helpers import playout_states


def _by_card(acts, lo, hi):
    """The actions in [lo, hi) of a card-by-space block, by card."""
    out = {}
    for a in acts:
        if lo <= a < hi:
            out.setdefault((a - lo) // L.N_CELLS, []).append(a)
    return out


def _check_turn(e, W, acts, kept, converted):
    """A player's decision: what the policy keeps of the legal ``acts``; counts what it
    trimmed, by rule."""
    fb = top(W)
    main_used = bool(W[fb + L.F_KIND] == L.K_SLOT and (W[fb + L.F_AUX] & 1) == 1)
    offered = set(acts)
    assert kept == [a for a in acts if a in set(kept)]  # legal actions, in their order, once
    trimmed = Counter()
    # a building on at most BUILD_CELLS spaces, a settlement on at most SETTLE_CELLS
    for lo, hi, cap, rule in ((I.BUILD0, I.SETTLE0, BUILD_CELLS, "build"),
                              (I.SETTLE0, I.DISTRICT0, SETTLE_CELLS, "settle")):
        got = _by_card(kept, lo, hi)
        for card, spaces in _by_card(acts, lo, hi).items():
            assert len(got.get(card, [])) == min(len(spaces), cap), (rule, card)
            trimmed[rule] += len(spaces) > cap
    # fell trees / cut peat: the first card in row order, by the better of indicator and joker
    for lo, hi, token in ((I.FELL0, I.CUT0, I.T_WOOD), (I.CUT0, I.BUILD0, I.T_PEAT)):
        cards = [a for a in acts if lo <= a < hi]
        got = [a for a in kept if lo <= a < hi]
        if not cards:
            continue
        first = (cards[0] - lo) // 2
        assert len(got) == 1 and (got[0] - lo) // 2 == first, (cards, got)
        own, joker = lo + 2 * first, lo + 2 * first + 1
        if own in offered and joker in offered:
            jokers_more = token_yield(e.T, W, I.T_JOKER) > token_yield(e.T, W, token)
            assert got == [joker if jokers_more else own]
            trimmed["source"] += 1
    for a in acts:
        if I.CONTRACT0 <= a < I.FREE0:
            # a work contract pays coins when it can, else the drink
            drink_beside_coins = (a - I.CONTRACT0) % 2 == 1 and a - 1 in offered
            assert (a in kept) != drink_beside_coins, a
            trimmed["contract"] += drink_beside_coins
        elif a in (I.CONVERT_WINE, I.CONVERT_WHISKEY):
            # at most one conversion per turn, none after the main action
            assert (a in kept) == (not converted and not main_used), a
        elif a >= I.DISTRICT0:
            # land only before the main action
            assert (a in kept) == (not main_used), a
            trimmed["land"] += main_used
        elif a < I.CONTRACT0 or I.FREE0 <= a < I.FELL0:
            assert a in kept, a  # END, options, uses, free uses: never trimmed
    return trimmed


def _check_neutral(e, W, acts, kept):
    """The neutral player's build: the first empty space it may use, else it covers its
    building of the lowest economic value (the first of equals)."""
    def value(a):
        c = W[L.NGRID + a - I.NBUILD0]
        return -1 if c == L.C_EMPTY else e.T[R_BUILDINGS + c - L.C_BUILDING, BC_ECON]

    assert kept == [min(acts, key=value)]


@pytest.mark.parametrize("variant", ["ireland", "france"])
def test_the_policy_trims_the_legal_actions_by_its_rules_only(variant):
    e, states = playout_states(variant, games=6, every=1)
    buf = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    out = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    seen = Counter()
    for W in states:
        if W[L.DONE]:
            continue
        m = legal(e.T, W, buf)
        acts = buf[:m].tolist()
        for converted in (0, 1):
            kept = out[:policy_filter(e.T, W, buf, m, converted, out)].tolist()
            assert buf[:m].tolist() == acts  # the legal actions are left as they were
            if W[top(W) + L.F_KIND] == L.K_NEUTRAL_BUILD:
                _check_neutral(e, W, acts, kept)
                seen["neutral"] += 1
            else:
                seen.update(_check_turn(e, W, acts, kept, converted))
    # every rule had something to trim along these games
    assert all(seen[k] for k in ("build", "settle", "source", "contract", "neutral")), seen
