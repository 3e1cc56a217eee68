"""The public verbs of the fast engine over a wide state ``W`` and the tables ``T``:
``init``, ``legal``, ``step``, ``score``, ``rollout``, ``rollout_record``, ``pack``, ``unpack``.

Every kernel takes the tables (tables.Tables) as its first argument. Python code reaches these
through engine.FastEngine, which validates its input and owns the scratch buffers; compiled
search code (solver/search) may call them directly with the engine's ``tables``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import ids as I
from .. import layout as L
from .board import derive_terrain, is_building, neighbours
from .goods import goods_points
from .legal import legal
from .step import init, step

__all__ = [
    "dwelling_of",
    "init",
    "legal",
    "neighbour_dwelling",
    "pack",
    "rollout",
    "rollout_record",
    "score",
    "step",
    "unpack",
    "xorshift",
]


@njit(cache=True, _nrt=False)
def dwelling_of(T, c):
    """Dwelling value of a space's content code (building or settlement), else 0."""
    if is_building(c):
        return T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_DWELL]
    if c >= L.C_SETTLEMENT:
        return T[I.R_SETTLEMENTS + c - L.C_SETTLEMENT, I.SC_DWELL]
    return 0


@njit(cache=True, _nrt=True)
def neighbour_dwelling(T, W, x):
    """RULES §14.3: what the neighbours of space x add to a settlement standing there."""
    nb = np.empty(5, dtype=np.int64)
    m = neighbours(W, x, nb)
    v = 0
    for i in range(m):
        y = nb[i]
        cc = W[L.GRID + y]
        if W[L.TERR + y] == L.T_WATER and cc == L.C_EMPTY:
            v += 3
        v += dwelling_of(T, cc)
    return v


@njit(cache=True, _nrt=True)
def score(T, W, out):
    """Score breakdown into out[0:4]: total, goods, economic, dwelling."""
    goods = goods_points(T, W[L.GOODS:L.GOODS + L.N_GOODS])
    econ = 0
    dwell = 0
    for x in range(L.N_CELLS):
        c = W[L.GRID + x]
        if is_building(c):
            econ += T[I.R_BUILDINGS + c - L.C_BUILDING, I.BC_ECON]
        elif c >= L.C_SETTLEMENT:
            econ += T[I.R_SETTLEMENTS + c - L.C_SETTLEMENT, I.SC_ECON]
            dwell += (T[I.R_SETTLEMENTS + c - L.C_SETTLEMENT, I.SC_DWELL]
                      + neighbour_dwelling(T, W, x))
    out[0] = goods + econ + dwell
    out[1] = goods
    out[2] = econ
    out[3] = dwell


@njit(cache=True, _nrt=False)
def xorshift(rng):
    """Advance the 1-word xorshift64 RNG state in place; return the new value."""
    x = rng[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    rng[0] = x
    return x


@njit(cache=True, _nrt=True)
def rollout(T, W, rng, buf, scratch):
    """Play uniformly random canonical actions to the end; return (final total, steps)."""
    steps = 0
    while W[L.DONE] == 0:
        n = legal(T, W, buf)
        a = buf[np.int64(xorshift(rng) % np.uint64(n))]
        step(T, W, a, scratch)
        steps += 1
    sc = np.zeros(4, dtype=np.int64)
    score(T, W, sc)
    return sc[0], steps


@njit(cache=True, _nrt=False)
def pack(T, W, out):
    """Wide state -> packed uint64 words (layout.FIELDS)."""
    out[:] = 0
    bit = 0
    for f in range(L.N_FIELDS):
        r = I.R_FIELDS + f
        off, cnt, bits, bias = T[r, 0], T[r, 1], T[r, 2], T[r, 3]
        for i in range(cnt):
            v = np.uint64(W[off + i] + bias)
            w = bit >> 6
            s = bit & 63
            out[w] |= v << np.uint64(s)
            if s + bits > 64:
                out[w + 1] |= v >> np.uint64(64 - s)
            bit += bits


@njit(cache=True, _nrt=False)
def unpack(T, P, W):
    """Packed words -> wide state (TERR derived from the land bitmasks)."""
    bit = 0
    for f in range(L.N_FIELDS):
        r = I.R_FIELDS + f
        off, cnt, bits, bias = T[r, 0], T[r, 1], T[r, 2], T[r, 3]
        mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
        for i in range(cnt):
            w = bit >> 6
            s = bit & 63
            v = P[w] >> np.uint64(s)
            if s + bits > 64:
                v |= P[w + 1] << np.uint64(64 - s)
            W[off + i] = np.int64(v & mask) - bias
            bit += bits
    derive_terrain(T, W)


@njit(cache=True, _nrt=False)
def rollout_record(T, W, rng, buf, scratch, actions, branching):
    """rollout() that also records each chosen action and the number of legal actions."""
    steps = 0
    while W[L.DONE] == 0:
        n = legal(T, W, buf)
        a = buf[np.int64(xorshift(rng) % np.uint64(n))]
        actions[steps] = a
        branching[steps] = n
        step(T, W, a, scratch)
        steps += 1
    return steps
