"""Distinct plans by seed: the schedule's groups draw their weightings by seed."""

import json
from pathlib import Path

import numpy as np

from solver.fast.engine import FastEngine
from solver.search.beam import beam_search, state_at_round, timed_beam_search
from solver.search.beam.stages import MAX_GROUPS
from solver.search.evaluation.features import PORTFOLIO
from solver.search.evaluation.weights import (
    GROUP_POOL,
    HAND_SET_MEANS,
    default_portfolio,
    group_weightings,
    portfolio_with,
)

RESULTS = Path(__file__).resolve().parent.parent / "results"


def test_seed_0_runs_the_leader_then_the_best_measured_weightings():
    pf = [w.copy() for w in PORTFOLIO]  # France's default: hand-set only
    chosen = group_weightings("france", pf, 0, 6)
    means = HAND_SET_MEANS["france"]
    assert chosen[0] == 0
    best = sorted(range(1, len(pf)), key=lambda i: -means[i])[:5]
    assert chosen[1:] == best


def test_other_seeds_draw_different_groups_from_the_best_pool():
    pf = default_portfolio("ireland")
    draws = {s: group_weightings("ireland", pf, s, 6) for s in range(1, 9)}
    assert all(d[0] == 0 and len(set(d)) == 6 for d in draws.values())
    assert len({tuple(d) for d in draws.values()}) == len(draws)  # each seed its own plan
    pool = set(group_weightings("ireland", pf, 0, GROUP_POOL + 1)[1:])
    assert all(set(d[1:]) <= pool for d in draws.values())
    assert group_weightings("ireland", pf, 5, 6) == draws[5]  # a seed draws the same again


def test_a_given_leader_stays_first_and_groups_wrap_around():
    w = np.full(len(PORTFOLIO[0]), 1.0)
    pf = portfolio_with(w)
    assert group_weightings("france", pf, 3, 4)[0] == 0
    many = group_weightings("france", pf, 0, len(pf) + 2)
    assert many[:len(pf)] == [0] + sorted(
        range(1, len(pf)), key=lambda i: -HAND_SET_MEANS["france"][i - 1])
    assert many[len(pf):] == many[:2]


def test_two_seeds_of_the_default_search_run_different_weightings():
    runs = [timed_beam_search("france", None, seed=s, nodes=800_000) for s in (1, 2)]
    groups = [[t["weighting"] for t in r.trace if t["stage"] == "group"] for r in runs]
    assert all(len(g) > 1 for g in groups) and groups[0] != groups[1]
    assert [g[0] for g in groups] == [0, 0]


def test_a_fixed_width_beam_runs_six_groups_chosen_as_the_timed_search_does():
    # regression: beam_search ran one group of 100 per weighting (width 2000: 20 groups,
    # under the weakest weightings too); it now runs at most MAX_GROUPS wider ones
    e = FastEngine("france")
    line = json.loads((RESULTS / "france-beam2000-seed0.json").read_text())["line"]
    start = state_at_round(e, line, 30)
    pf = default_portfolio("france")
    runs = {s: beam_search("france", 900, seed=s, start=start) for s in (1, 2)}
    groups = {s: [t["weighting"] for t in r.trace if t["stage"] == "group"]
              for s, r in runs.items()}
    widths = [t["width"] for t in runs[1].trace if t["stage"] == "group"]
    assert MAX_GROUPS == 6 and widths == [150] * 6
    assert all(groups[s] == group_weightings("france", pf, s, 6) for s in (1, 2))
    assert groups[1] != groups[2]
