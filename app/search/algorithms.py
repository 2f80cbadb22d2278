"""The algorithms, as generators of compact raw events.

Each algorithm walks the tree with an explicit stack (no recursion: a deep
tree cannot overflow, and an event does not climb a chain of ``yield from``
frames) and yields small tuples, the first item being the kind:

==========  =====================================================
kind        tuple
==========  =====================================================
``ENTER``   ``(ENTER, node, alpha, beta, v0)``  (bounds ``None`` without pruning)
``EVAL``    ``(EVAL, node, value, cutoff)``     (``cutoff``: a depth limit used ``eval``)
``UPDATE``  ``(UPDATE, node, old, new, child)`` (only when the value changes)
``ALPHA``   ``(ALPHA, node, old, new)``
``BETA``    ``(BETA, node, old, new)``
``PRUNE``   ``(PRUNE, node, skipped, alpha, beta, v)`` (``skipped``: children not searched)
``EXIT``    ``(EXIT, node, value)``
``ITER``    ``(ITER, depth, value, best)``      (iterative deepening; ``value`` None at the start)
==========  =====================================================

Sentences, view changes and pseudocode lines are derived from these only
when a consumer asks (:mod:`app.search.narrate`), so a consumer that just
counts pays for none of it. Closing the generator stops the search.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from .options import SearchOptions
from .ordering import make_order, true_values
from .tree import Node, Tree

ENTER, EVAL, UPDATE, ALPHA, BETA, PRUNE, EXIT, ITER = range(8)
KIND_NAMES = ("enter", "evaluate", "update", "alpha", "beta", "prune", "exit", "iteration")

INF = float("inf")


def _scalar(v):
    return v[0] if type(v) is tuple else v


def alphabeta(tree: Tree, opts: SearchOptions, order=None) -> Iterator[tuple]:
    """Alpha-beta (AIMA Fig. 5.7, fail-soft), optionally depth-limited (H-MINIMAX).

    At a MAX node, after a child returns: v = max(v, child); stop when
    v >= beta (v > beta when strict), else alpha = max(alpha, v); MIN is the
    mirror. Style ``wikipedia`` raises alpha before the test instead.
    """
    if order is None:
        order = make_order(tree, opts.order, opts.seed, opts.depth)
    limit = opts.depth
    strict = opts.strict
    wiki = opts.style == "wikipedia"
    root = tree.root
    if not root.children or limit == 0:
        yield (EVAL, root, _scalar(root.value if not root.children else root.eval), bool(root.children))
        return
    ismax = root.player == 0
    v = -INF if ismax else INF
    kids = order(root) if order else root.children
    # A frame: [node, is_max, alpha, beta, v, children, next child index]
    stack = [[root, ismax, -INF, INF, v, kids, 0]]
    yield (ENTER, root, -INF, INF, v)
    while True:
        frame = stack[-1]
        node, ismax, a, b, v, kids, i = frame
        if i < len(kids):
            child = kids[i]
            i += 1
            frame[6] = i
            if not child.children:
                val = child.value
                if type(val) is tuple:
                    val = val[0]
                yield (EVAL, child, val, False)
            elif child.depth == limit:
                val = _scalar(child.eval)
                yield (EVAL, child, val, True)
            else:
                cmax = child.player == 0
                cv = -INF if cmax else INF
                ckids = order(child) if order else child.children
                stack.append([child, cmax, a, b, cv, ckids, 0])
                yield (ENTER, child, a, b, cv)
                continue
        else:
            stack.pop()
            yield (EXIT, node, v)
            if not stack:
                return
            val = v
            child = node
            frame = stack[-1]
            node, ismax, a, b, v, kids, i = frame
        # The value `val` of `child` comes back to `frame`.
        if ismax:
            if val > v:
                yield (UPDATE, node, v, val, child)
                frame[4] = v = val
            if wiki and v > a:
                yield (ALPHA, node, a, v)
                frame[2] = a = v
            if (v > b) if strict else (v >= b):
                if i < len(kids):
                    yield (PRUNE, node, kids[i:], a, b, v)
                    frame[6] = len(kids)
            elif v > a:
                yield (ALPHA, node, a, v)
                frame[2] = v
        else:
            if val < v:
                yield (UPDATE, node, v, val, child)
                frame[4] = v = val
            if wiki and v < b:
                yield (BETA, node, b, v)
                frame[3] = b = v
            if (v < a) if strict else (v <= a):
                if i < len(kids):
                    yield (PRUNE, node, kids[i:], a, b, v)
                    frame[6] = len(kids)
            elif v < b:
                yield (BETA, node, b, v)
                frame[3] = v


def backed_up(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """Minimax, expectiminimax and max^n: every child searched, no bounds.

    MAX takes the largest value, MIN the smallest (AIMA Fig. 5.3); a chance
    node the probability-weighted sum (AIMA 5.5, EXPECTIMINIMAX); a max^n node
    the vector best in its own player's component, ties to the first.
    """
    order = make_order(tree, opts.order, opts.seed, opts.depth)
    limit = opts.depth
    multi = opts.algorithm == "maxn"
    root = tree.root

    def static(node: Node):
        if not node.children:
            return node.value if multi else _scalar(node.value)
        if node.depth == limit:
            return node.eval if multi else _scalar(node.eval)
        return None

    def start(node: Node):
        if node.chance:
            return 0
        if multi:
            return None
        return -INF if node.player == 0 else INF

    val = static(root)
    if val is not None:
        yield (EVAL, root, val, bool(root.children))
        return
    v0 = start(root)
    stack = [[root, v0, order(root) if order else root.children, 0]]
    yield (ENTER, root, None, None, v0)
    while True:
        frame = stack[-1]
        node, v, kids, i = frame
        if i < len(kids):
            child = kids[i]
            frame[3] = i + 1
            val = static(child)
            if val is None:
                cv = start(child)
                stack.append([child, cv, order(child) if order else child.children, 0])
                yield (ENTER, child, None, None, cv)
                continue
            yield (EVAL, child, val, bool(child.children))
        else:
            stack.pop()
            yield (EXIT, node, v)
            if not stack:
                return
            child, val = node, v
            frame = stack[-1]
            node, v, kids, i = frame
        if node.chance:
            new = v + child.probability * val
        elif multi:
            new = val if v is None or val[node.player] > v[node.player] else v
        elif node.player == 0:
            new = val if val > v else v
        else:
            new = val if val < v else v
        if new != v:
            yield (UPDATE, node, v, new, child)
            frame[1] = new


def iterative(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """Iterative deepening: alpha-beta to depth 1, 2, ..., reporting each
    iteration's value and best move. With ``reorder``, each iteration searches
    children best-first by the previous iteration's backed-up values (the
    trick real engines use to get near-perfect ordering)."""
    deepest = opts.depth if opts.depth is not None else tree.height
    previous: dict[str, object] = {}
    base = make_order(tree, opts.order, opts.seed, None)
    for depth in range(1, max(deepest, 1) + 1):
        yield (ITER, depth, None, None)
        order = _by_previous(tree, previous, base) if (opts.reorder and previous) else base
        run_opts = replace(opts, algorithm="alphabeta",
                           depth=depth if depth < tree.height else None)
        values: dict[str, object] = {}
        best = None
        value = None
        for ev in alphabeta(tree, run_opts, order or _GIVEN):
            kind = ev[0]
            if kind == EXIT or kind == EVAL:
                values[ev[1].id] = ev[2]
                if ev[1] is tree.root:
                    value = ev[2]
            elif kind == UPDATE and ev[1] is tree.root:
                best = ev[4]
            yield ev
        previous = values
        yield (ITER, depth, value, best)
        if depth >= tree.height:
            break


def _GIVEN(node: Node) -> tuple[Node, ...]:
    return node.children


def _by_previous(tree: Tree, previous: dict, base):
    """Order each node's children best-first by last iteration's values;
    children it did not value go last, in their base order."""
    def ordered(node: Node) -> tuple[Node, ...]:
        kids = base(node) if base else node.children
        sign = -1 if node.player == 0 else 1
        known = [c for c in kids if c.id in previous]
        unknown = [c for c in kids if c.id not in previous]
        known.sort(key=lambda c: sign * previous[c.id])
        return tuple(known + unknown)
    return ordered


def raw_events(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """The raw event stream of the algorithm ``opts`` names (already resolved)."""
    alg = opts.algorithm
    if alg == "alphabeta":
        return alphabeta(tree, opts)
    if alg == "iterative":
        return iterative(tree, opts)
    return backed_up(tree, opts)


__all__ = ["raw_events", "alphabeta", "backed_up", "iterative", "true_values",
           "ENTER", "EVAL", "UPDATE", "ALPHA", "BETA", "PRUNE", "EXIT", "ITER", "KIND_NAMES"]
