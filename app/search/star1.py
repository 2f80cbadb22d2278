"""Star1: alpha-beta with pruning at chance nodes (Ballard 1983; AIMA 3rd ed. §5.5).

When every leaf value lies within [L, U], a chance node need not see all its
outcomes: after some of them, the weighted sum so far plus the rest counted
at U (at L) bounds what the node can still be worth. If even that best
(worst) case is <= alpha (>= beta), the other outcomes cannot change the
decision above, and are cut. Each outcome is searched with the window that
decides it: outcome r of probability p, after the weighted sum v of the
outcomes before it and with probability ``rest`` still unseen after it,
decides the node when its value x is <= a or >= b, where

    a = (alpha - v - U * rest) / p,      b = (beta - v - L * rest) / p,

and is searched with alpha' = max(a, L), beta' = min(b, U) (:func:`window`).

The raw events are alpha-beta's (:mod:`app.search.algorithms`); at a chance
node ``RET`` carries the weighted sums as ``v`` and, in the bound slot
``b_new``, the value the node returns when it is cut (an upper bound when it
fails low, a lower bound when it fails high; ``None`` otherwise). Children of
MAX and MIN nodes follow the run's order; a chance node's outcomes too.

The root's value is always expectiminimax's (tests/search/test_star1.py
checks it with Hypothesis), and the leaves it evaluates are a subset of
expectiminimax's.
"""
from __future__ import annotations

from typing import Iterator

from .algorithms import EXIT, RET, _static_root
from .options import SearchOptions
from .ordering import make_order
from .tree import Node, Tree

INF = float("inf")


def rest_after(node: Node, seen, child: Node) -> float:
    """The probability of ``node``'s outcomes not yet searched, ``child``
    excluded, summed in the file's order (the narrators sum it the same way,
    so every window is the same number everywhere)."""
    rest = 0.0
    for c in node.children:
        if c is not child and c.id not in seen:
            rest += c.probability
    return rest


def tails(node: Node) -> tuple[float, ...]:
    """``rest_after`` of each outcome when they are searched in the file's
    order (the same sums, made once per node)."""
    probs = [c.probability for c in node.children]
    out = []
    for i in range(len(probs)):
        rest = 0.0
        for p in probs[i + 1:]:
            rest += p
        out.append(rest)
    return tuple(out)


def window(alpha, beta, v, p, rest, lo, hi) -> tuple[float, float]:
    """``(a, b)``: outcome of probability ``p`` decides its chance node when its
    value is <= a (the node then fails low) or >= b (fails high)."""
    if p <= 0:   # an outcome that cannot happen decides nothing
        return -INF, INF
    return (alpha - v - hi * rest) / p, (beta - v - lo * rest) / p


def star1(tree: Tree, opts: SearchOptions) -> Iterator[tuple]:
    """Star1 over MAX, MIN and chance nodes, fail-soft; leaf values within ``opts.bounds``."""
    order = make_order(tree, opts.order, opts.seed, opts.depth)
    lo, hi = opts.bounds
    limit = opts.depth
    strict = opts.strict
    static = _static_root(tree, limit, False)
    if static is not None:
        yield static
        return
    node = tree.root
    kind = 2 if node.chance else node.player   # 0 MAX, 1 MIN, 2 chance
    a, b = -INF, INF
    v = 0 if kind == 2 else (-INF if kind == 0 else INF)
    kids = order(node) if order else node.children
    i, n = 0, len(kids)
    seen: set | None = set() if kind == 2 and order is not None else None
    rests = tails(node) if kind == 2 and order is None else None
    wa = wb = rest = None     # a chance node's window for the outcome being searched
    ret = None                # what a cut chance node returns
    stack: list[tuple] = []
    while True:
        if i < n:
            child = kids[i]
            i += 1
            if kind == 2:
                # in the file's order, the outcomes after this one; else those not yet seen
                rest = rests[i - 1] if order is None else rest_after(node, seen, child)
                p = child.probability   # (window(), written out: it runs for every outcome)
                if p > 0:
                    wa = (a - v - hi * rest) / p
                    wb = (b - v - lo * rest) / p
                else:
                    wa, wb = -INF, INF
                ca = wa if wa > lo else lo
                cb = wb if wb < hi else hi
            else:
                ca, cb = a, b
            grandkids = child.children
            if grandkids:
                if child.depth != limit:  # descend
                    stack.append((node, kind, a, b, v, kids, i, n, seen, wa, wb, rest, ret, rests))
                    node = child
                    kind = 2 if child.chance else child.player
                    a, b = ca, cb
                    v = 0 if kind == 2 else (-INF if kind == 0 else INF)
                    kids = order(child) if order else grandkids
                    i, n = 0, len(kids)
                    seen = set() if kind == 2 and order is not None else None
                    rests = tails(child) if kind == 2 and order is None else None
                    ret = None
                    continue
                val = child.eval
                cutoff = True
            else:
                val = child.value
                cutoff = False
            if type(val) is tuple:
                val = val[0]
        else:  # every child done (or cut off): return to the parent
            val = ret if ret is not None else v
            if not stack:
                yield (EXIT, node, val)
                return
            child = node
            cutoff = None
            node, kind, a, b, v, kids, i, n, seen, wa, wb, rest, ret, rests = stack.pop()
        # The value `val` of `child` comes back to `node`.
        ov = v
        skipped = None
        if kind == 0:
            ob = a
            if val > v:
                v = val
            if (v > b) if strict else (v >= b):
                if i < n:
                    skipped = kids[i:]
                i = n
            elif v > a:
                a = v
            yield (RET, node, child, val, cutoff, ov, v, ob, a, skipped)
        elif kind == 1:
            ob = b
            if val < v:
                v = val
            if (v < a) if strict else (v <= a):
                if i < n:
                    skipped = kids[i:]
                i = n
            elif v < b:
                b = v
            yield (RET, node, child, val, cutoff, ov, v, ob, b, skipped)
        else:
            if order is not None:
                seen.add(child.id)
            v = v + child.probability * val
            if (val < wa) if strict else (val <= wa):     # fails low: at most v + U·rest
                ret = v + hi * rest
                if ret > a:   # (only rounding can make it so)
                    ret = a
            elif (val > wb) if strict else (val >= wb):   # fails high: at least v + L·rest
                ret = v + lo * rest
                if ret < b:
                    ret = b
            if ret is not None:
                if i < n:
                    skipped = kids[i:]
                i = n
            yield (RET, node, child, val, cutoff, ov, v, None, ret, skipped)


__all__ = ["star1", "window", "rest_after"]
