"""Single-player MCTS over whole turns (SP-MCTS: max backup, transpositions).

An edge of the tree is a **turn**: one child of the beam's turn expansion (beam/expansion.py's
``expand`` with its search policy and its deduplication of children by state hash). A node's
children are its ``TREE_CHILDREN`` best children by the evaluation, tried best first. The
search is written against a small protocol (:class:`TurnGame`), so the same code runs on the
fast solo engine (:class:`FastTurnGame`) and on hand-built test games.

* **Playouts** from a leaf are narrow beams (playouts/beam_playouts.py): the beam search's
  layers (its turn expansion, its selection of the best distinct children) at a small width,
  under one weighting of the beam's portfolio (features.PORTFOLIO), a different weighting for
  each simulation (its seed picks it), so the playouts follow different plans; a playout's
  result is its best finished line. The width grows as the game shortens
  (:func:`playout_width`: ``PLAYOUT_WIDTH`` at the start, ``PLAYOUT_WIDTH x GAME_TURNS / turns
  left`` later, at most beam_playouts.MAX_WIDTH), so every decision costs about the same and
  the last turns are searched by wide beams, as the beam's endgame polish does. Playouts are
  compiled and run in parallel, a batch of ``BATCH`` leaves at a time (leaf parallelism; the
  leaves of a batch are chosen with a virtual visit each, so they differ). The tree itself is
  Python: one simulation's tree work takes microseconds, its playout a second of expansions,
  so compiling the tree would not pay.
* **Prior**: a node's children are tried best first by the evaluation before UCT chooses
  among them (progressive widening by the prior), so a decision's first simulations go to
  the turns the evaluation likes.
* **Max backup**: every node keeps the best final score below it and the mean; selection is
  UCT on ``q = MIX * best + (1 - MIX) * mean``, normalised by the lowest and highest scores
  seen, plus ``C * sqrt(ln N / n)`` (Schadd et al. 2008, without the variance term).
* **Transpositions**: nodes are keyed by the state hash, so two orders of turns that reach one
  state share a node.
* **Decisions**: one per turn. After ``budget`` simulations the search commits the next turn of
  the best line seen so far (which runs through the root child of the highest best score) and
  re-roots there, keeping the subtree. The result is that best line, complete, so it is never
  worse than the best playout seen. With a time limit each decision gets an equal share of
  the time left for the turns the best line still has (the simulations stop at that share or
  at ``budget``), and once time is up the remaining turns follow the best line.

The playout widths (``PLAYOUT_WIDTH``) were chosen on tuning seed 5; with them and 16
simulations per turn all four runs of seeds 0 and 1 passed 500 inside 10 minutes, where
narrower or greedy playouts scored less (docs/experiments.md). A French turn costs about half
an Irish one, hence the wider French playouts. The best line grows all game: the first
decisions find the plan, the wide late playouts polish the ending.

Deterministic for a given seed: a simulation's playout depends on its seed only, and a batch's
leaves on the tree, so the line does not depend on the number of threads either.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from .beam.expansion import MAXD, expand, replay
from .common import MAX_LINE, SearchResult, seed_words, state_hash
from .evaluation.weights import default_portfolio
from .playouts import beam_playouts as P

DEFAULT_SIMULATIONS = 16  # simulations per decision of `ora-solve solo --mcts`
# width of a playout's beam at the start of the game (beam_playouts.py; 1: greedy), by variant: a
# French turn costs about half an Irish one, so France affords the wider playouts in 10 minutes
PLAYOUT_WIDTH = {"ireland": 9, "france": 16}
GAME_TURNS = 78  # turns (decisions) in a solo game, about
NOISE = 0.05  # a playout's seeded tie-breaking of the evaluation (beam_playouts.py)
TREE_CHILDREN = 8  # children per tree node, the best by the evaluation
BATCH = 8  # playouts run in parallel per batch (fixed: the line does not depend on threads)
C = 0.3  # exploration constant
MIX = 0.8  # weight of the best score against the mean in a node's value


class TurnGame:
    """What turn-level MCTS needs from a game (states are opaque to the search)."""

    def key(self, state): ...  # hashable transposition key
    def terminal(self, state) -> bool: ...
    def reward(self, state) -> float: ...  # final score of a terminal state
    def children(self, state) -> list[tuple[tuple, object, float]]: ...
    """(action path, child state, prior value) of the moves to search, best prior first."""
    def playouts(self, states: list, seeds: list[int]) -> list[tuple[float, list[int]]]: ...
    """A playout from each state with its seed: (final score, actions played)."""
    def next_turn(self, state, actions: list[int]) -> tuple[tuple, object]: ...
    """The first turn of ``actions`` from ``state``: (its actions, the state after it)."""


class FastTurnGame(TurnGame):
    """The fast solo engine's turns (wide states) as a TurnGame."""

    def __init__(self, variant: str, tree_children: int = TREE_CHILDREN,
                 portfolio: list[np.ndarray] | None = None, width: int | None = None,
                 noise: float = NOISE):
        width = PLAYOUT_WIDTH[variant] if width is None else width
        if not 1 <= width <= P.MAX_WIDTH:
            raise ValueError(f"a playout's width is 1 to {P.MAX_WIDTH}, not {width}")
        self.e = FastEngine(variant)
        self.k = tree_children
        self.width = width
        self.noise = noise
        self.generated = 0  # children the playouts generated
        self.weights = np.array(default_portfolio(variant) if portfolio is None else portfolio,
                                dtype=np.float64)
        self.scratch = np.zeros(self.e.buf.shape[0], dtype=np.int64)

    def initial(self):
        return self.e.initial_wide()

    def key(self, W):
        return int(state_hash(W))

    def terminal(self, W):
        return bool(W[L.DONE])

    def reward(self, W):
        return float(self.e.score_wide(W)[0])

    def children(self, W):
        k = self.k
        paths = np.zeros((k, MAXD), dtype=np.int64)
        lens = np.zeros(k, dtype=np.int64)
        evals = np.full(k, -1e18)
        hashes = np.zeros(k, dtype=np.uint64)
        n = expand(self.e.T, W, self.weights[0], k, paths, lens, evals, hashes, 0.0,
                   np.uint64(0))
        out = []
        for s in sorted(range(n), key=lambda s: (-evals[s], int(hashes[s]))):
            X = W.copy()
            replay(self.e.T, X, paths[s], lens[s], self.scratch)
            out.append((tuple(paths[s, : lens[s]].tolist()), X, float(evals[s])))
        return out

    def playouts(self, states, seeds):
        B = len(states)
        starts = np.stack(states).astype(np.int64)
        sw = np.array(seeds, dtype=np.uint64)
        wsel = (sw % np.uint64(len(self.weights))).astype(np.int64)
        lines = np.zeros((B, MAX_LINE), dtype=np.int64)
        lens = np.zeros(B, dtype=np.int64)
        scores = np.zeros(B, dtype=np.int64)
        gen = np.zeros(B, dtype=np.int64)
        P.beam_playouts(self.e.T, starts, self.weights, wsel, self.width, self.noise, sw,
                        lines, lens, scores, gen)
        self.generated += int(gen.sum())
        return [(float(scores[b]), lines[b, : lens[b]].tolist()) for b in range(B)]

    def next_turn(self, W, actions):
        X = W.copy()
        step0 = X[L.STEP]
        for k, a in enumerate(actions):
            self.e.step_wide(X, a)
            if X[L.STEP] != step0 or X[L.DONE] or k + 1 == MAXD:
                return tuple(actions[: k + 1]), X
        raise ValueError("the actions do not finish a turn")


@dataclass
class Node:
    state: object
    terminal: bool
    edges: list | None = None  # [(path, child key)], best prior first; None: not expanded
    tried: int = 0  # edges[:tried] have been visited
    visits: int = 0
    total: float = 0.0
    scored: int = 0  # results backed up (visits also counts pending, virtual ones)
    best: float = -math.inf


class MCTS:
    """Turn-level SP-MCTS with max backup, transpositions and batched (parallel) playouts."""

    def __init__(self, game: TurnGame, seed: int = 0, c: float = C, mix: float = MIX,
                 batch: int = BATCH):
        self.game = game
        self.seed = seed
        self.c = c
        self.mix = mix
        self.batch = batch
        self.nodes: dict = {}
        self.lo = math.inf
        self.hi = -math.inf
        self.simulations = 0
        self.best: tuple[float, list[int]] | None = None  # best complete line seen

    def node(self, state):
        """The key of ``state``'s node (created if new)."""
        k = self.game.key(state)
        if k not in self.nodes:
            self.nodes[k] = Node(state, self.game.terminal(state))
        return k

    def _value(self, n: Node) -> float:
        if n.scored == 0:
            return 0.0
        v = self.mix * n.best + (1 - self.mix) * (n.total / n.scored)
        span = self.hi - self.lo
        return 0.5 if span <= 0 else (v - self.lo) / span

    def _select(self, root_key):
        """Walk to a leaf (new child, or a terminal); a virtual visit on the way. Returns the
        node keys and the actions from the root."""
        keys = [root_key]
        actions: list[int] = []
        n = self.nodes[root_key]
        n.visits += 1
        while not n.terminal:
            if n.edges is None:
                n.edges = [(p, self.node(s)) for p, s, _ in self.game.children(n.state)]
            if n.tried < len(n.edges):
                path, k = n.edges[n.tried]
                n.tried += 1
                keys.append(k)
                actions += path
                self.nodes[k].visits += 1
                break
            logn = math.log(max(1, n.visits))
            best_e, best_u = None, -math.inf
            for e in n.edges:
                ch = self.nodes[e[1]]
                u = self._value(ch) + self.c * math.sqrt(logn / (ch.visits + 1e-9))
                if u > best_u:
                    best_e, best_u = e, u
            keys.append(best_e[1])
            actions += best_e[0]
            n = self.nodes[best_e[1]]
            n.visits += 1
        return keys, actions

    def run(self, root_state, root_line: list[int], simulations: int,
            deadline: float | None = None, stop=None, on_batch=None) -> int:
        """Run up to ``simulations`` simulations from ``root_state`` (reached by
        ``root_line``), stopping at ``deadline`` (perf_counter) or once ``stop()`` is true
        and a line is known (``on_batch()``, if given, after each batch); returns how many
        ran."""
        root = self.node(root_state)
        done = 0
        while done < simulations:
            if deadline is not None and time.perf_counter() > deadline:
                break
            if stop is not None and self.best is not None and stop():
                break
            picks = [self._select(root) for _ in range(min(self.batch, simulations - done))]
            leaves = [self.nodes[keys[-1]] for keys, _ in picks]
            todo = [i for i, n in enumerate(leaves) if not n.terminal]
            seeds = [int(s) for s in seed_words(self.seed, len(todo), self.simulations + 1)]
            results: dict[int, tuple[float, list[int]]] = {
                i: (self.game.reward(n.state), []) for i, n in enumerate(leaves) if n.terminal}
            if todo:
                for i, r in zip(todo, self.game.playouts([leaves[i].state for i in todo], seeds)):
                    results[i] = r
            for i, (keys, actions) in enumerate(picks):
                r, tail = results[i]
                self.lo = min(self.lo, r)
                self.hi = max(self.hi, r)
                for k in keys:
                    m = self.nodes[k]
                    m.total += r
                    m.scored += 1
                    m.best = max(m.best, r)
                if self.best is None or r > self.best[0]:
                    self.best = (r, root_line + actions + tail)
            self.simulations += len(picks)
            if on_batch is not None:
                on_batch()
            done += len(picks)
        return done

    def commit(self, root_state, root_line: list[int]):
        """The next turn of the best line from ``root_state``: (its actions, the new state)."""
        if self.best is None:
            self.run(root_state, root_line, 1)
        rest = self.best[1][len(root_line):]
        return self.game.next_turn(root_state, rest)

    def prune(self, root_state) -> None:
        """Forget every node the new root cannot reach (the turns already played)."""
        root = self.node(root_state)
        keep = {root}
        todo = [root]
        while todo:
            n = self.nodes[todo.pop()]
            for _, k in n.edges or ():
                if k not in keep:
                    keep.add(k)
                    todo.append(k)
        self.nodes = {k: self.nodes[k] for k in keep}


def mcts_search(variant: str = "ireland", budget: int = DEFAULT_SIMULATIONS, seed: int = 0,
                time_limit: float | None = None, progress=None,
                start: tuple[np.ndarray, list[int]] | None = None, stop=None,
                portfolio: list[np.ndarray] | None = None, width: int | None = None,
                batch: int = BATCH) -> SearchResult:
    """Play a whole solo game with ``budget`` simulations per turn; the best line found.

    ``start`` (a state at the start of a turn and the line that reached it, as
    beam.state_at_round gives) searches only the rest of the game after that line. Once
    ``stop()`` returns true (or the time is up) the rest of the best line seen is played.
    ``portfolio``: the playouts' weightings (the tree's children: entry 0; default
    ``weights.default_portfolio(variant)``)."""
    if budget < 1:
        raise ValueError("MCTS budget must be at least 1 simulation per decision")
    game = FastTurnGame(variant, portfolio=portfolio, width=width)
    width = game.width
    m = MCTS(game, seed, batch=batch)
    t0 = time.perf_counter()
    W = game.initial() if start is None else start[0].copy()
    line: list[int] = [] if start is None else list(start[1])
    turns = 0
    complete = True
    trace = []
    while not W[L.DONE]:
        deadline = None
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if m.best is not None and ((left is not None and left <= 0)
                                   or (stop is not None and stop())):
            complete = False
            rest = m.best[1][len(line):]
            for a in rest:
                game.e.step_wide(W, a)
            line += rest
            break
        todo = _turns_left(game, W, m.best[1][len(line):]) if m.best else GAME_TURNS
        game.width = playout_width(width, todo)
        if left is not None:
            # an equal share of the time left for each turn the best line still has
            deadline = time.perf_counter() + max(0.0, left) / max(1, todo)
        # the progress bar moves after every batch: a decision can take seconds
        m.run(W, line, budget, deadline, stop,
              None if progress is None else (lambda W=W, t=turns: progress(W, t)))
        path, W = m.commit(W, line)
        line += list(path)
        turns += 1
        m.prune(W)
        if progress is not None:
            progress(W, turns)
        if turns % 10 == 0 or W[L.DONE]:
            trace.append({"stage": "turn", "turn": turns, "round": int(W[L.ROUND]),
                          "best": m.best[0], "simulations": m.simulations,
                          "seconds": round(time.perf_counter() - t0, 1)})
    score = game.e.score_wide(W)
    assert m.best is None or score[0] == m.best[0], "the committed line is the best line"
    return SearchResult(variant, score, line, m.simulations, turns, time.perf_counter() - t0,
                        complete, trace)


def playout_width(start_width: int, turns_left: int) -> int:
    """The playouts' width with ``turns_left`` turns to go: ``start_width`` at the start of
    the game, then growing as the game shortens so that a playout costs about as much as at
    the start (at most beam_playouts.MAX_WIDTH)."""
    return max(1, min(P.MAX_WIDTH, round(start_width * GAME_TURNS / max(1, turns_left))))


def _turns_left(game: FastTurnGame, W, actions) -> int:
    X = W.copy()
    n = 0
    prev = X[L.STEP]
    for a in actions:
        game.e.step_wide(X, a)
        if X[L.STEP] != prev or X[L.DONE]:
            n += 1
            prev = X[L.STEP]
    return n


__all__ = ["DEFAULT_SIMULATIONS", "MCTS", "FastTurnGame", "TurnGame", "mcts_search"]
