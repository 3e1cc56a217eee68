"""Search on the fast solo engine: beam search, MCTS, evaluation, result records."""
