"""Game positions and moves in words for the page: a tree whose labels are
tic-tac-toe or Connect Four boards or Nim piles gets, beside its JSON, each
label said as the narration says it ("X in the top-left corner, O in the
centre", "X in column 4 ×2, O in column 3", "piles 6-1"), and each node's
move from its parent ("O in the top-right corner to block", "X in column
4", "7 split into 6 and 1"), in the reader's language. The accessible tree,
the panels and the iterations table name nodes with these words rather than
spelling out a board's cells.

>>> tree = {"root": {"id": "start", "label": "···/···/···", "children": [
...     {"id": "X5", "label": "···/·X·/···", "children": []}]}}
>>> position_words(tree, "en")["···/·X·/···"]
'X in the centre'
>>> position_words({"root": {"id": "A", "children": [{"id": "b", "value": 1}]}}, "en")
{}
>>> move_words(tree, "en"), move_words(tree, "id")
({'X5': 'X in the centre'}, {'X5': 'X di tengah'})
"""
from __future__ import annotations

from app.search.states import describe, kind_of, move_words as said_move

from . import words

MAX_POSITIONS = 20_000
"""A drawn game tree is a few thousand nodes at most (the rest stays folded)."""


def position_words(data: dict, lang: str | None) -> dict[str, str]:
    """``{label: words}`` for the positions of the tree JSON ``data`` (the
    structure of a tree file, every node a mapping), empty when its labels
    are not positions of a game."""
    kind = _kind(data)
    if kind is None:
        return {}
    root = data["root"]
    say = words(lang)
    out: dict[str, str] = {}
    stack = [root]
    while stack and len(out) < MAX_POSITIONS:
        node = stack.pop()
        label = _label(node)
        if label not in out:
            said = describe(kind, label, say, full=True)
            if said is not None:
                out[label] = said
        stack.extend(c for c in node.get("children") or () if isinstance(c, dict))
    return out


def move_words(data: dict, lang: str | None) -> dict[str, str]:
    """``{node id: its move in words}`` for the nodes of the tree JSON
    ``data`` below the root whose move from their parent can be read (empty
    when its labels are not positions of a game)."""
    kind = _kind(data)
    if kind is None:
        return {}
    say = words(lang)
    out: dict[str, str] = {}
    stack = [data["root"]]
    while stack and len(out) < MAX_POSITIONS:
        node = stack.pop()
        kids = [c for c in node.get("children") or () if isinstance(c, dict)]
        for child in kids:
            said = said_move(kind, _label(node), _label(child), say)
            if said is not None and "id" in child:
                out[str(child["id"])] = said
        stack.extend(kids)
    return out


def _kind(data: dict) -> str | None:
    root = data.get("root")
    if not isinstance(root, dict):
        return None
    return kind_of(_label(root), [_label(c) for c in root.get("children") or ()
                                  if isinstance(c, dict)])


def _label(node: dict) -> str:
    return str(node.get("label", node.get("id", "")))
