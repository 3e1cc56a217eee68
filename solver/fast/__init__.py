"""Fast solo engine: a packed uint64 state and Numba kernels (see layout.py, kernels.py)."""

from ._cache import configure_cache

configure_cache()
