"""Helpers shared by the research tests."""

from __future__ import annotations

from solver import jobs as J


class Killed(J.LocalBackend):
    """A one-worker local backend that runs ``after`` jobs (counted over all its runs), then
    behaves like Ctrl-C."""

    def __init__(self, after: int):
        super().__init__(1)
        self.after, self.count = after, 0

    def run(self, fn, jobs):
        for job, result in super().run(fn, jobs):
            if self.count == self.after:
                raise KeyboardInterrupt
            self.count += 1
            yield job, result
