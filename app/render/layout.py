"""A tidy tree layout: children in file order, parents centred over them.

The classic Reingold-Tilford idea: lay out each subtree on its own, then push
each next sibling subtree right until, at every depth, it clears the ones
already placed by a gap. Each node brings its own left and right extent (its
shape plus the labels drawn beside it), so labels never overlap. Positions
are in points, y growing downward from the root at 0; the picture hands them
to Graphviz (``neato -n2``), which then only draws.

>>> from app.search.tree import Node, Tree
>>> leaf = lambda i: Node(id=i, label=i, player=1, depth=1, value=0)
>>> tree = Tree(root=Node(id="A", label="A", player=0, depth=0,
...                       children=(leaf("a"), leaf("b"), leaf("c"))))
>>> pos = tidy_layout(tree, lambda n: (10, 10), gap=5, level_gap=50)
>>> [pos[i] for i in ("a", "b", "c", "A")]
[(-25.0, 50.0), (0.0, 50.0), (25.0, 50.0), (0.0, 0.0)]
"""
from __future__ import annotations

from typing import Callable

from app.search.tree import Node, Tree

Extent = Callable[[Node], tuple[float, float]]
"""A node's (left, right) reach from its centre, both >= 0."""


def tidy_layout(tree: Tree, extent: Extent, gap: float, level_gap: float
                ) -> dict[str, tuple[float, float]]:
    """``{node id: (x, y)}`` for every node of ``tree``; the root at x = 0."""
    offset: dict[str, float] = {}      # x of a node relative to its parent
    contour: dict[str, tuple[list[float], list[float]]] = {}
    # Post-order with an explicit stack: trees can be deeper than the recursion limit.
    stack: list[tuple[Node, bool]] = [(tree.root, False)]
    while stack:
        node, ready = stack.pop()
        if not ready and node.children:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
            continue
        left, right = extent(node)
        if not node.children:
            contour[node.id] = ([-left], [right])
            continue
        acc_l: list[float] = []
        acc_r: list[float] = []
        xs = []
        for child in node.children:
            cl, cr = contour.pop(child.id)
            shift = 0.0
            if xs:
                common = min(len(acc_r), len(cl))
                shift = max(acc_r[d] - cl[d] + gap for d in range(common))
            for d in range(len(cl)):
                if d < len(acc_r):
                    acc_r[d] = shift + cr[d]
                else:
                    acc_l.append(shift + cl[d])
                    acc_r.append(shift + cr[d])
            xs.append(shift)
        centre = (xs[0] + xs[-1]) / 2
        for child, x in zip(node.children, xs):
            offset[child.id] = x - centre
        contour[node.id] = ([-left] + [v - centre for v in acc_l],
                            [right] + [v - centre for v in acc_r])
    positions: dict[str, tuple[float, float]] = {}
    todo = [(tree.root, 0.0)]
    while todo:
        node, x = todo.pop()
        positions[node.id] = (float(x), float(node.depth * level_gap))
        todo.extend((c, x + offset[c.id]) for c in node.children)
    return positions
