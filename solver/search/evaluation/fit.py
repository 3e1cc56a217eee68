"""Fitting the evaluation by round: the potential that predicts what a search reaches.

The hand-set and tuned weightings value a tile of a good the same in every round, faded
linearly. A fitted *table* (features.as_table) gives each round its own weights, learned from
positions the search meets:

1. ``sample_states``: beams of ``width`` on the training seeds, each under one weighting of
   the vector portfolio (seed mod its length, so the positions cover several plans), keep
   ``per_layer`` random states of every layer.
2. ``label_states``: each state's value is the final score a narrow beam (``label_width``,
   the leading vector weighting) reaches from it.
3. ``fit_table``: ridge regression of value minus score so far on the evaluation's features
   (goods held, settlement cards, empty spaces, forest and moor, the Chamber's and the
   wonder paths' progress), each times 1, t and t^2 (t: the share of rounds left), shrunk
   toward the leader's own potential (its weights times t) by ``ridge``.
4. ``clamp_table``: every weight of a round kept between 0 and ``clamp`` times the leader's
   (a wonder path or a wonder, which the leader leaves at 0: at most 30 x t, a wonder's
   points). An unclamped fit values a few goods far above what they turn into, and a beam
   then hoards them (Ireland held 109 peat coal; docs/experiments.md, 2026-12-06).

France's fitted table (``tuned/france-by-round.json``) plays single beams far better than
the vector it was shrunk toward, and one beam under it outscored France's whole fixed-width
search (strategy groups and polish) at width 2000 on held-out seeds, so France's beam
searches run it (``weights.fitted_default``): ``beam_search`` one beam of the whole width
(and one under it with the stock's knee, ``weights.table_members``) then their polish, the
timed schedule one beam as wide as the budget allows then its polish.
As the leader of the vector portfolio's groups, or with seven perturbations of it as the
groups, it gained nothing on held-out seeds. MCTS and NRPA keep the vector portfolio.
Ireland's fit lost to its tuned leader at every shrinkage tried (docs/experiments.md,
2026-12-06).
``tools/fit_evaluation.py`` runs the whole fit and writes a table file.
"""

from __future__ import annotations

import numpy as np

from solver.fast import layout as L
from solver.fast.engine import FastEngine

from ..beam.expansion import KEEP_PER_PARENT
from ..beam.run import run_beam
from . import features as F

DEGREE = 2  # the weights are quadratic in the share of rounds left
HOLDOUT = 0.2  # the share of the states the fit is checked on (reported, then refitted on all)


def sample_states(variant: str, seeds: list[int], width: int, per_layer: int,
                  portfolio: list[np.ndarray], progress=None) -> np.ndarray:
    """``per_layer`` random unfinished states of every layer of a beam of ``width`` per
    seed, seed s under ``portfolio[s % len(portfolio)]`` (rows: wide states)."""
    states = []
    for seed in seeds:
        rng = np.random.default_rng(1000 + seed)

        def keep(beam, layers, label, rng=rng):
            k = min(per_layer, len(beam))
            for i in rng.choice(len(beam), size=k, replace=False):
                if beam[i, L.DONE] == 0:
                    states.append(beam[i].copy())

        run_beam(variant, width, seed, None, keep, KEEP_PER_PARENT,
                 portfolio[seed % len(portfolio)])
        if progress is not None:
            progress(f"seed {seed}: {len(states)} states")
    return np.array(states, dtype=np.int64)


def label_states(variant: str, states: np.ndarray, width: int, weights: np.ndarray,
                 progress=None) -> np.ndarray:
    """The final score a beam of ``width`` under ``weights`` reaches from each state."""
    labels = np.empty(len(states), dtype=np.int64)
    for j, W in enumerate(states):
        r = run_beam(variant, width, 0, None, None, KEEP_PER_PARENT, weights,
                     start=(W.copy(), []))
        labels[j] = r.score[0]
        if progress is not None and j % 200 == 0:
            progress(f"labelled {j} of {len(states)}")
    return labels


def _share_left(rounds) -> np.ndarray:
    return np.clip((32.0 - np.asarray(rounds, dtype=np.float64) + 1.0) / 32.0, 0.0, 1.0)


def feature_rows(variant: str, states: np.ndarray,
                 shape: tuple[float, float] = (0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """Each state's features, in the order of the weights they meet (the goods, settlement
    cards, space, forest and moor, the Chamber's and the wonder paths' progress), and its
    score so far. The goods are counted as a weighting with the stock's ``shape`` (knee,
    slope) counts them (``features.bent_stock``)."""
    T = FastEngine(variant).T
    score_only = np.zeros(F.N_WEIGHTS)
    score_only[F.W_FADE] = 1.0
    X = np.empty((len(states), L.N_GOODS + 5))
    now = np.empty(len(states))
    for j, W in enumerate(states):
        _, space, feats = F.board_terms(T, W)
        cards = bin(int(W[L.SETTL]) & 0xFF).count("1")
        wonders = W[L.WONDERS] > 0
        X[j, :L.N_GOODS] = F.bent_stock(W[L.GOODS:L.GOODS + L.N_GOODS], *shape)
        X[j, L.N_GOODS:] = (cards, space, feats,
                            F.chamber_progress(T, W) if wonders else 0.0,
                            F.wonder_path(T, W) if wonders else 0.0)
        now[j] = F.evaluate(T, W, score_only)
    return X, now


#: the weights the features of feature_rows meet, in their order
FEATURE_WEIGHTS = list(range(L.N_GOODS)) + [F.W_HOPE, F.W_SPACE, F.W_FEATURE,
                                            F.W_WONDER_HOPE, F.W_WONDER_PATH]


def fit_table(variant: str, states: np.ndarray, labels: np.ndarray, leader: np.ndarray,
              ridge: float) -> tuple[np.ndarray, dict]:
    """The table (TABLE_ROWS x N_WEIGHTS, fade 0) fitted to ``labels``, and how well it
    predicts held-out states ({"states", "residual_sd_time_only", "residual_sd"}: the
    spread of value minus score so far that a function of the round alone leaves, and that
    the fit leaves)."""
    X, now = feature_rows(variant, states, (leader[F.W_KNEE], leader[F.W_SLOPE]))
    t = _share_left(states[:, L.ROUND])
    target = np.asarray(labels, dtype=np.float64) - now
    nf = X.shape[1]
    basis = np.stack([t ** k for k in range(DEGREE + 1)], axis=1)
    A = np.concatenate([basis] + [X * basis[:, [k]] for k in range(DEGREE + 1)], axis=1)
    prior = np.zeros(A.shape[1])  # the leader's potential: its weights times t (fade 1)
    prior[DEGREE + 1 + nf:DEGREE + 1 + 2 * nf] = leader[FEATURE_WEIGHTS]
    target = target - A @ prior
    keep = A.std(axis=0) > 0
    keep[:DEGREE + 1] = True
    As = A[:, keep]
    scale = np.where(As.std(axis=0) > 0, As.std(axis=0), 1.0)
    scale[:DEGREE + 1] = 1.0
    Z = As / scale

    def solve(ix):
        M = Z[ix]
        reg = ridge * np.eye(M.shape[1])
        reg[:DEGREE + 1, :DEGREE + 1] = 0  # the function of the round alone is not shrunk
        return np.linalg.solve(M.T @ M + reg, M.T @ target[ix])

    idx = np.random.default_rng(0).permutation(len(Z))
    cut = int((1 - HOLDOUT) * len(Z))
    b = solve(idx[:cut])
    test = idx[cut:]
    b0 = np.linalg.lstsq(basis[idx[:cut]], target[idx[:cut]], rcond=None)[0]
    report = {"states": int(len(Z)),
              "residual_sd_time_only": round(float((target[test] - basis[test] @ b0).std()), 2),
              "residual_sd": round(float((target[test] - Z[test] @ b).std()), 2)}
    coef = prior.copy()
    coef[keep] += solve(np.arange(len(Z))) / scale
    C = coef[DEGREE + 1:].reshape(DEGREE + 1, nf)  # C[k, i]: feature i's weight of t^k
    table = np.zeros((F.TABLE_ROWS, F.N_WEIGHTS))
    for r in range(F.TABLE_ROWS):
        tr = float(_share_left(r))
        table[r, FEATURE_WEIGHTS] = sum(C[k] * tr ** k for k in range(DEGREE + 1))
    table[:, [F.W_KNEE, F.W_SLOPE]] = leader[[F.W_KNEE, F.W_SLOPE]]  # the leader's stock shape
    return table, report


def clamp_table(table: np.ndarray, leader: np.ndarray, clamp: float) -> np.ndarray:
    """``table`` with each round's weights between 0 and ``clamp`` times the leader's faded
    weight (30 x the share of rounds left where the leader's is 0); fade stays 0, and the
    stock's knee and slope only at least 0."""
    out = np.array(table, dtype=np.float64).reshape(F.TABLE_ROWS, F.N_WEIGHTS).copy()
    for r in range(F.TABLE_ROWS):
        left = max(0.0, (33 - r) / 32)
        for i in range(F.N_WEIGHTS):
            if i == F.W_FADE:
                continue
            if i in F.SHAPE_WEIGHTS:  # the stock's knee and slope are not values
                out[r, i] = max(out[r, i], 0.0)
                continue
            top = clamp * leader[i] * left if leader[i] > 0 else 30.0 * left
            out[r, i] = min(max(out[r, i], 0.0), top)
    return out
