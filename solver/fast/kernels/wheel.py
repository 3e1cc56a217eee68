"""The production wheel: token yields, the joker, taking goods, rotation (RULES §6.3).
"""

from __future__ import annotations

from numba import njit

from .. import ids as I
from .. import layout as L


@njit(cache=True, _nrt=False)
def token_yield(T, W, t):
    """Current yield of wheel token t (0 if it is not on the wheel)."""
    pos = W[L.TOK + t]
    if pos < 0:
        return 0
    return T[I.R_WHEEL, (W[L.ARM] - pos) % 13]


@njit(cache=True, _nrt=False)
def wheel_choice_ok(W, t, joker):
    """Is (token, joker) among Wheel.choices(token)?"""
    own = W[L.TOK + t] >= 0
    jok = W[L.TOK + I.T_JOKER] >= 0 and t != I.T_JOKER
    if joker == 0:
        return own or not jok
    return jok


@njit(cache=True, _nrt=False)
def wheel_take(T, W, t, joker):
    """Take token t's good (or the joker's): return the yield and reset the indicator."""
    src = -1
    if joker == 0 and W[L.TOK + t] >= 0:
        src = t
    elif W[L.TOK + I.T_JOKER] >= 0:
        src = I.T_JOKER
    if src < 0:
        return 0
    n = token_yield(T, W, src)
    W[L.TOK + src] = W[L.ARM]
    return n


@njit(cache=True, _nrt=False)
def rotate(W):
    """Advance the wheel arm one space; an indicator whose reset position it reaches goes (-1)."""
    nxt = (W[L.ARM] + 1) % 13
    for t in range(L.N_TOK):
        if W[L.TOK + t] == nxt:
            W[L.TOK + t] = -1
    W[L.ARM] = nxt
