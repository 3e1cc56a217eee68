"""The job runner: jobs, each a deterministic function of a JSON payload, run on a backend.

A backend only has to call ``fn(payload)`` for each job and hand back each result as it
completes: :class:`LocalBackend` uses a process pool (or the calling process for one job at a
time), :class:`solver.jobs.ray_backend.RayBackend` a Ray cluster. :func:`make_backend` is
the one place a command builds its backend (``--jobs``, ``--cluster`` / ``RAY_ADDRESS``); Ray
is imported only when a cluster is asked for. Results never depend on the backend or the
number of workers: every job is a deterministic function of its payload. A :class:`Task` is a
job function with the warm-up its worker processes run once (loading the kernels).

The runner sits beside solver.search and below solver.research, and imports neither: ``tune``
scores its candidates as jobs, the sweeps save theirs in a run directory
(solver/research/rundir.py), and each hands in its own job function.
"""

from __future__ import annotations

import os

from .backend import Backend, BackendError, Job, Task, warm_ups
from .local import LocalBackend, ordered_map

__all__ = ["Backend", "BackendError", "Job", "LocalBackend", "Task", "make_backend", "ordered_map",
           "warm_ups"]


def make_backend(workers: int | None = None, cluster: str | None = None) -> Backend:
    """The backend every command runs its jobs on: the Ray cluster at ``cluster`` (or at
    ``$RAY_ADDRESS``; ``auto``: the one ``ray start`` runs on this machine), else the local
    pool of ``workers`` processes. BackendError if Ray is missing or out of reach."""
    address = (cluster or os.environ.get("RAY_ADDRESS") or "").strip()
    if not address:
        return LocalBackend(workers)
    from .ray_backend import connect

    return connect(address, workers)
