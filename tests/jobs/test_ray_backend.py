"""The Ray backend (solver/jobs/ray_backend.py) and `--cluster`, on a Ray cluster that
this module starts and stops: one head node with 2 CPUs, on 127.0.0.1 only.

``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` makes Ray take the loopback address as the node's
address (it would otherwise swap 127.0.0.1 for the machine's network address), so the
cluster's ports are bound to 127.0.0.1 and nothing outside this machine can reach them; the
driver (this process) needs the same setting to find its node. The cluster is `ray start
--block` in its own process group, stopped by signalling that process (not `ray stop`, which
would stop every Ray instance on the machine).

The cluster tests skip when Ray is not installed; the local-path and bad-address tests run
either way.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver import jobs as J
from solver.research import positions as P
from solver.research import rundir as R
from solver.research import sweep as SW
from tests.helpers import sweep_table

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
KILL_HOOK = "ORA_SOLVE_TEST_KILL_ONCE"  # solver/jobs/ray_backend.py's test hook
START_TIMEOUT = 240  # seconds for `ray start` (slow on a loaded 2-core machine)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def openings_file(tmp_path_factory) -> Path:
    """Three openings of one turn, as `openings --file` reads them."""
    cands = SW.openings(P.initial("ireland"), 1)[:3]
    f = tmp_path_factory.mktemp("openings") / "three.txt"
    f.write_text("".join(c.moves + "\n" for c in cands))
    return f


def _args(openings_file) -> list[str]:
    return ["openings", "--variant", "ireland", "--file", str(openings_file), "--seeds", "0,1",
            "--beam", "2"]


def _rows(path: Path) -> list[dict]:
    """The record's rows without the per-job seconds (wall time, not part of the table)."""
    rows = json.loads(path.read_text())["rows"]
    for r in rows:
        for run in r["runs"]:
            run.pop("seconds")
    return rows


@pytest.fixture(scope="module")
def local_sweep(openings_file, tmp_path_factory):
    """The sweep on the local pool: its table, rows and CSV."""
    out = tmp_path_factory.mktemp("local") / "local.json"
    res = CliRunner().invoke(main, _args(openings_file) + ["--jobs", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return {"table": sweep_table(res.output), "rows": _rows(out),
            "csv": out.with_suffix(".csv").read_text()}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A Ray head node on 127.0.0.1 with 2 CPUs, its workers able to import this tree and
    armed with the kill hook (a file that does not exist until a test creates it)."""
    if find_spec("ray") is None:
        pytest.skip("ray is not installed (pip install '.[cluster]')")
    ray_exe = Path(sys.executable).with_name("ray")
    if not ray_exe.exists():
        ray_exe = shutil.which("ray")
    temp = tempfile.mkdtemp(prefix="ora-ray-", dir="/tmp")  # short: Ray's socket paths
    kill = tmp_path_factory.mktemp("hook") / "kill-once"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | LOOPBACK
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(ROOT), env.get("PYTHONPATH")) if x)
    env[KILL_HOOK] = str(kill)
    log = Path(temp) / "start.log"
    with open(log, "w") as f:
        proc = subprocess.Popen(
            [str(ray_exe), "start", "--head", "--node-ip-address", "127.0.0.1", "--port",
             str(port), "--num-cpus", "2", "--include-dashboard", "false",
             "--disable-usage-stats", "--temp-dir", temp, "--block"],
            env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    saved = {k: os.environ.get(k) for k in (*LOOPBACK, "RAY_ADDRESS")}
    os.environ.update(LOOPBACK)
    os.environ.pop("RAY_ADDRESS", None)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "Ray runtime started" not in log.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("ray start failed:\n" + log.read_text()[-3000:])
            time.sleep(0.5)
        yield {"address": f"127.0.0.1:{port}", "port": port, "kill": kill}
    finally:
        if "ray" in sys.modules:
            import ray

            if ray.is_initialized():
                ray.shutdown()
        proc.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(temp, ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_cluster_ports_are_on_loopback_only(cluster):
    out = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout \
        if shutil.which("ss") else ""
    if not out:
        pytest.skip("no `ss` to list listening sockets")
    ours = [ln.split()[3] for ln in out.splitlines() if ln.split()[3].endswith(
        f":{cluster['port']}")]
    assert ours and all("127.0.0.1" in a for a in ours), ours


def test_cluster_sweep_gives_the_local_table(cluster, openings_file, local_sweep, tmp_path):
    out = tmp_path / "ray.json"
    res = CliRunner().invoke(main, _args(openings_file)
                             + ["--cluster", cluster["address"], "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"Ray cluster at {cluster['address']} (1 nodes, 2 CPUs, 1 per task)" in res.output
    assert sweep_table(res.output) == local_sweep["table"]
    assert _rows(out) == local_sweep["rows"]
    assert out.with_suffix(".csv").read_text() == local_sweep["csv"]
    assert len(list((tmp_path / "ray.jobs").glob("job-*.json"))) == 6  # saved as they came


def test_workers_warm_once_with_the_node_cache(cluster, tmp_path):
    from solver.fast._cache import cache_key

    pos = P.initial("ireland")
    cands = SW.openings(pos, 1)[:4]
    jobs = SW.make_jobs(pos, cands, [0, 1], 1, None)
    with J.make_backend(None, cluster["address"]) as backend:
        assert backend.workers == 2
        results = R.run_sweep(SW.SEARCH, jobs, R.RunDir(tmp_path / "run", {}, False), backend,
                              progress=False)
        stats = backend.stats
    assert set(results) == {j.key for j in jobs}
    pids = {s["pid"] for s in stats}
    assert len(stats) == 8 and len(pids) <= 2  # the workers are reused between tasks
    for pid in pids:
        mine = sorted((s for s in stats if s["pid"] == pid), key=lambda s: s["task"])
        assert [s["warmed"] for s in mine] == [1] + [0] * (len(mine) - 1)  # first task only
    key = cache_key()
    assert {s["sources"] for s in stats} == {key}
    expected = os.environ.get("NUMBA_CACHE_DIR") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ora-solve" / "numba"
        / key)
    assert {s["cache"] for s in stats} == {expected}


def test_a_killed_worker_is_retried(cluster, openings_file, local_sweep, tmp_path):
    kill = cluster["kill"]
    kill.write_text("the first task to rename this file kills its own worker\n")
    out = tmp_path / "killed.json"
    try:
        res = CliRunner().invoke(main, _args(openings_file)
                                 + ["--cluster", cluster["address"], "--out", str(out)])
    finally:
        kill.unlink(missing_ok=True)
    assert res.exit_code == 0, res.output
    assert kill.with_name(kill.name + ".fired").exists()  # a worker did die
    assert sweep_table(res.output) == local_sweep["table"]
    assert _rows(out) == local_sweep["rows"]


def test_solo_seeds_on_the_cluster_match_the_pool(cluster, tmp_path):
    args = ["solo", "--variant", "ireland", "--beam", "2", "--seeds", "0,1,2", "--json"]
    a = CliRunner().invoke(main, args + ["--jobs", "1", "--out", str(tmp_path / "a.json")])
    b = CliRunner().invoke(main, args + ["--cluster", cluster["address"],
                                         "--out", str(tmp_path / "b.json")])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    ra, rb = (json.loads((tmp_path / n).read_text()) for n in ("a.json", "b.json"))
    assert ra["line"] == rb["line"] and ra["score"] == rb["score"] and ra["seed"] == rb["seed"]
    assert ra["seed_sweep"]["scores"] == rb["seed_sweep"]["scores"]
    assert len(rb["seed_sweep"]["scores"]) == 3 and rb["seed_sweep"]["missing"] == []


def test_the_local_path_never_imports_ray(openings_file, tmp_path):
    out = tmp_path / "local.json"
    code = ("import sys\nfrom cli.main import main\n"
            f"main({_args(openings_file) + ['--jobs', '2', '--out', str(out)]!r}, "
            "standalone_mode=False)\n"
            "assert 'ray' not in sys.modules, 'ray was imported'\nprint('ray not imported')\n")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(ROOT), env.get("PYTHONPATH")) if x)
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "ray not imported" in res.stdout
    assert isinstance(J.make_backend(2, None), J.LocalBackend)


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_cluster_out_of_reach_is_one_error_and_writes_nothing(openings_file, tmp_path,
                                                                monkeypatch, how):
    port = _free_port()  # nothing listens there
    address = f"127.0.0.1:{port}"
    out = tmp_path / "out" / "x.json"
    out.parent.mkdir()
    args = _args(openings_file) + ["--out", str(out)]
    if how == "flag":
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
        args += ["--cluster", address]
    else:
        monkeypatch.setenv("RAY_ADDRESS", address)
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    if find_spec("ray") is None:
        assert lines == [f"openings: --cluster {address}: Ray is not installed here: "
                         "pip install 'ora-solve[cluster]'"]
    else:
        assert lines == [f"openings: cannot reach the Ray cluster at {address}: Connection "
                         "refused; is `ray start --head` running there?"]
    assert list(out.parent.iterdir()) == []


def test_ray_missing_or_a_malformed_address_is_one_error(openings_file, tmp_path,
                                                         monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    out = tmp_path / "x.json"
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: import fails
    res = CliRunner().invoke(main, _args(openings_file) + ["--cluster", "10.0.0.1:6379",
                                                           "--out", str(out)])
    assert res.exit_code == 2
    assert res.output.strip() == ("openings: --cluster 10.0.0.1:6379: Ray is not installed "
                                  "here: pip install 'ora-solve[cluster]'")
    monkeypatch.undo()
    if find_spec("ray") is not None:
        res = CliRunner().invoke(main, _args(openings_file) + ["--cluster", "headnode",
                                                               "--out", str(out)])
        assert res.exit_code == 2
        assert res.output.strip() == ("openings: --cluster headnode: not a Ray address (give "
                                      "HOST:PORT, e.g. 10.0.0.1:6379, or auto)")
    assert not out.exists() and not (tmp_path / "x.jobs").exists()
