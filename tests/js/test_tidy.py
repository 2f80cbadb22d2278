"""static/js/core/tidy.js, the page's tidy tree layout over flat arrays (issue
30: d3's two objects per node were a fifth of opening 111,111 nodes), held
under Node to d3-hierarchy's own ``tree()``, which it ports: every node of
uneven random trees (one child, many, deep chains, subtrees cut off as a
depth limit or a fold cuts them), with uneven label widths, at d3's very x."""
from __future__ import annotations

import random


def shape(rng: random.Random, depth: int, most: int) -> list:
    """[left, right, children]: widths as a label plan gives them (a name
    on the left, bounds on the right, or neither)."""
    left, right = rng.choice((20, 24, 31.5, 58.25)), rng.choice((20, 24, 47.75))
    if depth == 0 or rng.random() < 0.2:
        return [left, right, []]
    return [left, right, [shape(rng, depth - 1, most) for _ in range(rng.randint(1, most))]]


def test_tidy_js_places_every_node_as_d3_hierarchy(node_test):
    rng = random.Random(30)
    trees = [{"name": "a lone root", "tree": [20, 20, []], "cut": None},
             {"name": "a chain", "tree": shape(random.Random(1), 40, 1), "cut": None}]
    for k in range(12):
        trees.append({"name": f"random tree {k}", "tree": shape(rng, rng.randint(2, 7), rng.randint(2, 6)),
                      "cut": rng.choice((None, 3, 7))})
    node_test("tidy.test.mjs", {"trees": trees}, tests=len(trees))
