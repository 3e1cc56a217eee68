"""One beam: layers of the turn expansion under one weighting, from the start or a position.

One beam layer is one step of the game's flow: every state in the beam is expanded by a
depth-first search over all of its decisions until the flow moves on (a turn ends, a
settlement turn ends, the neutral has built; expansion.py, under the search policy of
policy.py). Each such end state is a child; children are deduplicated by a hash of their
state, scored by :func:`solver.search.evaluation.features.evaluate` (score so far plus the
potential of goods, settlement cards and space), and the best ``width`` are kept
(selection.py; in France no plan may fill more than ``PLAN_CAP`` of a layer). The best
finished line seen is kept throughout (anytime), so a beam stopped by its time limit still
returns its best complete line, finished greedily if needed.

Deterministic: the same arguments give the same line (ties are broken by state hash; the
seed perturbs evaluation ties only).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from solver.fast import ids as I
from solver.fast import layout as L
from solver.fast.engine import FastEngine

from ..common import SearchResult, splitmix_words
from ..evaluation.features import evaluate
from .expansion import MAXD, expand, expand_all, replay, replay_chosen
from .lines import Lines
from .selection import plan_keys, select_capped, select_distinct


def wide_start(variant: str, start: tuple[np.ndarray, list[int]]
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


def state_at_round(e: FastEngine, line: list[int], rnd: int) -> tuple[np.ndarray, list[int]]:
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

class _Guide:
    """A line that a beam keeps in every layer (``run_beam``'s ``guide``): its state at the
    current layer, where that state sits in the beam, and the line's final score."""

    def __init__(self, e: FastEngine, line: list[int], start):
        prefix = [] if start is None else list(start[1])
        if list(line[:len(prefix)]) != prefix:
            raise ValueError("a guide line must begin with the start's prefix")
        self.e, self.line, self.at, self.index = e, list(line), len(prefix), 0
        self.W = (e.initial_wide() if start is None else start[0]).copy()
        W = self.W.copy()
        for a in self.line[self.at:]:
            e.step_wide(W, a)
        if W[L.DONE] == 0:
            raise ValueError("a guide line must be a complete game")
        self.score = e.score_wide(W)

    def keep(self, beam, parent, flat, offsets):
        """The layer's children with the guide's next state among them (appended if the
        selection dropped it): (beam, parent, flat, offsets) as ``Lines.extend`` takes them;
        ``parent`` indexes the previous layer's states."""
        if self.W[L.DONE]:
            return beam, parent, flat, offsets
        step0, k = self.W[L.STEP], self.at
        while self.at < len(self.line):  # one flow step, as the turn search expands it
            self.e.step_wide(self.W, self.line[self.at])
            self.at += 1
            if self.W[L.STEP] != step0 or self.W[L.DONE]:
                break
        # a child in the same state (by any path) continues as the guide does
        same = np.flatnonzero((beam == self.W).all(axis=1))
        if len(same):
            self.index = int(same[0])
            return beam, parent, flat, offsets
        seg = np.asarray(self.line[k:self.at], dtype=np.int64)
        parent = np.append(parent, self.index)
        self.index = len(beam)
        return (np.vstack([beam, self.W[None, :]]), parent, np.concatenate([flat, seg]),
                np.append(offsets, offsets[-1] + len(seg)))


# a plan is the set of the player's buildings: one random word per building, summed
PLAN_WORDS = splitmix_words(0x706C616E, L.N_BUILDINGS)
#: the largest share of a layer that one plan may fill, by variant (None: no cap). France's
#: lines all headed for one build order and more width bought fewer points; with the cap
#: its plans spread (docs/experiments.md, 2026-12-04). Ireland lost points under it.
PLAN_CAP = {"france": 0.1, "ireland": None}


def layer(T, parents: np.ndarray, w: np.ndarray, keep: int, width: int, noise: float, salt,
          scratch: np.ndarray, times: dict | None = None, plan_cap: float | None = None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """One beam layer: expand every parent, keep the best ``width`` distinct children
    (selection.select_distinct: best evaluation first, ties by hash). Returns the children's
    states, each one's parent (an index into ``parents``), their actions (flat, offsets as
    Lines.extend) and the number of children generated, before deduplication and the cut to
    ``keep``: the layer's work, so that a node budget buys the same work whatever ``keep``
    and the policy's width. ``times`` (if given) accumulates the seconds of the compiled
    expansion ("expand") and of the rest ("select": ranking, dedup, replay)."""
    t0 = time.perf_counter()
    P = len(parents)
    paths = np.empty((P * keep, MAXD), dtype=np.int64)
    lens = np.zeros(P * keep, dtype=np.int64)
    evals = np.full(P * keep, -1e18)
    hashes = np.zeros(P * keep, dtype=np.uint64)
    counts = np.zeros(P, dtype=np.int64)
    generated = np.zeros(P, dtype=np.int64)
    t1 = time.perf_counter()
    expand_all(T, parents, w, keep, paths, lens, evals, hashes, counts, noise, salt, generated)
    t2 = time.perf_counter()
    chosen = np.empty(width, dtype=np.int64)
    if plan_cap is None:
        chosen = chosen[:select_distinct(evals, hashes, counts, keep, width, chosen)]
    else:
        cap = max(1, int(plan_cap * width))
        plans = plan_keys(parents, paths, lens, counts, keep, PLAN_WORDS)
        chosen = chosen[:select_capped(evals, hashes, counts, keep, width, plans, cap, chosen)]
    children = np.empty((len(chosen), L.W_SIZE), dtype=np.int64)
    flat = np.empty(int(lens[chosen].sum()), dtype=np.int64)
    offsets = np.empty(len(chosen) + 1, dtype=np.int64)
    replay_chosen(T, parents, chosen, keep, paths, lens, children, flat, offsets, scratch)
    if times is not None:
        times["expand"] = times.get("expand", 0.0) + t2 - t1
        times["select"] = times.get("select", 0.0) + time.perf_counter() - t2 + t1 - t0
    return children, chosen // keep, flat, offsets, int(generated.sum())


def tie_breaking(seed: int) -> tuple[float, np.uint64]:
    """The ``noise`` and ``salt`` a beam of ``seed`` breaks ties among near-equal children
    with: seed 0 breaks none, so it is the plain greedy order."""
    return (0.0 if seed == 0 else 0.05), np.uint64((seed * 0x9E3779B97F4A7C15) % (1 << 64))


def run_beam(variant: str, width: int | Callable[[int], int], seed: int,
             time_limit: float | None, progress,
             keep: int, weights, start: tuple[np.ndarray, list[int]] | None = None,
             label: str = "", stop=None, node_limit: int | None = None, meter=None,
             guide: list[int] | None = None) -> SearchResult:
    """One beam of width ``width`` under one weighting, from the initial state or ``start``
    (a state and the line that reached it). It ends early, finishing its best state
    greedily, after ``time_limit`` seconds, before a layer that would take it past
    ``node_limit`` children (guessed: grown from the last as the last grew; a layer above the
    guess, or a first layer, can pass the limit by part of itself), or once ``stop()``
    returns true.
    ``meter(n)`` is told each layer's children before ``progress`` sees the layer.

    ``guide``: a complete line through ``start`` (a restart's own line). Its state is kept
    in every layer beside the ``width`` chosen ones, so the beam searches around it and never
    returns less than it, stopped early or not.

    ``width`` may be a function of the round the next layer starts in, called before each
    layer (a timed schedule's pacer: ``schedule._Clock.pacer``)."""
    e = FastEngine(variant)
    g = None if guide is None else _Guide(e, guide, start)
    cap = PLAN_CAP.get(variant)
    w = np.asarray(weights, dtype=np.float64).ravel()  # (a table by round: flattened)
    noise, salt = tie_breaking(seed)
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
    last_nodes = 0.0  # its children per parent
    next_nodes = 0  # the next layer's children, guessed from the last layer's per parent
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
                (node_limit is not None and nodes + next_nodes > node_limit) or \
                (stop is not None and stop()):
            complete = False
            break
        t_layer = time.perf_counter()
        wide = width(int(beam[live[0], L.ROUND])) if callable(width) else width
        beam, parent, flat, offsets, n = layer(e.T, beam[live], w, keep, wide, noise, salt,
                                               scratch, plan_cap=cap)
        nodes += n
        # the next layer's children, guessed per parent: its parents times this layer's
        # children per parent, grown as that grew (at most doubled). A guess from the growth
        # of the whole layer is wild while a wide beam fills: it stopped a
        # width-1491 beam partway and cost it 129 points (France seed 6, 100M children)
        per_parent = n / len(live)
        growth = 1.0 if last_nodes == 0 else min(2.0, max(1.0, per_parent / last_nodes))
        next_live = int(np.count_nonzero(beam[:, L.DONE] == 0))
        next_nodes = int(per_parent * growth * next_live)
        last_nodes = per_parent
        if g is not None:
            beam, parent, flat, offsets = g.keep(beam, np.asarray(live)[parent], flat,
                                                 offsets)
            lines = lines.extend(parent, flat, offsets)
        else:
            lines = lines.extend(np.asarray(live)[parent], flat, offsets)
        layers += 1
        last = time.perf_counter() - t_layer
        if meter is not None:
            meter(n)
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
    if g is not None and g.score[0] > best[0][0]:
        best = (g.score, list(guide))
    return SearchResult(variant, best[0], best[1], nodes, layers,
                        time.perf_counter() - t0 if seconds is None else seconds, complete)
