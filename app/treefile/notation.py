"""The one-line notation: a tree typed as nested parentheses.

``((3 12 8) (2 4 6) (14 5 2))`` is AIMA's Figure 5.2: each pair of
parentheses is an inner node, each number a leaf. Optional ids go before an
opening parenthesis, ``A(B(3 12 8) C(2 4 6) D(14 5 2))``, or before a leaf
with ``=``, ``b1=3``. A bracketed list ``[1 2 6]`` is a multiplayer leaf with
one number per player; a tree with 3+-number leaves gets players A, B, C...
Commas are optional separators, ``#`` starts a comment.

The parser produces the same located document as a YAML file, so a typed
tree is checked and given ids exactly like the file it stands for.

>>> from app.treefile import load_tree
>>> tree = load_tree("((3 12 8) (2 4 6) (14 5 2))")
>>> [n.id for n in tree.root.children], tree.title
(['B', 'C', 'D'], 'Typed tree ((3 12 8) (2 4 6) (14 5 2))')
"""
from __future__ import annotations

import re

from .doc import MAX_LIST_ITEMS, Map, Scalar, Seq, list_too_long, to_int, too_many_nodes
from .errors import TreeTooLarge, file_error, shorten
from .limits import Limits

TITLE = "Typed tree"
"""The start of a typed tree's title; the tree's own first characters follow,
so that two typed trees are told apart in a list."""
TITLE_SNIPPET = 40

_TOKEN = re.compile(r"""
    (?P<skip>[\s,]+|\#[^\n]*)
  | (?P<int>[-+]?[0-9]+(?![A-Za-z0-9_.]))
  | (?P<num>[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![A-Za-z0-9_.]))
  | (?P<id>[A-Za-z_][A-Za-z0-9_']*)
  | (?P<punct>[()\[\]=])
  | (?P<bad>.)
""", re.VERBOSE)


def looks_like_notation(text: str) -> bool:
    """Whether ``text`` starts like the notation: ``(`` or ``Id(``."""
    return re.match(r"\s*(?:#[^\n]*\n\s*)*(?:\(|[A-Za-z_][A-Za-z0-9_']*\s*\()", text) is not None


def read_notation(text: str, limits: Limits) -> Map:
    """The located document (title, players, root) of a typed tree."""
    frames: list[tuple[Map, Seq]] = []    # open parentheses, innermost last
    root = None
    pending = None          # an id waiting for '(' or '='
    leaf_id = None          # an id followed by '=': the next leaf is its
    vector: Seq | None = None
    first_vector = None
    max_nesting, max_nodes = limits.max_depth + 1, limits.max_nodes
    nodes = 0
    line, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "skip":
            token = match.group()
            if "\n" in token:
                line += token.count("\n")
                line_start = match.start() + token.rfind("\n") + 1
            continue
        token = match.group()
        col = match.start() - line_start + 1
        if kind == "int" or kind == "num":
            node = Scalar(to_int(token) if kind == "int" else float(token), token, line, col)
            if vector is not None:          # inside [ ... ]: numbers, then ']'
                if len(vector.items) >= MAX_LIST_ITEMS:
                    raise list_too_long(vector.line, vector.col)
                vector.items.append(node)
                continue
            if pending:
                raise _expected_after(pending)
        elif vector is not None:
            if token != "]":
                raise file_error("expected a number or ']' in a vector, found {found}", line,
                                 col, found=repr(shorten(token)))
            if not vector.items:
                raise file_error("an empty vector '[]': give one number per player",
                                 vector.line, vector.col)
            node, vector = vector, None
            first_vector = first_vector or node
        elif kind == "id":
            if pending or leaf_id:
                raise _dangling(pending, leaf_id)
            pending = Scalar(token, token, line, col)
            continue
        elif token == "=":
            if pending is None:
                raise file_error("'=' must follow a leaf's id, as in b1=3", line, col)
            leaf_id, pending = pending, None
            continue
        elif token == "(":
            if leaf_id:
                raise file_error("after '{id}=' comes a leaf value, not '('", line, col,
                                 id=leaf_id.text)
            if root is not None and not frames:
                raise _after_end(line, col)
            if len(frames) >= max_nesting:
                raise file_error("parentheses nest more than {most} deep; a tree may be at "
                                 "most {depth} levels deep", line, col, cls=TreeTooLarge,
                                 most=max_nesting, depth=limits.max_depth)
            node = Map(*(pending and (pending.line, pending.col) or (line, col)))
            if pending:
                node.items["id"] = (pending.line, pending.col, pending)
                pending = None
            children = Seq(line, col)
            node.items["children"] = (line, col, children)
            frames.append((node, children))
            continue
        elif token == "[":
            if pending:
                raise _expected_after(pending)
            vector = Seq(line, col)
            continue
        elif token == ")":
            if pending or leaf_id:
                raise _dangling(pending, leaf_id)
            if not frames:
                raise file_error("unmatched ')'", line, col)
            node, children = frames.pop()
            if not children.items:
                raise file_error("empty parentheses '()': an inner node needs children",
                                 children.line, children.col)
        else:  # ']' out of place, or a character the notation does not use
            raise file_error("unexpected {found} in a typed tree", line, col,
                             found=repr(shorten(token)))
        # A node is complete: a leaf value may take its id, then it joins its parent.
        if leaf_id is not None:
            leaf = Map(leaf_id.line, leaf_id.col)
            leaf.items["id"] = (leaf_id.line, leaf_id.col, leaf_id)
            leaf.items["value"] = (node.line, node.col, node)
            node, leaf_id = leaf, None
        if frames:
            nodes += 1
            if nodes >= max_nodes:
                raise too_many_nodes(limits, node.line, node.col)
            frames[-1][1].items.append(node)
        elif root is None:
            root = node
        else:
            raise _after_end(line, col)
    if vector is not None:
        raise file_error("'[' is never closed", vector.line, vector.col)
    if pending or leaf_id:
        raise _dangling(pending, leaf_id)
    if frames:
        opened = frames[-1][1]
        raise file_error("'(' is never closed", opened.line, opened.col)
    if root is None:
        raise file_error("the typed tree is empty")
    return _document(root, first_vector, title(text))


def title(text: str) -> str:
    r"""``Typed tree ((3 12 8) (2 4 6) …``: the shape and first labels.

    >>> title("# Fig. 5.2\n((3 12 8)\n (2 4 6) (14 5 2))")
    'Typed tree ((3 12 8) (2 4 6) (14 5 2))'
    """
    shown = " ".join(re.sub(r"#[^\n]*", " ", text).split())
    if len(shown) > TITLE_SNIPPET:
        shown = shown[:TITLE_SNIPPET - 1].rstrip() + "…"
    return f"{TITLE} {shown}"


def _document(root, first_vector: Seq | None, name: str = TITLE) -> Map:
    doc = Map(1, 1)
    doc.items["title"] = (None, None, Scalar(name, name, None, None))
    size = len(first_vector.items) if first_vector is not None else 0
    if size >= 3:
        names = Seq(None, None)
        for i in range(size):
            name = chr(ord("A") + i) if size <= 26 else f"P{i + 1}"
            names.items.append(Scalar(name, name, None, None))
        doc.items["players"] = (None, None, names)
    doc.items["root"] = (root.line, root.col, root)
    return doc


def _dangling(pending: Scalar | None, leaf_id: Scalar | None) -> TreeFileError:
    if pending is not None:
        return _expected_after(pending)
    return file_error("after '{id}=' comes a leaf value, such as {id}=3", leaf_id.line,
                      leaf_id.col, id=shorten(leaf_id.text))


def _expected_after(name: Scalar) -> TreeFileError:
    return file_error("expected '(' or '=' after {name}, as in {id}(3 5) or {id}=3",
                      name.line, name.col, name=repr(shorten(name.text)), id=shorten(name.text))


def _after_end(line: int, col: int) -> TreeFileError:
    return file_error("text after the end of the tree (wrap several subtrees in one pair of "
                      "parentheses)", line, col)
