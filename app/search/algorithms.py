"""The algorithms, as generators of compact raw events.

Each algorithm walks the tree with an explicit stack (no recursion: a deep
tree cannot overflow, and an event does not climb a chain of ``yield from``
frames) and yields small tuples, the first item being the kind:

==========  ================================================================
kind        tuple
==========  ================================================================
``RET``     ``(RET, node, child, val, cutoff, v_old, v_new, b_old, b_new, skipped)``:
            the value ``val`` of ``child`` came back to ``node``. ``cutoff`` is
            ``None`` when ``child`` was searched (this is its exit), ``False``
            for a leaf's value, ``True`` when a depth limit used its ``eval``.
            ``v`` is the node's value before and after; ``b`` the bound the
            node's player moves (alpha at MAX, beta at MIN; ``None`` without
            pruning); ``skipped`` the children a cut-off leaves unsearched.
``EVAL``    ``(EVAL, node, value, cutoff)``  (only when the root itself is static)
``EXIT``    ``(EXIT, node, value)``          (the root's exit)
``ITER``    ``(ITER, depth, value, best)``   (iterative deepening; ``value`` None at the start)
==========  ================================================================

One ``RET`` carries everything that happens when a child's value comes
back (the child's exit or evaluation, the new value, the new bound, the
cut-off), so the stream costs one yield per node searched. Entering a node
is implied, not yielded: an inner node is entered just before the first
event at or below it (it always has one), with v at its start value
(-inf at MAX, +inf at MIN, 0 at chance, none for max^n) and, in alpha-beta,
its parent's alpha and beta, which a child inherits unchanged. Sentences, view
changes and pseudocode lines are derived from these only when a consumer
asks (:mod:`app.search.narrate`), so a consumer that just counts pays for
none of it. Closing the generator stops the search.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from .options import SearchOptions
from .ordering import make_order
from .tree import Node, Tree

RET, EVAL, EXIT, ITER = range(4)

INF = float("inf")


def _static_root(tree: Tree, limit: int | None, multi: bool):
    """``(EVAL, root, value, cutoff)`` when the root is not expanded, else None."""
    root = tree.root
    if root.children and limit != 0:
        return None
    val = root.eval if root.children else root.value
    if not multi and type(val) is tuple:
        val = val[0]
    return (EVAL, root, val, bool(root.children))


def alphabeta(tree: Tree, opts: SearchOptions, order=None, *, swap: bool = False,
              shallow: bool = False) -> Iterator[tuple]:
    """Alpha-beta (AIMA Fig. 5.7, fail-soft), optionally depth-limited (H-MINIMAX).

    At a MAX node, after a child returns: v = max(v, child); stop when
    v >= beta (v > beta when strict), else alpha = max(alpha, v); MIN is the
    mirror. Style ``wikipedia`` raises alpha before the test instead.

    Two hooks make a student's wrong rule (``app.misconceptions``) with this
    same code: ``swap`` exchanges MAX and MIN at every node; ``shallow`` gives
    each child a window from its parent's best value only (no deep cut-offs).
    The normal path pays one test per descent for them.
    """
    if order is None:
        order = make_order(tree, opts.order, opts.seed, opts.depth)
    limit = opts.depth
    strict = opts.strict
    wiki = opts.style == "wikipedia"
    vec = tree.has_vectors  # a two-player search reads MAX's component of a vector
    static = _static_root(tree, limit, False)
    if static is not None:
        yield static
        return
    # The node being searched lives in local variables; the stack keeps the
    # suspended ancestors as tuples (node, is_max, alpha, beta, v, children, next, count).
    node = tree.root
    top = 1 if swap else 0   # the player who maximises
    ismax = node.player == top
    a, b = -INF, INF
    v = -INF if ismax else INF
    kids = order(node) if order else node.children
    i, n = 0, len(kids)
    stack: list[tuple] = []
    while True:
        if i < n:
            child = kids[i]
            i += 1
            # Read once: a game's node makes its children when asked.
            grandkids = child.children
            if grandkids:
                if child.depth != limit:  # descend
                    stack.append((node, ismax, a, b, v, kids, i, n))
                    if shallow:   # the window from the parent's best so far only
                        a, b = (v, INF) if ismax else (-INF, v)
                    node = child
                    ismax = child.player == top
                    v = -INF if ismax else INF
                    kids = order(child) if order else grandkids
                    i, n = 0, len(kids)
                    continue
                val = child.eval
                cutoff = True
            else:
                val = child.value
                cutoff = False
            if vec and type(val) is tuple:
                val = val[0]
        else:  # every child done (or cut off): return v to the parent
            if not stack:
                yield (EXIT, node, v)
                return
            val = v
            child = node
            cutoff = None
            node, ismax, a, b, v, kids, i, n = stack.pop()
        # The value `val` of `child` comes back to `node`.
        ov = v
        skipped = None
        if ismax:
            ob = a
            if val > v:
                v = val
            if wiki and v > a:
                a = v
            if (v > b) if strict else (v >= b):
                if i < n:
                    skipped = kids[i:]
                i = n
            elif v > a:
                a = v
            yield (RET, node, child, val, cutoff, ov, v, ob, a, skipped)
        else:
            ob = b
            if val < v:
                v = val
            if wiki and v < b:
                b = v
            if (v < a) if strict else (v <= a):
                if i < n:
                    skipped = kids[i:]
                i = n
            elif v < b:
                b = v
            yield (RET, node, child, val, cutoff, ov, v, ob, b, skipped)


def backed_up(tree: Tree, opts: SearchOptions, *, swap: bool = False,
              chance: str | None = None) -> Iterator[tuple]:
    """Minimax, expectiminimax and max^n: every child searched, no bounds.

    MAX takes the largest value, MIN the smallest (AIMA Fig. 5.3); a chance
    node the probability-weighted sum (AIMA 5.5, EXPECTIMINIMAX); a max^n node
    the vector best in its own player's component, ties to the first.

    Hooks for a student's wrong rule (``app.misconceptions``): ``swap``
    exchanges MAX and MIN; ``chance`` = ``"uniform"`` averages a chance node's
    children ignoring their probabilities, ``"best"`` takes the child best for
    the player above it (MAX above, or the root: the largest).
    """
    order = make_order(tree, opts.order, opts.seed, opts.depth)
    limit = opts.depth
    from .descriptors import get
    multi = get(opts.algorithm).players == "vectors"   # max^n
    static = _static_root(tree, limit, multi)
    if static is not None:
        yield static
        return
    top = 1 if swap else 0   # the player who maximises
    above_max = _chooser_max(tree) if chance == "best" else None

    # (top and above_max as defaults: the loop below then reads top as a plain local)
    def start(node: Node, top=top, above_max=above_max):
        if node.chance:
            if above_max is not None:
                return -INF if above_max(node) else INF
            return 0
        if multi:
            return None
        return -INF if node.player == top else INF

    root = tree.root
    v0 = start(root)
    stack = [[root, v0, order(root) if order else root.children, 0]]
    back = None
    val = None
    while True:
        frame = stack[-1]
        node, v, kids, i = frame
        if back is not None:
            child, cutoff = back, None
            back = None
        elif i < len(kids):
            child = kids[i]
            frame[3] = i + 1
            grandkids = child.children  # read once: a game's node makes them when asked
            if grandkids and child.depth != limit:
                cv = start(child)
                stack.append([child, cv, order(child) if order else grandkids, 0])
                continue
            cutoff = bool(grandkids)
            val = child.eval if cutoff else child.value
            if not multi and type(val) is tuple:
                val = val[0]
        else:
            stack.pop()
            if not stack:
                yield (EXIT, node, v)
                return
            back, val = node, v
            continue
        if node.chance:
            if chance is None:
                new = v + child.probability * val
            elif above_max is None:   # "uniform"
                new = v + val / len(kids)
            elif above_max(node):
                new = val if val > v else v
            else:
                new = val if val < v else v
        elif multi:
            new = val if v is None or val[node.player] > v[node.player] else v
        elif node.player == top:
            new = val if val > v else v
        else:
            new = val if val < v else v
        frame[1] = new
        yield (RET, node, child, val, cutoff, v, new, None, None, None)


def _chooser_max(tree: Tree):
    """Whether the player above a chance node maximises (MAX above it, or the root)."""
    def above_max(node: Node) -> bool:
        parent = tree.parent_of(node.id)
        while parent is not None and parent.chance:
            parent = tree.parent_of(parent.id)
        return parent is None or parent.player == 0
    return above_max


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
            if kind == RET:
                values[ev[2].id] = ev[3]
                if ev[1] is tree.root and ev[6] != ev[5]:
                    best = ev[2]
            elif kind == EXIT or kind == EVAL:
                value = ev[2]
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
    from .descriptors import get   # (the records name this module's generators)
    return get(opts.algorithm).generator(tree, opts)


__all__ = ["raw_events", "alphabeta", "backed_up", "iterative", "RET", "EVAL", "EXIT", "ITER"]
