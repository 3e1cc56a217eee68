"""Restarts that never lose (solver/search/beam/run.py's guide): a beam restarted from a line
keeps that line in every layer."""

import json
from pathlib import Path

import pytest

from solver.fast import layout as L
from solver.fast.engine import FastEngine
from solver.search.beam import run_beam, state_at_round
from solver.search.beam.expansion import KEEP_PER_PARENT
from solver.search.evaluation.weights import default_portfolio
from tests.search.helpers import assert_replays

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _line(variant):
    return json.loads((RESULTS / f"{variant}-beam2000-seed0.json").read_text())["line"]


def _flow_states(e, line, start):
    """The states of ``line`` after each flow step from ``start`` (as the beam's layers)."""
    W = start[0].copy()
    out = []
    for a in line[len(start[1]):]:
        step0 = W[L.STEP]
        e.step_wide(W, a)
        if W[L.STEP] != step0 or W[L.DONE]:
            out.append(W.copy())
    return out


@pytest.mark.parametrize("variant, rnd", [("france", 22), ("ireland", 22), ("france", 12)])
def test_a_restart_never_returns_less_than_the_line_it_restarts_from(variant, rnd):
    e = FastEngine(variant)
    line = _line(variant)
    target = e.score_wide(_final(e, line))[0]
    start = state_at_round(e, line, rnd)
    w = default_portfolio(variant)[0]
    plain = run_beam(variant, 3, 1, None, None, KEEP_PER_PARENT, w, start=start)
    assert plain.score[0] < target  # a narrow restart alone loses the line ...
    kept = run_beam(variant, 3, 1, None, None, KEEP_PER_PARENT, w, start=start, guide=line)
    assert kept.score[0] >= target  # ... the guided one never does
    assert_replays(variant, kept, seed=1)


def _final(e, line):
    W = e.initial_wide().copy()
    for a in line:
        e.step_wide(W, a)
    return W


def test_the_guide_is_in_every_layer_of_the_restart():
    e = FastEngine("france")
    line = _line("france")
    start = state_at_round(e, line, 25)
    want = _flow_states(e, line, start)
    seen = []

    def progress(beam, layers, label):
        seen.append(any((beam == want[layers - 1]).all(axis=1)) if layers <= len(want)
                    else False)

    run_beam("france", 2, 3, None, progress, KEEP_PER_PARENT, default_portfolio("france")[0],
             start=start, guide=line)
    assert len(seen) == len(want) and all(seen)


def test_a_guided_restart_stopped_early_still_returns_its_guide():
    e = FastEngine("ireland")
    line = _line("ireland")
    target = e.score_wide(_final(e, line))[0]
    calls = []
    r = run_beam("ireland", 50, 1, None, None, KEEP_PER_PARENT,
                 default_portfolio("ireland")[0], start=state_at_round(e, line, 20),
                 guide=line, stop=lambda: calls.append(1) or len(calls) > 2)
    assert not r.complete and r.score[0] >= target


def test_a_guide_must_pass_through_the_start_and_finish_the_game():
    e = FastEngine("france")
    line = _line("france")
    start = state_at_round(e, line, 22)
    w = default_portfolio("france")[0]
    with pytest.raises(ValueError, match="begin with the start's prefix"):
        run_beam("france", 2, 0, None, None, 8, w, start=start, guide=line[1:])
    with pytest.raises(ValueError, match="complete game"):
        run_beam("france", 2, 0, None, None, 8, w, start=start, guide=line[:-30])
