"""The view of a tree at one step, and the one function that changes it.

Every event carries ``changes``: ``[node_id, field, old, new]`` items. Stepping
forward applies them, stepping back undoes them in reverse order, and the
view at step k is the initial view with the first k events applied. The page
does exactly the same in ``static/js/model.js``; a shared corpus keeps both
in step (tests/search/test_view.py and tests/browser).

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

FIELDS = ("status", "value", "alpha", "beta")
INITIAL = {"status": "unvisited", "value": None, "alpha": None, "beta": None}


class View:
    """Each node's status, value, alpha and beta; absent nodes are initial."""

    __slots__ = ("_nodes", "tree")

    def __init__(self, tree=None) -> None:
        self.tree = tree  # optional: lets callers list every node of the tree
        self._nodes: dict[str, dict] = {}

    def get(self, node_id: str) -> dict:
        return dict(self._nodes.get(node_id, INITIAL))

    def state(self, node_id: str) -> dict:
        """The node's state itself (read only; :meth:`get` gives a copy)."""
        return self._nodes.get(node_id, INITIAL)

    def field(self, node_id: str, name: str):
        state = self._nodes.get(node_id)
        return INITIAL[name] if state is None else state[name]

    def apply(self, changes: Iterable) -> None:
        nodes = self._nodes
        for node_id, name, _old, new in changes:
            state = nodes.get(node_id)
            if state is None:
                state = nodes[node_id] = dict(INITIAL)
            state[name] = new

    def undo(self, changes: list) -> None:
        nodes = self._nodes
        for node_id, name, old, _new in reversed(changes):
            state = nodes.get(node_id)
            if state is None:
                state = nodes[node_id] = dict(INITIAL)
            state[name] = old

    def snapshot(self) -> dict[str, dict]:
        """The nodes that differ from the initial view."""
        return {k: dict(v) for k, v in self._nodes.items() if v != INITIAL}

    def all(self) -> dict[str, dict]:
        """Every node of the tree (needs ``tree``), in preorder."""
        return {n.id: self.get(n.id) for n in self.tree.nodes}

    def touched(self) -> list[str]:
        return [k for k, v in self._nodes.items() if v != INITIAL]

    @classmethod
    def replay(cls, tree, events: Iterable[dict], step: int | None = None) -> "View":
        """The view of ``tree`` after the first ``step`` events (all if ``None``)."""
        view = cls(tree)
        for k, event in enumerate(events):
            if step is not None and k >= step:
                break
            view.apply(event.get("changes", ()))
        return view
