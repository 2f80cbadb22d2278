"""The tidy layout: children in file order, parents centred, nothing overlapping."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.render.layout import tidy_layout
from app.search.tree import Node, Tree

GAP, LEVEL = 6.0, 50.0

# A tree shape: a leaf is an int (its half-width), an inner node a list of subtrees.
shapes = st.recursive(st.integers(min_value=5, max_value=40),
                      lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=30)


def build(shape, depth=0, counter=None) -> Node:
    counter = counter if counter is not None else [0]
    counter[0] += 1
    node_id = f"n{counter[0]}"
    if isinstance(shape, int):
        return Node(id=node_id, label=str(shape), player=depth % 2, depth=depth, value=0)
    kids = tuple(build(s, depth + 1, counter) for s in shape)
    return Node(id=node_id, label=str(10 + 3 * len(kids)), player=depth % 2, depth=depth,
                children=kids)


def extent(node):
    half = float(node.label)
    return half, half + 4  # lopsided, like a node with its bounds on the right


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_layout_is_tidy(shape):
    tree = Tree(root=build(shape))
    pos = tidy_layout(tree, extent, GAP, LEVEL)
    assert pos[tree.root.id] == (0.0, 0.0)
    for node in tree.nodes:
        assert pos[node.id][1] == node.depth * LEVEL
        if node.children:
            xs = [pos[c.id][0] for c in node.children]
            assert xs == sorted(xs)
            assert abs(pos[node.id][0] - (xs[0] + xs[-1]) / 2) < 1e-6
    rows: dict[int, list] = {}
    for node in tree.nodes:
        left, right = extent(node)
        rows.setdefault(node.depth, []).append((pos[node.id][0] - left, pos[node.id][0] + right))
    for spans in rows.values():
        spans.sort()
        for (_, r1), (l2, _) in zip(spans, spans[1:]):
            assert l2 >= r1 + GAP - 1e-6  # neighbours at one depth keep the gap


def test_a_deep_chain_needs_no_recursion():
    node = Node(id="leaf", label="1", player=0, depth=3000, value=0)
    for depth in range(2999, -1, -1):
        node = Node(id=f"n{depth}", label="1", player=depth % 2, depth=depth, children=(node,))
    pos = tidy_layout(Tree(root=node), lambda n: (1.0, 1.0), GAP, LEVEL)
    assert pos["leaf"] == (0.0, 3000 * LEVEL)
