"""Beam search over the canonical action space on the fast engine.

One beam layer is one step of the game's flow: every state in the beam is expanded by a
depth-first search over all of its decisions until the flow moves on (a turn ends, a
settlement turn ends, the neutral has built). Each such end state is a child; children are
deduplicated by a hash of their state, scored by :func:`solver.search.evaluation.evaluate`
(score so far plus the potential of goods, settlement cards and space), and the best
``width`` are kept. The best finished line seen is kept throughout (anytime), so a search
stopped by its time limit still returns its best complete line, finished greedily if needed.

``beam_search`` runs such beams in two stages (its docstring has the measurements): narrow
groups under different evaluation weightings (the plans), then an endgame polish in which a
wide beam restarts from late rounds of the best lines.

Inside a turn the expansion follows a **search policy** that trims choices the evaluation
cannot tell apart, to keep a layer affordable (documented here because it bounds what the
search can find; the canonical action space itself is not trimmed):

* a building is offered on at most ``BUILD_CELLS`` spaces: the first in row order and the
  one beside the most settlement dwelling value;
* a settlement on at most ``SETTLE_CELLS`` spaces, those with the best neighbours;
* fell trees / cut peat take the first card in row order, with whichever of the indicator and
  the joker yields more;
* a work contract pays coins when it can, else the drink;
* at most one conversion per turn, and land is bought only before the main action;
* the neutral player builds by a fixed policy: the first empty space it may use, else it
  covers its building of the lowest economic value.

Deterministic: the same arguments give the same line (ties are broken by state hash; the
seed perturbs evaluation ties only).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.fast.ids import BC_DWELL, BC_ECON, R_BUILDINGS
from solver.fast.kernels.api import legal, neighbour_dwelling, step
from solver.fast.kernels.board import neighbours
from solver.fast.kernels.frames import top
from solver.fast.kernels.wheel import token_yield

from .common import SearchResult, state_hash
from .evaluation import PORTFOLIO, evaluate

MAXD = 40
BUILD_CELLS = 2
SETTLE_CELLS = 3
KEEP_PER_PARENT = 64
SEEN_BITS = 14  # transposition table of one expansion's inner states: 2**SEEN_BITS slots
SEEN_SIZE = 1 << SEEN_BITS


# ===== the search policy inside a turn ==========================================================

@njit(cache=True)
def _adjacent_settlements(W, x):
    nb = np.empty(5, dtype=np.int64)
    m = neighbours(W, x, nb)
    v = 0
    for i in range(m):
        if W[L.GRID + nb[i]] >= L.C_SETTLEMENT:
            v += 1
    return v


@njit(cache=True)
def policy_filter(T, W, acts, n, converted, out):
    """Trim the legal actions of a state to the search policy (module docstring)."""
    fb = top(W)
    kind = W[fb + L.F_KIND]
    m = 0
    if kind == L.K_NEUTRAL_BUILD:
        best = -1
        bestv = 1 << 30
        for i in range(n):
            x = acts[i] - I.NBUILD0
            c = W[L.NGRID + x]
            v = -1 if c == L.C_EMPTY else T[R_BUILDINGS + c - L.C_BUILDING, BC_ECON]
            if v < bestv:
                bestv = v
                best = acts[i]
        out[0] = best
        return 1
    main_used = kind == L.K_SLOT and (W[fb + L.F_AUX] & 1) == 1
    site = np.empty(0, dtype=np.int64)
    last_b = -1
    kept = 0
    best_b_x = -1
    for i in range(n):
        a = acts[i]
        if a == I.CONVERT_WINE or a == I.CONVERT_WHISKEY:
            if converted or main_used:
                continue
        elif a >= I.DISTRICT0:
            if main_used:
                continue
        elif I.CONTRACT0 <= a < I.FREE0:
            f = (a - I.CONTRACT0) % 2
            if f == 1 and i > 0 and acts[i - 1] == a - 1:
                continue  # coins possible: skip the drink
        elif I.FELL0 <= a < I.BUILD0:
            base = I.FELL0 if a < I.CUT0 else I.CUT0
            x, j = divmod(a - base, 2)
            # first feature cell only
            first = True
            for k in range(i):
                b2 = acts[k]
                if (base == I.FELL0 and I.FELL0 <= b2 < I.CUT0) or \
                        (base == I.CUT0 and I.CUT0 <= b2 < I.BUILD0):
                    if (b2 - base) // 2 != x:
                        first = False
            if not first:
                continue
            # the better source when both are offered
            t = I.T_WOOD if base == I.FELL0 else I.T_PEAT
            other = a + 1 if j == 0 else a - 1
            has_other = False
            for k in range(n):
                if acts[k] == other:
                    has_other = True
            if has_other:
                own = token_yield(T, W, t)
                jok = token_yield(T, W, I.T_JOKER)
                if (j == 0 and jok > own) or (j == 1 and jok <= own):
                    continue
        elif I.BUILD0 <= a < I.SETTLE0:
            b, x = divmod(a - I.BUILD0, L.N_CELLS)
            if b != last_b:
                last_b = b
                kept = 0
                # the cell beside the most settlement dwelling, if any
                best_b_x = -1
                bestv = 0
                for k in range(i, n):
                    a2 = acts[k]
                    if a2 >= I.SETTLE0 or (a2 - I.BUILD0) // L.N_CELLS != b:
                        break
                    x2 = (a2 - I.BUILD0) % L.N_CELLS
                    v = _adjacent_settlements(W, x2) * T[R_BUILDINGS + b, BC_DWELL]
                    if v > bestv:
                        bestv = v
                        best_b_x = x2
            if x != best_b_x:
                if kept >= BUILD_CELLS - (1 if best_b_x >= 0 else 0):
                    continue
                kept += 1
        elif I.SETTLE0 <= a < I.DISTRICT0:
            s, x = divmod(a - I.SETTLE0, L.N_CELLS)
            if site.shape[0] == 0:  # neighbour value of each space, computed once per call
                site = np.empty(L.N_CELLS, dtype=np.int64)
                for y in range(L.N_CELLS):
                    site[y] = neighbour_dwelling(T, W, y)
            v = site[x]
            better = 0
            for k in range(n):
                a2 = acts[k]
                if I.SETTLE0 <= a2 < I.DISTRICT0 and (a2 - I.SETTLE0) // L.N_CELLS == s:
                    x2 = (a2 - I.SETTLE0) % L.N_CELLS
                    v2 = site[x2]
                    if v2 > v or (v2 == v and x2 < x):
                        better += 1
            if better >= SETTLE_CELLS:
                continue
        out[m] = a
        m += 1
    return m


@njit(cache=True)
def expand(T, W0, weights, keep, paths, lens, evals, hashes, noise, salt):
    """All end-of-flow-step children of W0 under the policy; keep the best ``keep``.

    Writes up to ``keep`` children (action path, length, evaluation, hash) and returns their
    number.
    """
    step0 = W0[L.STEP]
    stackW = np.empty((MAXD + 1, L.W_SIZE), dtype=np.int64)
    acts = np.empty((MAXD + 1, I.MAX_LEGAL), dtype=np.int64)
    raw = np.empty(I.MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(I.MAX_LEGAL, dtype=np.int64)
    nacts = np.zeros(MAXD + 1, dtype=np.int64)
    idx = np.zeros(MAXD + 1, dtype=np.int64)
    conv = np.zeros(MAXD + 1, dtype=np.int64)
    path = np.zeros(MAXD, dtype=np.int64)
    seen = np.zeros(SEEN_SIZE, dtype=np.uint64)  # inner states already expanded (0 = free)
    filled = 0
    count = 0
    worst = 0
    stackW[0, :] = W0
    n = legal(T, stackW[0], raw)
    nacts[0] = policy_filter(T, stackW[0], raw, n, 0, acts[0])
    d = 0
    while d >= 0:
        if idx[d] >= nacts[d]:
            d -= 1
            continue
        a = acts[d, idx[d]]
        idx[d] += 1
        stackW[d + 1, :] = stackW[d]
        step(T, stackW[d + 1], a, scratch)
        path[d] = a
        Wc = stackW[d + 1]
        c = conv[d] + (1 if (a == I.CONVERT_WINE or a == I.CONVERT_WHISKEY) else 0)
        if Wc[L.STEP] != step0 or Wc[L.DONE] == 1 or d + 1 == MAXD:
            h = state_hash(Wc)
            dup = False
            for k in range(count):
                if hashes[k] == h:
                    dup = True
                    break
            if dup:
                continue
            mixed = (h ^ salt) * np.uint64(0x9E3779B97F4A7C15)
            ev = evaluate(T, Wc, weights) + noise * (float(mixed >> np.uint64(40))
                                                          / 16777216.0)
            if count < keep:
                slot = count
                count += 1
            else:
                if ev <= evals[worst]:
                    continue
                slot = worst
            paths[slot, : d + 1] = path[: d + 1]
            lens[slot] = d + 1
            evals[slot] = ev
            hashes[slot] = h
            if count == keep:
                worst = 0
                for k in range(1, count):
                    if evals[k] < evals[worst]:
                        worst = k
            continue
        # an inner state reached before (by another order of the same decisions) has had
        # its subtree searched already: skip it
        key = (state_hash(Wc) ^ np.uint64(c)) | np.uint64(1)
        t = np.int64(key >> np.uint64(64 - SEEN_BITS))
        hit = False
        while seen[t] != 0:
            if seen[t] == key:
                hit = True
                break
            t = (t + 1) & (SEEN_SIZE - 1)
        if hit:
            continue
        if filled < SEEN_SIZE // 2:
            seen[t] = key
            filled += 1
        d += 1
        conv[d] = c
        idx[d] = 0
        n = legal(T, stackW[d], raw)
        nacts[d] = policy_filter(T, stackW[d], raw, n, c, acts[d])
    return count


@njit(cache=True, parallel=True)
def expand_all(T, parents, weights, keep, paths, lens, evals, hashes, counts, noise, salt):
    """expand() for every parent, in parallel; parent p writes slots [p*keep, (p+1)*keep)."""
    for p in prange(parents.shape[0]):
        lo = p * keep
        counts[p] = expand(T, parents[p], weights, keep, paths[lo:lo + keep], lens[lo:lo + keep],
                           evals[lo:lo + keep], hashes[lo:lo + keep], noise, salt)


@njit(cache=True)
def replay(T, W, path, n, scratch):
    """Apply the first n actions of path to W in place."""
    for i in range(n):
        step(T, W, path[i], scratch)


# ===== the beam ================================================================================

GROUP_WIDTH = 100
POLISH_ROUNDS = (28, 22, 25, 28)  # the endgame polish restarts from these rounds ...
POLISH_LINES = 2  # ... of this many of the best lines the groups found
POLISH_SHARE = 0.5  # ... with a beam this share of the whole width


def beam_search(variant: str = "ireland", width: int = 2000, seed: int = 0,
                time_limit: float | None = None, progress=None, keep: int = KEEP_PER_PARENT,
                weights: np.ndarray | None = None) -> SearchResult:
    """Beam search of total width ``width``; returns the best complete line found.

    With the default evaluation the search has two stages:

    1. **Strategy groups.** The beam is split into groups of ``GROUP_WIDTH`` states (at most
       one per entry of ``evaluation.PORTFOLIO``), each steered by its own weighting; group i
       uses portfolio entry (i + seed) mod len. The weightings favour different plans, and
       which plan wins is hard to tell early, so the groups keep many plans alive.
    2. **Endgame polish.** From the ``POLISH_LINES`` best distinct lines of stage 1, a single
       beam of ``POLISH_SHARE`` x ``width`` restarts at each round of ``POLISH_ROUNDS``. In
       the last rounds the score itself dominates the evaluation and a wide beam plays the
       ending far better than the narrow group that found the line. A restart that scores
       more replaces the line for the next restarts of its chain; a restart from a state
       already tried is skipped (it would find the same line). Measured at width 2000 (seed
       0, commit 11eefaf): the best group lines scored 499 (Ireland) and 479 (France); the
       polish took Ireland's second line from 478 to 503 (rounds 22, then 25) and France's
       best from 479 to 512 (rounds 28, then 25).

    ``weights`` gives one weighting to a single plain beam of the whole width instead.
    """
    if width < 1:
        raise ValueError("beam width must be at least 1")
    if weights is not None:
        return _beam(variant, width, seed, time_limit, progress, keep, weights)
    groups = min(len(PORTFOLIO), max(1, width // GROUP_WIDTH))
    polish_width = max(1, int(width * POLISH_SHARE)) if groups > 1 else 0
    stages = groups + (POLISH_LINES * len(POLISH_ROUNDS) if polish_width else 0)
    t0 = time.perf_counter()
    found: list[SearchResult] = []
    trace: list[dict] = []
    nodes = layers = 0
    complete = True

    def limit(done: int) -> float | None:
        if time_limit is None:
            return None
        return max(0.0, (time_limit - (time.perf_counter() - t0)) / (stages - done))

    for i in range(groups):
        share = width // groups + (1 if i < width % groups else 0)
        r = _beam(variant, share, seed, limit(i), progress, keep,
                  PORTFOLIO[(i + seed) % len(PORTFOLIO)], label=f"group {i + 1}/{groups}")
        nodes += r.nodes
        layers += r.layers
        complete = complete and r.complete
        found.append(r)
        trace.append({"stage": "group", "weighting": (i + seed) % len(PORTFOLIO),
                      "width": share, "from_round": 1, "score": r.score[0],
                      "seconds": round(r.seconds, 1)})
    found.sort(key=lambda r: -r.score[0])
    best = found[0]
    if polish_width:
        e = FastEngine(variant)
        done = groups
        chains: list[tuple[int, list[int]]] = []  # (score, line), best first, distinct
        for r in found:
            if len(chains) < POLISH_LINES and all(r.line != c[1] for c in chains):
                chains.append((r.score[0], r.line))
        tried = set()
        for line_score, line in chains:
            # each restart polishes the best line of this chain so far
            for rnd in POLISH_ROUNDS:
                start = _state_at_round(e, line, rnd)
                key = tuple(start[1])
                if key in tried:  # the same restart again: deterministic, skip it
                    done += 1
                    continue
                tried.add(key)
                r = _beam(variant, polish_width, seed, limit(done), progress, keep, PORTFOLIO[0],
                          start=start, label=f"polish {done + 1 - groups}/{stages - groups}")
                done += 1
                nodes += r.nodes
                layers += r.layers
                trace.append({"stage": "polish", "weighting": 0, "width": polish_width,
                              "from_round": rnd, "score": r.score[0],
                              "seconds": round(r.seconds, 1)})
                if r.score[0] > line_score:
                    line, line_score = r.line, r.score[0]
                if r.score[0] > best.score[0]:
                    best = r
    return SearchResult(variant, best.score, best.line, nodes, layers,
                        time.perf_counter() - t0, complete, trace)


def _state_at_round(e: FastEngine, line: list[int], rnd: int) -> tuple[np.ndarray, list[int]]:
    """The state (and prefix) of ``line`` at its first flow step of round ``rnd`` or later, where
    a beam layer starts (the end of the line if it never gets there)."""
    W = e.initial_wide().copy()
    prev = W[L.STEP]
    for k, a in enumerate(line):
        if k > 0 and W[L.ROUND] >= rnd and W[L.STEP] != prev:
            return W, line[:k]
        prev = W[L.STEP]
        e.step_wide(W, a)
    return W, list(line)


def _beam(variant: str, width: int, seed: int, time_limit: float | None, progress, keep: int,
          weights, start: tuple[np.ndarray, list[int]] | None = None, label: str = ""
          ) -> SearchResult:
    """One beam of width ``width`` under one weighting, from the initial state or ``start``
    (a state and the line that reached it)."""
    e = FastEngine(variant)
    w = np.asarray(weights, dtype=np.float64)
    noise = 0.0 if seed == 0 else 0.05  # seeded tie-breaking among near-equal children
    salt = np.uint64((seed * 0x9E3779B97F4A7C15) % (1 << 64))
    t0 = time.perf_counter()
    if start is None:
        beam = e.initial_wide()[None, :].copy()
        lines: list[list[int]] = [[]]
    else:
        beam = start[0][None, :].copy()
        lines = [list(start[1])]
    best: tuple | None = None  # (score tuple, line)
    nodes = 0
    layers = 0
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    complete = True
    while True:
        live = [i for i in range(len(beam)) if beam[i, L.DONE] == 0]
        for i in range(len(beam)):
            if beam[i, L.DONE]:
                sc = e.score_wide(beam[i])
                if best is None or sc[0] > best[0][0]:
                    best = (sc, lines[i])
        if not live:
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            complete = False
            break
        parents = beam[live]
        P = len(live)
        paths = np.zeros((P * keep, MAXD), dtype=np.int64)
        lens = np.zeros(P * keep, dtype=np.int64)
        evals = np.full(P * keep, -1e18)
        hashes = np.zeros(P * keep, dtype=np.uint64)
        counts = np.zeros(P, dtype=np.int64)
        expand_all(e.T, parents, w, keep, paths, lens, evals, hashes, counts, noise, salt)
        slots = np.concatenate([np.arange(p * keep, p * keep + counts[p]) for p in range(P)])
        nodes += len(slots)
        # dedupe across parents by hash (keep the best), then the best `width`
        order = np.lexsort((hashes[slots], -evals[slots]))
        chosen = []
        seen = set()
        for k in order:
            s = slots[k]
            h = int(hashes[s])
            if h in seen:
                continue
            seen.add(h)
            chosen.append(s)
            if len(chosen) == width:
                break
        new_beam = np.empty((len(chosen), L.W_SIZE), dtype=np.int64)
        new_lines = []
        for j, s in enumerate(chosen):
            p = s // keep
            W = parents[p].copy()
            replay(e.T, W, paths[s], lens[s], scratch)
            new_beam[j] = W
            new_lines.append(lines[live[p]] + paths[s, : lens[s]].tolist())
        beam, lines = new_beam, new_lines
        layers += 1
        if progress is not None:
            progress(beam, layers, label)
    seconds = time.perf_counter() - t0
    if best is None or not complete:
        # finish the best unfinished state greedily so the result is a complete line
        i = int(np.argmax([evaluate(e.T, beam[i], w) for i in range(len(beam))]))
        W = beam[i].copy()
        line = list(lines[i])
        while W[L.DONE] == 0:
            paths = np.zeros((1, MAXD), dtype=np.int64)
            lens = np.zeros(1, dtype=np.int64)
            evals = np.full(1, -1e18)
            hashes = np.zeros(1, dtype=np.uint64)
            n = expand(e.T, W, w, 1, paths, lens, evals, hashes, 0.0, salt)
            assert n == 1
            replay(e.T, W, paths[0], lens[0], scratch)
            line += paths[0, : lens[0]].tolist()
        sc = e.score_wide(W)
        if best is None or sc[0] > best[0][0]:
            best = (sc, line)
    return SearchResult(variant, best[0], best[1], nodes, layers,
                        time.perf_counter() - t0 if seconds is None else seconds, complete)
