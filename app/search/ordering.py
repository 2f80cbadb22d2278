"""Move ordering: the order in which a search visits a node's children.

``given`` keeps the file's order. ``best`` searches first the child that is
best for the player to move by its true (depth-limited) value, as the
lectures' "best ordering" does; ``worst`` the reverse. Both are stable: ties
keep the file's order. ``random`` shuffles each node's children with a
generator seeded by the run's seed and the node's id, so a node's order does
not depend on which other nodes were searched.
"""
from __future__ import annotations

import random
from typing import Callable

from .tree import Node, Tree

Order = Callable[[Node], tuple[Node, ...]]


def static_value(node: Node, depth_limit: int | None):
    """The value a search uses at ``node`` if it stops there, else ``None``."""
    if not node.children:
        return node.value
    if depth_limit is not None and node.depth >= depth_limit:
        return node.eval
    return None


def true_values(tree: Tree, depth_limit: int | None) -> dict[str, object]:
    """Every node's backed-up value (minimax, expectiminimax or max^n), no pruning."""
    values: dict[str, object] = {}
    multiplayer = tree.multiplayer
    # Post-order with an explicit stack: trees may be deeper than the recursion limit.
    stack: list[tuple[Node, bool]] = [(tree.root, False)]
    while stack:
        node, expanded = stack.pop()
        static = static_value(node, depth_limit)
        if static is not None:
            values[node.id] = static if multiplayer else _scalar(static)
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
            continue
        kids = [values[c.id] for c in node.children]
        if node.chance:
            values[node.id] = sum(c.probability * v for c, v in zip(node.children, kids))
        elif multiplayer:
            p = node.player
            best = kids[0]
            for v in kids[1:]:
                if v[p] > best[p]:
                    best = v
            values[node.id] = best
        else:
            values[node.id] = max(kids) if node.player == 0 else min(kids)
    return values


def _scalar(v):
    return v[0] if isinstance(v, tuple) else v


def make_order(tree: Tree, order: str, seed: int | None, depth_limit: int | None) -> Order | None:
    """A function giving each node's children in search order (``None`` = file order)."""
    if order == "given":
        return None
    own = getattr(tree, "order_for", None)
    if own is not None:  # a game searched from its rules orders by its positions
        return own(order, seed, depth_limit)
    cache: dict[str, tuple[Node, ...]] = {}
    if order == "random":
        base = 0 if seed is None else seed

        def shuffled(node: Node) -> tuple[Node, ...]:
            kids = cache.get(node.id)
            if kids is None:
                lst = list(node.children)
                random.Random(f"{base}/{node.id}").shuffle(lst)
                kids = cache[node.id] = tuple(lst)
            return kids
        return shuffled

    values = true_values(tree, depth_limit)
    worst = order == "worst"
    multiplayer = tree.multiplayer

    def key_for(node: Node):
        if multiplayer:
            p = node.player
            return lambda c: -values[c.id][p]
        if node.player == 0:  # MAX wants the largest first
            return lambda c: -_scalar(values[c.id])
        return lambda c: _scalar(values[c.id])

    def ordered(node: Node) -> tuple[Node, ...]:
        kids = cache.get(node.id)
        if kids is None:
            if node.chance:
                kids = node.children
            else:
                key = key_for(node)
                if worst:  # reverse the key, not the list, so ties keep the file's order
                    kids = tuple(sorted(node.children, key=lambda c: -key(c)))
                else:
                    kids = tuple(sorted(node.children, key=key))
            cache[node.id] = kids
        return kids
    return ordered
