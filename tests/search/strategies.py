"""Hypothesis strategies: random game trees of every shape the core handles."""
from __future__ import annotations

from hypothesis import strategies as st

from app.search.tree import Node, Tree


@st.composite
def trees(draw, max_depth=4, max_branch=4, players=2, chance=False, evals=False,
          values=st.integers(-20, 20)):
    counter = [0]

    def build(depth, player_depth):
        counter[0] += 1
        node_id = f"n{counter[0]}"
        player = player_depth % players
        leaf = depth >= max_depth or (depth > 0 and draw(st.integers(0, 3)) == 0)
        if leaf:
            if players > 2:
                v = tuple(draw(values) for _ in range(players))
            else:
                v = draw(values)
            return Node(id=node_id, label=node_id, player=player, depth=depth, value=v)
        is_chance = chance and depth > 0 and draw(st.booleans())
        n = draw(st.integers(1, max_branch))
        kids = tuple(build(depth + 1, player_depth + (0 if is_chance else 1)) for _ in range(n))
        if is_chance:
            weights = [draw(st.integers(1, 4)) for _ in kids]
            total = sum(weights)
            kids = tuple(Node(**{**{s: getattr(k, s) for s in Node.__slots__},
                                 "probability": w / total}) for k, w in zip(kids, weights))
        ev = None
        if evals:
            ev = tuple(draw(values) for _ in range(players)) if players > 2 else draw(values)
        return Node(id=node_id, label=node_id, player=player, depth=depth, children=kids,
                    eval=ev, chance=is_chance)

    names = ("MAX", "MIN") if players == 2 else tuple(f"P{i + 1}" for i in range(players))
    return Tree(root=build(0, 0), players=names, title="random")
