"""Options that several commands share, each a decorator (click's own pattern): the
variant, seed, budget (--beam, --time-limit, --nodes), output, --weights, --json, rule
profile, parallelism (--jobs, --cluster), --quiet and the position to search from. An option
that commands declare with different defaults or meanings takes them as parameters, e.g.
``variant_option(required=True)``, ``variant_option(default="ireland")``.

Each loader turns an option's value into the object the search takes or exits 2 with one
message naming the option (nothing has been written by then). The exits every command
shares: :func:`failing` (listed errors: one message, exit 2), :func:`check_outputs` (the one
output-path check, before any work), :func:`stopped` (a signal: exit 128 + its number, 130
or 143) and :func:`unsaved` (a file that could not be written after the work, exit 1).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click
from click.core import ParameterSource

VARIANTS = ("ireland", "france")
PROFILES = ("rulebook",)


def fail(command: str, message: str):
    """One message on stderr, exit 2 (a bad argument or output path: nothing written)."""
    click.echo(f"{command}: {message}", err=True)
    sys.exit(2)


@contextmanager
def failing(command: str, *errors: type[Exception]):
    """Any of ``errors`` raised in the block: its message on stderr, exit 2."""
    try:
        yield
    except errors as e:
        fail(command, str(e))


def check_outputs(command: str, *paths, what: str | None = None) -> None:
    """Exit 2 with one message, before any work, unless a file can be written at each of
    ``paths`` (None: no file asked for; ``what`` names the file in the message)."""
    from solver.search import records

    with failing(command, records.OutputError):
        for p in paths:
            if p is not None:
                records.check_writable(p, what)


def stopped(message: str, signal_name: str):
    """A command a signal stopped: ``message`` on stderr, exit 130 (SIGINT) or 143
    (SIGTERM), 128 + the signal's number."""
    from solver.search.solo import exit_status

    click.echo(message, err=True)
    sys.exit(exit_status(signal_name))


# ===== the options ==============================================================================

def variant_option(*, required: bool = False, default: str | None = None,
                   allow_both: bool = False, help: str = "Game variant."):
    """Add --variant: ``required``, or ``default`` (None: the command finds it elsewhere);
    ``allow_both``: "both" is a choice too."""
    choices = VARIANTS + (("both",) if allow_both else ())
    return click.option("--variant", type=click.Choice(choices), required=required,
                        default=default, show_default=default is not None, help=help)


def seed_option(help: str, *, default: int = 0):
    """Add --seed S; ``help`` says what the seed seeds."""
    return click.option("--seed", type=int, default=default, show_default=True, help=help)


def beam_option(*, default: int | None = None, help: str):
    """Add --beam W, the beam's width (``default`` None: no fixed-width beam unless given)."""
    return click.option("--beam", type=click.IntRange(min=1), default=default,
                        show_default=default is not None, help=help)


def time_limit_option(help: str):
    """Add --time-limit SEC (default: none)."""
    return click.option("--time-limit", type=click.FloatRange(min=0, min_open=True),
                        default=None, help=help)


def nodes_option(help: str, *, allow_zero: bool = False):
    """Add --nodes N, a node budget such as 20M (``allow_zero``: 0 switches it off)."""
    return click.option("--nodes", type=NodeCount(allow_zero=allow_zero), default=None,
                        help=help)


def out_option(help: str):
    """Add --out FILE, the path of what the command writes."""
    return click.option("--out", type=click.Path(dir_okay=False), default=None, help=help)


def json_option(help: str = "Print one JSON object instead of text."):
    """Add --json (print JSON instead of text)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def profile_option(profiles: tuple[str, ...] = PROFILES, help: str = "Rule profile."):
    """Add --profile, one of ``profiles`` (default rulebook)."""
    return click.option("--profile", type=click.Choice(profiles), default="rulebook",
                        show_default=True, help=help)


def position_options(f=None, *, nrpa: bool = False):
    """Add --from / --at-round / --moves / --opening (a position to search from) to a command
    (``nrpa``: the command's --nrpa reads --from as a seed line; the help says so)."""
    if f is None:
        return lambda g: position_options(g, nrpa=nrpa)
    seeding = (" With --nrpa: the line must be a complete game; it seeds the search (its "
               "best sequence and policy), and --at-round / --moves keep its start fixed."
               if nrpa else "")
    f = click.option("--opening", default=None, metavar='"CMD; CMD; ..."',
                     help="Start after these kennerspiel moves (one turn ends with COMMIT).")(f)
    f = click.option("--moves", "prefix_moves", type=click.IntRange(min=0), default=None,
                     help="Cut the --from line after this many moves (actions of a results "
                          "record, moves of a move list).")(f)
    f = click.option("--at-round", type=click.IntRange(min=1), default=None,
                     help="Cut the --from line at the first turn of this round.")(f)
    f = click.option("--from", "from_file", type=click.Path(dir_okay=False), default=None,
                     help="Start from a line: a results record, a solo game record (corpus "
                          "schema) or a kennerspiel move list, one command per line."
                          + seeding)(f)
    return f


def position_words(from_file, at_round, prefix_moves, opening, quote_opening: bool):
    """The position options as the (option, value) pairs of a record's command line
    (``quote_opening``: the opening in JSON's quotes, as solo's records keep it)."""
    if quote_opening and opening is not None:
        opening = json.dumps(opening)
    return [("--from", from_file), ("--at-round", at_round), ("--moves", prefix_moves),
            ("--opening", opening)]


def old_spelling_option(old: str, new: str, **attrs):
    """Add ``old``, an earlier spelling of option ``new`` that still works but is not listed
    in --help; the command takes its value with :func:`old_spelling`."""
    return click.option(old, hidden=True, default=None, help=f"The old spelling of {new}.",
                        **attrs)


def old_spelling(old: str, value, new: str, new_value):
    """The value of option ``new``: ``value`` if it was given as ``old``, else ``new_value``
    (UsageError if both spellings are given)."""
    if value is None:
        return new_value
    ctx = click.get_current_context()
    name = next(p.name for p in ctx.command.params if new in p.opts)
    if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
        raise click.UsageError(f"{old} is the old spelling of {new}: give one of them")
    return value


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


def weights_option(f):
    """Add --weights FILE (a weights file of `ora-solve tune`) to a command."""
    return click.option("--weights", "weights_file", type=click.Path(dir_okay=False),
                        default=None,
                        help="Evaluation weights file (written by `ora-solve tune`): its "
                             "weighting leads the search's portfolio (the first group, the "
                             "probe and the polish of the beam; MCTS's tree; NRPA), the "
                             "hand-set weightings follow.")(f)


# ===== values and messages ======================================================================

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


def make_backend(command: str, workers: int | None, cluster: str | None):
    """The backend of --jobs / --cluster (solver.jobs.make_backend); exit 2 with one
    message if Ray is missing or the cluster cannot be reached."""
    from solver import jobs as J

    with failing(command, J.BackendError):
        return J.make_backend(workers, cluster)


def load_weights(path: str | None, variant: str, command: str):
    """The weights file at ``path`` (None if none); exit 2 with one message if it cannot be
    used for ``variant``."""
    if path is None:
        return None
    from solver.search.evaluation.weights import WeightsError, load

    try:
        return load(path, variant)
    except WeightsError as e:
        fail(f"ora-solve {command}", f"--weights: {e}")


def echo_rounds(record: dict) -> None:
    """A results record's line, one output line per round, buildings named."""
    from solver.rules.names import with_names

    for part in record["rounds"]:
        click.echo(f"{part['when']}: " + "; ".join(with_names(a) for a in part["actions"]))
