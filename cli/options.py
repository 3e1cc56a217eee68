"""Options that several commands share: parallelism (--jobs, --cluster), --weights and
--quiet; and how a command reports a file it could not write (:func:`unsaved`).

Each option is a decorator, and each loader turns its value into the object the search takes
or exits 2 with one message naming the option (nothing has been written by then).
"""

from __future__ import annotations

import sys

import click


def fail(command: str, message: str):
    click.echo(f"{command}: {message}", err=True)
    sys.exit(2)


def score_text(sc: dict) -> str:
    """A record's score as one phrase: "N points (goods g, economic e, dwelling d)"."""
    return (f"{sc['total']} points (goods {sc['goods']}, economic {sc['economic']}, "
            f"dwelling {sc['dwelling']})")


def parse_seeds(text: str, param_hint: str = "--seeds", allow_empty: bool = False) -> list[int]:
    """A comma-separated list of distinct seeds (BadParameter naming ``param_hint``)."""
    try:
        seeds = [int(s) for s in text.split(",") if s.strip() != ""]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of integers",
                                 param_hint=param_hint) from None
    if (not seeds and not allow_empty) or len(set(seeds)) != len(seeds):
        raise click.BadParameter("give at least one seed, each once", param_hint=param_hint)
    return seeds


class NodeCount(click.ParamType):
    """A count of children such as 20000000, 20M, 500k or 2G (k, M, G: powers of 1000)."""

    name = "N"
    SUFFIXES = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}

    def __init__(self, allow_zero: bool = False):
        self.allow_zero = allow_zero  # 0 means "none" where the option can be switched off

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip()
            digits, suffix = (text[:-1], text[-1].lower()) if text[-1:].isalpha() else (text, "")
            if suffix not in self.SUFFIXES or not digits.isdigit():
                self.fail(f"{value!r} is not a count of nodes (e.g. 20000000, 20M, 500k)",
                          param, ctx)
            n = int(digits) * self.SUFFIXES[suffix]
        least = 0 if self.allow_zero else 1
        if n < least:
            self.fail(f"{value!r}: the node budget must be at least {least}", param, ctx)
        return n


def unsaved(command: str, e, more: str = "") -> None:
    """A file that could not be written after the work that made it (records.Unsaved): its
    text on stdout when no fallback took it, one line on stderr saying where it is
    (``more``: what else the user should know), exit 1."""
    if e.kept is None and e.text is not None:
        click.echo(e.text, nl=not e.text.endswith("\n"))
    click.echo(f"{command}: {e}{more}", err=True)
    sys.exit(1)


def quiet_option(f):
    """Add --quiet (no progress bars; off a terminal they are a line every 30 s anyway)."""
    return click.option("--quiet", is_flag=True,
                        help="No progress bars (messages and results are still printed; "
                             "off a terminal a bar writes a line at most every 30 s).")(f)


def jobs_option(f):
    """Add --jobs N (the local pool's worker processes; on a cluster, tasks at once)."""
    return click.option("--jobs", "workers", type=click.IntRange(min=1), default=None,
                        help="Worker processes (default: all cores); with --cluster, at most "
                             "this many tasks at once (default: one per cluster CPU).")(f)


def cluster_option(f):
    """Add --cluster ADDRESS (run each job as a task on a Ray cluster)."""
    return click.option("--cluster", default=None, metavar="ADDRESS",
                        help="Run each job as a task on the Ray cluster at ADDRESS (HOST:PORT "
                             "of its head; auto: the cluster `ray start` runs on this machine). "
                             "Default: $RAY_ADDRESS if set, else the local pool. Needs "
                             "ora-solve[cluster] on every node.")(f)


def make_backend(command: str, workers: int | None, cluster: str | None):
    """The backend of --jobs / --cluster (solver.jobs.make_backend); exit 2 with one
    message if Ray is missing or the cluster cannot be reached."""
    from solver import jobs as J

    try:
        return J.make_backend(workers, cluster)
    except J.BackendError as e:
        fail(command, str(e))


def weights_option(f):
    """Add --weights FILE (a weights file of `ora-solve tune`) to a command."""
    return click.option("--weights", "weights_file", type=click.Path(dir_okay=False),
                        default=None,
                        help="Evaluation weights file (written by `ora-solve tune`): its "
                             "weighting leads the search's portfolio (the first group, the "
                             "probe and the polish of the beam; MCTS's tree; NRPA), the "
                             "hand-set weightings follow.")(f)


def load_weights(path: str | None, variant: str, command: str):
    """The weights file at ``path`` (None if none); exit 2 with one message if it cannot be
    used for ``variant``."""
    if path is None:
        return None
    from solver.search.evaluation.weights import WeightsError, load

    try:
        return load(path, variant)
    except WeightsError as e:
        click.echo(f"ora-solve {command}: --weights: {e}", err=True)
        sys.exit(2)


def echo_rounds(record: dict) -> None:
    """A results record's line, one output line per round, buildings named."""
    from solver.research.names import with_names

    for part in record["rounds"]:
        click.echo(f"{part['when']}: " + "; ".join(with_names(a) for a in part["actions"]))
