"""Principal variation search (NegaScout, fail-soft; Reinefeld 1983), as raw events.

At each node the first child is searched with the node's window (alpha,
beta). Every later child is first *tested* with a null window at the node's
bound: at MAX "is it worth more than alpha?", at MIN "less than beta?". A
null-window search is alpha-beta with alpha = beta = t, whose cut-offs answer
just that question: for "more than t" a MAX node stops when v > t and a MIN
node when v <= t (for "less than t": MAX when v >= t, MIN when v < t). It
returns x with the answer in it: for "more than t", x > t means the child is
worth at least x, x <= t at most x. Only when the test says "yes" and x is
inside the window (alpha < x < beta at MAX; the mirror at MIN) is the child
searched again, with the node's full window (alpha, beta), for its exact
value. A leaf (or a node the depth limit stops) is evaluated once: its value
is exact, there is nothing to test.

The raw events are alpha-beta's (:mod:`app.search.algorithms`) and two more:

============  ==========================================================
kind          tuple
============  ==========================================================
``SCOUT``     ``(SCOUT, node, child, t)``: the null-window test of ``child`` at t starts
``RESEARCH``  ``(RESEARCH, node, child, x)``: the test returned x (it failed high at
              MAX, low at MIN, inside the window): ``child`` is searched again
============  ==========================================================

A tested child's return to its node is a ``RET`` as alpha-beta's (its value
the test's x) unless it is searched again: then ``RESEARCH`` stands for it,
and the re-search's ``RET`` follows. On children in best-first order no test
fails high (tests/search/test_pvs.py checks it with Hypothesis, and the
value and best move against minimax's).
"""
from __future__ import annotations

from typing import Iterator

from .algorithms import EXIT, RET, _static_root
from .options import SearchOptions
from .ordering import make_order
from .tree import Tree

SCOUT, RESEARCH = 4, 5
"""Raw event kinds after :mod:`app.search.algorithms`'s (RET, EVAL, EXIT, ITER = 0..3)."""

INF = float("inf")


def pvs(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """Principal variation search over MAX and MIN nodes, fail-soft, optionally depth-limited."""
    order = make_order(tree, opts.order, opts.seed, opts.depth)
    limit = opts.depth
    vec = tree.has_vectors   # a two-player search reads MAX's component of a vector
    static = _static_root(tree, limit, False)
    if static is not None:
        yield static
        return
    # Negamax inside, as NegaScout is written: at each node s = +1 (MAX) or -1 (MIN),
    # and v, alpha, beta are kept multiplied by s (a MIN node's window flipped), so one
    # rule serves both players; the events carry the values as they are.
    node = tree.root
    s = 1 if node.player == 0 else -1
    a, b = -INF, INF          # (the root's window, the same either way)
    v = -INF
    kids = order(node) if order else node.children
    i, n = 0, len(kids)
    test = 0        # 0: a full window; 1: inside a test "more than t?"; -1: "less than t?"
    tested = False  # (popped with the frame) the child that came back was under a test
    # The stack keeps the suspended ancestors: (node, s, alpha, beta, v, children, next,
    # count, test, whether the child being searched is tested).
    stack: list[tuple] = []
    research = None   # a child to search again, with the node's full window
    while True:
        if research is not None or i < n:
            if research is not None:
                child, research = research, None
                grandkids = child.children
                ctest, ctested = 0, False
                lo, hi = (a, b) if s == 1 else (-b, -a)   # the node's window, as it is
            else:
                child = kids[i]
                i += 1
                grandkids = child.children   # read once: a game's node makes them when asked
                if grandkids and child.depth != limit and test == 0 and i > 1:
                    t = s * a   # MAX: alpha; MIN: beta
                    yield (SCOUT, node, child, t)
                    ctest, ctested, lo, hi = s, True, t, t
                else:
                    ctest, ctested = test, False
                    lo, hi = (a, b) if s == 1 else (-b, -a)
            if grandkids:
                if child.depth != limit:  # descend
                    stack.append((node, s, a, b, v, kids, i, n, test, ctested))
                    node = child
                    s = 1 if child.player == 0 else -1
                    a, b = (lo, hi) if s == 1 else (-hi, -lo)
                    test = ctest
                    v = -INF
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
            tested = False
        else:  # every child done (or cut off): return v to the parent
            val = s * v
            if not stack:
                yield (EXIT, node, val)
                return
            child = node
            cutoff = None
            node, s, a, b, v, kids, i, n, test, tested = stack.pop()
        # The value `val` of `child` comes back to `node`; a test that says "yes"
        # inside the window (alpha < x < beta) sends the child back to be searched again.
        if tested and (a < s * val < b):
            yield (RESEARCH, node, child, val)
            research = child
            continue
        ov, ob = v, a
        x = s * val
        if x > v:
            v = x
        skipped = None
        # (inside a test the cut answers it: strict for the side that says "yes")
        if (v > b) if test == s else (v >= b):
            if i < n:
                skipped = kids[i:]
            i = n
        elif v > a:
            a = v
        yield (RET, node, child, val, cutoff, s * ov, s * v, s * ob, s * a, skipped)


__all__ = ["pvs", "SCOUT", "RESEARCH"]
