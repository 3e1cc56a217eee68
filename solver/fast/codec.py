"""Codec between the reference engine and the fast engine's packed state.

``pack(state)`` turns a reference :class:`solver.rules.State` (solo, rulebook profile, at a
canonical decision point) into the fast engine's packed uint64 array; ``unpack(array, variant)``
rebuilds the reference state. The round trip is exact (everything but the action history,
which the packed state does not carry).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solver.rules import effects as EF
from solver.rules import frames as F
from solver.rules import goods as G
from solver.rules.cards import (
    BUILDING_IDS,
    BUILDING_INDEX,
    BUILDINGS,
    GAME,
    SETTLEMENTS,
    building_set,
    heartland_ids,
)
from solver.rules.game import State
from solver.rules.landscape import Landscape
from solver.rules.profile import RULEBOOK
from solver.rules.state import GameState, Owner
from solver.rules.wheel import Wheel

from . import layout as L

TOKENS = ("grain", "sheep", "clay", "coin", "wood", "peat", "joker", "grapes", "stone")
TERR_CHAR = {v: k for k, v in L.TERRAIN_CODES.items()}
VIA = ("clergy", "free", "contract")
FRAME_KIND = {"turn": L.K_SLOT, "option": L.K_OPTION, "prior_bonus": L.K_PRIOR_BONUS,
              "free_use": L.K_FREE_USE, "grant_build": L.K_GRANT_BUILD,
              "grant_settle": L.K_GRANT_SETTLE, "grant_fell_cut": L.K_GRANT_FELL_CUT,
              "grant_land": L.K_GRANT_LAND, "neutral_build": L.K_NEUTRAL_BUILD,
              "neutral_contract": L.K_NEUTRAL_CONTRACT, "settle": L.K_SETTLE}
KIND_FRAME = {v: k for k, v in FRAME_KIND.items()}


class CodecError(ValueError):
    """A reference state the packed form cannot hold (not solo/rulebook, mid-payment, ...)."""


def _x(col: int, row: int) -> int:
    if not (L.ROW_MIN <= row < L.ROW_MIN + L.N_ROWS and -2 <= col <= 6):
        raise CodecError(f"space ({col}, {row}) is outside the fast engine's window")
    return (row - L.ROW_MIN) * 9 + col + 2


def _loc(pos) -> int:
    """[owner, col, row] -> location code."""
    if pos is None:
        return -1
    owner, col, row = pos
    return _x(col, row) if owner == 0 else L.NEUTRAL_LOC + 5 * row + col


def _pos(code: int):
    if code < 0:
        return None
    if code >= L.NEUTRAL_LOC:
        x = code - L.NEUTRAL_LOC
        return [1, x % 5, x // 5]
    return [0, code % 9 - 2, code // 9 + L.ROW_MIN]


def _content_code(item) -> int:
    if item is None:
        return L.C_EMPTY
    if item == "forest":
        return L.C_FOREST
    if item == "moor":
        return L.C_MOOR
    if item in SETTLEMENTS:
        return L.C_SETTLEMENT + SETTLEMENTS[item].number - 1
    return L.C_BUILDING + BUILDING_INDEX[item]


def _content_item(code: int):
    if code == L.C_EMPTY:
        return None
    if code == L.C_FOREST:
        return "forest"
    if code == L.C_MOOR:
        return "moor"
    if code >= L.C_SETTLEMENT:
        return f"S{code - L.C_SETTLEMENT + 1}"
    return BUILDING_IDS[code - L.C_BUILDING]


def to_wide(state: State) -> np.ndarray:
    """Reference state -> wide int32 working state."""
    g = state.g
    if g.players != 1 or state.profile.name != "rulebook":
        raise CodecError("the fast engine plays the solo game under the rulebook profile")
    W = np.zeros(L.W_SIZE, dtype=np.int32)
    me, neutral = g.owners
    W[L.GOODS:L.GOODS + L.N_GOODS] = me.goods
    W[L.ARM] = g.wheel.arm
    for i, t in enumerate(TOKENS):
        W[L.TOK + i] = g.wheel.tokens.get(t, -1)
    W[L.ROUND] = g.round
    W[L.STEP] = g.step
    W[L.PHASE] = " ABCDE".index(g.phase) if g.phase else 0
    W[L.DONE] = int(g.done)
    W[L.BOUGHT] = int(me.bought_land)
    W[L.FEE_RAISED] = int(g.fee_raised)
    W[L.WONDERS] = g.wonders_left
    W[L.NDIST] = 9 - len(g.district_prices)
    W[L.NPLOT] = 9 - len(g.plot_prices)
    W[L.SETTL] = sum(1 << (SETTLEMENTS[s].number - 1) for s in me.settlements)
    for i, pos in enumerate(me.clergy + neutral.clergy):
        W[L.CLERGY + i] = _loc(pos)
    W[L.NBUILT:L.NBUILT + L.N_NBUILT] = -1
    for i, b in enumerate(g.neutral_built):
        W[L.NBUILT + i] = BUILDING_INDEX[b]
    W[L.CHAIN:L.CHAIN + L.N_CHAIN] = -1
    if len(g.frames) > L.MAX_FRAMES:
        raise CodecError(f"{len(g.frames)} frames on the decision stack")
    for i in range(L.MAX_FRAMES):
        W[L.FRAMES + L.FRAME_SIZE * i + L.F_B] = -1
        W[L.FRAMES + L.FRAME_SIZE * i + L.F_LOC] = -1
    W[L.FDEPTH] = len(g.frames)
    for i, f in enumerate(g.frames):
        base = L.FRAMES + L.FRAME_SIZE * i
        kind = f.kind
        if kind not in FRAME_KIND:
            raise CodecError(f"a {kind} frame is not a canonical decision point")
        W[base + L.F_KIND] = FRAME_KIND[kind]
        b, loc, aux = -1, -1, 0
        if kind == "turn":
            aux = int(f.main)
        elif kind == "option":
            b, loc, aux = BUILDING_INDEX[f.building], _loc(f.loc), VIA.index(f.via)
        elif kind == "prior_bonus":
            b = BUILDING_INDEX[f.building]
            loc = _loc([0, *me.land.find(f.building)])
        elif kind == "free_use":
            src = f.chain[-1]
            b = BUILDING_INDEX[src]
            where = state.locate(src)
            loc = -1 if where is None else _loc([where.owner, where.col, where.row])
        elif kind == "grant_fell_cut":
            aux = int(f.fell) | (int(f.cut) << 1)
        elif kind == "grant_land":
            aux = int(f.district) | (int(f.plot) << 1)
        elif kind == "settle":
            aux = int(f.bought) | (int(f.settled) << 1)
        W[base + L.F_B], W[base + L.F_LOC], W[base + L.F_AUX] = b, loc, aux
        if kind in ("option", "free_use") and i == len(g.frames) - 1:
            for j, c in enumerate(f.chain):
                W[L.CHAIN + j] = BUILDING_INDEX[c]
    cells = me.land.cells
    for row in range(L.ROW_MIN, L.ROW_MIN + L.N_ROWS):
        y = row - L.ROW_MIN
        if row not in (0, 1) and (0, row) in cells:
            W[L.LAND] |= 1 << y
            if cells[(3, row)][0] == "H":
                W[L.LAND + 1] |= 1 << y
        if cells.get((6, row), [None])[0] == "M":
            W[L.LAND + 3] |= 1 << y
    coast_rows = sorted(r for (c, r) in cells if c == -1)
    i = 0
    while i < len(coast_rows):
        W[L.LAND + 2] |= 1 << (coast_rows[i] - L.ROW_MIN)
        i += 2
    for (col, row), (terrain, content) in cells.items():
        x = _x(col, row)
        W[L.GRID + x] = _content_code(content)
        W[L.TERR + x] = L.TERRAIN_CODES[terrain]
    for (col, row), (terrain, content) in neutral.land.cells.items():
        W[L.NGRID + 5 * row + col] = _content_code(content)
    in_game = set(building_set(g.variant, 1, "long")) | set(heartland_ids(me.colour)) | set(
        heartland_ids(neutral.colour))
    mine = {bid for _, bid in me.land.buildings()}
    theirs = {bid for _, bid in neutral.land.buildings()}
    stacked = {bid for s in g.stacks.values() for bid in s}
    for bi, bid in enumerate(BUILDING_IDS):
        if bid in mine:
            st = L.S_MINE
        elif bid in theirs:
            st = L.S_NEUTRAL
        elif bid in g.display:
            st = L.S_DISPLAY
        elif bid in stacked:
            st = L.S_STACK
        elif bid in in_game:
            st = L.S_GONE
        else:
            st = L.S_OUT
        W[L.STATUS + bi] = st
    return W


def pack(state: State) -> np.ndarray:
    """Reference State -> packed uint64 array (PACKED_WORDS words)."""
    return _engine(state.g.variant).packed(to_wide(state).astype(np.int64))


@cache
def _engine(variant: str):
    from .engine import FastEngine

    return FastEngine(variant)


def from_wide(W: np.ndarray, variant: str, colours=("R", "G")) -> State:
    """Wide state -> reference State (history empty)."""
    W = [int(v) for v in W]
    prices_d = list(reversed(GAME["landscape"]["district_prices"]))
    prices_p = list(reversed(GAME["landscape"]["plot_prices"]))
    me_land = Landscape()
    for x in range(L.N_CELLS):
        t = W[L.TERR + x]
        if t != L.T_NONE:
            me_land.cells[(x % 9 - 2, x // 9 + L.ROW_MIN)] = [TERR_CHAR[t],
                                                              _content_item(W[L.GRID + x])]
    n_land = Landscape.heartland(colours[1], neutral=True)
    for x in range(L.N_NCELLS):
        n_land.cells[(x % 5, x // 5)][1] = _content_item(W[L.NGRID + x])
    me = Owner(colour=colours[0], land=me_land, clergy=[_pos(W[L.CLERGY + i]) for i in range(3)],
               goods=W[L.GOODS:L.GOODS + L.N_GOODS],
               settlements=[f"S{s + 1}" for s in range(8) if (W[L.SETTL] >> s) & 1],
               bought_land=bool(W[L.BOUGHT]))
    neutral = Owner(colour=colours[1], land=n_land,
                    clergy=[_pos(W[L.CLERGY + 3 + i]) for i in range(3)], goods=G.empty(),
                    neutral=True)
    by_number = sorted(range(L.N_BUILDINGS), key=lambda b: (int(BUILDING_IDS[b][1:])
                                                           if BUILDING_IDS[b][0] != "L" else 999,
                                                           BUILDING_IDS[b]))
    display = [BUILDING_IDS[b] for b in by_number if W[L.STATUS + b] == L.S_DISPLAY]
    stacks: dict[str, list[str]] = {}
    for b in by_number:
        if W[L.STATUS + b] == L.S_STACK:
            stacks.setdefault(BUILDINGS[BUILDING_IDS[b]].phase, []).append(BUILDING_IDS[b])
    stacks = {k: stacks[k] for k in sorted(stacks)}
    wheel = Wheel(values=list(GAME["wheel"]["front"]), arm=W[L.ARM],
                  tokens={t: W[L.TOK + i] for i, t in enumerate(TOKENS) if W[L.TOK + i] >= 0})
    g = GameState(variant=variant, players=1, length="long", profile="rulebook",
                  owners=[me, neutral], wheel=wheel, display=display, stacks=stacks,
                  district_prices=prices_d[W[L.NDIST]:], plot_prices=prices_p[W[L.NPLOT]:],
                  wonders_left=W[L.WONDERS], fee_raised=bool(W[L.FEE_RAISED]),
                  round=W[L.ROUND], phase=" ABCDE"[W[L.PHASE]].strip(), step=W[L.STEP],
                  frames=[], neutral_built=[BUILDING_IDS[b] for b in
                                            W[L.NBUILT:L.NBUILT + L.N_NBUILT] if b >= 0],
                  done=bool(W[L.DONE]), history=[])
    state = State(g, RULEBOOK)
    chain = [BUILDING_IDS[b] for b in W[L.CHAIN:L.CHAIN + L.N_CHAIN] if b >= 0]
    for i in range(W[L.FDEPTH]):
        base = L.FRAMES + L.FRAME_SIZE * i
        kind = KIND_FRAME[W[base + L.F_KIND]]
        b, loc, aux = W[base + L.F_B], W[base + L.F_LOC], W[base + L.F_AUX]
        if kind == "turn":
            f = F.TurnFrame(seat=0, main=bool(aux))
        elif kind == "option":
            f = F.OptionFrame(user=0, building=BUILDING_IDS[b], loc=_pos(loc), via=VIA[aux],
                              chain=chain)
        elif kind == "prior_bonus":
            f = F.PriorBonusFrame(user=0, building=BUILDING_IDS[b])
        elif kind == "free_use":
            src = BUILDING_IDS[b]
            u = EF.Use(state, 0, src, None if loc < 0 else tuple(_pos(loc)), "free", chain)
            targets = _targets(u, src)
            f = F.FreeUseFrame(user=0, targets=[[t, p] for t, p in targets if t not in chain],
                               chain=chain)
        elif kind == "grant_fell_cut":
            f = F.GrantFellCutFrame(user=0, fell=bool(aux & 1), cut=bool(aux & 2))
        elif kind == "grant_land":
            f = F.GrantLandFrame(user=0, district=bool(aux & 1), plot=bool(aux & 2))
        elif kind in ("grant_build", "grant_settle"):
            f = F.BY_KIND[kind](user=0)
        elif kind == "settle":
            f = F.SettleFrame(seat=0, bought=bool(aux & 1), settled=bool(aux & 2))
        else:
            f = F.BY_KIND[kind](seat=0)
        g.frames.append(f)
    return state


def _targets(u, src: str):
    eff = BUILDINGS[src].effect
    if eff == "priory":
        return EF.priory_targets(u)
    if eff in ("cloister_garden", "cottage"):
        return EF.neighbour_targets(u)
    if eff in ("palace", "grand_manor"):
        return EF.occupied_targets(u)
    return [(b, None) for b in u.state.g.display]


def unpack(P: np.ndarray, variant: str) -> State:
    """Packed uint64 array -> reference State (history empty)."""
    return from_wide(_engine(variant).wide(P), variant)
