"""The body of ``GET /api/trees/<id>``, made once per tree, language and form.

A 111,111-node tree is about 3 MB of JSON; making it (the file's structure
as dicts, then their encoding) took 0.4-0.6 s of a core each time it was
asked for, and a lecture's 200 phones ask for the same tree within a
minute. The bytes are kept, per tree id, language (a game's positions
are said in the reader's language) and form (``?form=flat``), for as long as the parsed tree they
were made from is the one the library holds (held weakly: an evicted tree
is not kept alive here, and a rebuilt one makes them again), within a budget of bytes, the least recently sent
going first. A game's lazy tree is answered per request (its opened
subtrees differ): it is never kept here.
"""
from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict

ENCODE = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
"""Compact strict JSON (the page parses it; no key sorting: 111,111 dicts sorted for nothing)."""


def encoded(data: dict) -> bytes:
    """``data`` as the JSON body of an answer."""
    return ENCODE(data).encode()


FORMS = ("nested", "flat")
"""``?form=`` of ``GET /api/trees/<id>``: the tree file's structure (the
default), or its nodes as columns (:func:`flat_nodes`)."""


def flat_nodes(root: dict) -> dict:
    """The nodes under ``root`` (a tree file's nested structure, every node a
    mapping or a bare leaf value) as columns, in preorder: ``ids``,
    ``children`` (how many each has: the structure), ``value`` (``null``
    where none), and every other field a node may carry (``label``,
    ``player``, ``type``, ``eval``, ``probability``, ``collapsed``, ``size``,
    ...) as ``{preorder index: value}`` for the nodes that carry it.
    A page reads 111,111 nodes from these arrays in a tenth of the time it
    parses as many objects, and none of them is garbage to collect.

    >>> flat_nodes({"id": "A", "children": [{"id": "b", "value": 3, "label": "B"}, 4]})
    {'ids': ['A', 'b', None], 'children': [2, 0, 0], 'value': [None, 3, 4], 'label': {1: 'B'}}
    """
    ids: list = []
    counts: list[int] = []
    values: list = []
    sparse: dict[str, dict[int, object]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        i = len(ids)
        if not isinstance(node, dict):     # a bare leaf: its value (the page names it)
            ids.append(None)
            counts.append(0)
            values.append(node)
            continue
        children = node.get("children") or ()
        ids.append(node.get("id"))
        counts.append(len(children))
        values.append(node.get("value"))
        for key, value in node.items():
            if key not in ("id", "children", "value"):
                sparse.setdefault(key, {})[i] = value
        stack.extend(reversed(children))
    return {"ids": ids, "children": counts, "value": values, **sparse}


class TreeJson:
    """Bodies kept by tree id and ``form`` (its language and form,
    ``"en:flat"``), each valid for the tree object it was made from, at most
    ``max_bytes`` of them (0: none kept)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._kept: OrderedDict[tuple[str, str], tuple[weakref.ref, bytes]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.made = 0          # bodies made (not found kept), for tests and the benchmark

    def get(self, tree_id: str, form: str, tree) -> bytes | None:
        """The body kept for this tree (this very object) and form, or None."""
        with self._lock:
            kept = self._kept.get((tree_id, form))
            if kept is None or kept[0]() is not tree:
                return None
            self._kept.move_to_end((tree_id, form))
            return kept[1]

    def put(self, tree_id: str, form: str, tree, body: bytes) -> None:
        with self._lock:
            self.made += 1
            old = self._kept.pop((tree_id, form), None)
            if old is not None:
                self._bytes -= len(old[1])
            # Bodies of trees the library has let go of make room first.
            for key in [k for k, (ref, _) in self._kept.items() if ref() is None]:
                self._bytes -= len(self._kept.pop(key)[1])
            if len(body) > self.max_bytes:
                return
            self._kept[(tree_id, form)] = (weakref.ref(tree), body)
            self._bytes += len(body)
            while self._bytes > self.max_bytes:
                _, (_, gone) = self._kept.popitem(last=False)
                self._bytes -= len(gone)

    def forget(self, tree_id: str) -> None:
        """An upload deleted: its bodies go too."""
        with self._lock:
            for key in [k for k in self._kept if k[0] == tree_id]:
                self._bytes -= len(self._kept.pop(key)[1])

    def usage(self) -> tuple[int, int]:
        """``(bodies, bytes)`` kept now."""
        with self._lock:
            return len(self._kept), self._bytes
