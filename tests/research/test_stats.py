"""Sweep statistics (solver/research/stats.py) on hand-made samples, checked by hand."""

import math

import pytest

from solver.research import stats as S


@pytest.mark.parametrize("df, t", [(1, 12.706205), (2, 4.302653), (5, 2.570582),
                                   (10, 2.228139), (30, 2.042272), (1000, 1.962339)])
def test_t_quantile_matches_the_table(df, t):
    assert S.t_quantile(0.975, df) == pytest.approx(t, abs=2e-6)
    assert S.t_quantile(0.025, df) == pytest.approx(-t, abs=2e-6)


def test_t_cdf_known_values():
    assert S.t_cdf(0.0, 3) == pytest.approx(0.5)
    # df = 1 is the Cauchy distribution: F(1) = 3/4
    assert S.t_cdf(1.0, 1) == pytest.approx(0.75, abs=1e-12)
    # df = 2 has F(t) = 1/2 + t / (2 sqrt(2 + t^2))
    assert S.t_cdf(1.5, 2) == pytest.approx(0.5 + 1.5 / (2 * math.sqrt(2 + 2.25)), abs=1e-12)


def test_mean_stdev_interval_by_hand():
    xs = [10, 12, 14]
    assert S.mean(xs) == 12 and S.stdev(xs) == pytest.approx(2.0)
    lo, hi = S.t_interval(xs)
    half = 4.302653 * 2 / math.sqrt(3)  # t(0.975, 2) * s / sqrt(n) = 4.968275
    assert lo == pytest.approx(12 - half, abs=1e-5) and hi == pytest.approx(12 + half, abs=1e-5)
    assert all(math.isnan(v) for v in S.t_interval([5]))
    assert S.t_interval([7, 7, 7]) == (7, 7)


def test_paired_differences_and_clearly_behind():
    scores = {0: [495, 480, 478], 1: [500, 490, 480], 2: [470, 465, 460]}
    rows = S.compare(scores)
    assert [r.candidate for r in rows] == [1, 0, 2] and [r.rank for r in rows] == [1, 2, 3]
    lead, second, third = rows
    assert lead.diff == 0 and lead.diff_ci == (0.0, 0.0) and not lead.clearly_behind
    # second: differences -5, -10, -2: mean -17/3, own variance 49/3, below the pooled one
    # of a paired difference, twice the two-way residual variance: 2 x (3654/81) / 4 = 203/9
    # (residuals 19/9, -26/9, 7/9; 13/9, 13/9, -26/9; -32/9, 13/9, 19/9; 4 d.f.)
    assert second.diff == pytest.approx(-17 / 3) and second.variance == "pooled"
    half = 2.776445 * math.sqrt(203 / 9) / math.sqrt(3)  # t(0.975, 4) * sqrt(203/27) = 7.6130
    assert second.diff_ci[0] == pytest.approx(-17 / 3 - half, abs=1e-4)
    assert second.diff_ci[1] == pytest.approx(-17 / 3 + half, abs=1e-4)
    assert not second.clearly_behind  # the interval (-13.28, 1.95) holds zero
    # third: differences -30, -25, -20: mean -25, own variance 25 > 203/9, interval on 2 d.f.
    # (-37.42, -12.58); p = t_cdf(-25 / (5 / sqrt 3), 2) = 0.0065 <= 0.05 / 2 (Holm's first step)
    assert third.diff == -25 and third.variance == "own"
    assert third.diff_ci[1] == pytest.approx(-25 + 4.302653 * 5 / math.sqrt(3), abs=1e-4)
    assert third.clearly_behind
    # the unpaired intervals of 1 and 2 overlap less than the paired test shows
    assert third.best == 470 and third.mean == 465


def test_rank_by_best_and_ties():
    scores = {0: [500, 400], 1: [480, 470], 2: [480, 470]}
    assert [r.candidate for r in S.compare(scores, "best")] == [0, 1, 2]
    assert [r.candidate for r in S.compare(scores, "mean")] == [1, 2, 0]
    with pytest.raises(ValueError):
        S.compare({0: [1, 2], 1: [3]})
