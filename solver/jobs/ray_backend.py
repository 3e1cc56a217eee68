"""The Ray backend of the job runner: every job of a sweep one Ray task on a cluster.

:func:`connect` is what ``--cluster ADDRESS`` (or ``RAY_ADDRESS``) builds, through
:func:`solver.jobs.make_backend`; ``ray`` is imported inside it, so the local pool
never loads Ray. The address is checked before anything is written: Ray missing, no cluster
found for ``auto``, or a port nobody answers on is one :class:`BackendError`.

A worker process behaves like a local pool worker. Its first task imports the solver, which
points Numba at the cache directory of *its* node (``~/.cache/ora-solve/numba/<hash of the
sources installed there>``, or the same under the node's temporary directory if its home is
not writable: solver/fast/_cache.py), and each result carries the hash of the node's sources:
a node with another version installed is refused, since its lines could differ. It
runs each job with ``THREADS`` Numba threads, reserving as many CPUs, and the job's warm-up
(:class:`solver.jobs.Task`) runs once per process, not per task. The workers stay up
between tasks, so later tasks start warm.

A task whose worker process dies (killed, out of memory, its node lost) is retried up to
``MAX_RETRIES`` times; an exception raised by the job itself is not retried and stops the
sweep, as it does on the local pool. Results are handed back in completion order, so the
sweep saves each as it arrives and ``--resume`` works as it does locally.

Test hook: a worker whose environment has ``ORA_SOLVE_TEST_KILL_ONCE=PATH`` kills its own
process (SIGKILL) at the start of a task if it can rename the file PATH to ``PATH.fired``;
the rename succeeds once, so exactly one task loses its worker (tests/jobs/test_ray_backend.py).
"""

from __future__ import annotations

import contextlib
import os
import socket
import time

from .backend import Backend, BackendError, warm_ups

MAX_RETRIES = 3  # runs of a task beyond the first when its worker dies
THREADS = 1  # Numba threads (and CPUs reserved) per task: a cluster runs jobs side by side
CONNECT_TIMEOUT = 5.0  # seconds to wait for the cluster's port to answer
KILL_HOOK = "ORA_SOLVE_TEST_KILL_ONCE"


def connect(address: str, workers: int | None = None) -> RayBackend:
    """Join the Ray cluster at ``address`` (``host:port``, ``auto``, or ``ray://host:port``);
    ``workers``: at most this many tasks at once (default: as many as the cluster has CPUs
    for). BackendError naming the problem if Ray is missing or the cluster is out of reach."""
    from importlib.util import find_spec

    missing = BackendError(f"--cluster {address}: Ray is not installed here: "
                           "pip install 'ora-solve[cluster]'")
    if find_spec("ray") is None:
        raise missing
    if address != "auto":  # checked before Ray is imported (seconds)
        _check_reachable(address, _target(address))
    try:
        import ray
    except ImportError:
        raise missing from None
    if address == "auto":
        _check_reachable(address, _target(address))
    owned = not ray.is_initialized()
    if owned:
        import logging

        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except Exception as e:  # noqa: BLE001  (Ray raises ConnectionError, RuntimeError, ...)
            raise BackendError(f"cannot join the Ray cluster at {address}: "
                               f"{_first_line(e)}") from None
    return RayBackend(ray, address, workers, owned)


def _target(address: str) -> str:
    """The ``host:port`` behind an address (``auto``: the cluster ``ray start`` runs here)."""
    if address == "auto":
        from ray._private import services

        try:
            found = services.canonicalize_bootstrap_address("auto")
        except Exception as e:  # noqa: BLE001
            raise BackendError(f"--cluster auto: {_first_line(e)}") from None
        if not found:
            raise BackendError("--cluster auto: no Ray cluster is running on this machine "
                               "(start one with `ray start --head`)")
        return found
    rest = address.split("://", 1)[1] if "://" in address else address
    return rest.split("/", 1)[0]


def _check_reachable(address: str, target: str) -> None:
    """BackendError unless something answers on the target's port (Ray itself would retry
    for minutes)."""
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise BackendError(f"--cluster {address}: not a Ray address (give HOST:PORT, e.g. "
                           "10.0.0.1:6379, or auto)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT).close()
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        where = address if target == address else f"{address} ({target})"
        raise BackendError(f"cannot reach the Ray cluster at {where}: {why}; is "
                           "`ray start --head` running there?") from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


class RayBackend(Backend):
    """Each job a Ray task (``THREADS`` CPUs, retried when its worker dies), handed back in
    completion order."""

    def __init__(self, ray, address: str, workers: int | None, owned: bool):
        from solver.fast._cache import cache_key

        self.ray, self.address, self.owned = ray, address, owned
        self.limit = workers  # tasks in flight (None: all, Ray queues them)
        self.cpus = int(ray.cluster_resources().get("CPU", 0))
        self.nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        self.workers = workers or max(1, self.cpus // THREADS)
        self.key = cache_key()  # the driver's sources: every worker must have the same
        self.stats: list[dict] = []  # per finished task: worker pid, node, warm-ups, seconds

    def describe(self) -> str:
        cap = f", at most {self.limit} tasks at once" if self.limit else ""
        return (f"Ray cluster at {self.address} ({self.nodes} nodes, {self.cpus} CPUs, "
                f"{THREADS} per task{cap})")

    def run(self, fn, jobs):
        ray = self.ray
        remote = ray.remote(_task).options(num_cpus=THREADS, max_retries=MAX_RETRIES,
                                           retry_exceptions=False)
        queue, pending = list(jobs), {}
        cap = self.limit or max(1, len(queue))
        finished = False
        try:
            while queue or pending:
                while queue and len(pending) < cap:
                    job = queue.pop(0)
                    pending[remote.remote(fn, job.payload)] = job
                # a timeout, so that Ctrl-C is seen between waits
                done, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
                for ref in done:
                    job = pending.pop(ref)
                    result, meta = self._get(ref, job)
                    self.stats.append(meta | {"key": job.key})
                    yield job, result
            finished = True
        finally:
            if not finished:  # Ctrl-C, an error, or the consumer stopped: drop the rest
                for ref in pending:
                    with contextlib.suppress(Exception):  # already finished or gone
                        ray.cancel(ref, force=True)

    def _get(self, ref, job):
        ray = self.ray
        try:
            result, meta = ray.get(ref)
        except ray.exceptions.RayTaskError:
            raise  # the job's own error (also an instance of its class), as on the pool
        except ray.exceptions.RayError as e:
            raise BackendError(f"job {job.key} failed on the cluster after "
                               f"{MAX_RETRIES + 1} tries: {_first_line(e)}") from None
        if meta["sources"] != self.key:
            raise BackendError(f"node {meta['node']} runs other ora-solve sources than this "
                               f"machine (kernel hash {meta['sources']}, here {self.key}): "
                               "install the same version on every node")
        return result, meta

    def close(self) -> None:
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()


# ===== on the worker ============================================================================

_WORKER: dict = {}  # this worker process's setup (done on its first task)


def _setup() -> dict:
    """Once per worker process: where its Numba cache is (importing solver.fast pointed it
    at the node's own directory, solver/fast/_cache.py) and the hash of its sources."""
    if not _WORKER:
        import numba

        from solver.fast import _cache

        _WORKER.update(pid=os.getpid(), node=socket.gethostname(), sources=_cache.cache_key(),
                       cache=str(numba.config.CACHE_DIR), tasks=0)
    return _WORKER


def _kill_hook() -> None:
    """The test hook of the module docstring."""
    path = os.environ.get(KILL_HOOK)
    if path:
        try:
            os.rename(path, path + ".fired")
        except OSError:
            return
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def _task(fn, payload: dict):
    """One job on a worker: (its result, what the worker did)."""
    import numba

    state = _setup()
    _kill_hook()
    numba.set_num_threads(max(1, min(THREADS, numba.config.NUMBA_NUM_THREADS)))
    warm = warm_ups()
    t0 = time.perf_counter()
    result = fn(payload)
    state["tasks"] += 1
    return result, {"pid": state["pid"], "node": state["node"], "sources": state["sources"],
                    "cache": state["cache"], "task": state["tasks"],
                    "warmed": warm_ups() - warm,
                    "seconds": round(time.perf_counter() - t0, 3)}
