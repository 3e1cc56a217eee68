"""Fast solo engine: a packed uint64 state and Numba kernels.

layout.py (the state's fields), ids.py (literal ids), tables.py (the one table array, from the
rules rows), kernels/ (the kernels by concern), engine.py (FastEngine, the Python entry point),
codec.py (reference State <-> packed), selfcheck.py and bench.py (the CLI's checks).
"""

from ._cache import configure_cache

configure_cache()
