"""Small trees for the core's tests, built without the file loader.

``nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])`` is AIMA Fig. 5.2: inner
nodes are lists, leaves numbers (or tuples for max^n). Ids: the root is
``A``, its children ``B``, ``C``, ... and below them the parent's id in
lower case plus the child's 1-based index (``b1``, ``b2``; ``b1.1`` deeper).
"""
from __future__ import annotations

import string

from app.search.tree import Node, Tree


def _child_id(parent_id: str, depth: int, index: int) -> str:
    if depth == 1:
        return string.ascii_uppercase[index + 1] if index < 25 else f"N{index}"
    if depth == 2:
        return f"{parent_id.lower()}{index + 1}"
    return f"{parent_id}.{index + 1}"


def nested(spec, players=("MAX", "MIN"), title="test tree", evals=None) -> Tree:
    evals = evals or {}

    def build(item, node_id, depth):
        player = depth % len(players)
        if isinstance(item, list):
            kids = tuple(build(c, _child_id(node_id, depth + 1, i), depth + 1)
                         for i, c in enumerate(item))
            return Node(id=node_id, label=node_id, player=player, depth=depth,
                        children=kids, eval=evals.get(node_id))
        return Node(id=node_id, label=node_id, player=player, depth=depth, value=item)

    return Tree(root=build(spec, "A", 0), players=tuple(players), title=title)


AIMA_5_2 = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
