"""A sweep's run directory: a job is one candidate searched with one seed under a budget.

``run_sweep(jobs, run_dir, backend)`` runs the jobs not yet finished in ``run_dir`` on a
backend (solver/jobs) and saves each result there as soon as it completes (one JSON file per
job, written through a temporary file and renamed, so a file is either whole or absent).
Ctrl-C, SIGTERM (under :class:`SignalsStop`) or a crash therefore loses at most the jobs that
were running; the same sweep with ``resume`` runs only the rest. A job that cannot be saved (a
full disk) stops the sweep at once with records.Unsaved: the job's result is in the fallback
file, the jobs saved before it stay. A run directory holds a ``sweep.json`` manifest (the
sweep's description); resuming a different sweep in it is refused.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

from solver.jobs import Backend, Job
from solver.search import records

MANIFEST = "sweep.json"


class SweepError(ValueError):
    """A run directory that cannot be used (another sweep's, unwritable, ...)."""


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
