"""How the search scores a position, and where its weights come from.

* ``features``: the evaluation kernels (score so far plus the potential of goods, settlement
  cards and space), the hand-set weightings ``PORTFOLIO`` and the weights' names
  (``WEIGHT_NAMES``, the ``W_*`` indices).
* ``weights``: weights files (``load``), the tuned defaults in ``tuned/<variant>.json``
  (package data) and the portfolio a search starts from, each weighting with the name its
  records give it (``Weighting``; ``default_named``, ``group_named``, ``table_named``,
  ``group_weightings``; ``default_portfolio`` and the like are their bare vectors).
* ``tune``: ``ora-solve tune``, the weight tuner (cross-entropy method, evolution strategy).
* ``settings``: what one tuning run does and its defaults (no NumPy: the CLI reads them).
"""
