"""Results records: the replayable JSON file a search writes to ``results/``.

A record holds everything needed to check and reproduce a found line: the command, git commit,
package/numba/numpy versions, rule profile (name and every field), search parameters and seed,
nodes expanded, wall time, the score breakdown, and the full line as canonical action ids and
as readable text grouped round by round. :func:`verify_record` replays the line through the
**reference** engine and confirms the score. :func:`command_line` spells the command for every
file that keeps one (solo records, sweeps, weights files, the strength suite's result).

Writing: :func:`output` (through :func:`check_writable`) tells before any work where a
command's file goes and that it can be written there. Every file the package writes
(records, weights files, sweep outputs and jobs, pictures) goes through :func:`save`:
atomically (:func:`write_atomic`: a temp file in the same directory, then a rename), never
replacing an existing file unless told to (it takes the first free name of :func:`free_path`
instead). A write that fails after the work is done (a full
disk, an I/O error, a permission changed meanwhile) does not lose the work: the file goes to
``$TMPDIR/ora-solve-<name>`` instead, and :class:`Unsaved` says where (or that neither place
took it, with the text for the command to print).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from solver.rules import canonical as C
from solver.rules.names import action_text
from solver.rules.profile import RULEBOOK

KIND = "ora-solve solo line"
FORMAT = 1


class RecordError(ValueError):
    """A results file that is not a valid record (message names the problem)."""


class OutputError(ValueError):
    """A path where a record cannot be written (message names the path and why)."""


CODE = Path(__file__).resolve().parent  # where git_commit looks for this code's commit


def git_commit(cwd: str | Path | None = None) -> str:
    """The current git commit (with '-dirty' if tracked files outside results/ have changes:
    records written there do not change the code that made them), or 'unknown'."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=cwd, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ":/", ":(exclude,top)results"],
                               capture_output=True, text=True, cwd=cwd, check=True).stdout
        return sha + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


@lru_cache(maxsize=1)
def code_commit() -> str:
    """The commit of the code this process runs, read at its first call. A command that
    writes a record after long work calls it before the work, so the record names the code
    that did the work, whatever is committed meanwhile."""
    return git_commit(CODE)


def versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in ("ora-solve", "numba", "numpy"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def command_line(command: str, options, quote: bool = False) -> str:
    """The command line a record keeps: ``ora-solve COMMAND`` and each ``(option, value)`` of
    ``options`` in order, nothing for a value None or False, the option alone for True, else
    the option and the value as text (``quote``: every word quoted for a POSIX shell)."""
    words = ["ora-solve", command]
    for option, value in options:
        if value is None or value is False:
            continue
        words += [option] if value is True else [option, str(value)]
    return " ".join(shlex.quote(w) if quote else w for w in words)


def readable_line(variant: str, line: list[int]) -> list[dict]:
    """The line replayed through the reference engine, as text grouped by round, every
    building named (``BUILD Peat Coal Kiln (G07) at (3, 0)``)."""
    state = C.canonical_initial_state(variant)
    rounds: list[dict] = []
    for cid in line:
        label = f"round {state.round}" + (f", settlement {state.g.phase}"
                                          if state.frame and state.frame.kind in
                                          ("settle", "neutral_build", "neutral_contract")
                                          else "")
        text = action_text(state, cid)  # building names as show, solo and the page say them
        if not rounds or rounds[-1]["when"] != label:
            rounds.append({"when": label, "actions": []})
        rounds[-1]["actions"].append(text)
        C.apply_canonical(state, cid)
    return rounds


def make_record(*, command: str, variant: str, algorithm: str, params: dict, seed: int,
                nodes: int, seconds: float, score: tuple, line: list[int],
                stages: list[dict] | None = None, commit: str | None = None) -> dict:
    """Build a results record (verifies nothing; see verify_record). ``stages`` is the
    search's own account of its stages (beam: each group and polish restart with its score);
    ``commit``: the code's commit when the search started (default: the current one). Its
    ``date`` (UTC, when the record was made) is the day results/ files the run under."""
    total, goods, economic, dwelling = (int(v) for v in score)
    return {
        "kind": KIND,
        "format": FORMAT,
        "command": command,
        "commit": git_commit(CODE) if commit is None else commit,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "versions": versions(),
        "variant": variant,
        "profile": RULEBOOK.name,
        "profile_fields": RULEBOOK.describe(),
        "algorithm": algorithm,
        "parameters": params,
        "seed": seed,
        "nodes": int(nodes),
        "wall_seconds": round(float(seconds), 2),
        "score": {"total": total, "goods": goods, "economic": economic, "dwelling": dwelling},
        "line": [int(a) for a in line],
        "rounds": readable_line(variant, line),
    } | ({"stages": stages} if stages else {})


def load_record(path: str | Path) -> dict:
    """Read and check the shape of a record (RecordError naming the problem)."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise RecordError(f"{path} is not an ora-solve solo line record (no kind {KIND!r})")
    for key, typ in (("variant", str), ("line", list), ("score", dict)):
        if not isinstance(data.get(key), typ):
            raise RecordError(f"{path}: field {key!r} is missing or not a {typ.__name__}")
    if data["variant"] not in ("ireland", "france"):
        raise RecordError(f"{path}: unknown variant {data['variant']!r}")
    if not all(isinstance(a, int) for a in data["line"]):
        raise RecordError(f"{path}: field 'line' must be a list of integer action ids")
    for k in ("total", "goods", "economic", "dwelling"):
        if not isinstance(data["score"].get(k), int):
            raise RecordError(f"{path}: score field {k!r} is missing or not an integer")
    return data


def verify_record(data: dict) -> tuple[bool, str, dict]:
    """Replay a record's line through the reference engine.

    Returns (ok, message, replayed score dict). Not ok if an action is illegal, the game does
    not end, or the score differs from the record's.
    """
    state = C.canonical_initial_state(data["variant"])
    for i, cid in enumerate(data["line"]):
        if state.is_terminal():
            return False, f"action {i} ({cid}): the game is already over", {}
        try:
            C.apply_canonical(state, cid)
        except Exception as e:  # RuleError, or a malformed id
            return False, f"action {i} ({cid}, {C.describe_id(cid)}) is illegal: {e}", {}
    return _verdict(data, state.score()[0].as_dict(), state.is_terminal(), state.round)


def _verdict(data: dict, sc: dict, over: bool, rnd: int) -> tuple[bool, str, dict]:
    """A replayed line's verdict once every action applied: the game must be ``over`` (else
    it ended in round ``rnd``) with the record's score ``sc``."""
    if not over:
        return False, f"the line ends in round {rnd} before the game is over", sc
    if sc != data["score"]:
        return False, f"replayed score {sc} differs from the recorded {data['score']}", sc
    return True, f"confirmed: {sc['total']} points", sc


@lru_cache(maxsize=None)
def _fast_engine(variant: str):
    """One fast engine per variant for the screens (building its tables took 1.6 ms, a
    third of a line's screen)."""
    from solver.fast.engine import FastEngine  # the kernels load only when a screen runs

    return FastEngine(variant)


def verify_fast(data: dict) -> tuple[bool, str, dict]:
    """:func:`verify_record` on the fast engine: each action checked against its legal
    actions, the end and the score compared. A screen that takes milliseconds a line, for
    sweeps of thousands; the fast engine equals the reference step by step (tests/fast), and
    the reference stays the judge (``ora-solve replay``)."""
    from solver.fast import layout as L

    e = _fast_engine(data["variant"])
    W = e.initial_wide()
    for i, cid in enumerate(data["line"]):
        if W[L.DONE]:
            return False, f"action {i} ({cid}): the game is already over", {}
        if int(cid) not in set(e.legal_wide(W).tolist()):
            return False, f"action {i} ({cid}, {C.describe_id(cid)}) is illegal", {}
        e.step_wide(W, cid)
    sc = dict(zip(("total", "goods", "economic", "dwelling"), e.score_wide(W)))
    return _verdict(data, sc, bool(W[L.DONE]), int(W[L.ROUND]))


def check_writable(path: str | Path, what: str | None = "the record") -> None:
    """Raise OutputError unless a file can be written at ``path``: not a directory, in an
    existing directory where a file can be created (tried, then removed). The message says
    "cannot write ``what`` to ``path``" (``what`` None: "cannot write ``path``")."""
    path = Path(path)
    parent = path.parent
    head = f"cannot write {what} to {path}" if what else f"cannot write {path}"
    if path.is_dir():
        raise OutputError(f"{head}: it is a directory")
    if not parent.is_dir():
        why = f"{parent} is not a directory" if parent.exists() else f"no directory {parent}/"
        raise OutputError(f"{head}: {why}")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=".ora-solve-check-", suffix=".tmp")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise OutputError(f"{head}: cannot create a file in {parent}/ ({e.strerror})") from None


@dataclass(frozen=True)
class Output:
    """Where a file goes: ``path`` exactly, replacing a file there, if ``explicit``; else
    ``path`` or the first free name after it (``-2``, ``-3``, ...)."""

    path: Path
    explicit: bool


def output(out: str | Path | None, default: Path, *, resume: bool = False,
           what: str = "the record") -> Output:
    """Where a command's file goes, checked before any work (OutputError if it cannot be
    written there): ``out`` if given, replaced if it exists; else ``default``, its directory
    made if missing, under a free name unless ``resume`` (a resumed run writes its own file
    again). ``what`` names the file in the message."""
    if out is not None:
        check_writable(out, what)
        return Output(Path(out), True)
    try:
        default.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create the results directory {default.parent}/: "
                          f"{e.strerror}") from None
    check_writable(default, what)
    return Output(default if resume else free_path(default), resume)


def free_path(path: str | Path) -> Path:
    """``path`` if no file is there, else the first free ``<stem>-2<suffix>``, ``-3``, ..."""
    path = Path(path)
    n = 1
    candidate = path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


class Unsaved(OSError):
    """A file that could not be written where asked, after the work that made it: ``kept`` is
    the fallback it went to instead (None: neither took it), ``text`` its content when it is
    text (for the command to print when nothing took it). The message is one line."""

    def __init__(self, what: str, path: Path, error: OSError, kept: Path | None,
                 fallback: Path, fallback_error: OSError | None, text: str | None):
        super().__init__(error.errno, error.strerror)
        self.what, self.path, self.kept, self.text = what, path, kept, text
        why = error.strerror or str(error)
        if kept is not None:
            self.message = (f"cannot write {what} to {path} ({why}); it was written to "
                            f"{kept} instead")
        else:
            other = fallback_error.strerror or str(fallback_error)
            self.message = (f"cannot write {what} to {path} ({why}), nor to {fallback} "
                            f"({other})" + (": it is printed on stdout" if text is not None
                                            else ": nothing was written"))

    def __str__(self) -> str:
        return self.message


def fallback_path(path: str | Path) -> Path:
    """Where :func:`save` puts a file it cannot write at ``path``: ``ora-solve-<name>`` in the
    temporary directory (``$TMPDIR``, else the system's)."""
    return Path(tempfile.gettempdir()) / f"ora-solve-{Path(path).name}"


def save(path: str | Path, content, *, replace: bool = False,
         what: str = "the record") -> Path:
    """Write ``content`` (str, bytes, or a function writing into a binary file) atomically at
    ``path`` (see :func:`write_atomic`); the path written. If that fails, the content goes to
    :func:`fallback_path` (never replacing a file there) and :class:`Unsaved` says where, or
    that it could not be kept at all; ``what`` names the file in that message."""
    path = Path(path)
    try:
        return write_atomic(path, content, replace=replace)
    except OSError as e:
        error = e
    text = content if isinstance(content, str) else None
    fallback = fallback_path(path)
    try:
        kept = write_atomic(fallback, content)
    except OSError as e:
        raise Unsaved(what, path, error, None, fallback, e, text) from None
    raise Unsaved(what, path, error, kept, fallback, None, text) from None


def record_text(record: dict) -> str:
    """A record as the JSON text written to its file."""
    return json.dumps(record, indent=1) + "\n"


def write_record(record: dict, path: str | Path, replace: bool = False,
                 what: str = "the record") -> Path:
    """Write ``record`` as JSON through :func:`save` (Unsaved if it cannot be written there:
    the record is then in the fallback file, or nowhere); returns the path written."""
    return save(path, record_text(record), replace=replace, what=what)


def write_atomic(path: str | Path, content, replace: bool = False) -> Path:
    """Write ``content`` (str, bytes, or a function writing into a binary file) to a temp
    file in ``path``'s directory, flushed to disk, then move it into place: a file is whole
    or absent. Unless ``replace``, an existing file is never overwritten: the content takes
    the first free name of :func:`free_path` instead. Returns the path written; OSError as
    the system raises it (nothing left behind)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(content):
                content(f)
            else:
                f.write(content.encode() if isinstance(content, str) else content)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        if replace:
            os.replace(tmp, path)
            return path
        while True:
            path = free_path(path)
            try:
                os.link(tmp, path)  # fails if the name was taken meanwhile: never overwrites
            except FileExistsError:
                continue
            except OSError:  # no hard links on this file system
                os.replace(tmp, path)
                return path
            os.unlink(tmp)
            return path
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
