"""The beam's turn expansion: the compiled kernels that expand every state of a layer.

``expand_into`` runs the depth-first search over one state's decisions until the flow moves
on (the turn search of run.py's module docstring, under the search policy of policy.py) and
keeps the best ``keep`` distinct children; ``expand_all`` runs it for every parent of a
layer on all threads; ``replay_chosen`` turns the chosen children back into states.

Speed (``ora-solve bench --search`` measures it): the expansion allocates nothing per parent,
skips states and children it has reached before, reuses the legal actions the step generated,
never generates those of a turn after its main action (the policy allows only END there) and
reuses the evaluation's board terms while the spaces do not change. A layer's ranking, dedup
and replay are vectorised or compiled, and lines are kept as parent pointers (``lines.Lines``).
The expansion's kernels count no references (``_nrt=False``, see solver/fast/kernels/): perf
showed half of an expansion's time in the atomic reference counts of the arrays passed to
each small kernel. A settlement's spaces are valued only where it is offered, and a step's
copy of the state leaves out the terrain while the land is the same. The board compare is
branch-free (vectorised), the kept children are scanned only once the table of reached
states is full, and the threads share a layer's parents dynamically (``expand_all``).
These change no line: the children, their order and their evaluations are those of the
expansion before them (docs/experiments.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.kernels.api import step
from solver.fast.kernels.legal import legal_unsorted
from solver.fast.kernels.step import DEFERRED, advance, forced_ends, raw_step

from ..common import state_hash
from ..evaluation.features import board_terms, evaluate, evaluate_board
from .policy import policy_filter

MAXD = 40
KEEP_PER_PARENT = 64
SEEN_BITS = 15  # table of the states one expansion reached: 2**SEEN_BITS slots, half used
SEEN_SIZE = 1 << SEEN_BITS
EXPAND_LANES = 64  # expand_all's lanes: at most this many threads share a layer
# the row of ``ints`` (scratch_arrays) whose first cell counts the children the last
# expansion generated, before deduplication and the cut to ``keep``: the work it did
GENERATED = 11


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


@njit(cache=True, _nrt=False)
def turn_step(T, W, a, scratch):
    """kernels.step() for the turn search; returns how many legal actions of the new state it
    left unsorted in ``scratch`` (its forced-END check generated them), -1 if none, or
    DEFERRED.

    DEFERRED: W is a turn after its main action, where more than END may be legal (a land
    purchase, a conversion). step() would generate its legal actions to see whether END is
    forced; but the search policy allows only END there whatever else is legal, so the search
    takes END next without knowing, and asks only for the children it keeps
    (``end_was_forced``): a forced END is applied by step() and is not part of the line.
    """
    work = scratch[I.WORK0:]
    raw_step(T, W, a, work)
    advance(T, W, work)
    return forced_ends(T, W, scratch, True)


@njit(cache=True, _nrt=False)
def end_was_forced(T, W, buf):
    """Whether END is the only legal action of W (a DEFERRED state of turn_step)."""
    n = legal_unsorted(T, W, buf)
    return n == 1 and buf[0] == I.END


@njit(cache=True, _nrt=False)
def same_board(W, V):
    """W and V have the same spaces and terrain (so the same board terms of the evaluation).

    Compares LAND and GRID (adjacent words): TERR is derived from LAND (see copy_state).
    Branch-free (the differences are or-ed), so the loop is vectorised: an early exit kept
    it scalar, about as slow as a hash."""
    diff = 0
    for i in range(L.LAND, L.GRID + L.N_CELLS):
        diff |= W[i] ^ V[i]
    return diff == 0


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
    has: see copy_state), the stack of actions, two legal-action buffers, the int rows of
    the search, the table of reached states and its used slots."""
    stack = np.zeros((MAXD + 1, L.W_SIZE), dtype=np.int64)
    stack[:, L.LAND] = -1
    return (stack, np.empty((MAXD + 1, I.MAX_LEGAL), dtype=np.int64),
            np.empty(I.MAX_LEGAL, dtype=np.int64), np.empty(I.MAX_LEGAL, dtype=np.int64),
            np.zeros((12, MAXD + 1), dtype=np.int64), np.zeros(SEEN_SIZE, dtype=np.uint64),
            np.zeros(SEEN_SIZE // 2, dtype=np.int64))


@njit(cache=True, _nrt=False)
def copy_state(dst, src):
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
    if not same_board(Wc, stackW[d]):
        return evaluate(T, Wc, weights)
    k = ints[9, d]
    if ints[5, k] == 0:
        ints[5, k] = 1
        ints[6, k], ints[7, k], ints[8, k] = board_terms(T, Wc)
    return evaluate_board(T, Wc, weights, ints[6, k], ints[7, k], ints[8, k])


@njit(cache=True, _nrt=False)
def _record(rec, W, kind, parent, a):
    """The bench's census (bench/speed.py): kind 0 an inner state W (``parent``: how its legal
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
    parent. ``rec`` is None, or the census arrays of bench/speed.py (``_record``).

    The turn's depth-first search with a table of the states it has reached: an inner state
    reached again (another order of the same decisions) has had its subtree searched, and a
    child reached again cannot change the kept set (it is kept already, or it was worse than
    the worst kept child then, and that bound only rises), so both are skipped. The step into
    a state hands over the legal actions its forced-END check generated, and a turn after its
    main action is not generated at all (``turn_step``). A child whose spaces and terrain are
    those of its parent in the search reuses the board terms of the evaluation
    (``_child_eval``).
    """
    stackW, acts, raw, scratch, ints, seen, used = ws
    nacts, idx, conv, path, deferred, bvalid, bref, at = (ints[0], ints[1], ints[2], ints[3],
                                                          ints[4], ints[5], ints[9], ints[10])
    step0 = W0[L.STEP]
    filled = 0
    count = 0
    ints[GENERATED, 0] = 0
    worst = 0
    copy_state(stackW[0], W0)
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
        copy_state(Wc, stackW[d])
        nl = turn_step(T, Wc, a, scratch)
        if rec is not None:
            _record(rec, Wc, 1, at[d], a)
        path[d] = a
        c = conv[d] + (1 if (a == I.CONVERT_WINE or a == I.CONVERT_WHISKEY) else 0)
        if Wc[L.STEP] != step0 or Wc[L.DONE] == 1 or d + 1 == MAXD:
            ints[GENERATED, 0] += 1
            h = state_hash(Wc)
            hit, filled = _seen_before(seen, used, filled, (h ^ _LEAF) | np.uint64(1))
            if rec is not None:
                _record(rec, Wc, 3 if hit else 2,
                        at[bref[d]] if same_board(Wc, stackW[d]) else -1, 0)
            # a child not in the table was never reached before, unless the table was full
            # when it was: only then can it be among the kept ones already
            if hit or (filled >= SEEN_SIZE // 2 and _kept(hashes, count, h)):
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
            if deferred[d] == 1 and end_was_forced(T, stackW[d], raw):
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
        bref[d] = bref[d - 1] if same_board(Wc, stackW[d - 1]) else d
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


@intrinsic
def _fetch_add(typingctx, counter, i):
    """counter[i] += 1 atomically; returns the value before (an int64 array)."""
    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
        return builder.atomic_rmw("add", ptr, context.get_constant(types.int64, 1), "monotonic")
    return types.int64(counter, i), codegen


@njit(cache=True, parallel=True)
def expand_all(T, parents, weights, keep, paths, lens, evals, hashes, counts, noise, salt,
               generated):
    """expand() for every parent, in parallel; parent p writes slots [p*keep, (p+1)*keep),
    its kept children's count to counts[p] and the children it generated to generated[p].

    ``EXPAND_LANES`` lanes share the parents: each takes the next parent not yet taken (an
    atomic counter) until none is left, and allocates its work arrays at its first parent.
    Numba's static schedule gives each thread a block of lanes; the first lane of a block
    works until the parents run out, so the others find none and cost nothing. The costs of
    a layer's parents differ a hundredfold (0.1 to 13 ms late in the game): parents dealt
    out in advance (round robin to 8 lanes, 4 lanes a thread) left one thread idle for
    15-20% of a layer. Which lane expands a parent changes nothing in what it writes."""
    P = parents.shape[0]
    taken = np.zeros(1, dtype=np.int64)
    for _ in prange(min(EXPAND_LANES, P)):
        p = _fetch_add(taken, 0)
        if p < P:
            ws = scratch_arrays()
            while p < P:
                lo = p * keep
                counts[p] = expand_into(T, parents[p], weights, keep, paths[lo:lo + keep],
                                        lens[lo:lo + keep], evals[lo:lo + keep],
                                        hashes[lo:lo + keep], noise, salt, ws, None)
                generated[p] = ws[4][GENERATED, 0]
                p = _fetch_add(taken, 0)


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
