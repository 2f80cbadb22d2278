"""Move ordering: "reorder the children for the most cuts".

The student gives each inner node an order of its children; the checker
runs the core's alpha-beta on the reordered tree and compares its work with
the same tree searched best-first (the core's ``order='best'``: each node's
children by their true minimax value, best for the player to move first,
the textbook's perfect ordering), in the file's order and worst-first.
The measure is the number of static evaluations (fewer is better); cut-offs
and pruned nodes are reported beside it. Ordering never changes the root's
value, only the work.
"""
from __future__ import annotations

from dataclasses import replace

from app.search import SearchOptions, run
from app.search.ordering import make_order
from app.search.tree import Node, Tree

from .checker import PracticeError, practice_options, visualizer_link
from .words import tell


def reorder(tree: Tree, order: dict[str, list[str]]) -> Tree:
    """``tree`` with the children of each node in ``order`` rearranged.

    Every listed node must be an inner node and its list a permutation of
    its children's ids; nodes not listed keep their order.
    """
    if not isinstance(order, dict):
        raise PracticeError("order must map node ids to lists of child ids")
    for nid, kids in order.items():
        if nid not in tree:
            raise PracticeError(f"order names node {nid!r}, which is not in the tree")
        have = [c.id for c in tree.node(nid).children]
        if not isinstance(kids, list) or sorted(map(str, kids)) != sorted(have):
            raise PracticeError(f"the order for {nid} must list each of its children "
                                f"({', '.join(have)}) once")
    built: dict[str, Node] = {}
    for node in reversed(tree.nodes):  # children before parents
        if node.children:
            ids = order.get(node.id) or [c.id for c in node.children]
            built[node.id] = replace(node, children=tuple(built[i] for i in ids))
        else:
            built[node.id] = node
    return Tree(root=built[tree.root.id], players=tree.players, title=tree.title,
                source=tree.source, description=tree.description, algorithm=tree.algorithm)


def _work(tree: Tree, opts: SearchOptions) -> dict:
    done = None
    for done in run(tree, opts):
        pass
    stats = done["stats"]
    return {"evaluated": stats["evaluated"], "cutoffs": stats["cutoffs"],
            "pruned_nodes": stats["pruned_nodes"], "value": done["value"],
            "evaluated_ids": done["evaluated"], "pruned": done["pruned"]}


def best_order(tree: Tree, depth: int | None = None) -> dict[str, list[str]]:
    """The core's best-first order of every inner node's children."""
    ordered = make_order(tree, "best", None, depth)
    return {n.id: [c.id for c in ordered(n)] for n in tree.nodes if n.children}


def check_order(tree: Tree, order: dict, options: SearchOptions | None = None,
                tree_id: str | None = None, reveal: bool = False) -> dict:
    """Grade a child order: the student's work against best-first's."""
    opts = practice_options(tree, "order", options)
    mine = _work(reorder(tree, order), opts)
    given = _work(tree, opts)
    best = _work(tree, replace(opts, order="best"))
    worst = _work(tree, replace(opts, order="worst"))
    total = sum(1 for n in tree.nodes if not n.children)
    solved = mine["evaluated"] <= best["evaluated"]
    if mine["evaluated"] < best["evaluated"]:
        verdict = tell("Your order needs {n} static evaluations, even fewer than best-first "
                       "ordering ({best}): a refutation does not have to be the best move, only "
                       "good enough.", n=mine["evaluated"], best=best["evaluated"])
    elif solved:
        verdict = tell("Your order needs {n} static evaluations, as few as best-first "
                       "ordering: {cutoffs}.", n=mine["evaluated"], cutoffs=_cutoffs(mine))
    else:
        verdict = tell("Your order needs {n} static evaluations ({cutoffs}); best-first "
                       "ordering needs only {best}. Try searching first, at each MAX node, the "
                       "child with the largest value and, at each MIN node, the smallest.",
                       n=mine["evaluated"], cutoffs=_cutoffs(mine), best=best["evaluated"])
    result = {
        "mode": "order",
        "options": {"algorithm": opts.algorithm, "depth": opts.depth, "strict": opts.strict,
                    "style": opts.style},
        "leaves": total,
        "mine": _public(mine), "best": _public(best), "given": _public(given),
        "worst": _public(worst),
        "solved": solved,
        "summary": verdict,
        "value": mine["value"],
    }
    if reveal:
        result["best_order"] = best_order(tree, opts.depth)
    if tree_id is not None:
        result["links"] = {
            "best": visualizer_link(tree_id, replace(opts, order="best")),
            "given": visualizer_link(tree_id, opts),
        }
    return result


def _cutoffs(work: dict) -> str:
    n = work["cutoffs"]
    return tell("1 cut-off") if n == 1 else tell("{n} cut-offs", n=n)


def _public(work: dict) -> dict:
    return {k: work[k] for k in ("evaluated", "cutoffs", "pruned_nodes", "pruned")}
