"""Search on the fast solo engine: the public API.

* ``beam_search(variant, width, seed, ...)``: beams of a fixed total width (the same line on
  any machine);
* ``timed_beam_search(variant, seconds, seed, ...)``: the same stages fitted to a time or node
  budget (what ``ora-solve solo`` runs);
* ``mcts_search(variant, budget, seed, ...)``: single-player MCTS over whole turns (``budget``
  simulations a turn);
* ``nrpa_search(variant, level, iterations, seed, ...)``: nested rollout policy adaptation;
* ``SearchResult``: what every search returns (score, line, nodes, seconds, stages);
* ``load_weights(path)``: a weights file (``--weights``); ``default_portfolio(variant)``: the
  weightings a search starts from.

The packages behind them: ``beam/`` (the beam and its internals), ``evaluation/`` (features,
weights, tuning), ``playouts/`` (MCTS's and NRPA's compiled playouts), ``mcts``, ``nrpa``,
``common``; the application's side: ``solo`` (the solo job), ``records`` (results files),
``progress``, ``bench/`` (``ora-solve bench``).

The names load on first use (PEP 562), so importing ``solver.search.records`` or
``solver.search.progress`` does not import Numba and the kernels.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .beam import beam_search, timed_beam_search
    from .common import SearchResult
    from .evaluation.weights import default_portfolio
    from .evaluation.weights import load as load_weights
    from .mcts import mcts_search
    from .nrpa import nrpa_search

# public name -> (module, its name there)
_API = {
    "beam_search": (".beam", "beam_search"),
    "timed_beam_search": (".beam", "timed_beam_search"),
    "mcts_search": (".mcts", "mcts_search"),
    "nrpa_search": (".nrpa", "nrpa_search"),
    "SearchResult": (".common", "SearchResult"),
    "load_weights": (".evaluation.weights", "load"),
    "default_portfolio": (".evaluation.weights", "default_portfolio"),
}
__all__ = sorted(_API)


def __getattr__(name: str):
    if name not in _API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _API[name]
    return getattr(import_module(module, __name__), attr)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
