"""What the page should show, computed from the server's own events.

The page only presents the search core's events, so the expected hooks at
step k are the Python :class:`~app.search.View` after replaying the first k
events of ``GET /api/trees/<id>/trace``, spelled the way the page spells
them (contract §4: ``-inf``/``inf``, empty where there is no value).
"""
from __future__ import annotations

import json

import requests

from app.search import View


def js_number(x):
    """A number as JavaScript would print it (3.0 -> 3)."""
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def hook(x) -> str:
    """A value or bound as the data-* hooks write it."""
    if x is None:
        return ""
    if isinstance(x, list):
        return json.dumps([js_number(v) for v in x], separators=(",", ":"))
    return str(js_number(x))


def trace(base: str, tree_id: str, **options) -> list[dict]:
    query = {k: ("1" if v is True else v) for k, v in options.items() if v not in (None, False)}
    res = requests.get(f"{base}/api/trees/{tree_id}/trace", params=query, timeout=30)
    assert res.status_code == 200, res.text
    return res.json()["events"]


class NodeIds(list):
    """Node ids in preorder, with the tree they come from (``.tree``)."""

    tree = None


def node_ids(live_server, tree_id: str) -> NodeIds:
    """Every node id of the tree, in preorder, as the server knows it."""
    tree = live_server.app.extensions["trees"].get(tree_id)
    ids = NodeIds(n.id for n in tree.nodes)
    ids.tree = tree
    return ids


def hooks_at(events: list[dict], step: int, ids) -> dict[str, dict]:
    """{id: {status, value, alpha, beta}} after ``step`` events, as the page
    spells it (nodes below a pruned top shown pruned when ``ids`` knows its tree)."""
    view = View.replay(getattr(ids, "tree", None), events, step)
    out = {}
    for node_id in ids:
        f = view.get(node_id)
        out[node_id] = {"status": f["status"], "value": hook(f["value"]),
                        "alpha": hook(f["alpha"]), "beta": hook(f["beta"])}
    return out
