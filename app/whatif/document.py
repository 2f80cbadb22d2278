"""The editor's tree, checked by the loader's own rules.

The page edits a *document*: the structure of a tree file (contract §1)
whose every node also carries a ``key``, a name the page gives it that never
changes while the tree is edited (ids may: an unnamed node gets the id the
loader makes for its place). :func:`check_document` writes the document as
a JSON tree file with **one node per line**, in preorder, and loads it with
:func:`app.treefile.load_tree`. So an edited tree is accepted exactly when
the same file would be, and the line of a loader error names the node it
concerns.

>>> doc = {"title": "t", "root": {"key": "k0", "children": [
...     {"key": "k1", "value": 3}, {"key": "k2", "value": 5}]}}
>>> checked = check_document(doc)
>>> [n.id for n in checked.tree.nodes], checked.ids
(['A', 'a1', 'a2'], {'k0': 'A', 'k1': 'a1', 'k2': 'a2'})
>>> bad = {"title": "t", "root": {"key": "k0", "type": "chance", "children": [
...     {"key": "k1", "probability": "1/3", "value": 3},
...     {"key": "k2", "probability": 0.5, "value": 5}]}}
>>> try:
...     check_document(bad)
... except DocumentError as exc:
...     print(exc.key, exc.message)
k0 the probabilities of this chance node's children sum to 0.8333333333, not 1
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from app.search.tree import Tree
from app.treefile import Limits, TreeFileError, load_tree

TOP_FIELDS = ("title", "source", "description", "algorithm", "players")
MAX_KEY = 40
HEADER_LINES = 1
"""Lines before the root's: the file's top-level fields."""

_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": ")).encode


def _dump(fields: dict, key: str | None = None) -> str:
    try:
        return _encode(fields)
    except (ValueError, TypeError, RecursionError):
        raise DocumentError("a field holds something that is not plain JSON data", key) from None


class DocumentError(ValueError):
    """An edited tree the loader refuses; ``key`` is the node it concerns
    (``None`` when it concerns the whole tree)."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.message = message
        self.key = key

    def to_dict(self) -> dict:
        return {"message": self.message, "key": self.key}


@dataclass(frozen=True)
class Checked:
    """A document the loader accepted."""

    tree: Tree
    ids: dict[str, str]
    """Each node's key -> its id in the tree."""
    keys: dict[str, str]
    """Each node's id -> its key."""
    text: str
    """The document as the JSON tree file that was loaded."""
    named: frozenset
    """The ids the document wrote (the others the loader made)."""


def to_file(doc) -> tuple[str, list[str], set[str]]:
    """``(JSON text, keys in preorder, keys of the nodes with an id written)``:
    node *i* of the preorder is on line
    ``HEADER_LINES + 1 + i``. Raises :class:`DocumentError` for a document
    that is not even the shape of one (the loader checks everything else)."""
    if not isinstance(doc, dict):
        raise DocumentError("the tree must be a JSON object")
    root = doc.get("root")
    if not isinstance(root, dict):
        raise DocumentError("the tree needs a 'root' node")
    head = {k: doc[k] for k in TOP_FIELDS if k in doc and doc[k] is not None}
    for k in doc:
        if k not in TOP_FIELDS and k != "root":
            raise DocumentError(f"unknown key {str(k)[:40]!r} at the top of the tree")
    lines = [_dump(head)[:-1] + (', ' if head else '') + '"root":']
    keys: list[str] = []
    named: set[str] = set()
    seen: set[str] = set()
    # Each stack item: a node, or a string to append to the previous line.
    stack: list = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            lines[-1] += item
            continue
        if not isinstance(item, dict):
            raise DocumentError("every node must be a JSON object", keys[-1] if keys else None)
        key = item.get("key")
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or key in seen:
            raise DocumentError("every node needs its own key (a short string)",
                                keys[-1] if keys else None)
        seen.add(key)
        keys.append(key)
        if item.get("id") is not None:
            named.add(key)
        fields = {k: v for k, v in item.items() if k not in ("key", "children")}
        children = item.get("children")
        if children is None:
            lines.append(_dump(fields, key))
            continue
        if not isinstance(children, list):
            raise DocumentError("children must be a list", key)
        text = _dump(fields, key)[:-1] + (', ' if fields else '') + '"children": ['
        lines.append(text)
        if not children:
            lines[-1] += "]}"
            continue
        stack.append("]}")
        for i in range(len(children) - 1, -1, -1):
            stack.append(children[i])
            if i:
                stack.append(", ")
    lines[-1] += "}"
    return "\n".join(lines) + "\n", keys, named


def check_document(doc, limits: Limits | None = None, written=None) -> Checked:
    """The tree of an edited document, or a :class:`DocumentError` placed at
    the node it concerns. ``written`` is ``to_file(doc)`` if already made."""
    text, keys, named = written or to_file(doc)
    try:
        tree = load_tree(text, fmt="json", limits=limits)
    except TreeFileError as exc:
        index = (exc.line or 0) - HEADER_LINES - 1
        key = keys[index] if 0 <= index < len(keys) else None
        raise DocumentError(exc.message, key) from None
    ids = {key: node.id for key, node in zip(keys, tree.nodes)}
    return Checked(tree, ids, {v: k for k, v in ids.items()}, text,
                   frozenset(ids[k] for k in named))
