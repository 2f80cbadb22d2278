"""The view of a tree at one step, and the one function that changes it.

Every event carries ``changes``: ``[node_id, field, old, new]`` items. Stepping
forward applies them, stepping back undoes them in reverse order, and the
view at step k is the initial view with the first k events applied. The page
does exactly the same in ``static/js/core/model.js``; a shared corpus keeps both
in step (tests/search/test_view.py and tests/browser).

A cut-off marks each subtree it skips with one change, on the subtree's top:
status ``pruned`` on a node holds for all below it. The view stores what the
changes say (:meth:`state`, :meth:`field`: a node's own fields) and shows a
node inside a pruned subtree as ``pruned`` (:meth:`get`, :meth:`all`,
:meth:`snapshot`, given the tree to find ancestors in), so the cost of a cut
follows the number of subtrees it skips, not their size.

>>> view = View()
>>> view.apply([["A", "status", "unvisited", "active"], ["A", "value", None, 3]])
>>> view.get("A")["status"], view.get("A")["value"]
('active', 3)
>>> view.undo([["A", "status", "unvisited", "active"], ["A", "value", None, 3]])
>>> view.snapshot()
{}
"""
from __future__ import annotations

from typing import Iterable

FIELDS = ("status", "value", "alpha", "beta", "visits", "mean")
INITIAL = {"status": "unvisited", "value": None, "alpha": None, "beta": None,
           "visits": None, "mean": None}
"""``visits`` and ``mean`` (for MAX): Monte Carlo tree search's statistics."""
BASE, EXTRA = FIELDS[:4], FIELDS[4:]


class View:
    """Each node's status, value, alpha, beta (and visits, mean); absent nodes are initial.

    One map per field, holding only what differs from the initial view (as
    the page's model does): a long stream then leaves no object per node
    for the garbage collector to walk, only a few growing maps."""

    __slots__ = ("_maps", "tree")

    def __init__(self, tree=None) -> None:
        self.tree = tree  # optional: lets callers list every node of the tree
        self._maps: dict[str, dict] = {name: {} for name in FIELDS}

    def state(self, node_id: str) -> dict:
        """The node's own fields, as the changes set them ([mcts] ``visits``
        and ``mean`` only where set)."""
        maps = self._maps
        out = {name: maps[name].get(node_id, INITIAL[name]) for name in BASE}
        for name in EXTRA:
            if node_id in maps[name]:
                out[name] = maps[name][node_id]
        return out

    def field(self, node_id: str, name: str):
        """One of the node's own fields."""
        return self._maps[name].get(node_id, INITIAL[name])

    def apply(self, changes: Iterable) -> None:
        maps = self._maps
        for node_id, name, _old, new in changes:
            if new is None or new == INITIAL[name]:
                maps[name].pop(node_id, None)
            else:
                maps[name][node_id] = new

    def undo(self, changes: list) -> None:
        maps = self._maps
        for node_id, name, old, _new in reversed(changes):
            if old is None or old == INITIAL[name]:
                maps[name].pop(node_id, None)
            else:
                maps[name][node_id] = old

    def get(self, node_id: str) -> dict:
        """The node as shown: its own fields, status ``pruned`` if it lies
        in a pruned subtree (when the view knows the tree)."""
        out = self.state(node_id)
        if out["status"] == "unvisited" and self._under_pruned(node_id):
            out["status"] = "pruned"
        return out

    def _under_pruned(self, node_id: str) -> bool:
        if self.tree is None or node_id not in self.tree:
            return False
        status = self._maps["status"]
        parent = self.tree.parent_of(node_id)
        while parent is not None:
            if status.get(parent.id) == "pruned":
                return True
            parent = self.tree.parent_of(parent.id)
        return False

    def snapshot(self) -> dict[str, dict]:
        """The nodes that differ from the initial view, as shown (the nodes
        below a pruned top included when the view knows the tree)."""
        out = {k: self.state(k) for k in self.touched()}
        if self.tree is not None:
            tops = [k for k, v in out.items() if v["status"] == "pruned" and k in self.tree]
            for top in tops:
                below = self.tree.subtree(self.tree.node(top))
                next(below)  # the top itself
                for n in below:
                    state = out.setdefault(n.id, {k: INITIAL[k] for k in BASE})
                    if state["status"] == "unvisited":
                        state["status"] = "pruned"
        return out

    def all(self) -> dict[str, dict]:
        """Every node of the tree as shown (needs ``tree``), in preorder."""
        pruned: set[str] = set()
        out = {}
        for n in self.tree.nodes:
            state = self.state(n.id)
            if state["status"] == "pruned":
                pruned.add(n.id)
            elif state["status"] == "unvisited":
                parent = self.tree.parent_of(n.id)
                if parent is not None and parent.id in pruned:
                    state["status"] = "pruned"
                    pruned.add(n.id)
            out[n.id] = state
        return out

    def touched(self) -> list[str]:
        """The nodes with a field that differs from the initial view."""
        return list(dict.fromkeys(k for m in self._maps.values() for k in m))

    @classmethod
    def replay(cls, tree, events: Iterable[dict], step: int | None = None) -> "View":
        """The view of ``tree`` after the first ``step`` events (all if ``None``)."""
        view = cls(tree)
        for k, event in enumerate(events):
            if step is not None and k >= step:
                break
            view.apply(event.get("changes", ()))
        return view
