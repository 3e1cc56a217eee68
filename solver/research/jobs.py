"""The job runner of sweeps: a job is one candidate searched with one seed under a budget.

``run_sweep(jobs, run_dir, backend)`` runs the jobs not yet finished in ``run_dir`` on a
:class:`Backend` and saves each result there as soon as it completes (one JSON file per job,
written through a temporary file and renamed, so a file is either whole or absent). Ctrl-C,
SIGTERM (under :class:`SignalsStop`) or a crash therefore loses at most the jobs that were
running; the same sweep with ``resume`` runs only the rest. A job that cannot be saved (a full
disk) stops the sweep at once with records.Unsaved: the job's result is in the fallback file,
the jobs saved before it stay. A run directory holds a ``sweep.json`` manifest (the sweep's
description); resuming a different sweep in it is refused.

A backend only has to call ``fn(payload)`` for each job and hand back each result as it
completes: :class:`LocalBackend` uses a process pool (or the calling process for one job at a
time), :class:`solver.research.ray_backend.RayBackend` a Ray cluster. :func:`make_backend` is
the one place a command builds its backend (``--jobs``, ``--cluster`` / ``RAY_ADDRESS``); Ray
is imported only when a cluster is asked for. Results never depend on the backend or the
number of workers: every job is a deterministic function of its payload. A :class:`Task` is a
job function with the warm-up its worker processes run once (loading the kernels).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from solver.search import records

MANIFEST = "sweep.json"


class SweepError(ValueError):
    """A run directory that cannot be used (another sweep's, unwritable, ...)."""


class BackendError(ValueError):
    """A backend that cannot run the jobs (Ray not installed, a cluster out of reach, a node
    with other sources)."""


@dataclass(frozen=True)
class Job:
    """One unit of a sweep: ``fn(payload)`` must be deterministic and JSON in, JSON out."""

    key: str  # unique within the sweep, usable as a file name
    payload: dict


_WARM_UPS = [0]  # warm-ups done in this process (Task)


def warm_ups() -> int:
    """How many warm-ups this process has run (a worker's evidence that it warms once)."""
    return _WARM_UPS[0]


@dataclass(frozen=True)
class Task:
    """A job function and its warm-up: ``warm(payload)`` loads what ``fn`` needs in the
    calling process and returns True, or returns False at once when that is done already;
    each worker process therefore warms once, not per job. Both must be module-level
    functions (they are pickled by reference to reach the workers)."""

    fn: Callable[[dict], dict]
    warm: Callable[[dict], bool] | None = None

    def __call__(self, payload: dict) -> dict:
        if self.warm is not None and self.warm(payload):
            _WARM_UPS[0] += 1
        return self.fn(payload)


class Backend:
    """Runs jobs; yields (job, result) pairs in completion order."""

    workers: int = 1

    def run(self, fn: Callable[[dict], dict], jobs: list[Job]) -> Iterator[tuple[Job, dict]]:
        raise NotImplementedError

    def describe(self) -> str:
        """Where the jobs run, for the user (``2 workers``)."""
        return f"{self.workers} workers"

    def close(self) -> None:
        """Release what the backend holds (a cluster connection)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def make_backend(workers: int | None = None, cluster: str | None = None) -> Backend:
    """The backend every command runs its jobs on: the Ray cluster at ``cluster`` (or at
    ``$RAY_ADDRESS``; ``auto``: the one ``ray start`` runs on this machine), else the local
    pool of ``workers`` processes. BackendError if Ray is missing or out of reach."""
    address = (cluster or os.environ.get("RAY_ADDRESS") or "").strip()
    if not address:
        return LocalBackend(workers)
    from .ray_backend import connect

    return connect(address, workers)


def _init_worker(threads: int) -> None:
    """Pool initializer: each worker's Numba kernels use ``threads`` threads (so the pool's
    workers do not oversubscribe the cores), and Ctrl-C is left to the parent, which stops
    the workers itself."""
    import signal

    import numba

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


class LocalBackend(Backend):
    """A local process pool of ``workers`` processes (spawned: a clean Numba runtime each);
    one worker runs the jobs in the calling process."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)

    def run(self, fn, jobs):
        if self.workers == 1 or len(jobs) <= 1:
            for job in jobs:
                yield job, fn(job.payload)
            return
        import multiprocessing as mp
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        threads = max(1, (os.cpu_count() or 1) // self.workers)
        pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context("spawn"),
                                   initializer=_init_worker, initargs=(threads,))
        finished = False
        try:
            pending = {}
            queue = list(jobs)
            # keep a few jobs queued per worker, not all: a cancelled sweep stops quickly
            while queue or pending:
                while queue and len(pending) < 2 * self.workers:
                    job = queue.pop(0)
                    pending[pool.submit(fn, job.payload)] = job
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: pending[f].key):
                    job = pending.pop(fut)
                    yield job, fut.result()
            finished = True
        finally:
            if not finished:  # Ctrl-C, an error, or the consumer stopped: drop running jobs
                for proc in list(getattr(pool, "_processes", {}).values()):
                    proc.terminate()
            pool.shutdown(wait=True, cancel_futures=True)


class RunDir:
    """A sweep's directory of finished jobs (one JSON per job) and its manifest."""

    def __init__(self, path: str | Path, manifest: dict, resume: bool):
        self.path = Path(path)
        old = self.path / MANIFEST
        if self.path.exists() and not self.path.is_dir():
            raise SweepError(f"{self.path} exists and is not a directory")
        if old.exists():
            if not resume:
                raise SweepError(f"{self.path} already holds a sweep ({len(self.finished())} "
                                 "jobs finished): pass --resume to finish it, or remove it")
            try:
                found = json.loads(old.read_text())
            except json.JSONDecodeError:
                raise SweepError(f"{old} is not valid JSON") from None
            if found != manifest:
                diff = sorted(k for k in set(found) | set(manifest)
                              if found.get(k) != manifest.get(k))
                raise SweepError(f"{self.path} holds another sweep (it differs in "
                                 f"{', '.join(diff)}): --resume needs the same command")
        else:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise SweepError(f"cannot create {self.path}: {e.strerror}") from None
            try:
                records.write_atomic(old, records.record_text(manifest), replace=True)
            except OSError as e:  # before any job: nothing to keep
                raise SweepError(f"cannot write {old}: {e.strerror}") from None

    def _file(self, key: str) -> Path:
        return self.path / f"job-{key}.json"

    def finished(self) -> dict[str, dict]:
        """Results of the jobs saved so far, by key."""
        out = {}
        for f in sorted(self.path.glob("job-*.json")):
            try:
                data = json.loads(f.read_text())
            except (OSError, json.JSONDecodeError):
                continue  # not a whole file: the job runs again
            out[data["key"]] = data
        return out

    def save(self, key: str, result: dict) -> None:
        """Save one finished job (atomically; records.Unsaved if it cannot be saved here)."""
        records.write_record({"key": key} | result, self._file(key), replace=True,
                             what=f"job {key}")


class SignalsStop:
    """While active, SIGTERM stops the sweep as Ctrl-C does (KeyboardInterrupt); ``name``:
    the signal that stopped it."""

    def __init__(self):
        self.name = "SIGINT"
        self._old = None

    def _term(self, signum, frame):
        self.name = signal.Signals(signum).name
        raise KeyboardInterrupt

    def __enter__(self):
        try:
            self._old = signal.signal(signal.SIGTERM, self._term)
        except ValueError:  # not the main thread
            pass
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGTERM, self._old)


def run_sweep(fn: Callable[[dict], dict], jobs: list[Job], run_dir: RunDir, backend: Backend,
              progress: bool = True, desc: str = "jobs") -> dict[str, dict]:
    """Run every job not yet finished in ``run_dir`` and return all results by key
    (``progress``: a progress bar on stderr)."""
    from solver.search.progress import bar as progress_bar

    keys = [j.key for j in jobs]
    if len(set(keys)) != len(keys):
        raise ValueError("job keys must be unique")
    results = {k: v for k, v in run_dir.finished().items() if k in set(keys)}
    todo = [j for j in jobs if j.key not in results]
    bar = progress_bar(total=len(jobs), initial=len(results), desc=desc, unit=" job",
                       quiet=not progress, dynamic_ncols=True)
    runs = backend.run(fn, todo)
    try:
        for job, result in runs:
            run_dir.save(job.key, result)
            results[job.key] = {"key": job.key} | result
            bar.update(1)
    finally:
        # a stopped sweep (a signal, a job it cannot save) drops the jobs under way now, not
        # when the exception's traceback lets go of the generator
        getattr(runs, "close", lambda: None)()
        bar.close()
    return results
