"""Writing trees back as files: the dict form, YAML and JSON.

:func:`tree_to_dict` is the file format as plain data, compact the way a
person writes it: leaves whose id the loader would make anyway are bare
numbers (``[3, 12, 8]``), and defaults (label = id, the player by depth,
players MAX and MIN) are left out. ``load_tree(dump_yaml(t))`` gives back
the same ids, labels, values, players, probabilities and evals (an eval on
a leaf, which a tree built in code may carry, is never used and not written).

Both emitters are iterative (trees may be deeper than Python's recursion
limit, and PyYAML's representer recurses) and print lists of numbers and
small leaves on one line, as in the contract's example file.
"""
from __future__ import annotations

import json
import re

from app.search.tree import Node, Tree

from .build import DEFAULT_PLAYERS, child_id
from .limits import MAX_ID
from .yaml_reader import resolve_plain

_INLINE_WIDTH = 76


def tree_to_dict(tree: Tree, *, explicit_ids: bool = False) -> dict:
    """The tree as the plain data of a tree file. With ``explicit_ids`` every
    node is written with its id (no bare-number leaves), so that a reader
    needs none of the loader's rules for making ids (the page is one)."""
    data: dict = {"title": tree.title}
    if tree.source:
        data["source"] = tree.source
    if tree.description:
        data["description"] = tree.description
    if getattr(tree, "translations", None):   # (a game from its rules has none)
        data["translations"] = {lang: dict(t) for lang, t in tree.translations.items()}
    if tree.algorithm:
        data["algorithm"] = tree.algorithm
    if tree.depth is not None:
        data["depth"] = tree.depth
    if getattr(tree, "bounds", None) is not None:
        data["bounds"] = list(tree.bounds)
    if tuple(tree.players) != DEFAULT_PLAYERS:
        data["players"] = list(tree.players)
    n = len(tree.players)
    made: dict[str, object] = {}
    for node in reversed(tree.nodes):         # children before their parent
        item: dict = {"id": node.id}
        if node.label != node.id:
            item["label"] = node.label
        if not node.chance and node.player != node.depth % n:
            item["player"] = tree.players[node.player]
        if node.chance:
            item["type"] = "chance"
        if node.probability is not None:
            item["probability"] = node.probability
        if node.eval is not None and node.children:   # a leaf's eval is never used
            item["eval"] = _plain(node.eval)
        if node.is_leaf:
            item["value"] = _plain(node.value)
        else:
            item["children"] = [
                _plain(child.value) if not explicit_ids and _bare(node, child, i, n)
                else made.pop(child.id)
                for i, child in enumerate(node.children, 1)]
            for child in node.children:      # bare leaves were not popped
                made.pop(child.id, None)
        made[node.id] = item
    data["root"] = made[tree.root.id]
    return data


def _bare(parent: Node, child: Node, index: int, nplayers: int) -> bool:
    """Whether ``child`` can be written as its bare value and be reloaded
    with the same id (the one the loader makes for an unnamed leaf)."""
    return (child.is_leaf and child.probability is None
            and child.label == child.id and child.player == child.depth % nplayers
            and not child.chance and child.id == child_id(parent.id, index)
            and len(child.id) <= MAX_ID)


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


# -- YAML -------------------------------------------------------------------
# Plain (unquoted) text starts with a letter; ': ' and ' #' are checked
# separately. Inside a flow collection ({...}, [...]) YAML gives meaning to
# more characters ('?', ',', brackets, '&', '*', '!', '|', ...), so there only
# characters that mean nothing to YAML stay unquoted.
_PLAIN_BLOCK = re.compile(r"[^\W\d][\w .,;:!?%@#*=~$^'\"()\[\]{}<>/\\+&|-]*")
_PLAIN_FLOW = re.compile(r"[^\W\d][\w .;()/+'=~^$-]*")
_UNPRINTABLE = ('\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ufeff\\ud800-\\udfff'
                '\\ufffe\\uffff')
_ESCAPE = re.compile(f'[{_UNPRINTABLE}\\t\\n"\\\\]')
_NOT_LITERAL = re.compile(f'[{_UNPRINTABLE}]')
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _escape(match: re.Match) -> str:
    char = match.group()
    return _NAMED.get(char) or f"\\u{ord(char):04X}"


def _yaml_scalar(value, flow: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        mantissa, e, exponent = text.partition("e")
        return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text
    pattern = _PLAIN_FLOW if flow else _PLAIN_BLOCK
    if (pattern.fullmatch(value) and not value.endswith((" ", ":")) and ": " not in value
            and " #" not in value and resolve_plain(value) == value):
        return value
    return '"' + _ESCAPE.sub(_escape, value) + '"'


def _literal(value: str) -> list[str] | None:
    """The lines of a ``|`` block for multi-line text, if it can be one."""
    if "\n" not in value or _NOT_LITERAL.search(value):
        return None
    body = value.rstrip("\n")
    breaks = len(value) - len(body)
    if not body:
        return None
    lines = body.split("\n")
    first = next((line for line in lines if line), "")
    if first[:1] in (" ", "\t") or any(line and not line.strip() for line in lines):
        return None
    chomp = "-" if breaks == 0 else "" if breaks == 1 else "+"
    return ["|" + chomp] + lines + [""] * (breaks - 1 if breaks > 1 else 0)


def _is_scalar(value) -> bool:
    return not isinstance(value, (dict, list))


def _inline(value, scalar, key) -> str | None:
    """One-line form of a scalar, a list of scalars, or a small all-scalar
    mapping (not a node with children: those stay in block form)."""
    if _is_scalar(value):
        return scalar(value, False)
    if isinstance(value, list):
        if all(_is_scalar(v) for v in value):
            return "[" + ", ".join(scalar(v, True) for v in value) + "]"
        return None
    if "children" in value:           # inner nodes stay in block form
        return None
    parts = []
    for k, v in value.items():
        if not (_is_scalar(v) or isinstance(v, list) and all(map(_is_scalar, v))):
            return None
        if isinstance(v, str) and "\n" in v:
            return None
        flat = scalar(v, True) if _is_scalar(v) else _inline(v, scalar, key)
        parts.append(f"{key(k)}: {flat}")
    text = "{" + ", ".join(parts) + "}"
    return text if len(text) <= _INLINE_WIDTH else None


def dump_yaml(tree: Tree) -> str:
    """The tree as a readable YAML file."""
    return _emit_yaml(tree_to_dict(tree))


def _emit_yaml(data: dict) -> str:
    lines: list[str] = []
    key = str
    frames = [[iter(data.items()), 0, True, None]]   # iterator, indent, mapping?, "- " prefix
    while frames:
        frame = frames[-1]
        item = next(frame[0], _END)
        if item is _END:
            frames.pop()
            continue
        it, indent, is_map, prefix = frame
        pad = " " * indent
        if is_map:
            k, value = item
            head = (prefix if prefix is not None else pad) + f"{key(k)}:"
            frame[3] = None
            literal = _literal(value) if isinstance(value, str) else None
            if literal:
                lines.append(f"{head} {literal[0]}")
                lines.extend(f"{pad}  {line}" if line else "" for line in literal[1:])
                continue
            flat = _inline(value, _yaml_scalar, key)
            if flat is not None:
                lines.append(f"{head} {flat}")
            else:
                lines.append(head)
                frames.append(_frame(value, indent + 2, None))
        else:
            flat = _inline(item, _yaml_scalar, key)
            if flat is not None:
                lines.append(f"{pad}- {flat}")
            elif isinstance(item, dict):
                frames.append(_frame(item, indent + 2, f"{pad}- "))
            else:
                lines.append(f"{pad}-")
                frames.append(_frame(item, indent + 2, None))
    return "\n".join(lines) + "\n"


_END = object()


def _frame(value, indent: int, prefix: str | None) -> list:
    if isinstance(value, dict):
        return [iter(value.items()), indent, True, prefix]
    return [iter(value), indent, False, prefix]


# -- JSON -------------------------------------------------------------------
def _json_scalar(value, flow: bool = True) -> str:
    return json.dumps(value, ensure_ascii=False)


def dump_json(tree: Tree) -> str:
    """The tree as a readable JSON file (strict JSON)."""
    return _emit_json(tree_to_dict(tree))


def _emit_json(data: dict) -> str:
    key = json.dumps
    lines = ["{"]
    frames = [[iter(data.items()), 2, True, True]]   # iterator, indent, mapping?, first?
    while frames:
        frame = frames[-1]
        it, indent, is_map, first = frame
        item = next(it, _END)
        if item is _END:
            frames.pop()
            lines.append(" " * (indent - 2) + ("}" if is_map else "]"))
            continue
        if not first:
            lines[-1] += ","
        frame[3] = False
        pad = " " * indent
        if is_map:
            k, value = item
            head = f"{pad}{key(k)}: "
        else:
            value, head = item, pad
        flat = _inline(value, _json_scalar, key)
        if flat is not None:
            lines.append(head + flat)
        else:
            lines.append(head + ("{" if isinstance(value, dict) else "["))
            frames.append([iter(value.items() if isinstance(value, dict) else value),
                           indent + 2, isinstance(value, dict), True])
    return "\n".join(lines) + "\n"
