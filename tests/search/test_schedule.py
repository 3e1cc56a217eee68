"""The time-budgeted beam search (solver/search/beam/schedule.py): seeds run different
weightings, and the polish restarts never end below the chain they restart."""

from __future__ import annotations

from solver.search.beam import timed_beam_search


def test_two_seeds_of_the_default_search_run_different_weightings():
    runs = [timed_beam_search("france", None, seed=s, nodes=800_000) for s in (1, 2)]
    groups = [[t["weighting"] for t in r.trace if t["stage"] == "group"] for r in runs]
    assert all(len(g) > 1 for g in groups) and groups[0] != groups[1]
    assert [g[0] for g in groups] == [0, 0]


def test_polish_restarts_in_the_schedule_never_end_below_their_chain():
    r = timed_beam_search("france", None, seed=4, nodes=400_000)
    groups = max(s["score"] for s in r.trace if s["stage"] in ("probe", "group"))
    polish = [s for s in r.trace if s["stage"] == "polish"]
    assert polish and r.score[0] >= groups
    assert min(s["score"] for s in polish) >= sorted(
        s["score"] for s in r.trace if s["stage"] in ("probe", "group"))[-2]
