"""Compiled playouts over the beam's whole turns, one module per searcher.

* ``beam_playouts``: MCTS's playouts, narrow beams of the beam search's layers
  (``beam_playouts`` runs a batch in parallel; ``MAX_WIDTH`` is the widest).
* ``softmax_playouts``: NRPA's moves: the move codes its policy is keyed by
  (``move_codes``), and playouts that pick each turn from the softmax of the evaluations.
"""
