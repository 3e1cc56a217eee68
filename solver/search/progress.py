"""Progress bars that suit where they go: every command's bar is made by :func:`bar`.

On a terminal a bar is an ordinary tqdm bar, redrawn in place. Anywhere else (a file under
``nohup``, CI, a Ray worker's log) it is a log: one plain line at the start, then at most one
every ``LOG_INTERVAL`` seconds, and the last at the end, each ending in a newline (no carriage
returns, no cursor moves), so that a run of an hour writes a few hundred lines, not
thousands of redraws. ``quiet`` (the commands' ``--quiet``) silences a bar altogether.
"""

from __future__ import annotations

import sys
import time

from tqdm import tqdm

LOG_INTERVAL = 30.0  # seconds between a log's progress lines: a 10-minute run writes ~20


def on_terminal(file) -> bool:
    """Whether ``file`` is a terminal (a bar can redraw itself in place there)."""
    try:
        return bool(file.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


class Bar(tqdm):
    """A tqdm bar that, off a terminal, writes a line at most every ``LOG_INTERVAL`` seconds
    however often it is updated or refreshed (tqdm's ``mininterval`` alone does not hold back
    an explicit ``refresh()``, which the searches' bars call after every layer)."""

    def __init__(self, *args, **kwargs):
        file = kwargs.setdefault("file", sys.stderr)
        self.log = not on_terminal(file)
        self._lines = 0  # lines written so far (log mode)
        if self.log:
            kwargs.update(mininterval=LOG_INTERVAL, maxinterval=LOG_INTERVAL,
                          dynamic_ncols=False)
        super().__init__(*args, **kwargs)

    def refresh(self, nolock=False, lock_args=None):
        if self.log and self._lines and \
                time.time() - self.last_print_t < LOG_INTERVAL:
            return False
        shown = super().refresh(nolock=nolock, lock_args=lock_args)
        if self.log and shown:
            self.last_print_t = time.time()
        return shown

    def display(self, msg=None, pos=None):
        if not self.log:
            return super().display(msg=msg, pos=pos)
        if msg == "":  # a request to clear the bar: a log keeps its lines
            return True
        # the newline goes before each line after the first: tqdm's close() ends the last
        self.fp.write(("\n" if self._lines else "") + (self.__str__() if msg is None else msg))
        self.fp.flush()
        self._lines += 1
        return True

    def clear(self, nolock=False):
        if not self.log:
            super().clear(nolock=nolock)


def bar(*, quiet: bool = False, **kwargs) -> Bar:
    """A progress bar on stderr (tqdm's arguments), silent if ``quiet``, a log off a
    terminal."""
    kwargs.setdefault("file", sys.stderr)
    kwargs["disable"] = quiet or kwargs.get("disable", False)
    return Bar(**kwargs)
