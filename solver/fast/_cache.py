"""Where Numba caches the compiled kernels: one directory per version of everything they may
have frozen.

Numba checks a cached function against its own file only: not against the functions it calls
in other files, nor against globals it froze from other modules. So the cache directory is
keyed on a hash of **every source and data file under solver/, recursively** (kernels/ and
every other package holding ``@njit`` code; the rules modules, registries and data files that
tables.py and ids.py mirror): any change there compiles afresh into a new directory. Two rules
keep this from being the only guard: kernel constants are literals in ids.py (held equal to
the rules modules by tests/fast/test_kernels.py), and everything read from the rules is a table
passed in as an argument (tables.py). tests/fast/test_cache.py shows the whole: it reorders two
effect registrations in a copy of the tree with a warm cache, and selfcheck stays clean.

The cache stays out of the source tree (``$XDG_CACHE_HOME/ora-solve/numba/<hash>``, default
``~/.cache``; if that is not writable, as for a cluster node's service account, the same under
the temporary directory). Setting ``NUMBA_CACHE_DIR`` overrides all of this. Every process,
and so every worker of a sweep on any node, configures this when it imports solver.fast.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba

_SOLVER = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".csv", ".toml", ".json")


def kernel_sources() -> list[Path]:
    """Every file under solver/ the compiled kernels may depend on, in a fixed order."""
    return sorted(p for p in _SOLVER.rglob("*")
                  if p.suffix in SUFFIXES and p.is_file() and "__pycache__" not in p.parts)


def cache_key() -> str:
    """The hash of kernel_sources(): their paths relative to solver/ and their bytes."""
    digest = hashlib.sha1()
    for path in kernel_sources():
        digest.update(path.relative_to(_SOLVER).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure_cache() -> str | None:
    """Point Numba's cache at the directory for the current kernel sources; return it."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    key = cache_key()
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # a home that is not writable (a cluster node's service account): the temporary directory
    temp = os.path.join(tempfile.gettempdir(), f"ora-solve-{os.getuid()}")
    for root in (Path(home), Path(temp)):
        target = root / "ora-solve" / "numba" / key
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(target, os.W_OK):
            numba.config.CACHE_DIR = str(target)
            return str(target)
    return None  # nowhere writable: keep Numba's default (beside the sources)
