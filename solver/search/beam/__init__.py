"""Beam search over the canonical action space on the fast engine.

Entry points:

* ``beam_search`` (stages.py): beams of one total width in two stages, strategy groups under
  different weightings, then an endgame polish that restarts a wide beam from late rounds of
  the best lines;
* ``timed_beam_search`` (schedule.py): the same stages fitted to a time or node budget, what
  ``ora-solve solo`` runs; ``warm_up`` loads its kernels before a timed run;
* ``run_beam`` (run.py): one beam under one weighting, from the start or a position;
  ``state_at_round`` and ``wide_start`` give the positions a beam restarts from.

The internals: expansion.py (the compiled turn expansion, one layer's kernels), policy.py
(what the turn search tries), selection.py (which children a layer keeps, the plan cap),
lines.py (the lines as parent pointers).
"""

from .run import run_beam, state_at_round, wide_start
from .schedule import timed_beam_search, warm_up
from .stages import beam_search

__all__ = ["beam_search", "run_beam", "state_at_round", "timed_beam_search", "warm_up",
           "wide_start"]
