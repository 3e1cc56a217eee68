"""Issue 31, item 2: the Holm correction of "clearly behind", the variance floor for tied
seeds and the exact sign test (solver/research/stats.py), on hand-made samples."""

import math
import random

import pytest

from solver.research import stats as S

# ===== Holm's step-down procedure ==============================================================


def test_holm_rejects_the_known_ones_and_stops_at_the_first_failure():
    # sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, then 0.03 > 0.05/2: stop, so 0.04 is kept
    # although it is below its own threshold 0.05/1
    reject, adjusted = S.holm([0.01, 0.04, 0.03, 0.005])
    assert reject == [True, False, False, True]
    # adjusted: 4 x 0.005, max(., 3 x 0.01), max(., 2 x 0.03), max(., 1 x 0.04)
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [a <= 0.05 for a in adjusted] == reject


def test_holm_rejects_more_than_bonferroni_and_fewer_than_no_correction():
    ps = [0.012, 0.02, 0.03]
    assert S.holm(ps)[0] == [True, True, True]  # 0.012 <= 0.0167, 0.02 <= 0.025, 0.03 <= 0.05
    assert [p <= 0.05 / 3 for p in ps] == [True, False, False]  # Bonferroni
    # 281 comparisons each at p = 0.01: all pass 5% alone, none survives the correction
    assert S.holm([0.01] * 281)[0] == [False] * 281
    assert S.holm([0.04, 0.0001], level=0.05)[0] == [True, True]
    assert S.holm([0.06, 0.0001])[0] == [False, True]


def test_holm_edge_cases():
    assert S.holm([]) == ([], [])
    reject, adjusted = S.holm([math.nan, 0.001])  # a NaN counts as 1, still in the family
    assert reject == [False, True] and adjusted == pytest.approx([1.0, 0.002])
    assert S.holm([0.5, 0.5])[1] == [1.0, 1.0]  # adjusted p-values are capped at 1


def test_a_sweep_flags_by_holm_not_one_by_one():
    # 11 candidates; the leader scores 100 on every seed and each other candidate is 4
    # points behind with noise: every uncorrected test is at p <= 0.05, Holm keeps most
    noise = [[0, 3, -3], [1, -2, 1], [-1, 2, -1], [2, -1, -1], [0, -2, 2]]
    scores = {0: [100, 100, 100]}
    for c in range(1, 11):
        scores[c] = [96 + e for e in noise[c % 5]]
    rows = S.compare(scores)
    assert rows[0].candidate == 0
    raw = [r.p for r in rows[1:]]
    reject, adjusted = S.holm(raw)
    assert [r.clearly_behind for r in rows[1:]] == reject
    assert [r.p_holm for r in rows[1:]] == pytest.approx(adjusted)
    assert sum(r.behind_uncorrected for r in rows) > sum(r.clearly_behind for r in rows)
    assert not rows[0].clearly_behind and rows[0].p is None


# ===== ties: no interval collapses to a point ================================================


def _noisy():
    """A sweep whose candidates 1 and 2 vary with the seed: the pooled variance is not 0."""
    return {1: [500, 480, 490], 2: [470, 490, 460]}


def test_equal_paired_differences_use_the_pooled_variance():
    # candidate 0 is exactly 10 behind the leader (1) on every seed: its own variance is 0,
    # and the old t-interval was the point (-10, -10), "clearly behind" for certain
    scores = {0: [490, 470, 480]} | _noisy()
    rows = {r.candidate: r for r in S.compare(scores)}
    r = rows[0]
    assert r.diff == -10 and r.variance == "pooled"
    pool = S.pooled(scores)
    assert pool.paired > 0 and pool.paired_df == 4
    lo, hi = r.diff_ci
    assert lo < -10 < hi and hi - lo > 1  # an interval, not a point
    assert hi > 0 and not r.clearly_behind  # 10 points is within the sweep's noise
    assert 0 < r.p < 1
    assert r.p == pytest.approx(S.t_cdf(-10 / math.sqrt(pool.paired / 3), 4))
    # what the old own-variance rule did
    assert S.t_interval([-10, -10, -10]) == (-10, -10)


def test_tied_seeds_of_a_candidate_get_the_pooled_width():
    scores = {0: [470, 470, 470]} | _noisy()
    rows = {r.candidate: r for r in S.compare(scores)}
    lo, hi = rows[0].ci
    pool = S.pooled(scores)
    half = S.t_quantile(0.975, pool.within_df) * math.sqrt(pool.within / 3)
    assert (lo, hi) == pytest.approx((470 - half, 470 + half))
    assert hi - lo > 1


def test_a_tie_with_the_leader_is_not_a_difference():
    scores = {0: [500, 480, 490]} | _noisy()  # 0 scores what the leader does on every seed
    rows = {r.candidate: r for r in S.compare(scores)}
    r = rows[0] if rows[0].rank == 2 else rows[1]
    assert r.diff == 0 and r.p == pytest.approx(0.5) and not r.clearly_behind
    assert r.diff_ci[0] < 0 < r.diff_ci[1]


def test_the_floor_only_widens():
    # a candidate noisier than the sweep keeps its own variance and its own d.f.
    scores = {0: [500, 400, 450], 3: [480, 470, 470], 4: [470, 460, 465]} | _noisy()
    rows = {r.candidate: r for r in S.compare(scores)}
    own = [x - y for x, y in zip(scores[0], scores[1])]  # 1 leads: 0, -80, -40
    assert rows[0].variance == "own" and rows[4].variance == "pooled"
    assert S.stdev(own) ** 2 > S.pooled(scores).paired
    assert rows[0].diff_ci == pytest.approx(S.t_interval(own))  # on its own 2 d.f.


def test_with_no_variance_anywhere_the_sign_test_judges():
    # no score varies with the seed: no variance to floor with; the intervals are n/a and
    # the exact sign test gives 2^-n, never 0
    scores = {0: [500, 500, 500], 1: [490, 490, 490], 2: [400, 400, 400]}
    rows = S.compare(scores)
    assert S.pooled(scores).paired == 0 and S.pooled(scores).within == 0
    for r in rows:
        assert all(math.isnan(v) for v in r.ci)
    for r in rows[1:]:
        assert r.variance == "none" and r.p == pytest.approx(1 / 8)
        assert all(math.isnan(v) for v in r.diff_ci)
        assert not r.clearly_behind and not r.behind_uncorrected
    # with 6 seeds the sign test can reject: 2^-6 = 0.0156 <= 0.05 / 2 and <= 0.05
    six = {0: [500] * 6, 1: [490] * 6, 2: [400] * 6}
    assert [r.clearly_behind for r in S.compare(six)] == [False, True, True]


def test_the_exact_sign_test():
    assert S.sign_test_p([-1, -2, -3]) == pytest.approx(1 / 8)
    assert S.sign_test_p([-1, -2, 3]) == pytest.approx(4 / 8)  # P(at least 2 of 3)
    assert S.sign_test_p([-1, 0, -2]) == pytest.approx(1 / 4)  # the zero is dropped
    assert S.sign_test_p([0, 0, 0]) == 1.0
    assert S.sign_test_p([1, 2]) == 1.0


def test_two_candidates_pool_to_the_plain_paired_test():
    # with two candidates the two-way residual is the paired difference itself
    scores = {0: [495, 480, 478], 1: [500, 490, 480]}
    d = [-5, -10, -2]
    assert S.pooled(scores).paired == pytest.approx(S.stdev(d) ** 2)
    assert S.compare(scores)[1].diff_ci == pytest.approx(S.t_interval(d))


def test_one_seed_has_no_interval_and_flags_nothing():
    rows = S.compare({0: [500], 1: [400], 2: [300]})
    assert all(math.isnan(v) for r in rows for v in r.ci)
    assert not any(r.clearly_behind for r in rows)
    assert [r.p for r in rows[1:]] == [0.5, 0.5]  # one negative sign of one


def test_pooled_variances_do_not_depend_on_the_candidates_order():
    """Regression: the pooled sums ran in dict order, so a sweep's record and the same
    scores compared again in rank order differed in the last bits of p_holm."""
    rng = random.Random(5)
    for _ in range(50):
        scores = {c: [rng.randint(380, 560) for _ in range(5)] for c in range(7)}
        back = dict(reversed(list(scores.items())))
        assert S.pooled(scores) == S.pooled(back)
        assert [(c.candidate, c.p, c.p_holm) for c in S.compare(scores, "best")] == [
            (c.candidate, c.p, c.p_holm) for c in S.compare(back, "best")]
