"""The editor's tree, checked by the loader's own rules.

The page edits a *document*: the structure of a tree file (contract §1)
whose every node also carries a ``key``, a name the page gives it that never
changes while the tree is edited (ids may: an unnamed node gets the id the
loader makes for its place). :func:`check_document` hands the document to
the loader's builder (:func:`app.treefile.build.build_tree`, which checks
every rule of a tree file) as the located document a reader would make of
the same tree written as JSON with **one node per line**, in preorder. So an
edited tree is accepted exactly when that file would be, and the line of an
error names the node it concerns. (Reading the text itself would add
nothing but time: its syntax is already JSON.)

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
import math
import re
from dataclasses import dataclass

from app.search.tree import Tree
from app.treefile import TOP_KEYS, Limits, TreeFileError, decode_text
from app.treefile.build import build_tree
from app.treefile.doc import MAX_MAP_KEYS, Map, Scalar, Seq, append_item

TOP_FIELDS = tuple(k for k in TOP_KEYS if k != "root")
"""What a tree file has at its top besides the root (the loader's own list)."""
MAX_KEY = 40
HEADER_LINES = 1
"""Lines before the root's: the file's top-level fields."""



class DocumentError(ValueError):
    """An edited tree the loader refuses; ``key`` is the node it concerns
    (``None`` when it concerns the whole tree)."""

    msgid: str | None = None
    fields: dict = {}

    def __init__(self, message: str, key: str | None = None, cause=None):
        super().__init__(message)
        self.message = message
        self.key = key
        # The loader's error when ``message`` is its sentence unchanged: the
        # web app says it in the reader's language (app.i18n.error_message).
        self.cause = cause if cause is not None and cause.message == message else None

    def to_dict(self) -> dict:
        return {"message": self.message, "key": self.key}


def doc_error(msgid: str, key: str | None = None, **fields) -> DocumentError:
    """A :class:`DocumentError` whose sentence is the catalogue message
    ``msgid`` (English, ``{named}`` fields), kept so that the web app says it
    in the reader's language (``app.i18n.error_message``).

    >>> err = doc_error("a node has more than {most} fields", "k3", most=64)
    >>> err.message, err.key, err.msgid
    ('a node has more than 64 fields', 'k3', 'a node has more than {most} fields')
    """
    err = DocumentError(msgid.format(**fields) if fields else msgid, key)
    err.msgid, err.fields = msgid, fields
    return err


@dataclass(frozen=True)
class Checked:
    """A document the loader accepted."""

    tree: Tree
    ids: dict[str, str]
    """Each node's key -> its id in the tree."""
    keys: dict[str, str]
    """Each node's id -> its key."""
    named: frozenset
    """The ids the document wrote (the others the loader made)."""


def located(doc) -> tuple[Map, list[str], set[str]]:
    """``(located document, keys in preorder, keys of the nodes with an id
    written)``: the document as a reader of tree files would hand it to the
    builder, with node *i* of the preorder placed on line ``HEADER_LINES + 1 + i``
    (so an error's line names its node). Only the shape of the document is
    checked here, and the reader's own limits (list lengths, keys per mapping,
    text that is not Unicode); the meaning is the builder's, as for a file.
    """
    if not isinstance(doc, dict):
        raise doc_error("the tree must be a JSON object")
    if not isinstance(doc.get("root"), dict):
        raise doc_error("the tree needs a 'root' node")
    top = Map(1, 1)
    for k, v in doc.items():
        if k == "root":
            continue
        if k not in TOP_FIELDS:
            raise doc_error("unknown key {name} at the top of the tree", name=repr(str(k)[:40]))
        if v is not None:
            top.items[k] = (1, 1, _value(v, 1, None))
    keys: list[str] = []
    named: set[str] = set()
    seen: set[str] = set()
    nodes = 0
    limits = _LIMITS
    strings: list[tuple[str, str]] = []
    stack: list = [(doc["root"], None)]     # (node, the children list it goes in)
    while stack:
        item, siblings = stack.pop()
        line = HEADER_LINES + 1 + len(keys)
        if not isinstance(item, dict):
            raise doc_error("every node must be a JSON object", keys[-1] if keys else None)
        key = item.get("key")
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or key in seen:
            raise doc_error("every node needs its own key (a short string)",
                            keys[-1] if keys else None)
        seen.add(key)
        keys.append(key)
        if item.get("id") is not None:
            named.add(key)
        node = Map(line, 1)
        if len(item) > MAX_MAP_KEYS:
            raise doc_error("a node has more than {most} fields", key, most=MAX_MAP_KEYS)
        for k, v in item.items():
            if k == "key":
                continue
            if k == "children" and isinstance(v, list):
                kids = Seq(line, 1, True)
                node.items[k] = (line, 1, kids)
                stack.extend((child, kids) for child in reversed(v))
            else:
                node.items[str(k)] = (line, 1, _value(v, line, key, strings))
        if siblings is None:
            top.items["root"] = (line, 1, node)
        else:
            try:
                nodes = append_item(siblings, node, nodes, limits)
            except TreeFileError as exc:
                raise DocumentError(exc.message, key, exc) from None
    if strings:
        try:
            decode_text("\n".join(text for text, _ in strings))
        except TreeFileError:
            for text, key in strings:      # the one at fault, for its node
                _text(text, key)
    return top, keys, named


def _value(v, line: int, key: str | None, strings: list | None = None, depth: int = 0):
    """A field's value as a reader makes it (lists one level deep: vectors,
    players); strings are noted in ``strings`` with their node's key, to be
    checked as text all at once."""
    kind = type(v)
    if kind is int:
        return Scalar(v, str(v), line, 1)
    if kind is str:
        if strings is not None:
            strings.append((v, key))
        else:
            _text(v, key)
        return Scalar(v, v, line, 1)
    if kind is float:
        if not math.isfinite(v):
            raise doc_error("a number must be finite", key)
        return Scalar(v, repr(v), line, 1)
    if kind is list:
        seq = Seq(line, 1)
        for x in v:
            item = Seq(line, 1) if type(x) is list else _value(x, line, key, strings, depth + 1)
            try:
                append_item(seq, item, 0, _LIMITS)
            except TreeFileError as exc:
                raise DocumentError(exc.message, key, exc) from None
        return seq
    if kind is dict:                  # translations: {lang: {title, description}}
        if depth >= MAX_NESTING or len(v) > MAX_MAP_KEYS:
            raise doc_error("a field nests too deep or has too many keys", key)
        found = Map(line, 1)
        for k, x in v.items():
            found.items[str(k)] = (line, 1, _value(x, line, key, strings, depth + 1))
        return found
    if v is None:
        return Scalar(None, "null", line, 1)
    if kind is bool:
        return Scalar(v, "true" if v else "false", line, 1)
    raise doc_error("a field holds something that is not plain JSON data", key)


def _text(v: str, key: str | None) -> None:
    """Refuse what a reader refuses of text (lone surrogates: not Unicode)."""
    try:
        decode_text(v)
    except TreeFileError as exc:
        raise DocumentError(exc.message, key, exc) from None


_LIMITS = Limits()
MAX_NESTING = 4
"""Mappings and lists inside one field (a translation is two deep)."""


def check_document(doc, limits: Limits | None = None, made=None) -> Checked:
    """The tree of an edited document, or a :class:`DocumentError` placed at
    the node it concerns. ``made`` is ``located(doc)`` if already made."""
    top, keys, named = made or located(doc)
    try:
        tree = build_tree(top, limits or Limits())
    except TreeFileError as exc:
        index = (exc.line or 0) - HEADER_LINES - 1
        key = keys[index] if 0 <= index < len(keys) else None
        raise DocumentError(_placed(exc.message, doc, keys), key, exc) from None
    ids = {key: node.id for key, node in zip(keys, tree.nodes)}
    return Checked(tree, ids, {v: k for k, v in ids.items()},
                   frozenset(ids[k] for k in named))


_LINE = re.compile(r"\(first used at line (\d+)\)|\(line (\d+)\)")


def _placed(message: str, doc, keys: list[str]) -> str:
    """The loader's message with its "line N" (a node's place here, not a
    line anyone typed) said as the node's id."""
    if "line" not in message:
        return message
    ids = {}
    stack = [doc["root"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ids[node.get("key")] = node.get("id")
            kids = node.get("children")
            stack.extend(kids if isinstance(kids, list) else [])

    def name(match: re.Match) -> str:
        index = int(match.group(1) or match.group(2)) - HEADER_LINES - 1
        node_id = ids.get(keys[index]) if 0 <= index < len(keys) else None
        where = f"node {node_id}" if isinstance(node_id, str) else "another node"
        return f"(first used at {where})" if match.group(1) else f"(at {where})"
    return _LINE.sub(name, message)
