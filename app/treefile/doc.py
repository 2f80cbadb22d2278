"""The located document: what every reader (YAML, JSON, notation) produces.

A reader turns text into plain :class:`Map`, :class:`Seq` and :class:`Scalar`
objects that remember the 1-based line and column where they were written,
so the builder can say *where* a problem is, whatever the format. Readers
refuse syntax errors, duplicate keys and excessive nesting; meaning (which
keys, which types) is the builder's business.
"""
from __future__ import annotations

import bisect
import re

from .errors import Phrase, TreeFileError, TreeTooLarge, file_error, phrase
from .limits import MAX_PLAYERS, Limits


class Scalar:
    """A number, string, boolean or null, with the text it was written as."""

    __slots__ = ("value", "text", "line", "col")

    def __init__(self, value, text: str, line: int | None, col: int | None):
        self.value = value
        self.text = text
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"Scalar({self.value!r})"


class Seq:
    """A list; ``items`` are documents. ``nodes`` marks a ``children`` list,
    whose items readers count as tree nodes while they read."""

    __slots__ = ("items", "line", "col", "nodes")

    def __init__(self, line: int | None, col: int | None, nodes: bool = False):
        self.items: list = []
        self.line = line
        self.col = col
        self.nodes = nodes


class Map:
    """A mapping; ``items`` maps each key to ``(key_line, key_col, value)``."""

    __slots__ = ("items", "line", "col")

    def __init__(self, line: int | None, col: int | None):
        self.items: dict[str, tuple] = {}
        self.line = line
        self.col = col

    def get(self, key: str):
        entry = self.items.get(key)
        return None if entry is None else entry[2]

    def key_at(self, key: str) -> tuple[int | None, int | None]:
        entry = self.items[key]
        return entry[0], entry[1]


MAX_LIST_ITEMS = MAX_PLAYERS
"""Any list but ``children`` (players, a value or eval vector) is at most
one item per player, so a reader refuses a longer one at once: a file's
reading cost is then bounded by its node count, not just its bytes."""
MAX_MAP_KEYS = 32


def too_many_nodes(limits: Limits, line, col) -> TreeTooLarge:
    return file_error("the tree has more than {most} nodes", line, col, cls=TreeTooLarge,
                      most=limits.max_nodes)


def list_too_long(line, col) -> TreeFileError:
    return file_error("this list is too long: apart from 'children', lists hold at most "
                      "{most} items (one per player)", line, col, most=MAX_LIST_ITEMS)


def append_item(parent: Seq, item, nodes: int, limits: Limits) -> int:
    """Put ``item`` in the list ``parent`` as a reader finishes it, counting a
    ``children`` item as a tree node against the limits and keeping other
    lists short; returns the count of nodes read so far."""
    if parent.nodes:
        nodes += 1
        if nodes > limits.max_nodes:
            raise too_many_nodes(limits, item.line, item.col)
    elif len(parent.items) >= MAX_LIST_ITEMS:
        raise list_too_long(parent.line, parent.col)
    parent.items.append(item)
    return nodes


def map_too_big(line, col) -> TreeFileError:
    return file_error("this mapping has more than {most} keys", line, col, most=MAX_MAP_KEYS)


def kind(doc) -> Phrase:
    """A word for the sort of thing ``doc`` is, for messages (a catalogue
    phrase, said in the reader's language inside the sentence)."""
    if isinstance(doc, Map):
        return phrase("a mapping")
    if isinstance(doc, Seq):
        return phrase("a list")
    value = doc.value
    if value is None:
        return phrase("nothing (null)")
    if isinstance(value, bool):
        return phrase("the boolean {text}", text=repr(doc.text))
    if isinstance(value, (int, float)):
        return phrase("the number {text}", text=doc.text)
    return phrase("text")


class Positions:
    """Turns character offsets into 1-based (line, column) quickly."""

    def __init__(self, text: str):
        self._breaks = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_left(self._breaks, offset)
        start = self._breaks[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1


def to_int(text: str, base: int = 10):
    """``int(text, base)``, or a signed infinity for absurdly long numbers
    (Python refuses to convert more than 4300 digits, and anything beyond 20
    digits is out of range anyway; the builder reports it)."""
    if len(text) <= 22:
        return int(text, base)
    return float("-inf") if text.startswith("-") else float("inf")
