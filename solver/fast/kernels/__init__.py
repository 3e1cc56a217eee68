"""Numba kernels of the fast solo engine, one module per concern.

Imports run one way: ``board``, ``goods``, ``wheel``, ``frames`` (no kernel of another
module) -> ``options`` -> ``resolve`` -> ``legal`` -> ``step`` -> ``api``. Every kernel works
on plain arrays: the wide state ``W`` (layout.py) and, as its first argument when it reads
any, the tables ``T`` (tables.Tables). Constants come from ids.py and layout.py only
(literals, so Numba's cache can never hold a stale copy). Actions are canonical ids
(solver/rules/canonical.py), whose meaning and folding rules these kernels implement a second
time, independently of the reference engine; ``ora-solve selfcheck`` proves the two equal step
by step. ``NUMBA_DISABLE_JIT=1`` turns every kernel back into plain Python for debugging.

Every kernel that allocates nothing is compiled with ``_nrt=False``: no reference counting of
the arrays it is passed or slices. Numba otherwise increments and decrements an array's count
(an atomic instruction) at every call and slice, and that was about half the time of a beam
expansion (perf, commit d5f78e9). Such a kernel cannot allocate, return an array or copy a
slice into a slice (write the loop); the few that allocate say ``_nrt=True``, so that they do
not inherit ``_nrt=False`` from a kernel that calls them.
"""
