"""Monte Carlo tree search (UCT; AIMA 4th ed. Fig. 5.11) as raw events.

Each iteration walks from the root down the search tree by UCB1 while every
child of a node has been tried (SELECT), adds one untried child (EXPAND),
plays random moves from it to the end of the game, or to the depth limit
where its ``eval`` is used (SIMULATE), and adds the result to the visits
and totals of every node on the path back to the root (BACK-PROPAGATE).

A node's total and mean are utilities for MAX, in the tree's own units (a
mean of 5.2 on AIMA Fig. 5.2). UCB1 needs rewards in [0, 1]: the mean is
scaled over the tree's value range [L, U] and seen from the player to move,
so ``exploit`` is (mean - L) / (U - L) at a MAX node and (U - mean) / (U - L)
at a MIN node. For a game won or lost that is AIMA's wins per playout (a
draw half a win). Then

    UCB1(n) = exploit(n) + C * sqrt(ln N(parent) / N(n)),    C = sqrt(2) by default;

an untried child comes first (UCB1 = +inf), in the children's order, and
ties go to the child first in that order.

The raw events are tuples whose first item is the kind:

=============  ==========================================================
kind           tuple
=============  ==========================================================
``SELECT``     ``(SELECT, parent, child)``: selection moves to ``child``
``EXPAND``     ``(EXPAND, parent, child)``: ``child`` joins the search tree
``SIMULATE``   ``(SIMULATE, start, result, path, cutoff)``: a playout from
               ``start``; ``path`` the nodes it passed (for a game, the
               moves, see :func:`path_ids`), empty when ``start`` is itself a
               leaf or on the depth limit; ``cutoff`` True when ``eval`` ended it
``BACKUP``     ``(BACKUP, start, result)``: every node from ``start`` up has
               one more visit and ``result`` more in its total
=============  ==========================================================

``parent``, ``child`` and ``start`` are :class:`Stat` records, whose numbers
are those at the moment of the event: a consumer reads them before it pulls
the next event (the narrator does). The same seed gives the same events.
"""
from __future__ import annotations

from math import log, sqrt
from random import Random
from typing import Iterator

from .options import SearchOptions
from .tree import Tree

SELECT, EXPAND, SIMULATE, BACKUP = 10, 11, 12, 13

DEFAULT_EXPLORATION = sqrt(2)
INF = float("inf")


class Stat:
    """A node of the search tree: the tree's node and its playout statistics."""

    __slots__ = ("node", "parent", "kids", "children", "visits", "total", "static", "ismax")

    def __init__(self, node, parent: "Stat | None", static):
        self.node = node
        self.parent = parent
        self.kids = None
        """The tree node's children, read once when first needed (for a game, its
        ACTIONS: the child of one is made when it is added)."""
        self.children: list[Stat] = []
        """The children tried so far, in the children's order."""
        self.visits = 0
        self.total = 0
        """Sum of the playout results for MAX through this node."""
        self.static = static
        """The node's static value when it ends a playout where it stands (a
        leaf, or a node on the depth limit: its eval); None otherwise."""
        self.ismax = node.player == 0

    @property
    def mean(self) -> float | None:
        return self.total / self.visits if self.visits else None


def value_range(tree: Tree) -> tuple[float, float]:
    """[L, U]: the smallest and largest value a playout can end with."""
    own = getattr(tree, "value_range", None)
    if own is not None:   # a game knows its utilities
        return own()
    lo = hi = None
    for n in tree.nodes:
        for x in (n.value, n.eval):
            if x is None:
                continue
            if type(x) is tuple:
                x = x[0]
            lo = x if lo is None or x < lo else lo
            hi = x if hi is None or x > hi else hi
    return (0, 1) if lo is None else (lo, hi)


def _static(node, limit, vec: bool):
    """A node's value when a playout cannot go on from it, else None."""
    if node.is_leaf:
        val = node.value
    elif node.depth == limit:
        val = node.eval
    else:
        return None
    return val[0] if vec and type(val) is tuple else val


def mcts(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """The raw events of ``opts.iterations`` iterations of UCT from the root."""
    limit = opts.depth
    c = DEFAULT_EXPLORATION if opts.exploration is None else opts.exploration
    lo, hi = value_range(tree)
    scale = 1.0 / (hi - lo) if hi > lo else 0.0
    vec = tree.has_vectors
    random = Random(0 if opts.seed is None else opts.seed).random
    fast = getattr(tree, "playout", None)   # a game plays out on its rules, without nodes
    # A game makes only the child it adds (its ACTIONS, then RESULT of one), not all of them.
    actions = getattr(tree, "actions_of", None)
    child_of = getattr(tree, "child_of", None)
    root = Stat(tree.root, None, _static(tree.root, limit, vec))
    for _ in range(opts.iterations):
        stat = root
        while stat.static is None:
            kids = stat.kids
            if kids is None:
                kids = stat.kids = actions(stat.node) if actions else stat.node.children
            tried = stat.children
            if len(tried) < len(kids):   # an untried child: expand it
                node = child_of(stat.node, kids[len(tried)]) if actions else kids[len(tried)]
                child = Stat(node, stat, _static(node, limit, vec))
                tried.append(child)
                yield (EXPAND, stat, child)
                stat = child
                break
            ln = log(stat.visits)
            best, best_u = None, -INF
            ismax = stat.ismax
            for ch in tried:
                n = ch.visits
                mean = ch.total / n
                u = ((mean - lo) if ismax else (hi - mean)) * scale + c * sqrt(ln / n)
                if u > best_u:
                    best, best_u = ch, u
            yield (SELECT, stat, best)
            stat = best
        if stat.static is not None:
            result, path, cutoff = stat.static, (), not stat.node.is_leaf
        elif fast is not None:
            result, path, cutoff = fast(stat.node, random, limit)
        else:
            result, path, cutoff = _playout(stat.node, random, limit, vec)
        yield (SIMULATE, stat, result, path, cutoff)
        s = stat
        while s is not None:
            s.visits += 1
            s.total += result
            s = s.parent
        yield (BACKUP, stat, result)


def _playout(node, random, limit, vec: bool):
    """Random moves from ``node`` (uniform over its children) until a leaf or
    the depth limit: (result for MAX, the nodes passed, cut by the limit?)."""
    path = []
    while True:
        kids = node.children
        node = kids[int(random() * len(kids))]
        path.append(node)
        if not node.children:
            val = node.value
            cutoff = False
            break
        if node.depth == limit:
            val = node.eval
            cutoff = True
            break
    if vec and type(val) is tuple:
        val = val[0]
    return val, path, cutoff


def path_ids(tree: Tree, start, path, states: list | None = None) -> list[str]:
    """The ids of the nodes a playout from node ``start`` passed (a game
    gives its moves; and the positions it passed, appended to ``states`` if given)."""
    ids = getattr(tree, "playout_ids", None)
    if ids is not None:
        return ids(start, path) if states is None else ids(start, path, states)
    return [n.id for n in path]


def ucb_rows(parent: Stat, c: float, lo: float, hi: float) -> list[dict]:
    """Each tried child of ``parent`` with its UCB1 numbers (as selection
    computes them): visits, mean for MAX, exploit, explore and their sum."""
    scale = 1.0 / (hi - lo) if hi > lo else 0.0
    ln = log(parent.visits) if parent.visits else 0.0
    rows = []
    for ch in parent.children:
        n = ch.visits
        mean = ch.total / n
        exploit = ((mean - lo) if parent.ismax else (hi - mean)) * scale
        explore = c * sqrt(ln / n)
        rows.append({"id": ch.node.id, "visits": n, "mean": mean, "exploit": exploit,
                     "explore": explore, "ucb": exploit + explore})
    return rows


__all__ = ["mcts", "Stat", "SELECT", "EXPAND", "SIMULATE", "BACKUP", "DEFAULT_EXPLORATION",
           "value_range", "path_ids", "ucb_rows"]
