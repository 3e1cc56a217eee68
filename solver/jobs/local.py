"""The local backend: the jobs on a process pool of this machine."""

from __future__ import annotations

import os

from .backend import Backend


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
    one worker runs the jobs in the calling process. The pool lives from the first run to
    :meth:`close`, so a race's rounds (or tune's generations) keep their warm workers."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool = None

    def _executor(self):
        if self._pool is None:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            threads = max(1, (os.cpu_count() or 1) // self.workers)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context("spawn"),
                                             initializer=_init_worker, initargs=(threads,))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def run(self, fn, jobs):
        if self.workers == 1 or len(jobs) <= 1:
            for job in jobs:
                yield job, fn(job.payload)
            return
        from concurrent.futures import FIRST_COMPLETED, wait

        pool = self._executor()
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
                self.close()


def ordered_map(fn, items: list, workers: int = 1):
    """``fn`` over ``items``, results in order, in ``workers`` processes when more than one
    (and more than one item), else in this process: for independent pure work such as
    replaying a record's lines on the reference engine."""
    if workers <= 1 or len(items) <= 1:
        yield from map(fn, items)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(fn, items, chunksize=max(1, len(items) // (8 * workers)))
