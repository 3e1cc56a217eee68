"""Where Numba caches the compiled kernels: one directory per version of the kernel sources.

Numba's on-disk cache is checked against the file of each function, not against the functions
it calls in other files, so an edit to kernels.py could leave beam.py's cached code calling the
old kernels. Keying the cache directory on a hash of every kernel source (solver/fast and
solver/search) rules that out: changed sources compile afresh into a new directory. The cache
also stays out of the source tree (``$XDG_CACHE_HOME/ora-solve/numba/<hash>``, default
``~/.cache``). Setting ``NUMBA_CACHE_DIR`` overrides all of this.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent


def kernel_sources() -> list[Path]:
    """The source files whose functions are compiled by Numba."""
    return sorted(_HERE.glob("*.py")) + sorted((_HERE.parent / "search").glob("*.py"))


def configure_cache() -> str | None:
    """Point Numba's cache at the directory for the current kernel sources; return it."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    digest = hashlib.sha1()
    for path in kernel_sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target = root / "ora-solve" / "numba" / digest.hexdigest()[:16]
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # not writable: keep Numba's default (beside the sources)
    numba.config.CACHE_DIR = str(target)
    return str(target)
