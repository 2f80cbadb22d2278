"""Game positions in words for the page: a tree whose labels are tic-tac-toe
boards or Nim piles gets, beside its JSON, each label said as the narration
says it ("X in the centre, O in the top-left corner", "piles 6-1"), in the
reader's language; a crowded board too has every mark named (the narration
shows it as a short grid, which reads aloud as a string of dots). The accessible tree names its items with these words
rather than spelling out a board's nine cells.

>>> tree = {"root": {"id": "start", "label": "···/···/···", "children": [
...     {"id": "X5", "label": "···/·X·/···", "children": []}]}}
>>> position_words(tree, "en")["···/·X·/···"]
'X in the centre'
>>> position_words({"root": {"id": "A", "children": [{"id": "b", "value": 1}]}}, "en")
{}
"""
from __future__ import annotations

from app.search.states import describe, kind_of

from . import words

MAX_POSITIONS = 20_000
"""A drawn game tree is a few thousand nodes at most (the rest stays folded)."""


def position_words(data: dict, lang: str | None) -> dict[str, str]:
    """``{label: words}`` for the positions of the tree JSON ``data`` (the
    structure of a tree file, every node a mapping), empty when its labels
    are not positions of a game."""
    root = data.get("root")
    if not isinstance(root, dict):
        return {}
    label = _label(root)
    kind = kind_of(label, [_label(c) for c in root.get("children") or () if isinstance(c, dict)])
    if kind is None:
        return {}
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


def _label(node: dict) -> str:
    return str(node.get("label", node.get("id", "")))
