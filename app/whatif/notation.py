"""A tree written in the one-line notation (the reader is
:mod:`app.treefile.notation`).

Only the shape, the ids and the leaves' values fit on one line; labels,
evals, chance nodes and probabilities do not (the YAML holds those). Ids
are written where ``written`` says so and the notation can spell them.

>>> from app.treefile import load_tree
>>> tree = load_tree("((3 12 8) (2 4 6) (14 5 2))")
>>> to_notation(tree, written=set())
'((3 12 8) (2 4 6) (14 5 2))'
>>> to_notation(tree, written={"A", "C", "c2"})
'A((3 12 8) C(2 c2=4 6) (14 5 2))'
>>> to_notation(load_tree("([1 2 3] [3 2.5 -1])"), written=set())
'([1 2 3] [3 2.5 -1])'
"""
from __future__ import annotations

import re

from app.search.numbers import jv
from app.search.tree import Tree

_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


def _number(x) -> str:
    x = jv(x)
    return repr(x) if isinstance(x, float) else str(x)


def _value(v) -> str:
    if isinstance(v, (tuple, list)):
        return "[" + " ".join(_number(x) for x in v) + "]"
    return _number(v)


def to_notation(tree: Tree, written: set[str] | None = None) -> str:
    """The one-line notation of ``tree``; ``written`` is the ids to spell
    out (``None``: every id the notation can spell)."""
    out: list[str] = []
    stack: list = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
            continue
        name = node.id if (written is None or node.id in written) and _ID.fullmatch(node.id) \
            else ""
        if node.children:
            out.append(f"{name}(")
            stack.append(")")
            for i in range(len(node.children) - 1, -1, -1):
                stack.append(node.children[i])
                if i:
                    stack.append(" ")
        else:
            out.append(f"{name}={_value(node.value)}" if name else _value(node.value))
    return "".join(out)
