"""The time-budgeted beam search (solver/search/beam/schedule.py): it fits its time or node
budget and runs every stage, seeds run different weightings, and the polish restarts never
end below the chain they restart."""

from __future__ import annotations

import time

import pytest

from solver.search.beam import run_beam, schedule, timed_beam_search
from solver.search.beam.expansion import KEEP_PER_PARENT
from solver.search.evaluation.weights import default_portfolio
from tests.search.helpers import assert_replays


def _until_polish():
    """(progress, stop): the search stops at its first polish layer (the groups are run)."""
    seen = []

    def progress(beam, layers, label, *generated):
        seen.append(label.startswith("polish"))

    return progress, lambda: any(seen)


def test_two_seeds_of_the_grouped_search_run_different_weightings():
    """The strategy groups (a portfolio: ``--weights FILE`` leading the hand-set ones); the
    default schedule is one beam in both variants (the next test)."""
    runs = []
    for s in (1, 2):
        progress, stop = _until_polish()
        runs.append(timed_beam_search("france", None, seed=s, nodes=16_000_000,
                                      progress=progress, stop=stop,
                                      portfolio=default_portfolio("france")))
    groups = [[t["weighting"] for t in r.trace if t["stage"] == "group"] for r in runs]
    assert all(len(g) > 1 for g in groups) and groups[0] != groups[1]
    assert [g[0] for g in groups] == [0, 0]


def test_polish_restarts_in_the_schedule_never_end_below_their_chain():
    r = timed_beam_search("france", None, seed=4, nodes=8_000_000)
    games = [s["score"] for s in r.trace if s["stage"] != "polish"]
    polish = [s for s in r.trace if s["stage"] == "polish"]
    assert polish and r.score[0] >= max(games)
    assert min(s["score"] for s in polish) >= sorted(games)[-2]


def test_the_default_schedule_is_one_beam_as_wide_as_its_scout_measures():
    """France (under its fitted table; a variant in schedule.SINGLE_BEAM: its leader): the
    probe, a scout, then one beam sized from the scout's measured cost to about
    SINGLE_SHARE of what the scout left, then the polish; every stage under that one
    weighting (0)."""
    from solver.search.beam import schedule

    budget = 8_000_000
    r = timed_beam_search("france", None, seed=4, nodes=budget)
    stages = [s["stage"] for s in r.trace]
    assert stages[:3] == ["probe", "scout", "beam"] and set(stages[3:]) == {"polish"}
    assert all(s["weighting"] == 0 for s in r.trace)
    probe, scout, beam = r.trace[:3]
    assert beam["width"] > 4 * scout["width"] > 4 * probe["width"]
    left = budget - probe["nodes"] - scout["nodes"]
    # the beam's cost per unit of width is at most the scout's, so it keeps within its share
    assert beam["nodes"] <= schedule.SINGLE_SHARE * left
    assert r.score[0] == max(s["score"] for s in r.trace) and r.nodes <= budget


def test_each_polish_chain_runs_under_the_weighting_whose_beam_found_its_line():
    """France's timed schedule with a portfolio's groups (not ``SCREENED``), seed 5 under 8M
    children: its two chains run the weightings of the two best group lines, the second's
    first, the best's last."""
    assert "france" not in schedule.SCREENED
    r = timed_beam_search("france", None, seed=5, nodes=8_000_000,
                          portfolio=default_portfolio("france"))
    games = sorted((s for s in r.trace if s["stage"] in ("probe", "group")),
                   key=lambda s: -s["score"])
    polish = [s["weighting"] for s in r.trace if s["stage"] == "polish"]
    assert games[0]["weighting"] != games[1]["weighting"]
    assert polish[0] == games[1]["weighting"] and polish[-1] == games[0]["weighting"]
    assert set(polish) == {games[0]["weighting"], games[1]["weighting"]}


def test_irelands_polish_screens_every_group_line_then_restarts_the_two_best():
    """``schedule.SCREENED`` (Ireland), seed 6 under 8M children: each group's line gets one
    restart from round 28 under its group's weighting, the worst line first; then the two
    best lines after that screening restart from rounds 22, 25 and 28, the second's first."""
    assert "ireland" in schedule.SCREENED
    r = timed_beam_search("ireland", None, seed=6, nodes=8_000_000)
    games = [s for s in r.trace if s["stage"] in ("probe", "group")]
    polish = [s for s in r.trace if s["stage"] == "polish"]
    # the chains: the probe's and the groups' lines best first (all distinct here)
    chains = sorted(games, key=lambda g: -g["score"])[:schedule.GROUPS]
    n = len(chains)
    assert n >= 3
    screen, deep = polish[:n], polish[n:]
    assert [s["from_round"] for s in screen] == [schedule.SCREEN_ROUND] * n
    assert [s["weighting"] for s in screen] == [g["weighting"] for g in chains][::-1]
    after = [max(g["score"], s["score"]) for g, s in zip(chains, screen[::-1])]
    ranked = sorted(range(n), key=lambda c: -after[c])
    best, second = chains[ranked[0]]["weighting"], chains[ranked[1]]["weighting"]
    assert deep and deep[0]["weighting"] == second and deep[0]["from_round"] == 22
    assert {s["weighting"] for s in deep} <= {second, best}
    assert any(s["weighting"] == best for s in deep)
    assert r.score[0] == max(s["score"] for s in r.trace)


@pytest.mark.parametrize("variant, first", [("france", "beam"), ("ireland", "group")])
def test_the_timed_search_fits_its_budget_and_runs_every_stage(variant, first):
    t = time.perf_counter()
    r = timed_beam_search(variant, 15.0, seed=1)
    assert time.perf_counter() - t < 15.0 + 1.0
    stages = [s["stage"] for s in r.trace]
    assert stages[0] == "probe" and first in stages and "polish" in stages
    assert r.score[0] == max(s["score"] for s in r.trace)
    assert_replays(variant, r, seed=1)


def test_a_variant_in_single_beam_runs_its_leader_alone(monkeypatch):
    """schedule.SINGLE_BEAM (empty now): a variant without a fitted table listed there runs
    one beam under its portfolio's leader instead of the groups."""
    monkeypatch.setattr(schedule, "SINGLE_BEAM", ("ireland",))
    r = timed_beam_search("ireland", None, seed=4, nodes=4_000_000)
    assert [s["stage"] for s in r.trace][:3] == ["probe", "scout", "beam"]
    assert all(s["weighting"] == 0 for s in r.trace)
    assert (schedule.single_weighting("ireland").values.tolist()
            == default_portfolio("ireland")[0].tolist())


def test_a_node_budget_gives_the_same_line_and_stages_and_stays_within_it():
    runs = [timed_beam_search("france", None, seed=1, nodes=3_000_000)
            for _ in range(2)]
    a, b = runs
    assert a.line == b.line and a.score == b.score and a.nodes == b.nodes
    drop = [{k: v for k, v in s.items() if k != "seconds"} for s in a.trace]
    assert drop == [{k: v for k, v in s.items() if k != "seconds"} for s in b.trace]
    assert a.nodes <= 3_000_000 and a.nodes == sum(s["nodes"] for s in a.trace)
    stages = [s["stage"] for s in a.trace]
    assert stages[0] == "probe" and "beam" in stages and "polish" in stages
    assert_replays("france", a, seed=1)
    more = timed_beam_search("france", None, seed=1, nodes=12_000_000)
    assert 3_000_000 < more.nodes <= 12_000_000
    assert max(s["width"] for s in more.trace) > max(s["width"] for s in a.trace)


def test_a_paced_beam_narrows_only_when_its_layers_forecast_an_overrun():
    """The pacer (schedule._Clock.pacer) of a beam planned at width 100 for 34 s, on a flat
    profile (each round 1/34 of a game): a round that took its planned second keeps the
    width; one that took twice that narrows the rest to what is left (32 s for a forecast of
    66 s at width 100: 48)."""
    for spent, expected in ((1.0, 100), (2.0, 48)):
        clock = schedule._Clock(1000.0, None)
        now = [0.0]
        clock.used = lambda: now[0]
        width_at = clock.pacer(100, 34.0)
        assert width_at(1) == 100
        now[0] = spent
        assert width_at(2) == expected
        assert width_at(2) == expected  # more layers of the same round change nothing
        assert width_at.width == expected


def test_a_beam_takes_its_width_round_by_round_from_a_function():
    """run_beam asks a width function before each layer, with the round the layer starts
    in, and keeps no more states than it says."""
    asked, sizes = [], []

    def width_at(rnd):
        asked.append(rnd)
        return 4 if rnd < 3 else 2

    r = run_beam("ireland", width_at, 0, None, lambda beam, layers, label: sizes.append(
        len(beam)), KEEP_PER_PARENT, default_portfolio("ireland")[0])
    assert r.complete and asked[0] == 1 and asked == sorted(asked) and asked[-1] >= 32
    assert len(sizes) == len(asked)
    assert all(n <= (4 if rnd < 3 else 2) for rnd, n in zip(asked, sizes))
    assert max(sizes[asked.index(3):]) == 2


def test_only_a_single_beam_variants_timed_beam_is_paced(monkeypatch):
    """The pacer runs for the wide beam of a SINGLE_BEAM variant in time mode, never for its
    scout, France's beam (its scout overestimates) or a node budget; a beam it narrowed (here
    planned at a hundredth of its share) says in the trace how narrow it ended."""
    paced = []
    pacer = schedule._Clock.pacer

    def spy(self, width, seconds):
        paced.append(width)
        return pacer(self, width, seconds / 100)

    monkeypatch.setattr(schedule._Clock, "pacer", spy)
    monkeypatch.setattr(schedule, "SINGLE_BEAM", ("ireland",))
    r = timed_beam_search("ireland", 20.0, seed=3)
    beam = [s for s in r.trace if s["stage"] == "beam"]
    assert len(paced) == 1 and len(beam) == 1 and beam[0]["width"] == paced[0] > 8
    assert 8 <= beam[0]["narrowed_to"] < beam[0]["width"]
    assert all("narrowed_to" not in s for s in r.trace if s["stage"] != "beam")
    assert_replays("ireland", r, seed=3)
    paced.clear()
    timed_beam_search("france", 6.0, seed=3)
    timed_beam_search("ireland", None, seed=3, nodes=2_000_000)
    assert paced == []
