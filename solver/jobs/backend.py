"""What a backend runs: :class:`Job` (a payload and its key), :class:`Task` (a job function
with its warm-up), and the :class:`Backend` interface every backend implements."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass


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
