"""The action lines of a beam's states, kept as layers of parent pointers.

A beam of width W over some 70 layers would copy W lines of up to 250 actions per layer if
every child held its own list; ``Lines`` stores each layer's actions once (flat, with
offsets) and each state's parent index, and builds a line only when it is read.
"""

from __future__ import annotations

import numpy as np


class Lines:
    """The action lines of a beam's states, stored as layers of parent pointers: line i of a
    layer is its parent's line and then this layer's actions of state i (no per-child list
    copies; a line is only built when it is read)."""

    def __init__(self, roots: list[list[int]], prev: Lines | None = None,
                 parent: np.ndarray | None = None, flat: np.ndarray | None = None,
                 offsets: np.ndarray | None = None):
        self.roots, self.prev, self.parent, self.flat, self.offsets = (roots, prev, parent,
                                                                        flat, offsets)

    def extend(self, parent: np.ndarray, flat: np.ndarray, offsets: np.ndarray) -> Lines:
        """The next layer: state j continues line parent[j] by flat[offsets[j]:offsets[j+1]]."""
        return Lines(self.roots, self, parent, flat, offsets)

    def __getitem__(self, i: int) -> list[int]:
        parts = []
        node = self
        while node.prev is not None:
            parts.append(node.flat[node.offsets[i]:node.offsets[i + 1]])
            i = int(node.parent[i])
            node = node.prev
        line = list(node.roots[i])
        for part in reversed(parts):
            line += part.tolist()
        return line
