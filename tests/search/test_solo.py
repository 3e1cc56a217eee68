"""The `ora-solve solo` job (solver/search/solo.py)."""

from __future__ import annotations

import numpy as np

from solver.search import records


def test_a_record_names_the_commit_its_search_started_on(tmp_path, monkeypatch):
    from solver.search.solo import SoloJob, run_solo

    commits = iter(["aaaa-at-the-start", "bbbb-after-the-search"])
    monkeypatch.setattr(records, "git_commit", lambda cwd=None: next(commits))
    rec, _ = run_solo(SoloJob(variant="france", width=2), out=str(tmp_path / "r.json"),
                      command="test", quiet=True)
    assert rec["commit"] == "aaaa-at-the-start"


def _named_as(name: str, w, variant: str) -> bool:
    """Whether a stage weighting's ``name`` describes the array ``w`` the search ran."""
    import re

    import numpy as np

    from solver.search.evaluation import weights as WF
    from solver.search.evaluation.features import PORTFOLIO, W_KNEE, W_SLOPE

    knee = re.search(r"knee (\S+) and slope (\S+)", name)
    w = np.asarray(w, dtype=np.float64)
    if "fitted table" in name:
        t = w.reshape(-1, len(PORTFOLIO[0]))
        base = np.asarray(WF.fitted_default(variant).values).reshape(t.shape)
        shape = (0.0, 1.0) if knee is None else (float(knee[1]), float(knee[2]))
        same = np.array_equal(np.delete(t, [W_KNEE, W_SLOPE], axis=1),
                              np.delete(base, [W_KNEE, W_SLOPE], axis=1))
        return same and bool(np.all(t[:, W_KNEE] == shape[0]) and np.all(t[:, W_SLOPE] == shape[1]))
    if "tuned default" in name:
        base = WF.tuned_default(variant).values
    elif m := re.search(r"PORTFOLIO\[(\d+)\]", name):
        base = PORTFOLIO[int(m[1])]
    else:
        return False
    body = [i for i in range(len(w)) if i not in (W_KNEE, W_SLOPE)]
    shape = (base[W_KNEE], base[W_SLOPE]) if knee is None else (float(knee[1]), float(knee[2]))
    return (np.array_equal(w[body], np.asarray(base)[body])
            and (w[W_KNEE], w[W_SLOPE]) == shape)


def _stage_weightings_ran(monkeypatch, search) -> tuple[list[str], list[dict], list]:
    """A beam search's ``weightings``, its stages and the vector each stage's beam ran (every
    beam clipped to width 3, so the whole plan runs in seconds)."""
    from solver.search.beam import run as R
    from solver.search.beam import schedule, stages

    ran = []

    def spy(variant, width, seed, time_limit, progress, keep, weights, *a, **kw):
        ran.append(weights)
        return R.run_beam(variant, 3, seed, time_limit, progress, keep, weights, *a, **kw)

    monkeypatch.setattr(stages, "run_beam", spy)
    monkeypatch.setattr(schedule, "run_beam", spy)
    r = search()
    return r.weightings, r.trace, ran[-len(r.trace):]  # the warm-up's beam runs first


def test_a_beam_record_names_the_weighting_each_stage_index_points_to(monkeypatch):
    """Regression: a record's stages gave each group and polish restart a ``weighting`` index
    without saying into which portfolio (the timed default's, the fixed-width groups' with
    Ireland's linear twin, or France's table members), so "weighting 1" meant three things.
    The search names the portfolio it ran (``SearchResult.weightings``); each stage's name
    must describe the vector its beam ran."""
    from solver.search.beam import beam_search, timed_beam_search
    from solver.search.beam.stages import polish_weighting
    from solver.search.evaluation import weights as WF

    searches = {
        ("ireland", "timed"): lambda: timed_beam_search("ireland", None, 1, nodes=2_000_000),
        ("ireland", 2000): lambda: beam_search("ireland", 2000, 1),
        ("france", "timed"): lambda: timed_beam_search("france", None, 1, nodes=2_000_000),
        ("france", 2000): lambda: beam_search("france", 2000, 1),
    }
    for (variant, how), search in searches.items():
        names, trace, ran = _stage_weightings_ran(monkeypatch, search)
        plain = {}  # weighting index -> the unperturbed vector it ran
        for stage, w in zip(trace, ran):
            name = names[stage["weighting"]]
            p = stage.get("perturbation", 0)
            if p:  # a seeded perturbation of the chain's weighting
                assert np.array_equal(w, polish_weighting(plain[stage["weighting"]], 1, p))
            else:
                assert _named_as(name, w, variant), (variant, how, stage, name)
                plain[stage["weighting"]] = w
    # Ireland's fixed-width groups: the leader with the stock's knee, then without it
    names = _stage_weightings_ran(monkeypatch, lambda: beam_search("ireland", 2000, 0))[0]
    assert "knee 15" in names[0] and "without a stock shape" in names[1]
    names = _stage_weightings_ran(monkeypatch, lambda: timed_beam_search(
        "ireland", None, 0, nodes=500_000))[0]
    assert "without" not in " ".join(names)
    if WF.fitted_default("france") is not None:  # France's timed single beam: the table
        names = _stage_weightings_ran(monkeypatch, lambda: timed_beam_search(
            "france", None, 0, nodes=500_000))[0]
        assert len(names) == 1 and names[0].startswith("fitted table by round")


def test_a_record_names_the_weights_file_that_led_its_stages(tmp_path):
    """--weights FILE leads the hand-set weightings, and the record's ``stage_weightings``
    says so."""
    from solver.search.evaluation import weights as WF
    from solver.search.solo import SoloJob, run_solo

    mine = WF.Weights("mine.json", "ireland", WF.PORTFOLIO[3] * 2)
    rec, _ = run_solo(SoloJob("ireland", width=2, weights=mine), out=str(tmp_path / "w.json"),
                      command="test", quiet=True)
    names = rec["weights"]["stage_weightings"]
    assert names[0] == "--weights mine.json"
    assert all(_named_as(n, w, "ireland")
               for n, w in zip(names[1:], WF.portfolio_with(mine.values)[1:]))
    assert len(names) == len(WF.PORTFOLIO) + 1
