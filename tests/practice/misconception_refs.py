"""Small independent wrong searches, written here from contract §8's words (recursive,
no events): what each misconception's sheet must be. ``(values, pruned)`` with
``pruned`` child id -> parent id."""
from __future__ import annotations

INF = float("inf")


def alphabeta(tree, strict=False, shallow=False, swap=False, rtl=False, cutter=False):
    values, pruned = {}, {}

    def rec(n, a, b):
        if n.is_leaf:
            return n.value
        ismax = (n.player == 0) != swap
        v = -INF if ismax else INF
        kids = list(n.children)[::-1] if rtl else list(n.children)
        for i, c in enumerate(kids):
            ca, cb = ((v, INF) if ismax else (-INF, v)) if shallow else (a, b)
            val = rec(c, ca, cb)
            if ismax:
                v = max(v, val)
                cut = v > b if strict else v >= b
            else:
                v = min(v, val)
                cut = v < a if strict else v <= a
            if cut:
                rest = kids[i + 1:]
                for r in rest:
                    pruned[r.id] = n.id
                if cutter and rest:
                    pruned[c.id] = n.id
                break
            if ismax:
                a = max(a, v)
            else:
                b = min(b, v)
        values[n.id] = v
        return v

    rec(tree.root, -INF, INF)
    return values, pruned


def backed_up(tree, swap=False, chance="expected"):
    values = {}

    def chooser_max(n):
        p = tree.parent_of(n.id)
        while p is not None and p.chance:
            p = tree.parent_of(p.id)
        return p is None or p.player == 0

    def rec(n):
        if n.is_leaf:
            return n.value
        vals = [rec(c) for c in n.children]
        if n.chance:
            if chance == "expected":
                v = sum(c.probability * x for c, x in zip(n.children, vals))
            elif chance == "uniform":
                v = sum(vals) / len(vals)
            else:
                v = max(vals) if chooser_max(n) else min(vals)
        else:
            v = max(vals) if (n.player == 0) != swap else min(vals)
        values[n.id] = v
        return v

    rec(tree.root)
    return values, {}


def exact(tree, strict=False):
    """Alpha-beta's cuts, and the exact minimax value at every node it searched."""
    values, pruned = alphabeta(tree, strict=strict)
    true, _ = backed_up(tree)
    return {n: true[n] for n in values}, pruned


def reference(mid: str, tree, mode: str, strict=False):
    """The sheet misconception ``mid`` writes, by the words of contract §8."""
    if mode == "values":
        return {"levels-swapped": lambda: backed_up(tree, swap=True),
                "chance-uniform": lambda: backed_up(tree, chance="uniform"),
                "chance-best": lambda: backed_up(tree, chance="best")}[mid]()
    return {"ties": lambda: alphabeta(tree, strict=not strict),
            "shallow": lambda: alphabeta(tree, strict=strict, shallow=True),
            "cutter": lambda: alphabeta(tree, strict=strict, cutter=True),
            "right-to-left": lambda: alphabeta(tree, strict=strict, rtl=True),
            "levels-swapped": lambda: alphabeta(tree, strict=strict, swap=True),
            "exact": lambda: exact(tree, strict)}[mid]()


def key(tree, mode: str, strict=False):
    return backed_up(tree) if mode == "values" else alphabeta(tree, strict=strict)
