"""Nested Rollout Policy Adaptation (Rosin 2011) over whole turns, with GNRPA's prior bias.

**Moves.** The moves of a state are the beam's turns (playouts/softmax_playouts.py): the
children of the beam's turn expansion (beam/expansion.py ``expand``: its search policy, its
deduplication by state hash), at most ``CHILDREN`` of them, the best by the evaluation. A turn
is the canonical actions from a state up to the next change of the flow step (``W[STEP]``) or
the end of the game.

**Move codes** (the policy's keys, ``softmax_playouts.move_code``). A move is identified by

- its *context*: the flow step ``W[STEP]`` of the state the turn starts in, which fixes the
  round, the phase and the place in the round's flow (whose turn, which settlement or bonus
  step), and nothing else of the state (goods, buildings, landscape are not part of it);
- its *turn*: the turn's canonical action ids, in order.

The code is a 64-bit hash of (step, actions). Two positions at the same flow step that play
the same actions share a code, so what the policy learns about a turn carries over to the
neighbouring positions that other lines reach (a code per full state would never generalise
beyond the one line that reached it). The policy is a table of ``2 ** POLICY_BITS`` weights
indexed by the code's top ``POLICY_BITS`` bits; two different codes share a weight with
probability ``2 ** -POLICY_BITS`` (they are then learnt together).

**Playouts.** A playout picks the child of probability proportional to
``exp(w[code] + bias)``, where the bias is GNRPA's prior (Cazenave 2020): (the child's
evaluation - the best child's) / tau. Without it a fresh policy plays uniformly among
hundreds of children and scores like random play; with it the first playouts are
softmax-greedy lines, and the policy learns from there. From the initial state, 8 playouts
of a fresh policy score 323 (Ireland) and 295 (France) on average at tau 1, 221 and 207 at
tau 3: an unseeded search uses ``TAU`` (1), a search around a seed line ``SEEDED_TAU`` (3).
``adapt`` is Rosin's: raise the code of each move of the best sequence by ``ALPHA`` and lower
every code of that turn by ``ALPHA`` x its probability.

**Levels.** ``nrpa(level)`` is the textbook recursion: level 0 is a playout; level l runs
``iterations`` times level l-1 on a copy of its policy, keeps the best sequence (ties go to
the newer) and adapts its policy towards it. A level stops early once ``CONVERGED``
iterations in a row returned its best line itself: its policy then only reproduces that line,
and the iterations left would be spent replaying it. Level 0 runs ``parallel`` playouts at
once (compiled turn expansions in parallel, beam.expand_all) and returns the best of them, so
the search uses the cores; the result depends on the seed and ``parallel``, not on the thread
count. With a deadline, the top level is **restarted** each time it finishes (a fresh policy,
new random streams, the best line so far as the seed line) until the deadline passes. Each
restart takes the next weighting of the portfolio (weights.default_portfolio, or the
``--weights`` file's leading it) for the prior and for the moves offered, so that the
restarts do not all search the neighbourhood one evaluation favours (``MoveGame.reprior``).

**Starting from a line** (``seed_line``): the line, split into turns, is the initial best
sequence of every level, so every level adapts its policy towards it until a playout scores
at least as much, and the search explores around it. A turn of the line the expansion does
not offer (it ranks below the best ``CHILDREN``) is added to that turn's moves in the
sequence; a playout reproduces the line only if every turn of it is offered.

**Why SEEDED_TAU is 3.** At tau 1 a search around a seed line keeps to it: the beam chose
many of the line's turns for what followed, and those have a small prior probability, so the
playouts stay among the evaluation's favourites and, once the policy has learnt the seed line,
replay it. At tau 3 they spread around it (Ireland's width-10000 line gained 4 points where
tau 1 found nothing; France's gained at no tau); at tau 10 the prior no longer guides them
(docs/experiments.md, with hour-long runs).

The search is written against a small protocol (:class:`MoveGame`) so the same code runs on
the fast solo engine (:class:`FastMoveGame`) and on hand-built test puzzles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from .beam.expansion import MAXD, expand_all, replay
from .beam.run import state_at_round, wide_start
from .common import SearchResult, seed_words, state_hash
from .evaluation.weights import default_portfolio
from .playouts.softmax_playouts import move_codes

POLICY_BITS = 20
CHILDREN = 512
ALPHA = 1.0
TAU = 1.0  # the prior's temperature without a seed line
SEEDED_TAU = 3.0  # and around a seed line (module docstring)
ITERATIONS = 100
CONVERGED = 10  # a level stops once this many iterations in a row return its best line
PARALLEL = 2


@dataclass
class Moves:
    """The moves of one turn: their codes, prior biases and what each plays."""

    codes: np.ndarray  # uint64
    bias: np.ndarray  # float64
    play: list  # game-specific: what `MoveGame.play` takes for each move


@dataclass
class Sequence:
    """One playout: its final score, its actions and, per turn, the moves and the choice."""

    score: float
    line: list[int]
    turns: list[tuple[np.ndarray, np.ndarray, int]] = field(default_factory=list)


class MoveGame:
    """What NRPA needs from a game (states are opaque to the search)."""

    def root(self): ...
    def terminal(self, state) -> bool: ...
    def score(self, state) -> float: ...
    def moves(self, states: list) -> list[Moves]: ...  # batched: one Moves per state
    def play(self, state, move) -> tuple[object, list[int]]: ...  # new state, its actions
    def sequence(self, line: list[int]) -> Sequence: ...  # a line as a Sequence

    def reprior(self, run: int) -> bool:
        """Before the top level's ``run``-th run (2, 3, ... with a deadline): change the
        playouts' prior if the game has several; returns whether it changed."""
        return False


def _index(codes: np.ndarray) -> np.ndarray:
    return (codes >> np.uint64(64 - POLICY_BITS)).astype(np.int64)


def probabilities(pol: np.ndarray, codes: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """The playout's probability of each move of a turn."""
    z = pol[_index(codes)] + bias
    z = np.exp(z - z.max())
    return z / z.sum()


def adapt(pol: np.ndarray, seq: Sequence, alpha: float = ALPHA) -> None:
    """Rosin's adapt, in place: towards the moves of ``seq``."""
    for codes, bias, choice in seq.turns:
        p = probabilities(pol, codes, bias)  # codes of other turns differ (their flow step)
        idx = _index(codes)
        np.subtract.at(pol, idx, alpha * p)
        pol[idx[choice]] += alpha


def playouts(game: MoveGame, pol: np.ndarray, seeds) -> list[Sequence]:
    """One playout per seed under the policy, all advanced a turn at a time together."""
    rngs = [np.random.Generator(np.random.PCG64(int(s))) for s in seeds]
    states = [game.root() for _ in seeds]
    seqs = [Sequence(0.0, []) for _ in seeds]
    live = [i for i in range(len(seeds)) if not game.terminal(states[i])]
    while live:
        for i, mv in zip(live, game.moves([states[i] for i in live])):
            p = probabilities(pol, mv.codes, mv.bias)
            c = int(min(np.searchsorted(np.cumsum(p), rngs[i].random() * p.sum()),
                        len(p) - 1))
            seqs[i].turns.append((mv.codes, mv.bias, c))
            states[i], acts = game.play(states[i], mv.play[c])
            seqs[i].line += acts
        live = [i for i in live if not game.terminal(states[i])]
    for i, s in enumerate(states):
        seqs[i].score = game.score(s)
    return seqs


class _Stop(Exception):
    pass


class NRPA:
    """NRPA of a MoveGame; ``best`` is the best sequence seen anywhere in the search."""

    def __init__(self, game: MoveGame, seed: int = 0, iterations: int = ITERATIONS,
                 parallel: int = PARALLEL, seed_line: list[int] | None = None,
                 deadline: float | None = None, progress=None, stop=None):
        if iterations < 1 or parallel < 1:
            raise ValueError("NRPA needs at least 1 iteration and 1 playout at a time")
        self.game = game
        self.seed = seed
        self.iterations = iterations
        self.parallel = parallel
        self.deadline = deadline
        self.progress = progress
        self.stop = stop
        self.start = game.sequence(seed_line) if seed_line is not None else None
        self.best: Sequence | None = self.start
        self.playouts = 0
        self.calls = 0
        self.restarts = 0  # top-level runs started (with a deadline: until it passes)
        self.finished = 0  # top-level runs finished
        self.trace: list[dict] = []

    def search(self, level: int) -> Sequence:
        """Run NRPA of ``level`` (>= 1), or until the deadline; the best sequence seen."""
        if level < 1:
            raise ValueError("the NRPA level must be at least 1")
        try:
            while True:
                self.restarts += 1
                run = self._level(level, np.zeros(1 << POLICY_BITS, dtype=np.float64), top=True)
                self.finished += 1
                if self.restarts > 1:  # a restart's trace: one entry (and its improvements)
                    self.trace.append({"stage": "restart", "level": level,
                                       "restart": self.restarts, "score": run.score,
                                       "best": self.best.score, "playouts": self.playouts})
                if self.deadline is None:
                    break
                # restart around the best line, with fresh RNG streams and, if the game has
                # several, the next prior (the best line's moves are then those of that prior)
                self.start = self.best
                if self.game.reprior(self.restarts + 1):
                    self.start = self.game.sequence(self.best.line)
        except _Stop:
            pass
        return self.best

    def _level(self, level: int, pol: np.ndarray, top: bool = False) -> Sequence:
        if level == 0:
            if self.best is not None and ((self.stop is not None and self.stop()) or (
                    self.deadline is not None and time.perf_counter() > self.deadline)):
                raise _Stop
            seeds = seed_words(self.seed, self.parallel, self.calls + 1)
            self.calls += 1
            seqs = playouts(self.game, pol, seeds)
            self.playouts += len(seqs)
            best = seqs[0]
            for s in seqs[1:]:
                if s.score > best.score:
                    best = s
            if self.best is None or best.score > self.best.score:
                self.best = best
            return best
        best = self.start
        same = 0  # iterations in a row that returned the best line itself
        for i in range(self.iterations):
            before = -np.inf if self.best is None else self.best.score
            r = self._level(level - 1, pol.copy())
            same = same + 1 if best is not None and r.line == best.line else 0
            if best is None or r.score >= best.score:
                best = r
            if top and (self.restarts == 1 or r.score > before):
                # every iteration of the first run; of a restart, those that beat the best
                self.trace.append({"stage": "iteration", "level": level,
                                   "restart": self.restarts, "iteration": i + 1,
                                   "score": r.score, "best": self.best.score,
                                   "playouts": self.playouts})
            if top and self.progress is not None:
                self.progress(i + 1, self.best.score)
            if same >= CONVERGED:
                break  # converged: the policy only reproduces its best line
            adapt(pol, best)
        return best


class FastMoveGame(MoveGame):
    """The fast solo engine's turns as NRPA moves (wide states; module docstring)."""

    def __init__(self, variant: str, children: int = CHILDREN, tau: float = TAU,
                 start: tuple[np.ndarray, list[int]] | None = None,
                 priors: list[np.ndarray] | None = None):
        self.e = FastEngine(variant)
        # the playouts start from start[0], reached by the fixed prefix start[1]
        self.start = (self.e.initial_wide(), []) if start is None else start
        self.k = children
        self.tau = tau
        # the evaluation weightings of the prior (and of the moves offered), one per top-level
        # run in turn (default: the first weighting of weights.default_portfolio(variant))
        if priors is None:
            priors = [default_portfolio(variant)[0]]
        self.priors = [np.asarray(w, dtype=np.float64) for w in priors]
        self.prior = 0  # index of the prior in force
        self.w = self.priors[0]
        self._sequences: dict = {}  # prior index -> the Sequence of _sequenced_line under it
        self._sequenced_line: tuple = ()
        self.scratch = np.zeros(self.e.buf.shape[0], dtype=np.int64)

    def root(self):
        return self.start[0].copy()

    def reprior(self, run):
        if len(self.priors) == 1:
            return False
        self.prior = (run - 1) % len(self.priors)
        self.w = self.priors[self.prior]
        return True

    def sequence(self, line):
        """:meth:`sequence_of` ``line`` under the prior in force, each computed once while the
        restarts come back to the same best line (every restart rebuilds it)."""
        key = tuple(line)
        if key != self._sequenced_line:
            self._sequences, self._sequenced_line = {}, key
        if self.prior not in self._sequences:
            self._sequences[self.prior] = self.sequence_of(line)
        return self._sequences[self.prior]

    def terminal(self, W):
        return bool(W[L.DONE])

    def score(self, W):
        return float(self.e.score_wide(W)[0])

    def _expand(self, states):
        P, k = len(states), self.k
        parents = np.stack(states).astype(np.int64)
        paths = np.zeros((P * k, MAXD), dtype=np.int64)
        lens = np.zeros(P * k, dtype=np.int64)
        evals = np.full(P * k, -1e18)
        hashes = np.zeros(P * k, dtype=np.uint64)
        counts = np.zeros(P, dtype=np.int64)
        expand_all(self.e.T, parents, self.w, k, paths, lens, evals, hashes, counts, 0.0,
                   np.uint64(0), np.zeros(P, dtype=np.int64))
        out = []
        for p in range(P):
            sl = slice(p * k, p * k + counts[p])
            codes = move_codes(int(states[p][L.STEP]), paths[sl], lens[sl])
            out.append((codes, evals[sl], paths[sl], lens[sl], hashes[sl]))
        return out

    def moves(self, states):
        out = []
        for codes, evals, paths, lens, _ in self._expand(states):
            out.append(Moves(codes, (evals - evals.max()) / self.tau,
                             [paths[i, : lens[i]] for i in range(len(codes))]))
        return out

    def play(self, W, path):
        X = W.copy()
        replay(self.e.T, X, path, len(path), self.scratch)
        return X, path.tolist()

    def sequence_of(self, line):
        """The line (after the start's prefix) split into turns, with each turn's moves (the
        line's turn added to them when the expansion does not offer it)."""
        W = self.root()
        seq = Sequence(0.0, list(line))
        k = 0
        while not W[L.DONE]:
            if k >= len(line):
                raise ValueError(f"the seed line ends after {k} actions, before the game")
            codes, evals, _, _, hashes = self._expand([W])[0]
            X = W.copy()
            step0 = X[L.STEP]
            j = k
            while True:
                self.e.step_wide(X, line[j])
                j += 1
                if X[L.STEP] != step0 or X[L.DONE] or j - k == MAXD:
                    break
                if j >= len(line):
                    raise ValueError("the seed line ends inside a turn")
            hit = np.nonzero(hashes == state_hash(X))[0]
            if len(hit):
                c = int(hit[0])
            else:
                path = np.array(line[k:j], dtype=np.int64)
                ev = float(evals.min()) if len(evals) else 0.0
                codes = np.append(codes, move_codes(int(step0), path[None, :],
                                                      np.array([j - k])))
                evals = np.append(evals, ev)
                c = len(codes) - 1
            seq.turns.append((codes, (evals - evals.max()) / self.tau, c))
            W = X
            k = j
        if k != len(line):
            raise ValueError(f"the seed line goes on after the game ends ({len(line) - k} "
                             "actions too many)")
        seq.score = self.score(W)
        return seq


def nrpa_search(variant: str = "ireland", level: int = 2, iterations: int = ITERATIONS,
                seed: int = 0, time_limit: float | None = None,
                seed_line: list[int] | None = None, from_round: int | None = None,
                progress=None, parallel: int = PARALLEL, stop=None,
                start: tuple[np.ndarray, list[int]] | None = None,
                priors: list[np.ndarray] | None = None) -> SearchResult:
    """NRPA of ``level`` over whole turns of a solo game; the best complete line found.

    ``seed_line`` (a complete line) seeds the best sequence of every level; with
    ``from_round`` the search keeps the line's turns before that round and searches the rest.
    ``start`` (a packed or wide state and the prefix reaching it, as ``beam_search`` takes):
    search on from there instead (a seed line must then begin with the prefix).
    ``priors``: the evaluation's weightings for the prior (and the moves offered), one per
    top-level run in turn (the restarts of a search with a time limit; default: the whole
    ``weights.default_portfolio(variant)``, its first for the first run).
    """
    t0 = time.perf_counter()
    if from_round is not None:
        if seed_line is None:
            raise ValueError("from_round needs a seed line to start from")
        if start is not None:
            raise ValueError("give a start or a from_round, not both")
        start = state_at_round(FastEngine(variant), list(seed_line), from_round)
    elif start is not None:
        start = wide_start(variant, start)
        if seed_line is not None and list(seed_line[:len(start[1])]) != start[1]:
            raise ValueError("the seed line does not begin with the start's prefix")
    if priors is None:
        priors = default_portfolio(variant)
    game = FastMoveGame(variant, start=start, priors=priors,
                        tau=TAU if seed_line is None else SEEDED_TAU)
    prefix = game.start[1]
    n = NRPA(game, seed, iterations, parallel,
             None if seed_line is None else list(seed_line)[len(prefix):],
             None if time_limit is None else t0 + time_limit, progress, stop)
    best = n.search(level)
    line = prefix + best.line
    W = game.e.initial_wide()
    for a in line:
        game.e.step_wide(W, a)
    score = game.e.score_wide(W)
    assert W[L.DONE] and score[0] == best.score
    complete = n.finished >= 1 and not (stop is not None and stop())
    return SearchResult(variant, score, line, n.playouts, len(best.turns),
                        time.perf_counter() - t0, complete, n.trace)


__all__ = ["NRPA", "FastMoveGame", "MoveGame", "Moves", "Sequence", "adapt", "nrpa_search"]
