"""Single-player MCTS for maximising a score (max backup), with rollouts on the fast engine.

Written against a small game protocol (:class:`Game`) so it runs on the fast solo engine
(:class:`FastGame`) or on a hand-built test game. Single-player, so no win/loss squash:

* every node keeps the **best** final score seen below it (max backup) and the mean;
* selection uses UCT on normalised values: ``q = (mix * best + (1 - mix) * mean - lo) /
  (hi - lo)`` with lo/hi the smallest and largest scores seen so far, plus the exploration
  term ``c * sqrt(ln N / n)`` (SP-MCTS, Schadd et al. 2008, without the variance term);
* transpositions: nodes are keyed by the state's hash, so two paths to one state share
  statistics (a DAG);
* rollouts are seeded uniformly random playouts (the fast engine's kernel).

``mcts_search`` plays a whole game: ``budget`` simulations per decision, then commits the child
with the best max score and reuses the subtree; the best complete line seen in any rollout's
ancestry is not recoverable from a rollout, so the result is the committed line. Stopped early
(time limit or ``stop``), it finishes the committed line greedily under the beam's evaluation.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from .beam import _beam  # the greedy finish of a stopped search
from .common import SearchResult, state_hash
from .evaluation import PORTFOLIO


class Game:
    """What MCTS needs from a game."""

    def legal(self, state) -> list[int]: ...
    def step(self, state, action: int): ...  # returns the new state (does not modify)
    def terminal(self, state) -> bool: ...
    def reward(self, state) -> float: ...  # final score of a terminal state
    def rollout(self, state, rng: random.Random) -> float: ...
    def key(self, state): ...  # hashable transposition key


class FastGame(Game):
    """The fast solo engine as an MCTS game (wide states)."""

    def __init__(self, variant: str):
        self.e = FastEngine(variant)

    def initial(self):
        return self.e.initial_wide()

    def legal(self, W):
        return self.e.legal_wide(W).tolist()

    def step(self, W, a):
        W2 = W.copy()
        self.e.step_wide(W2, a)
        return W2

    def terminal(self, W):
        return bool(W[L.DONE])

    def reward(self, W):
        return float(self.e.score_wide(W)[0])

    def rollout(self, W, rng):
        total, _ = self.e.rollout_wide(W.copy(), rng.getrandbits(62))
        return float(total)

    def key(self, W):
        return int(state_hash(W))


@dataclass
class Node:
    state: object
    legal: list[int]
    visits: int = 0
    total: float = 0.0
    best: float = -math.inf
    children: dict = field(default_factory=dict)  # action -> key


class MCTS:
    """SP-MCTS with max backup and a transposition table."""

    def __init__(self, game: Game, seed: int = 0, c: float = 0.7, mix: float = 0.5):
        self.game = game
        self.rng = random.Random(seed)
        self.c = c
        self.mix = mix
        self.nodes: dict = {}
        self.lo = math.inf
        self.hi = -math.inf
        self.simulations = 0

    def node(self, state) -> tuple:
        k = self.game.key(state)
        if k not in self.nodes:
            legal = [] if self.game.terminal(state) else self.game.legal(state)
            self.nodes[k] = Node(state, legal)
        return k, self.nodes[k]

    def _value(self, n: Node) -> float:
        if n.visits == 0:
            return 0.0
        v = self.mix * n.best + (1 - self.mix) * (n.total / n.visits)
        span = self.hi - self.lo
        return 0.5 if span <= 0 else (v - self.lo) / span

    def simulate(self, root_key) -> float:
        """One selection-expansion-rollout-backup pass from the root."""
        path = [root_key]
        n = self.nodes[root_key]
        while n.legal and len(n.children) == len(n.legal):
            logn = math.log(max(1, n.visits))
            best_a, best_u = None, -math.inf
            for a in n.legal:
                ch = self.nodes[n.children[a]]
                u = self._value(ch) + self.c * math.sqrt(logn / (ch.visits + 1e-9))
                if u > best_u:
                    best_a, best_u = a, u
            path.append(n.children[best_a])
            n = self.nodes[n.children[best_a]]
        if n.legal:
            a = next(x for x in n.legal if x not in n.children)
            k, child = self.node(self.game.step(n.state, a))
            n.children[a] = k
            path.append(k)
            n = child
        if self.game.terminal(n.state):
            r = self.game.reward(n.state)
        else:
            r = self.game.rollout(n.state, self.rng)
        self.lo = min(self.lo, r)
        self.hi = max(self.hi, r)
        for k in path:
            m = self.nodes[k]
            m.visits += 1
            m.total += r
            m.best = max(m.best, r)
        self.simulations += 1
        return r

    def best_action(self, root_key) -> int:
        n = self.nodes[root_key]
        return max(n.legal, key=lambda a: (self.nodes[n.children[a]].best
                                          if a in n.children else -math.inf,
                                          -n.legal.index(a)))

    def search(self, state, budget: int, stop=None) -> int:
        """Run ``budget`` simulations from ``state`` (fewer once ``stop()`` returns true, at
        least one) and return the best action."""
        k, n = self.node(state)
        if len(n.legal) == 1:
            return n.legal[0]
        for i in range(budget):
            if i and stop is not None and i % 64 == 0 and stop():
                break
            self.simulate(k)
        return self.best_action(k)


def mcts_search(variant: str = "ireland", budget: int = 200, seed: int = 0,
                time_limit: float | None = None, progress=None, stop=None) -> SearchResult:
    """Play a whole solo game with ``budget`` MCTS simulations per decision; after
    ``time_limit`` seconds or once ``stop()`` returns true, finish the line greedily."""
    if budget < 1:
        raise ValueError("MCTS budget must be at least 1 simulation per decision")
    game = FastGame(variant)
    m = MCTS(game, seed)
    t0 = time.perf_counter()
    W = game.initial()
    line = []

    def halted() -> bool:
        return (time_limit is not None and time.perf_counter() - t0 > time_limit) or \
            (stop is not None and stop())

    while not game.terminal(W) and not halted():
        a = m.search(W, budget, halted)
        line.append(a)
        W = game.step(W, a)
        if progress is not None:
            progress(W, len(line))
    if game.terminal(W):
        return SearchResult(variant, game.e.score_wide(W), line, m.simulations, len(line),
                            time.perf_counter() - t0, True)
    # stopped early: the beam's greedy finish from the committed state
    r = _beam(variant, 1, seed, None, None, 1, PORTFOLIO[0], start=(W, line),
              stop=lambda: True)
    return SearchResult(variant, r.score, r.line, m.simulations, len(r.line),
                        time.perf_counter() - t0, False)


__all__ = ["MCTS", "FastGame", "Game", "mcts_search"]
