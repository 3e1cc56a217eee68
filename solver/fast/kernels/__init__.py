"""Numba kernels of the fast solo engine, one module per concern.

Imports run one way: ``board``, ``goods``, ``wheel``, ``frames`` (no kernel of another
module) -> ``options`` -> ``resolve`` -> ``legal`` -> ``step`` -> ``api``. Every kernel works
on plain arrays: the wide state ``W`` (layout.py) and, as its first argument when it reads
any, the tables ``T`` (tables.Tables). Constants come from ids.py and layout.py only
(literals, so Numba's cache can never hold a stale copy). Actions are canonical ids
(solver/rules/canonical.py), whose meaning and folding rules these kernels implement a second
time, independently of the reference engine; ``ora-solve selfcheck`` proves the two equal step
by step. ``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python for debugging.
"""
