"""The `ora-solve solo` job (solver/search/solo.py)."""

from __future__ import annotations

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


def test_a_beam_record_names_the_weighting_each_stage_index_points_to():
    """Regression: a record's stages gave each group and polish restart a ``weighting`` index
    without saying into which portfolio (the timed default's, the fixed-width groups' with
    Ireland's linear twin, or France's table members), so "weighting 1" meant three things."""
    from solver.search.evaluation import weights as WF
    from solver.search.solo import SoloJob

    ran = {  # what each search indexes, as the search code builds it
        ("ireland", None): WF.default_portfolio("ireland"),
        ("ireland", 2000): WF.group_portfolio("ireland"),
        ("france", None): WF.default_portfolio("france"),
        ("france", 2000): WF.group_portfolio("france"),
    }
    if WF.fitted_default("france") is not None:
        ran[("france", None)] = WF.table_members("france")[:1]  # the timed single beam
        ran[("france", 2000)] = ran[("france", 100)] = WF.table_members("france")
    for (variant, width), pf in ran.items():
        job = SoloJob(variant, width=width, time_limit=None if width else 60.0)
        names = job.weights_used()["stage_weightings"]
        assert len(names) == len(pf), (variant, width)
        for name, w in zip(names, pf):
            assert _named_as(name, w, variant), (variant, width, name)
    # Ireland's fixed-width groups: the leader with the stock's knee, then without it
    names = SoloJob("ireland", width=2000).weights_used()["stage_weightings"]
    assert "knee 15" in names[0] and "without a stock shape" in names[1]
    assert "without" not in " ".join(SoloJob("ireland", time_limit=60.0).stage_weightings())
    # --weights FILE leads the hand-set weightings
    mine = WF.Weights("mine.json", "ireland", WF.PORTFOLIO[3] * 2)
    names = SoloJob("ireland", width=2000, weights=mine).stage_weightings()
    assert names[0] == "--weights mine.json"
    assert all(_named_as(n, w, "ireland") for n, w in zip(names[1:], WF.portfolio_with(
        mine.values)[1:]))
    # MCTS and NRPA stages index no portfolio
    assert "stage_weightings" not in SoloJob("ireland", simulations=4).weights_used()
