"""Statistics of a sweep: means, 95% t-intervals and paired differences over seeds.

Every candidate of a sweep is searched with the same seeds, so two candidates are compared
seed by seed (a paired design): the difference of their scores on each seed, its mean and its
t-interval. A candidate is *clearly behind* the leader when that interval lies wholly below
zero. No scipy: Student's t quantile is computed from the regularized incomplete beta
function (continued fraction, as in Numerical Recipes §6.4) and bisection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CONFIDENCE = 0.95


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


@dataclass
class Comparison:
    """One candidate's scores over the seeds, and its paired difference to the leader."""

    candidate: int
    scores: list[int]
    best: int
    mean: float
    ci: tuple[float, float]
    diff: float  # mean of (this - leader), seed by seed
    diff_ci: tuple[float, float]
    clearly_behind: bool  # the difference's interval lies wholly below zero
    rank: int = 0


def compare(scores: dict[int, list[int]], rank_by: str = "mean") -> list[Comparison]:
    """Rank candidates (each a list of scores in the same seed order) by ``mean`` or ``best``
    (ties: the other key, then the candidate number) and compare each with the leader."""
    if rank_by not in ("mean", "best"):
        raise ValueError("rank_by is 'mean' or 'best'")
    lengths = {len(v) for v in scores.values()}
    if len(lengths) > 1:
        raise ValueError("paired comparison needs the same seeds for every candidate")

    def key(c):
        m, b = mean(scores[c]), max(scores[c])
        return (-m, -b, c) if rank_by == "mean" else (-b, -m, c)

    order = sorted(scores, key=key)
    leader = scores[order[0]]
    out = []
    for r, c in enumerate(order, start=1):
        xs = scores[c]
        d = [x - y for x, y in zip(xs, leader)]
        dci = t_interval(d) if c != order[0] else (0.0, 0.0)
        behind = c != order[0] and not math.isnan(dci[1]) and dci[1] < 0
        out.append(Comparison(c, list(xs), max(xs), mean(xs), t_interval(xs), mean(d), dci,
                              behind, r))
    return out
