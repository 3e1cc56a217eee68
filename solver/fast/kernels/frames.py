"""The decision stack (frames of KIND, B, LOC, AUX; layout.py) and the chain of free uses.
"""

from __future__ import annotations

from numba import njit

from .. import layout as L


@njit(cache=True, _nrt=False)
def push(W, kind, b, loc, aux):
    """Push a frame (KIND, B, LOC, AUX) on the decision stack."""
    d = W[L.FDEPTH]
    base = L.FRAMES + L.FRAME_SIZE * d
    W[base + L.F_KIND] = kind
    W[base + L.F_B] = b
    W[base + L.F_LOC] = loc
    W[base + L.F_AUX] = aux
    W[L.FDEPTH] = d + 1


@njit(cache=True, _nrt=False)
def pop(W):
    """Pop the top frame (its fields cleared)."""
    d = W[L.FDEPTH] - 1
    base = L.FRAMES + L.FRAME_SIZE * d
    for i in range(L.FRAME_SIZE):
        W[base + i] = 0
    W[base + L.F_B] = -1
    W[base + L.F_LOC] = -1
    W[L.FDEPTH] = d


@njit(cache=True, _nrt=False)
def top(W):
    """Offset in W of the top frame."""
    return L.FRAMES + L.FRAME_SIZE * (W[L.FDEPTH] - 1)


@njit(cache=True, _nrt=False)
def chain_clear(W):
    """Forget the chain of free uses."""
    for i in range(L.N_CHAIN):
        W[L.CHAIN + i] = -1


@njit(cache=True, _nrt=False)
def chain_add(W, b):
    """Add building b to the chain of free uses."""
    for i in range(L.N_CHAIN):
        if W[L.CHAIN + i] == -1:
            W[L.CHAIN + i] = b
            return


@njit(cache=True, _nrt=False)
def in_chain(W, b):
    """Has building b been used in the current chain of free uses?"""
    for i in range(L.N_CHAIN):
        if W[L.CHAIN + i] == b:
            return True
    return False
