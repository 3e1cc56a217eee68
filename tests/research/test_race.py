"""Racing (solver/research/race.py): the ladder, the drop rule and the stopping rule on a fake
job function, the budget never exceeded, and a killed race resumed to the identical table."""

import pytest

from solver import jobs as J
from solver.research import race as RC
from solver.research import rundir as R
from solver.research import sweep as SW
from tests.research.helpers import Killed

# candidate -> its level; the seed adds noise of a few points, so the paired test has a
# variance, and candidate 3 is hopeless from the first round on
LEVELS = {0: 400, 1: 398, 2: 396, 3: 250, 4: 395}


def _candidates(n=len(LEVELS)):
    return [SW.Candidate(i, [i], f"opening {i}", f"M{i}") for i in range(n)]


def fake_job(payload: dict) -> dict:
    """A deterministic stand-in for a search: level + seed noise + a little for the width."""
    c, s, w = payload["candidate"], payload["seed"], payload["width"]
    total = LEVELS[c] + (s * 7 + c * 3) % 5 + w // 4
    return {"candidate": c, "seed": s, "score": {"total": total, "goods": 0, "economic": total,
                                                 "dwelling": 0},
            "line": [c, s, w], "nodes": w, "seconds": 0.01 * w, "complete": True,
            "verified": True, "message": "ok"}


def fake_jobs(cands, seeds, width):
    return [J.Job(RC.job_key(c.index, s, width), {"candidate": c.index, "seed": s,
                                                   "width": width}) for c in cands for s in seeds]


class Runner:
    """``run_jobs`` on a fake search, finished jobs reused as from a run directory: keeps
    the keys of the jobs it really runs."""

    def __init__(self, job=fake_job):
        self.ran, self.done, self.job = [], {}, job

    def __call__(self, jobs, desc):
        for j in jobs:
            if j.key not in self.done:
                self.ran.append(j.key)
                self.done[j.key] = self.job(j.payload)
        return {j.key: self.done[j.key] for j in jobs}


def _race(runner=None, **kw):
    args = dict(make_jobs=fake_jobs, run_jobs=runner or Runner(), rank_by="mean", top=1,
                budget=10_000)
    return RC.run(_candidates(), [0, 1, 2], 8, **(args | kw))


def test_the_ladder_doubles_seeds_and_width_up_to_the_final_width():
    step = RC.first_step([0, 1, 2], 20)
    assert (step.width, step.seeds) == (5, [0, 1, 2])
    steps = [(s.width, len(s.seeds)) for s in RC.next_steps(step, [0, 1, 2], 20)]
    assert steps == [(10, 6), (10, 3), (5, 6)]  # both, else the width, else the seeds
    final = RC.Step(20, list(range(12)))
    assert [(s.width, s.seeds) for s in RC.next_steps(final, [0, 1, 2], 20)] == [
        (20, list(range(24)))]  # at the final width only the seeds grow
    assert RC.next_steps(RC.Step(15, [0]), [0], 20)[0].width == 20
    assert RC.more_seeds([4, 9], 4) == [4, 9, 10, 11]
    assert RC.start_width(3) == 1 and RC.start_width(1) == 1 and RC.start_width(100) == 25


def test_the_width_ladder_doubles_the_width_alone_then_the_seeds():
    step = RC.first_step([0, 1, 2], 20)
    widths = []
    for _ in range(4):
        (step,) = RC.next_steps(step, [0, 1, 2], 20, "width")
        widths.append((step.width, step.seeds))
    assert widths == [(10, [0, 1, 2]), (20, [0, 1, 2]), (20, list(range(6))),
                      (20, list(range(12)))]


def test_a_width_first_race_ranks_each_round_at_one_width_on_the_first_seeds():
    alike = Runner(lambda p: fake_job(p | {"candidate": 0}))
    race = _race(alike, budget=1000, ladder="width")
    # widths 2, 4, 8 on seeds 0-2 (30 + 60 + 120), then the seeds double at width 8 (360
    # more), then 12 more seeds do not fit in the 430 left: 10 more do (400)
    assert [(rd["width"], len(rd["seeds"]), rd["cost"]) for rd in race.rounds] == [
        (2, 3, 30), (4, 3, 60), (8, 3, 120), (8, 6, 120), (8, 12, 240), (8, 22, 400)]
    assert race.spent == 970
    with pytest.raises(RC.RaceError, match="unknown ladder 'depth'"):
        _race(ladder="depth")


def test_the_time_limit_estimates_a_round_by_its_jobs_work_not_their_width():
    now = [0.0]

    def work(w):  # a job at width 8 costs ten times one at width 4 (a polish starting)
        return {2: 1.0, 4: 2.0, 8: 20.0}[w]

    def alike(payload):
        return fake_job(payload | {"candidate": 0}) | {"seconds": work(payload["width"])}

    done = set()

    def runner(jobs, desc):  # one worker; a job run before is reused at no cost
        now[0] += sum(alike(j.payload)["seconds"] for j in jobs if j.key not in done)
        done.update(j.key for j in jobs)
        return {j.key: alike(j.payload) for j in jobs}

    # rounds 1-2 (width 2 and 4 on seeds 0-2) take 15 + 30 s; width 8 on 3 seeds would take
    # 300 s more, past the 200 s limit, so the fill spends the 155 s left on 15 more seeds at
    # width 4 (10 s a seed), where a rate per width unit would have started width 8
    race = _race(runner, budget=None, time_limit=200.0, clock=lambda: now[0],
                 ladder="width", work=work)
    assert [(rd["width"], len(rd["seeds"])) for rd in race.rounds] == [(2, 3), (4, 3), (4, 18)]
    assert now[0] <= 200.0
    assert "width 8 x 3 seeds would cost 120, about 300 s" in race.stopped
    now[0] = 0.0
    done.clear()
    linear = _race(runner, budget=None, time_limit=200.0, clock=lambda: now[0],
                   ladder="width")
    assert (linear.rounds[2]["width"], now[0] > 200.0) == (8, True)  # the overrun it avoids


def test_a_search_jobs_work_counts_the_polish_that_starts_at_two_groups():
    from solver.research import positions as P
    from solver.search.beam import stages

    work = RC.job_work(P.initial("ireland"))
    assert stages.group_count(100, 22) == 1 and stages.group_count(200, 22) == 2
    assert work(100) == 2 * work(50) == 100 * 32
    # the two chains restart from rounds 28, 22, 25 and 28 at the whole width
    assert work(200) == 200 * 32 + 2 * 200 * (5 + 11 + 8 + 5)
    assert 5 < work(200) / work(100) < 6
    assert stages.beam_work("ireland", 200, 22, from_round=24) == 200 * 9 + 2 * 200 * (
        5 + 9 + 8 + 5)
    # France's default: two beams of the whole width (the table and the table shaped), each
    # line's restarts from 16, 28, 22, 25 and 28, then two perturbed passes from 16, 22, 25, 28
    assert stages.beam_work("france", 200) == 2 * 200 * 32 + 2 * 200 * (
        (17 + 5 + 11 + 8 + 5) + 2 * (17 + 11 + 8 + 5))
    assert stages.beam_work("france", 100) == 100 * 32  # narrower: the table's beam alone


def test_the_hopeless_candidate_drops_in_the_first_round():
    race = _race()
    first = race.rounds[0]
    assert first["round"] == 1 and first["width"] == 2 and first["seeds"] == [0, 1, 2]
    assert first["ran"] == [0, 1, 2, 3, 4]
    assert [d["candidate"] for d in first["dropped"]] == [3]
    d = first["dropped"][0]
    assert d["p_holm"] <= 0.05 and d["diff"] < -100
    assert first["statistics"]["comparisons"] == 4 and first["statistics"]["correction"] == "holm"
    # the dropped candidate ran no later round, and its row keeps round 1's statistics
    assert all(3 not in rd["ran"] for rd in race.rounds[1:])
    row = next(r for r in race.rows if r["candidate"] == 3)
    assert row["round"] == 1 and row["width"] == 2 and len(row["scores"]) == 3
    assert row is race.rows[-1] and row["dropped"] and row["clearly_behind"]


def test_rounds_compare_only_one_width_and_the_survivors_lead_the_table():
    race = _race()
    for rd in race.rounds:
        assert rd["spent"] == sum(r["cost"] for r in race.rounds[: rd["round"]])
    last = race.rounds[-1]
    survivors = [r for r in race.rows if not r["dropped"]]
    assert survivors and all(r["round"] == last["round"] for r in survivors)
    assert [r["rank"] for r in race.rows] == list(range(1, 6))
    for r in race.rows:
        assert len(r["scores"]) == len(r["seeds"])
        assert all(run["line"][2] == r["width"] for run in r["runs"])  # one width per row
    rounds = [r["round"] for r in race.rows if r["dropped"]]
    assert rounds == sorted(rounds, reverse=True)  # the later a drop, the higher the rank


def test_the_race_stops_when_top_k_remain():
    race = _race(top=4)
    assert len(race.rounds) == 1 and race.stopped.startswith("separated: 4 candidates remain")
    assert sorted(r["candidate"] for r in race.final if not r["dropped"]) == [0, 1, 2, 4]


@pytest.mark.parametrize("budget", [30, 64, 100, 250, 1000, 3000])
def test_the_budget_is_never_exceeded(budget):
    runner = Runner()
    race = _race(runner, budget=budget)
    width_of = {k: int(k.rsplit("-w", 1)[1]) for k in runner.ran}
    assert race.spent == sum(width_of.values()) <= budget
    assert race.stopped.startswith(("budget: ", "separated: "))
    if race.stopped.startswith("budget: "):
        assert f"left of --budget {budget} (width " in race.stopped


def test_a_round_at_the_final_width_runs_only_the_new_seeds():
    # every candidate scores alike: nobody is ever dropped
    alike = Runner(lambda p: fake_job(p | {"candidate": 0}))
    race = _race(alike, budget=1000)
    # round 4 doubled (24 seeds, 480 more) does not fit in the 370 left: it runs the 9 more
    # seeds that do (9 x 5 x 8 = 360), and nothing fits in the last 10
    assert [(rd["width"], len(rd["seeds"]), rd["cost"]) for rd in race.rounds] == [
        (2, 3, 30), (4, 6, 120), (8, 12, 480), (8, 21, 360)]
    assert race.spent == 990
    assert race.stopped == ("budget: no round 5 fits in the 10 left of --budget 1000 "
                            "(width 8 x 42 seeds would cost 840; width 8 x 22 seeds would "
                            "cost 40)")
    assert sum(k.endswith("-w8") for k in alike.ran) == 5 * 21  # round 3's 12 seeds reused
    alike = Runner(alike.job)
    race = _race(alike, budget=1110)
    assert len(race.rounds) == 4 and race.spent == 1110
    assert sum(k.endswith("-w8") for k in alike.ran) == 5 * 24  # round 3's 12 seeds reused


def test_a_step_too_dear_for_the_budget_gives_way_to_a_smaller_one():
    alike = Runner(lambda p: fake_job(p | {"candidate": 0}))
    race = _race(alike, budget=100)
    # round 2 doubled would cost 5 x 6 x 4 = 120 > 70 left: the width alone is doubled (60)
    assert [(rd["width"], len(rd["seeds"]), rd["cost"]) for rd in race.rounds] == [
        (2, 3, 30), (4, 3, 60)]
    assert race.spent == 90 and race.stopped == (
        "budget: no round 3 fits in the 10 left of --budget 100 (width 8 x 6 seeds would cost "
        "240; width 8 x 3 seeds would cost 120; width 4 x 6 seeds would cost 60; width 4 x 4 "
        "seeds would cost 20)")


def test_the_last_round_spends_what_is_left_on_the_next_width_first():
    def cost(st):  # 5 candidates, nothing run yet at width 8; seeds 0-5 run at width 4
        return st.width * 5 * len(st.seeds if st.width == 8 else st.seeds[6:])

    def room(left):
        return lambda st: cost(st) <= left

    step = RC.Step(4, list(range(6)))
    # 200 left: the next width on 5 seeds (200), then the same width on 16 (10 x 20 = 200)
    assert [(s.width, len(s.seeds)) for s in RC.fill_steps(step, [0, 1, 2], 8, room(200))] \
        == [(8, 5), (4, 16)]
    # 100 left: width 8 fits on no 3 seeds (given at its smallest), 5 more seeds fit at 4
    assert [(s.width, len(s.seeds)) for s in RC.fill_steps(step, [0, 1, 2], 8, room(100))] \
        == [(8, 3), (4, 11)]
    # at the final width only the seeds grow
    assert [(s.width, len(s.seeds)) for s in RC.fill_steps(
        RC.Step(8, list(range(6))), [0, 1, 2], 8,
        lambda st: 8 * 5 * (len(st.seeds) - 6) <= 100)] == [(8, 8)]


def test_a_race_ends_with_its_budget_spent():
    alike = Runner(lambda p: fake_job(p | {"candidate": 0}))
    race = _race(alike, budget=300)
    # round 4 is the fill: one more seed (20) is all that fits in the 30 left after round 3
    assert [(rd["width"], len(rd["seeds"]), rd["cost"]) for rd in race.rounds] == [
        (2, 3, 30), (4, 6, 120), (4, 12, 120), (4, 13, 20)]
    assert race.spent == 290 and race.stopped.startswith(
        "budget: no round 5 fits in the 10 left of --budget 300")


def test_a_race_that_cannot_start_says_why():
    with pytest.raises(RC.RaceError, match="at least two candidates"):
        RC.run(_candidates(1), [0, 1, 2], 8, make_jobs=fake_jobs, run_jobs=Runner(),
               rank_by="mean", top=1, budget=None)
    with pytest.raises(RC.RaceError, match="too small for the first round: 5 candidates x 3 "
                                           "seeds at width 2 cost 30"):
        _race(budget=29)


def test_the_time_limit_stops_before_a_round_that_would_overrun():
    now = [0.0]

    def alike(payload):  # nobody is dropped, so only the clock stops the race
        return fake_job(payload | {"candidate": 0})

    done = set()

    def runner(jobs, desc):  # one worker; a job run before is reused at no cost
        now[0] += sum(alike(j.payload)["seconds"] for j in jobs if j.key not in done)
        done.update(j.key for j in jobs)
        return {j.key: alike(j.payload) for j in jobs}

    race = _race(runner, budget=None, time_limit=3.0, clock=lambda: now[0])
    assert race.stopped.startswith("time: no round ")
    assert now[0] <= 3.0 + 1e-9
    assert now[0] > 3.0 - 5 * 0.01 * 8  # the last round spent what was left, to one seed


def _on(run_dir, backend):
    return lambda jobs, desc: R.run_sweep(fake_job, jobs, run_dir, backend, progress=False)


@pytest.mark.parametrize("after", [7, 20])
def test_a_killed_race_resumes_to_the_identical_table(tmp_path, after):
    whole = _race(budget=400)
    man = {"kind": "toy race"}
    rd = R.RunDir(tmp_path / "run", man, resume=False)
    with pytest.raises(KeyboardInterrupt):
        _race(_on(rd, Killed(after)), budget=400)
    assert len(rd.finished()) == after
    ran = []

    def job(payload):
        ran.append(payload)
        return fake_job(payload)

    again = _race(lambda jobs, desc: R.run_sweep(
        job, jobs, R.RunDir(tmp_path / "run", man, True), J.LocalBackend(1), progress=False),
        budget=400)
    assert len(ran) == whole.jobs - after  # the finished jobs were reused
    assert RC.format_table(again) == RC.format_table(whole)
    assert again.rounds == whole.rounds and again.stopped == whole.stopped


def worker_pid(payload: dict) -> dict:
    import os

    return {"pid": os.getpid()}


def test_the_local_pool_keeps_its_workers_from_round_to_round():
    # a race runs one batch of jobs per round: a pool spawned per round would load the
    # kernels again in every round
    jobs = [J.Job(f"j{i}", {"i": i}) for i in range(6)]
    with J.LocalBackend(2) as pool:
        first = {r["pid"] for _, r in pool.run(worker_pid, jobs)}
        second = {r["pid"] for _, r in pool.run(worker_pid, jobs)}
    assert second <= first and len(first) <= 2
    with pool:  # closed: a new pool
        third = {r["pid"] for _, r in pool.run(worker_pid, jobs)}
    assert not third & first
