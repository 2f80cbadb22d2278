"""Independent, plainly recursive reference values for the core's tests.

Written from the textbook definitions, sharing no code with app.search, so
that a bug in the core cannot hide in the oracle too.
"""
from __future__ import annotations


def value(node, limit=None, multiplayer=False):
    if not node.children:
        return node.value
    if limit is not None and node.depth >= limit:
        return node.eval
    kids = [value(c, limit, multiplayer) for c in node.children]
    if node.chance:
        return sum(c.probability * v for c, v in zip(node.children, kids))
    if multiplayer:
        best = kids[0]
        for v in kids[1:]:
            if v[node.player] > best[node.player]:
                best = v
        return best
    return max(kids) if node.player == 0 else min(kids)
