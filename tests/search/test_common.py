"""What the searches share (solver/search/common.py): the hash of a wide state."""

from __future__ import annotations

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search.common import state_hash


def test_state_hash_sees_every_stored_word_but_not_the_derived_terrain():
    W = FastEngine("france").initial_wide()
    h = state_hash(W)
    X = W.copy()
    X[L.TERR:L.TERR + L.N_CELLS] += 1  # derived from LAND: not part of the state's identity
    assert state_hash(X) == h
    # every stored word, by one up and by a change of sign (-1 marks an empty slot)
    for i in [*range(L.TERR), *range(L.STATUS, L.W_SIZE)]:
        for new in (W[i] + 1, -1 - W[i]):
            X = W.copy()
            X[i] = new
            assert state_hash(X) != h, (i, new)
