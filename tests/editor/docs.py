"""Editor documents for the tests: trees with a key on every node."""
from __future__ import annotations

import copy
import itertools

from app.treefile import load_path, tree_to_dict

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_keys = itertools.count(1)


def keyed(data: dict, named: bool = True) -> dict:
    """A tree file's data as an editor document: every node gets a key;
    without ``named`` the ids are left for the loader to make."""
    doc = copy.deepcopy(data)
    stack = [doc["root"]]
    while stack:
        node = stack.pop()
        node["key"] = f"k{next(_keys)}"
        if not named:
            node.pop("id", None)
        kids = node.get("children", [])
        kids[:] = [k if isinstance(k, dict) else {"value": k} for k in kids]
        stack.extend(kids)
    return doc


def library_doc(tree_id: str = "aima-fig-5-2") -> dict:
    """A library tree as the editor opens it (every id written)."""
    return keyed(tree_to_dict(load_path(REPO / "trees" / f"{tree_id}.yaml"), explicit_ids=True))


def node(doc: dict, node_id: str) -> dict:
    """The node of ``doc`` whose written id is ``node_id``."""
    stack = [doc["root"]]
    while stack:
        n = stack.pop()
        if n.get("id") == node_id:
            return n
        stack.extend(n.get("children", []))
    raise KeyError(node_id)
