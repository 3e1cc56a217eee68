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

Speed (``ora-solve bench --search`` measures it): the expansion allocates nothing per parent,
skips states and children it has reached before, reuses the legal actions the step generated,
never generates those of a turn after its main action (the policy allows only END there) and
reuses the evaluation's board terms while the spaces do not change. A layer's ranking, dedup
and replay are vectorised or compiled, and lines are kept as parent pointers (``lines.Lines``).
The expansion's kernels count no references (``_nrt=False``, see solver/fast/kernels/): perf
showed half of an expansion's time in the atomic reference counts of the arrays passed to
each small kernel. A settlement's spaces are valued only where it is offered, and a step's
copy of the state leaves out the terrain while the land is the same.
These change no line: the children, their order and their evaluations are those of 01cc41c.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.fast.kernels.api import step
from solver.fast.kernels.frames import top
from solver.fast.kernels.legal import legal_unsorted
from solver.fast.kernels.step import advance, raw_step, surely_a_choice, surely_forced

from .common import SearchResult, state_hash
from .lines import Lines  # noqa: F401 (tests and callers use beam.Lines)
from .evaluation import PORTFOLIO, board_terms, evaluate, evaluate_board  # noqa: F401
from .policy import BUILD_CELLS, SETTLE_CELLS, policy_filter  # noqa: F401 (re-exported)
from .selection import select_distinct
from .weightsfile import default_portfolio

MAXD = 40
KEEP_PER_PARENT = 64
SEEN_BITS = 15  # table of the states one expansion reached: 2**SEEN_BITS slots, half used
EXPAND_LANES = 8  # expand_all deals the parents round-robin to this many lanes
SEEN_SIZE = 1 << SEEN_BITS


@njit(cache=True, _nrt=False)
def sort_small(a, n):
    """Insertion sort of a[:n] in place: the legal actions come nearly sorted (only uses and
    contracts follow the spaces' order), so this is linear in practice."""
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


DEFERRED = -2  # _turn_step: a turn after its main action, its END not yet known to be forced


@njit(cache=True, _nrt=False)
def _turn_step(T, W, a, scratch):
    """kernels.step() for the turn search; returns how many legal actions of the new state it
    left unsorted in ``scratch`` (its forced-END check generated them), -1 if none, or
    DEFERRED.

    DEFERRED: W is a turn after its main action, where more than END may be legal (a land
    purchase, a conversion). step() would generate its legal actions to see whether END is
    forced; but the search policy allows only END there whatever else is legal, so the search
    takes END next without knowing, and asks only for the children it keeps
    (``_end_was_forced``): a forced END is applied by step() and is not part of the line.
    """
    work = scratch[I.WORK0:]
    raw_step(T, W, a, work)
    advance(T, W, work)
    while W[L.DONE] == 0:
        if surely_a_choice(W):
            return -1
        if not surely_forced(T, W):
            fb = top(W)
            if W[fb + L.F_KIND] == L.K_SLOT and (W[fb + L.F_AUX] & 1) == 1:
                return DEFERRED
            n = legal_unsorted(T, W, scratch)
            if n != 1 or scratch[0] != I.END:
                return n
        raw_step(T, W, I.END, work)
        advance(T, W, work)
    return -1


@njit(cache=True, _nrt=False)
def _end_was_forced(T, W, buf):
    """Whether END is the only legal action of W (a DEFERRED state of _turn_step)."""
    n = legal_unsorted(T, W, buf)
    return n == 1 and buf[0] == I.END


@njit(cache=True, _nrt=False)
def _same_board(W, V):
    """W and V have the same spaces and terrain (so the same board terms of the evaluation)."""
    for i in range(L.N_CELLS):
        if W[L.GRID + i] != V[L.GRID + i] or W[L.TERR + i] != V[L.TERR + i]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _probe(seen, key):
    """The slot of ``key`` in the open-addressing table ``seen`` (0 = free), and whether it is
    there already."""
    t = np.int64(key >> np.uint64(64 - SEEN_BITS))
    while seen[t] != 0:
        if seen[t] == key:
            return t, True
        t = (t + 1) & (SEEN_SIZE - 1)
    return t, False


_LEAF = np.uint64(0x5851F42D4C957F2D)  # marks a leaf's key in the table of one expansion


@njit(cache=True, _nrt=False)
def _kept(hashes, count, h):
    """Whether a child of hash ``h`` is among the ``count`` kept so far."""
    for k in range(count):
        if hashes[k] == h:
            return True
    return False


@njit(cache=True, _nrt=False)
def _worst(evals, count):
    """The slot of the worst kept child."""
    w = 0
    for k in range(1, count):
        if evals[k] < evals[w]:
            w = k
    return w


@njit(cache=True, _nrt=True)
def scratch_arrays():
    """The work arrays of one expansion (``ws`` of expand_into), allocated once per lane of
    expand_all or per call of expand: the stack of states (its LAND words -1, which no state
    has: see _copy_state), the stack of actions, two legal-action buffers, the int rows of
    the search, the table of reached states and its used slots."""
    stack = np.zeros((MAXD + 1, L.W_SIZE), dtype=np.int64)
    stack[:, L.LAND] = -1
    return (stack, np.empty((MAXD + 1, I.MAX_LEGAL), dtype=np.int64),
            np.empty(I.MAX_LEGAL, dtype=np.int64), np.empty(I.MAX_LEGAL, dtype=np.int64),
            np.zeros((11, MAXD + 1), dtype=np.int64), np.zeros(SEEN_SIZE, dtype=np.uint64),
            np.zeros(SEEN_SIZE // 2, dtype=np.int64))


@njit(cache=True, _nrt=False)
def _copy_state(dst, src):
    """dst[:] = src, leaving out TERR when both have the same LAND: TERR is derived from LAND
    (the tables being the same), and a row of the stack that never held a state has a LAND
    no state has (scratch_arrays)."""
    same = True
    for i in range(L.LAND, L.LAND + 4):
        if dst[i] != src[i]:
            same = False
    if same:
        for i in range(L.TERR):
            dst[i] = src[i]
        for i in range(L.STATUS, L.W_SIZE):
            dst[i] = src[i]
    else:
        for i in range(L.W_SIZE):
            dst[i] = src[i]


@njit(cache=True, _nrt=False)
def _child_eval(T, stackW, d, weights, ints):
    """The evaluation of the child stackW[d + 1]: a child with the spaces and terrain of its
    parent in the search reuses the board terms (``evaluate_board``), computed once per board
    along the stack (ints[5..9]: valid, board, space, features, and bref[d], the shallowest
    depth whose state has the spaces of depth d's)."""
    Wc = stackW[d + 1]
    if not _same_board(Wc, stackW[d]):
        return evaluate(T, Wc, weights)
    k = ints[9, d]
    if ints[5, k] == 0:
        ints[5, k] = 1
        ints[6, k], ints[7, k], ints[8, k] = board_terms(T, Wc)
    return evaluate_board(T, Wc, weights, ints[6, k], ints[7, k], ints[8, k])


@njit(cache=True, _nrt=False)
def _record(rec, W, kind, parent, a):
    """The bench's census (bench_search): kind 0 an inner state W (``parent``: how its legal
    actions were had, 0 generated, 1 handed over by the step, 2 deferred), 1 a step (``a``
    from inner state ``parent``), 2 a new child W (``parent``: the inner state whose board
    terms it reuses, or -1), 3 a revisit skipped. Returns the index of what it recorded;
    rows beyond an array's size are counted, not stored."""
    inner, handed, edges, leaves, roots, cnt = rec
    k = cnt[kind]
    cnt[kind] += 1
    if kind == 0 and k < inner.shape[0]:
        for i in range(L.W_SIZE):
            inner[k, i] = W[i]
        handed[k] = parent
    elif kind == 1 and k < edges.shape[0]:
        edges[k, 0] = parent
        edges[k, 1] = a
    elif kind == 2 and k < leaves.shape[0]:
        for i in range(L.W_SIZE):
            leaves[k, i] = W[i]
        roots[k] = parent
    return k


@njit(cache=True, _nrt=False)
def _seen_before(seen, used, filled, key):
    """Look ``key`` up in the table of reached states and add it if new (while the table is
    at most half full); returns (was there, the new fill)."""
    t, hit = _probe(seen, key)
    if not hit and filled < SEEN_SIZE // 2:
        seen[t] = key
        used[filled] = t
        filled += 1
    return hit, filled


@njit(cache=True, _nrt=False)
def _actions(T, W, nl, c, acts, raw, scratch):
    """The policy's actions of the inner state W into ``acts``, from the legal actions the
    step into it generated (``nl`` >= 0, in scratch) or generated here; returns their number
    (a DEFERRED state: END alone)."""
    if nl == DEFERRED:  # the policy allows only END after the main action
        acts[0] = I.END
        return 1
    if nl >= 0:
        sort_small(scratch, nl)
        return policy_filter(T, W, scratch, nl, c, acts)
    n = legal_unsorted(T, W, raw)
    sort_small(raw, n)
    return policy_filter(T, W, raw, n, c, acts)


@njit(cache=True, _nrt=False)
def expand_into(T, W0, weights, keep, paths, lens, evals, hashes, noise, salt, ws, rec):
    """expand() on caller-owned work arrays ``ws`` (scratch_arrays()): no allocation per
    parent. ``rec`` is None, or the census arrays of bench_search (``_record``).

    The turn's depth-first search with a table of the states it has reached: an inner state
    reached again (another order of the same decisions) has had its subtree searched, and a
    child reached again cannot change the kept set (it is kept already, or it was worse than
    the worst kept child then, and that bound only rises), so both are skipped. The step into
    a state hands over the legal actions its forced-END check generated, and a turn after its
    main action is not generated at all (``_turn_step``). A child whose spaces and terrain are
    those of its parent in the search reuses the board terms of the evaluation
    (``_child_eval``).
    """
    stackW, acts, raw, scratch, ints, seen, used = ws
    nacts, idx, conv, path, deferred, bvalid, bref, at = (ints[0], ints[1], ints[2], ints[3],
                                                          ints[4], ints[5], ints[9], ints[10])
    step0 = W0[L.STEP]
    filled = 0
    count = 0
    worst = 0
    _copy_state(stackW[0], W0)
    nacts[0] = _actions(T, stackW[0], -1, 0, acts[0], raw, scratch)
    idx[0] = conv[0] = deferred[0] = bvalid[0] = bref[0] = 0
    if rec is not None:
        at[0] = _record(rec, W0, 0, 0, 0)
    d = 0
    while d >= 0:
        if idx[d] >= nacts[d]:
            d -= 1
            continue
        a = acts[d, idx[d]]
        idx[d] += 1
        Wc = stackW[d + 1]
        _copy_state(Wc, stackW[d])
        nl = _turn_step(T, Wc, a, scratch)
        if rec is not None:
            _record(rec, Wc, 1, at[d], a)
        path[d] = a
        c = conv[d] + (1 if (a == I.CONVERT_WINE or a == I.CONVERT_WHISKEY) else 0)
        if Wc[L.STEP] != step0 or Wc[L.DONE] == 1 or d + 1 == MAXD:
            h = state_hash(Wc)
            hit, filled = _seen_before(seen, used, filled, (h ^ _LEAF) | np.uint64(1))
            if rec is not None:
                _record(rec, Wc, 3 if hit else 2,
                        at[bref[d]] if _same_board(Wc, stackW[d]) else -1, 0)
            if hit or _kept(hashes, count, h):
                continue
            ev = _child_eval(T, stackW, d, weights, ints)
            mixed = (h ^ salt) * np.uint64(0x9E3779B97F4A7C15)
            ev += noise * (float(mixed >> np.uint64(40)) / 16777216.0)
            if count < keep:
                slot = count
                count += 1
            else:
                if ev <= evals[worst]:
                    continue
                slot = worst
            m = d + 1
            if deferred[d] == 1 and _end_was_forced(T, stackW[d], raw):
                m = d  # step() takes that END itself
            for i in range(m):
                paths[slot, i] = path[i]
            lens[slot] = m
            evals[slot] = ev
            hashes[slot] = h
            if count == keep:
                worst = _worst(evals, count)
            continue
        hit, filled = _seen_before(seen, used, filled, (state_hash(Wc) ^ np.uint64(c))
                                   | np.uint64(1))
        if hit:
            if rec is not None:
                _record(rec, Wc, 3, 0, 0)
            continue
        d += 1
        conv[d] = c
        idx[d] = 0
        deferred[d] = 1 if nl == DEFERRED else 0
        bvalid[d] = 0
        bref[d] = bref[d - 1] if _same_board(Wc, stackW[d - 1]) else d
        if rec is not None:
            at[d] = _record(rec, Wc, 0, 1 if nl >= 0 else (2 if nl == DEFERRED else 0), 0)
        nacts[d] = _actions(T, Wc, nl, c, acts[d], raw, scratch)
    for k in range(filled):  # leave the table empty for the next parent
        seen[used[k]] = 0
    return count


@njit(cache=True, _nrt=True)
def expand(T, W0, weights, keep, paths, lens, evals, hashes, noise, salt):
    """All end-of-flow-step children of W0 under the policy; keep the best ``keep``.

    Writes up to ``keep`` children (action path, length, evaluation, hash) and returns their
    number.
    """
    return expand_into(T, W0, weights, keep, paths, lens, evals, hashes, noise, salt,
                       scratch_arrays(), None)


@njit(cache=True, parallel=True)
def expand_all(T, parents, weights, keep, paths, lens, evals, hashes, counts, noise, salt):
    """expand() for every parent, in parallel; parent p writes slots [p*keep, (p+1)*keep).

    The parents are dealt round-robin to ``EXPAND_LANES`` lanes (adjacent parents, of similar
    rank, cost alike, so this balances the threads), each with its own work arrays."""
    P = parents.shape[0]
    lanes = min(EXPAND_LANES, P)
    for lane in prange(lanes):
        ws = scratch_arrays()
        for p in range(lane, P, lanes):
            lo = p * keep
            counts[p] = expand_into(T, parents[p], weights, keep, paths[lo:lo + keep],
                                    lens[lo:lo + keep], evals[lo:lo + keep],
                                    hashes[lo:lo + keep], noise, salt, ws, None)


@njit(cache=True, _nrt=False)
def replay(T, W, path, n, scratch):
    """Apply the first n actions of path to W in place."""
    for i in range(n):
        step(T, W, path[i], scratch)


@njit(cache=True, _nrt=False)
def replay_chosen(T, parents, chosen, keep, paths, lens, out, flat, offsets, scratch):
    """The chosen children (slots of expand_all) as states in out[j], their action paths
    concatenated in flat[offsets[j]:offsets[j + 1]]; returns the number of actions."""
    m = 0
    for j in range(chosen.shape[0]):
        s = chosen[j]
        for i in range(L.W_SIZE):
            out[j, i] = parents[s // keep, i]
        offsets[j] = m
        for i in range(lens[s]):
            step(T, out[j], paths[s, i], scratch)
            flat[m] = paths[s, i]
            m += 1
    offsets[chosen.shape[0]] = m
    return m


# ===== the beam ================================================================================

GROUP_WIDTH = 100
POLISH_ROUNDS = (28, 22, 25, 28)  # the endgame polish restarts from these rounds ...
POLISH_LINES = 2  # ... of this many of the best lines the groups found
POLISH_SHARE = 0.5  # ... with a beam this share of the whole width


def beam_search(variant: str = "ireland", width: int = 2000, seed: int = 0,
                time_limit: float | None = None, progress=None, keep: int = KEEP_PER_PARENT,
                weights: np.ndarray | None = None, stop=None,
                start: tuple[np.ndarray, list[int]] | None = None,
                portfolio: list[np.ndarray] | None = None) -> SearchResult:
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
    ``portfolio`` gives the groups' weightings in order (group i: entry i mod len, the polish:
    entry 0) instead of the default, ``weightsfile.default_portfolio(variant)`` rotated by
    the seed.
    ``stop`` (a callable) ends the search at the next layer once it returns true: the stage
    under way finishes its best state greedily and the stages after it are skipped.
    ``start`` (a packed or wide state and the line that reached it from the initial state)
    searches on from that position: every stage starts there or later, and the returned line
    begins with that prefix.
    """
    if width < 1:
        raise ValueError("beam width must be at least 1")
    if start is not None:
        start = _wide_start(variant, start)
    if weights is not None:
        return _beam(variant, width, seed, time_limit, progress, keep, weights, stop=stop,
                     start=start)
    pf, shift = (portfolio, 0) if portfolio is not None else (default_portfolio(variant), seed)
    groups = min(len(pf), max(1, width // GROUP_WIDTH))
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

    def stopped() -> bool:
        return stop is not None and stop()

    for i in range(groups):
        if found and stopped():
            complete = False
            break
        share = width // groups + (1 if i < width % groups else 0)
        r = _beam(variant, share, seed, limit(i), progress, keep,
                  pf[(i + shift) % len(pf)], start=start,
                  label=f"group {i + 1}/{groups}", stop=stop)
        nodes += r.nodes
        layers += r.layers
        complete = complete and r.complete
        found.append(r)
        trace.append({"stage": "group", "weighting": (i + shift) % len(pf),
                      "width": share, "from_round": 1 if start is None else int(start[0][L.ROUND]),
                      "score": r.score[0],
                      "seconds": round(r.seconds, 1)})
    found.sort(key=lambda r: -r.score[0])
    best = found[0]
    if polish_width and not stopped():
        e = FastEngine(variant)
        done = groups
        chains = polish_chains(found)
        tried = set()
        for line_score, line in chains:
            # each restart polishes the best line of this chain so far
            for rnd in POLISH_ROUNDS:
                if stopped():
                    complete = False
                    break
                restart = polish_restart(e, line, rnd, start)
                key = tuple(restart[1])
                if key in tried:  # the same restart again: deterministic, skip it
                    done += 1
                    continue
                tried.add(key)
                r = _beam(variant, polish_width, seed, limit(done), progress, keep, pf[0],
                          start=restart, label=f"polish {done + 1 - groups}/{stages - groups}",
                          stop=stop)
                done += 1
                nodes += r.nodes
                layers += r.layers
                trace.append({"stage": "polish", "weighting": 0, "width": polish_width,
                              "from_round": rnd, "score": r.score[0],
                              "seconds": round(r.seconds, 1)})
                complete = complete and r.complete
                if r.score[0] > line_score:
                    line, line_score = r.line, r.score[0]
                if r.score[0] > best.score[0]:
                    best = r
    return SearchResult(variant, best.score, best.line, nodes, layers,
                        time.perf_counter() - t0, complete, trace)


def _wide_start(variant: str, start: tuple[np.ndarray, list[int]]
                ) -> tuple[np.ndarray, list[int]]:
    """``start`` with its state as a fresh wide array (a packed state is unpacked)."""
    state, prefix = start
    state = np.asarray(state)
    if state.shape == (L.PACKED_WORDS,):
        state = FastEngine(variant).wide(state)
    elif state.shape != (L.W_SIZE,):
        raise ValueError(f"a start state is packed ({L.PACKED_WORDS} words) or wide "
                         f"({L.W_SIZE} words), not of shape {state.shape}")
    return np.array(state, dtype=np.int64), [int(a) for a in prefix]


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


def polish_chains(found: list[SearchResult]) -> list[tuple[int, list[int]]]:
    """The endgame polish's chains: (score, line) of the ``POLISH_LINES`` best distinct lines
    of ``found`` (sorted best first)."""
    chains: list[tuple[int, list[int]]] = []
    for r in found:
        if len(chains) < POLISH_LINES and all(r.line != c[1] for c in chains):
            chains.append((r.score[0], r.line))
    return chains


def polish_restart(e: FastEngine, line: list[int], rnd: int,
                   start: tuple[np.ndarray, list[int]] | None
                   ) -> tuple[np.ndarray, list[int]]:
    """Where a polish restart of ``line`` from round ``rnd`` begins: its state at that round,
    never before the position ``start`` the search began from."""
    restart = _state_at_round(e, line, rnd)
    if start is not None and len(restart[1]) < len(start[1]):
        return start
    return restart


def layer(T, parents: np.ndarray, w: np.ndarray, keep: int, width: int, noise: float, salt,
          scratch: np.ndarray, times: dict | None = None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """One beam layer: expand every parent, keep the best ``width`` distinct children
    (selection.select_distinct: best evaluation first, ties by hash). Returns the children's states, each one's parent (an
    index into ``parents``), their actions (flat, offsets as Lines.extend) and the number of
    children generated. ``times`` (if given) accumulates the seconds of the compiled
    expansion ("expand") and of the rest ("select": ranking, dedup, replay)."""
    t0 = time.perf_counter()
    P = len(parents)
    paths = np.empty((P * keep, MAXD), dtype=np.int64)
    lens = np.zeros(P * keep, dtype=np.int64)
    evals = np.full(P * keep, -1e18)
    hashes = np.zeros(P * keep, dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    t1 = time.perf_counter()
    expand_all(T, parents, w, keep, paths, lens, evals, hashes, counts, noise, salt)
    t2 = time.perf_counter()
    chosen = np.empty(width, dtype=np.int64)
    chosen = chosen[:select_distinct(evals, hashes, counts, keep, width, chosen)]
    children = np.empty((len(chosen), L.W_SIZE), dtype=np.int64)
    flat = np.empty(int(lens[chosen].sum()), dtype=np.int64)
    offsets = np.empty(len(chosen) + 1, dtype=np.int64)
    replay_chosen(T, parents, chosen, keep, paths, lens, children, flat, offsets, scratch)
    if times is not None:
        times["expand"] = times.get("expand", 0.0) + t2 - t1
        times["select"] = times.get("select", 0.0) + time.perf_counter() - t2 + t1 - t0
    return children, chosen // keep, flat, offsets, int(counts.sum())


def _beam(variant: str, width: int, seed: int, time_limit: float | None, progress, keep: int,
          weights, start: tuple[np.ndarray, list[int]] | None = None, label: str = "",
          stop=None) -> SearchResult:
    """One beam of width ``width`` under one weighting, from the initial state or ``start``
    (a state and the line that reached it). It ends early, finishing its best state
    greedily, after ``time_limit`` seconds or once ``stop()`` returns true."""
    e = FastEngine(variant)
    w = np.asarray(weights, dtype=np.float64)
    noise = 0.0 if seed == 0 else 0.05  # seeded tie-breaking among near-equal children
    salt = np.uint64((seed * 0x9E3779B97F4A7C15) % (1 << 64))
    t0 = time.perf_counter()
    if start is None:
        beam = e.initial_wide()[None, :].copy()
        lines = Lines([[]])
    else:
        beam = start[0][None, :].copy()
        lines = Lines([list(start[1])])
    best: tuple | None = None  # (score tuple, line)
    nodes = 0
    layers = 0
    scratch = np.zeros(I.MAX_LEGAL, dtype=np.int64)
    complete = True
    last = 0.0  # seconds of the last layer
    while True:
        live = [i for i in range(len(beam)) if beam[i, L.DONE] == 0]
        for i in range(len(beam)):
            if beam[i, L.DONE]:
                sc = e.score_wide(beam[i])
                if best is None or sc[0] > best[0][0]:
                    best = (sc, lines[i])
        if not live:
            break
        # stop before a layer that would end past the time limit (it takes about as long
        # as the last one)
        if (time_limit is not None and time.perf_counter() - t0 + last > time_limit) or \
                (stop is not None and stop()):
            complete = False
            break
        t_layer = time.perf_counter()
        beam, parent, flat, offsets, n = layer(e.T, beam[live], w, keep, width, noise, salt,
                                               scratch)
        nodes += n
        lines = lines.extend(np.asarray(live)[parent], flat, offsets)
        layers += 1
        last = time.perf_counter() - t_layer
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
