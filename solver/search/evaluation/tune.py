"""``ora-solve tune``: the evaluation's weight vector searched by the cross-entropy method.

A candidate is a weight vector; its **objective** is the mean final score of a short beam
(one weighting, width ``beam``) over the training seeds. Every candidate of every generation
is scored on the same training seeds (paired: differences between candidates are not seed
luck), and the held-out seeds are never used for selection: they only compare, at the end,
the best candidate with the hand-set portfolio (``evaluation.PORTFOLIO``) at the same budget.

**Parameterisation.** Candidates are multiplicative changes of a start vector (the first
hand-set weighting, or ``--start FILE``): weight i = start_i x exp(z_i), and every good's
value also x exp(z_goods) (one log-scale for all goods: the measured sensitivity of the
evaluation is mostly the value of stock against points already scored). Each z is bounded to
+-``BOUND`` (a factor of 8) and has its own initial sigma (``SIGMA``). A weight that is 0 in
the start (the wonder tile's value, ``wonder_path`` of the hand-set weightings) stays 0, and
so does ``wonder_hope`` in Ireland (it has no Chamber of Wonders: the term is always 0
there). To tune a term the start leaves at 0, start from a file that sets it.

**Cross-entropy method.** Generation g samples ``population - 1`` candidates around the mean
(antithetic pairs, mean +- sigma x eps) plus the mean itself; the best ``ELITE`` share of
them (ties: the earlier candidate) sets the next mean and sigma, sigma smoothed
(``SMOOTHING``) and kept above ``SIGMA_FLOOR`` of its start. The best candidate seen in any
generation is the result. All sampling happens here in one seeded generator, and results are
keyed by candidate and seed, so the run is the same for a given ``seed`` whatever the number
of workers or the order jobs finish in.

**Start.** The first hand-set weighting, a weights file (``--start FILE``), or with
``--start-best`` the hand-set weighting that scores best on the training seeds (every one of
them is scored there first; the held-out seeds are not used). The first is a poor start in
France. From the best hand-set start at beam 50 the cross-entropy method's sampled candidates
are far worse than their mean: at that width the initial sigmas step off the hand-set
optimum, and an elite share of 0.3 moves the mean to worse weights. The evolution strategy
below, from the same start, improved on the weighting it started from on held-out seeds in
both variants, and beat the best hand-set weighting there in Ireland only
(docs/experiments.md).

**Evolution strategy** (``method="es"``, ``--method es``): a (1+lambda) strategy for a start
that is already good. Every generation samples ``population`` candidates (antithetic pairs)
around the best candidate so far, the incumbent, which a sample replaces only by scoring more
on the training seeds; sigma grows by ``ES_GROW`` after a generation that found a better
candidate and shrinks by ``ES_SHRINK`` after one that did not (kept above ``SIGMA_FLOOR`` of
its start). Nothing worse than the incumbent ever moves the search, which is what the
cross-entropy method's elite mean did from the hand-set start above. ``sigma_scale``
(``--sigma-scale``) multiplies every initial sigma: small steps around a good start.

Scoring runs as jobs of :mod:`solver.jobs` (one per candidate and seed), so the
backend (a local process pool or a cluster) only changes the speed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.jobs import Job

from .features import N_WEIGHTS, PORTFOLIO, W_HOPE, W_WONDER_HOPE, WEIGHT_NAMES
from .settings import METHODS, Settings  # noqa: F401 (METHODS: tune's public name)

N_GOODS = W_HOPE  # the goods' weights come first, by good id
BOUND = float(np.log(8.0))  # each log-multiplier within +-log 8
SIGMA = {"goods_scale": 0.3, "good": 0.2, "settlement_hope": 0.35, "space": 0.35,
         "feature": 0.35, "fade": 0.25, "wonder_hope": 0.35, "wonder_path": 0.35,
         "stock_knee": 0.25, "stock_slope": 0.25}
ELITE = 0.3  # share of a generation that sets the next distribution
SMOOTHING = 0.7  # new sigma^2 = s * elite variance + (1 - s) * old sigma^2
SIGMA_FLOOR = 0.25  # sigma never falls below this share of its start
N_PARAMS = 1 + N_WEIGHTS  # z[0]: the goods' common log-scale; z[1 + i]: weight i
ES_GROW = 1.25  # the evolution strategy's sigma factor after a generation that improved
ES_SHRINK = 0.8  # ... and after one that did not


def param_names() -> list[str]:
    """The names of the tuned parameters (z), in order."""
    return ["goods_scale"] + [f"log {n}" for n in WEIGHT_NAMES]


def initial_sigma(variant: str, start: np.ndarray) -> np.ndarray:
    """Per-parameter sigma of the first generation (0: the parameter is frozen)."""
    s = np.zeros(N_PARAMS)
    s[0] = SIGMA["goods_scale"]
    for i in range(N_WEIGHTS):
        key = "good" if i < N_GOODS else WEIGHT_NAMES[i]
        s[1 + i] = SIGMA[key] if start[i] > 0 else 0.0
    if variant != "france":  # no Chamber of Wonders: the term is always 0
        s[1 + W_WONDER_HOPE] = 0.0
    if not np.any(start[:N_GOODS] > 0):
        s[0] = 0.0
    return s


def weights_of(start: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The weight vector of parameters ``z`` (see the module docstring)."""
    z = np.clip(z, -BOUND, BOUND)
    w = start * np.exp(z[1:])
    w[:N_GOODS] *= np.exp(z[0])
    return np.round(w, 6)


def beam_score(payload: dict) -> dict:
    """One job: a beam of one weighting; its final score (deterministic in the payload)."""
    from ..beam.expansion import KEEP_PER_PARENT
    from ..beam.run import run_beam

    r = run_beam(payload["variant"], payload["width"], payload["seed"], None, None,
                 KEEP_PER_PARENT, np.asarray(payload["weights"], dtype=np.float64))
    return {"score": int(r.score[0]), "nodes": int(r.nodes),
            "seconds": round(float(r.seconds), 2)}


@dataclass
class Candidate:
    generation: int
    index: int
    z: np.ndarray
    w: np.ndarray
    scores: list[int] | None = None

    @property
    def mean(self) -> float:
        return float(np.mean(self.scores))


class Tuner:
    """The cross-entropy search of one run; ``run()`` returns the tuning record."""

    def __init__(self, settings: Settings, start: np.ndarray, backend, stop=None,
                 progress=None):
        settings.check()
        self.s = settings
        self.backend = backend
        self.stop = stop or (lambda: False)
        self.progress = progress  # progress(event, **info): "candidate", "holdout", "phase"
        self.rng = np.random.default_rng(settings.seed)
        self.mu = np.zeros(N_PARAMS)
        self.set_start(start)
        self.best: Candidate | None = None
        self.first: Candidate | None = None  # the start vector's own scores
        self.history: list[dict] = []
        self.interrupted = False
        self.start_selection: dict | None = None

    def pick_start(self) -> None:
        """``start_best``: score every hand-set weighting on the training seeds and start
        from the best (ties: the lower index). The held-out seeds play no part in it."""
        if self.progress is not None:
            self.progress("phase", name="start", total=len(PORTFOLIO) * len(self.s.seeds))
        got = self.score([(f"hand{i:02d}", w) for i, w in enumerate(PORTFOLIO)], self.s.seeds,
                         "start")
        if self.interrupted or len(got) < len(PORTFOLIO):
            return
        means = [float(np.mean(got[f"hand{i:02d}"])) for i in range(len(PORTFOLIO))]
        best = max(range(len(PORTFOLIO)), key=lambda i: (means[i], -i))
        self.set_start(PORTFOLIO[best])
        self.start_selection = {"index": best, "means": [round(m, 2) for m in means]}

    def set_start(self, start) -> None:
        """Tune around ``start``: its initial sigmas (x ``sigma_scale``) in force."""
        self.start = np.asarray(start, dtype=np.float64)
        self.sigma0 = initial_sigma(self.s.variant, self.start) * self.s.sigma_scale
        self.sigma = self.sigma0.copy()

    def _floored(self, sigma: np.ndarray) -> np.ndarray:
        """``sigma`` kept above SIGMA_FLOOR of its start, frozen parameters left at 0."""
        return np.where(self.sigma0 > 0, np.maximum(sigma, SIGMA_FLOOR * self.sigma0), 0)

    # ----- the cross-entropy method -------------------------------------------------------
    def sample(self, g: int) -> list[Candidate]:
        """Generation ``g``: the mean, then antithetic pairs around it (the evolution
        strategy after its first generation: ``population`` samples around the incumbent,
        which is scored already)."""
        again = self.s.method == "es" and g > 0
        n = self.s.population - (0 if again else 1)
        eps = self.rng.standard_normal(((n + 1) // 2, N_PARAMS))
        eps = np.concatenate([eps, -eps])[:n]
        zs = ([] if again else [self.mu.copy()]) + [np.clip(self.mu + self.sigma * e, -BOUND,
                                                              BOUND) for e in eps]
        return [Candidate(g, int(again) + i, z, weights_of(self.start, z))
                for i, z in enumerate(zs)]

    def update(self, scored: list[Candidate], improved: bool = False) -> None:
        """The next mean and sigma: from the elite of a generation (the cross-entropy
        method), or the incumbent and a sigma grown or shrunk by whether the generation
        ``improved`` on it (the evolution strategy)."""
        if self.s.method == "es":
            self.mu = self.best.z.copy()
            self.sigma = self._floored(self.sigma * (ES_GROW if improved else ES_SHRINK))
            return
        ranked = sorted(scored, key=lambda c: (-c.mean, c.index))
        k = max(2, round(ELITE * len(ranked))) if len(ranked) > 1 else 1
        elite = np.array([c.z for c in ranked[:k]])
        self.mu = elite.mean(axis=0)
        var = elite.var(axis=0)
        sigma = np.sqrt(SMOOTHING * var + (1 - SMOOTHING) * self.sigma ** 2)
        self.sigma = self._floored(sigma)

    # ----- scoring ------------------------------------------------------------------------
    def score(self, items: list[tuple[str, np.ndarray]], seeds: list[int], event: str
              ) -> dict[str, list[int]]:
        """Scores of each (name, weights) on every seed, by name; names not finished (the
        run was stopped) are left out."""
        jobs = [Job(f"{name}-s{seed}", {"variant": self.s.variant, "width": self.s.beam,
                                        "seed": seed, "weights": [float(x) for x in w],
                                        "name": name})
                for name, w in items for seed in seeds]
        got: dict[str, dict[int, int]] = {name: {} for name, _ in items}
        results = self.backend.run(beam_score, jobs)
        try:
            for job, result in results:
                p = job.payload
                got[p["name"]][p["seed"]] = result["score"]
                if self.progress is not None:
                    self.progress(event, name=p["name"],
                                  done=len(got[p["name"]]) == len(seeds))
                if self.stop():
                    self.interrupted = True
                    break
        finally:
            results.close()  # a stopped run: the backend drops the jobs still running
        return {name: [s[seed] for seed in seeds] for name, s in got.items()
                if len(s) == len(seeds)}

    def run(self) -> dict:
        """Tune, then compare on the held-out seeds; the tuning record."""
        t0 = time.perf_counter()
        if self.s.start_best:
            self.pick_start()
        for g in range(self.s.generations):
            if self.interrupted:
                break
            cands = self.sample(g)
            scores = self.score([(f"g{g:02d}c{c.index:02d}", c.w) for c in cands],
                                self.s.seeds, "candidate")
            scored = []
            for c in cands:
                c.scores = scores.get(f"g{g:02d}c{c.index:02d}")
                if c.scores is not None:
                    scored.append(c)
            if g == 0 and scored and scored[0].index == 0:
                self.first = scored[0]
            incumbent = self.best
            for c in scored:
                if self.best is None or c.mean > self.best.mean:
                    self.best = c
            if scored:
                means = [c.mean for c in scored]
                self.history.append({
                    "generation": g, "candidates": len(scored),
                    "complete": len(scored) == len(cands),
                    "best": round(max(means), 2), "mean": round(float(np.mean(means)), 2),
                    "mean_candidate": round(scored[0].mean, 2) if scored[0].index == 0
                    else None,
                    "best_so_far": round(self.best.mean, 2),
                    "sigma_mean": round(float(self.sigma[self.sigma0 > 0].mean()), 4)})
            if self.interrupted or not scored:
                break
            improved = self.best is not incumbent and (incumbent is not None
                                                       or self.best.index != 0)
            self.update(scored, improved)
        tuned_seconds = time.perf_counter() - t0
        holdout = None
        if not self.interrupted and self.s.holdout and self.best is not None:
            holdout = self.compare()
        return self.record(holdout, tuned_seconds, time.perf_counter() - t0)

    def compare(self) -> dict | None:
        """The best candidate against the hand-set weightings on the held-out seeds."""
        n = len(PORTFOLIO) if self.s.compare is None else min(self.s.compare, len(PORTFOLIO))
        items = [("tuned", self.best.w)] + [(f"hand{i:02d}", PORTFOLIO[i]) for i in range(n)]
        if not any(np.array_equal(self.start, PORTFOLIO[i]) for i in range(n)):
            items.append(("start", self.start))
        if self.progress is not None:
            self.progress("phase", name="holdout", total=len(items) * len(self.s.holdout))
        got = self.score(items, self.s.holdout, "holdout")
        if self.interrupted or "tuned" not in got:
            return None

        def row(name, index=None):
            sc = got[name]
            return {"index": index, "scores": sc, "mean": round(float(np.mean(sc)), 2)} if \
                index is not None else {"scores": sc, "mean": round(float(np.mean(sc)), 2)}

        hand = [row(f"hand{i:02d}", i) for i in range(n)]
        best_hand = max(hand, key=lambda r: (r["mean"], -r["index"]))
        tuned = row("tuned")
        out = {"seeds": list(self.s.holdout), "beam": self.s.beam, "tuned": tuned,
               "hand_set_first": hand[0], "hand_set_best": best_hand, "hand_set": hand,
               "hand_set_compared": n, "hand_set_total": len(PORTFOLIO),
               "beats_first": tuned["mean"] >= hand[0]["mean"],
               "beats_hand_set": tuned["mean"] >= best_hand["mean"] and n == len(PORTFOLIO)}
        if "start" in got:
            out["start"] = row("start")
        if self.start_selection is not None and self.start_selection["index"] < n:
            # the hand-set weighting chosen as the tuning is, on the training seeds: the
            # like-for-like comparison (hand_set_best is chosen on the held-out seeds)
            out["hand_set_selected"] = hand[self.start_selection["index"]]
            out["beats_selected"] = tuned["mean"] >= out["hand_set_selected"]["mean"]
        return out

    def record(self, holdout, tuned_seconds: float, seconds: float) -> dict:
        """The tuning record (what a weights file keeps under "tuning")."""
        from .weights import to_named

        b = self.best
        return {
            "method": ("cross-entropy" if self.s.method == "cem"
                       else "(1+lambda) evolution strategy"),
            "variant": self.s.variant, "seed": self.s.seed,
            "beam": self.s.beam, "population": self.s.population,
            "generations": self.s.generations, "generations_run": len(self.history),
            "training_seeds": list(self.s.seeds), "holdout_seeds": list(self.s.holdout),
            "objective": "mean final score of a single-weighting beam over the training seeds",
            "parameterisation": {"params": param_names(), "sigma0": [round(float(x), 4)
                                                                     for x in self.sigma0],
                                 "bound": round(BOUND, 4), "sigma_scale": self.s.sigma_scale,
                                 "sigma_floor": SIGMA_FLOOR} | (
                {"elite": ELITE, "smoothing": SMOOTHING} if self.s.method == "cem" else
                {"grow": ES_GROW, "shrink": ES_SHRINK}),
            "start_weights": to_named(self.start),
            "start_selection": self.start_selection,
            "start_training": None if self.first is None else
            {"scores": self.first.scores, "mean": round(self.first.mean, 2)},
            "best_training": None if b is None else
            {"scores": b.scores, "mean": round(b.mean, 2), "generation": b.generation,
             "candidate": b.index},
            "history": self.history,
            "holdout": holdout,
            "interrupted": self.interrupted,
            "tuning_seconds": round(tuned_seconds, 1), "wall_seconds": round(seconds, 1),
            "workers": getattr(self.backend, "workers", 1),
        }
