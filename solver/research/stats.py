"""Statistics of a sweep: means, 95% t-intervals, paired differences over seeds, and the
Holm correction of the "clearly behind" flags.

Every candidate of a sweep is searched with the same seeds, so two candidates are compared
seed by seed (a paired design): the difference of their scores on each seed, its mean and its
t-interval. A candidate is *clearly behind* the leader when the one-sided paired test of "its
mean is below the leader's" rejects after Holm's step-down correction over every comparison
with the leader, at a family-wise level of 5%.

With few seeds a candidate's own variance rests on n - 1 degrees of freedom, and it is zero
whenever its seeds tie (or its differences to the leader do), which would make an interval a
point and a difference certain. So every variance is floored by the sweep's pooled one: the
within-candidate variance pooled over all candidates (K(n - 1) d.f.) for a candidate's mean,
and twice the residual variance of the two-way (candidate x seed) layout ((K - 1)(n - 1) d.f.)
for a paired difference. The larger estimate is used, with its own degrees of freedom. Only
when every estimate is zero (no score of the sweep varies with the seed, beyond a shift
common to all candidates) is there no variance at all: the intervals are then n/a and the
difference is judged by the exact sign test, which needs none (its p is at least 2^-n).

No scipy: Student's t quantile is computed from the regularized incomplete beta function
(continued fraction, as in Numerical Recipes §6.4) and bisection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

CONFIDENCE = 0.95
FAMILY_LEVEL = 0.05  # the family-wise error level of the "clearly behind" flags
CORRECTION = "holm"


def mean(xs: list[float]) -> float:
    """Arithmetic mean."""
    if not xs:
        raise ValueError("the mean of no values")
    return sum(xs) / len(xs)


def stdev(xs: list[float]) -> float:
    """Sample standard deviation (n - 1 in the denominator); 0 for a single value."""
    n = len(xs)
    if n < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The t value with ``t_cdf(t, df) == p`` (bisection to 1e-12)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be strictly between 0 and 1")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return 0.5 * (lo + hi)


def t_interval(xs: list[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The two-sided t-interval of the mean; (nan, nan) for fewer than two values."""
    n = len(xs)
    if n < 2:
        return (math.nan, math.nan)
    m = mean(xs)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * stdev(xs) / math.sqrt(n)
    return (m - half, m + half)


# ===== multiple comparisons and a test without a variance ======================================

def holm(pvalues: list[float], level: float = FAMILY_LEVEL) -> tuple[list[bool], list[float]]:
    """Holm's step-down procedure: which hypotheses are rejected at family-wise ``level``, and
    the adjusted p-values, both in the order given. The p-values are taken from the smallest:
    the i-th (from 0) is rejected while it is at most level / (m - i); at the first that is
    not, it and every larger one are kept. A NaN p-value counts as 1 (in the family, never
    rejected)."""
    ps = [1.0 if p is None or math.isnan(p) else float(p) for p in pvalues]
    m = len(ps)
    order = sorted(range(m), key=lambda i: (ps[i], i))
    adjusted = [1.0] * m
    reject = [False] * m
    running = 0.0
    stopped = False
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * ps[i]))  # monotone in the step-down order
        adjusted[i] = running
        if not stopped and ps[i] <= level / (m - k):
            reject[i] = True
        else:
            stopped = True
    return reject, adjusted


def sign_test_p(d: list[float]) -> float:
    """The exact one-sided sign test of "the differences lie below zero": the chance, with
    each nonzero difference's sign a fair coin, of at least as many negative ones (zeros
    dropped; 1 when every difference is zero). Needs no variance: n equal negative
    differences give 2^-n, never 0."""
    nonzero = [x for x in d if x != 0]
    n, k = len(nonzero), sum(1 for x in nonzero if x < 0)
    if n == 0:
        return 1.0
    return sum(math.comb(n, j) for j in range(k, n + 1)) / 2.0 ** n


# ===== the sweep's pooled variances =============================================================

@dataclass(frozen=True)
class Pooled:
    """The sweep's variances pooled over candidates (None where there are no d.f.)."""

    within: float | None  # of one score about its candidate's mean
    within_df: int
    paired: float | None  # of a paired difference of two candidates: 2 x the residual variance
    paired_df: int  # of the two-way (candidate x seed) layout


def pooled(scores: dict[int, list[float]]) -> Pooled:
    """The pooled within-candidate variance, and twice the residual variance of the two-way
    layout (a candidate's effect plus a seed's effect plus noise): the variance a paired
    difference has when every candidate's noise is alike."""
    k = len(scores)
    n = len(next(iter(scores.values()))) if scores else 0
    wdf, pdf = k * (n - 1), (k - 1) * (n - 1)
    if wdf <= 0:
        return Pooled(None, 0, None, 0)
    # exact sums (fsum), so the figures do not depend on the order the candidates come in
    means = {c: mean(v) for c, v in scores.items()}
    within = math.fsum((x - means[c]) ** 2 for c, v in scores.items() for x in v) / wdf
    if pdf <= 0:
        return Pooled(within, wdf, None, 0)
    grand = math.fsum(means.values()) / k
    seed = [math.fsum(v[s] for v in scores.values()) / k for s in range(n)]
    resid = math.fsum((v[s] - means[c] - seed[s] + grand) ** 2
                      for c, v in scores.items() for s in range(n)) / pdf
    return Pooled(within, wdf, 2.0 * resid, pdf)


def floored(xs: list[float], floor: float | None, floor_df: int) -> tuple[float, int, str]:
    """The variance for an interval on the mean of ``xs``: the larger of their own sample
    variance (n - 1 d.f.) and the pooled ``floor``, with the d.f. of the one used, and which
    it was ("own", "pooled"; "none" when both are zero or missing)."""
    n = len(xs)
    own = stdev(xs) ** 2 if n >= 2 else None
    options = [(v, df, name) for v, df, name in ((own, n - 1, "own"), (floor, floor_df, "pooled"))
               if v is not None and df > 0]
    if not options:
        return (0.0, 0, "none")
    v, df, name = max(options, key=lambda o: (o[0], o[1]))  # a tie: the larger d.f.
    return (v, df, name) if v > 0 else (0.0, 0, "none")


def interval(xs: list[float], var: float, df: int,
             confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The two-sided t-interval of the mean of ``xs`` with the given variance and d.f.;
    (nan, nan) without a variance."""
    if var <= 0 or df <= 0:
        return (math.nan, math.nan)
    m = mean(xs)
    half = t_quantile(0.5 + confidence / 2.0, df) * math.sqrt(var / len(xs))
    return (m - half, m + half)


def behind_p(d: list[float], var: float, df: int) -> float:
    """The one-sided p-value of "the mean difference is below zero": Student's t with the given
    variance and d.f., or the exact sign test when there is no variance."""
    if var <= 0 or df <= 0:
        return sign_test_p(d)
    return t_cdf(mean(d) / math.sqrt(var / len(d)), df)


# ===== a sweep's comparisons ====================================================================

@dataclass
class Comparison:
    """One candidate's scores over the seeds, and its paired difference to the leader."""

    candidate: int
    scores: list[int]
    best: int  # a line that scores this exists: a lower bound on the candidate's value
    mean: float
    ci: tuple[float, float]
    diff: float  # mean of (this - leader), seed by seed
    diff_ci: tuple[float, float]
    clearly_behind: bool  # Holm's step-down rejects "not behind the leader" at FAMILY_LEVEL
    rank: int = 0
    p: float | None = None  # one-sided p of "behind the leader" (None for the leader)
    p_holm: float | None = None  # Holm-adjusted
    behind_uncorrected: bool = False  # p <= FAMILY_LEVEL, no correction
    variance: str = ""  # the difference's variance: "own", "pooled", "none" (sign test)


def compare(scores: dict[int, list[int]], rank_by: str = "mean",
            level: float = FAMILY_LEVEL) -> list[Comparison]:
    """Rank candidates (each a list of scores in the same seed order) by ``mean`` or ``best``
    (ties: the other key, then the candidate number) and compare each with the leader: paired
    differences, variances floored by the pooled ones, Holm over the K - 1 comparisons."""
    if rank_by not in ("mean", "best"):
        raise ValueError("rank_by is 'mean' or 'best'")
    lengths = {len(v) for v in scores.values()}
    if len(lengths) > 1:
        raise ValueError("paired comparison needs the same seeds for every candidate")

    def key(c):
        m, b = mean(scores[c]), max(scores[c])
        return (-m, -b, c) if rank_by == "mean" else (-b, -m, c)

    order = sorted(scores, key=key)
    pool = pooled(scores)
    leader = scores[order[0]]
    out = []
    for r, c in enumerate(order, start=1):
        xs = scores[c]
        ci = interval(xs, *floored(xs, pool.within, pool.within_df)[:2])
        d = [x - y for x, y in zip(xs, leader)]
        if r == 1:
            out.append(Comparison(c, list(xs), max(xs), mean(xs), ci, 0.0, (0.0, 0.0), False, r))
            continue
        var, df, source = floored(d, pool.paired, pool.paired_df)
        p = behind_p(d, var, df)
        out.append(Comparison(c, list(xs), max(xs), mean(xs), ci, mean(d),
                              interval(d, var, df), False, r, p=p,
                              behind_uncorrected=p <= level, variance=source))
    reject, adjusted = holm([x.p for x in out[1:]], level)
    for x, rej, adj in zip(out[1:], reject, adjusted):
        x.clearly_behind, x.p_holm = rej, adj
    return out


def summary(scores: dict[int, list[int]], clearly_behind: int, behind_uncorrected: int,
            level: float = FAMILY_LEVEL) -> dict:
    """How a sweep's statistics were made, for its record: the rule of each column, the
    pooled variances, the correction and how many candidates it flags (``clearly_behind``)
    against how many the uncorrected tests would (``behind_uncorrected``)."""
    pool = pooled(scores)
    sd = (lambda v: None if v is None else round(math.sqrt(v), 3))
    return {"best": "the best seed's score: its line exists and replays, so it is a lower "
                    "bound on the candidate's value (the game is deterministic)",
            "intervals": f"{CONFIDENCE:.0%} t-intervals, per candidate",
            "test": "one-sided paired t-test against the leader, seed by seed",
            "variance": "the larger of the candidate's own and the sweep's pooled variance, "
                        "with its d.f.; the exact sign test where both are zero",
            "pooled": {"within_sd": sd(pool.within), "within_df": pool.within_df,
                       "paired_sd": sd(pool.paired), "paired_df": pool.paired_df},
            "correction": CORRECTION, "family_wise_level": level,
            "comparisons": max(0, len(scores) - 1), "clearly_behind": clearly_behind,
            "behind_uncorrected": behind_uncorrected}
