"""Game positions read back from a node's label: tic-tac-toe boards and Nim piles.

Trees made from a game's rules label each node with its position: a
tic-tac-toe board on one line, rows split by ``/`` (``X··/·O·/···``), a Nim
position as its piles largest first (``4-2-1``, a repeat numbered
``4-2-1#2``). The narration names such positions in words and the pictures
draw them as small boards or piles; both ask this one module, keyed on the
label alone, so a tree grown lazily from a game's rules gets the same words
and drawings as a file of the library.

>>> board("X··/·O·/···")
('X', '.', '.', '.', 'O', '.', '.', '.', '.')
>>> words(board("···/···/···")), words(board("···/·X·/···"))
('the empty board', 'X in the centre')
>>> words(board("X··/·O·/···"))
'X in the top-left corner, O in the centre'
>>> piles("4-2-1#2"), piles_words((4, 2, 1)), piles_words((7,))
((4, 2, 1), 'piles 4-2-1', 'one pile of 7')
>>> kind_of("7", ["6-1", "5-2", "4-3"]), kind_of("7", ["A", "B"]), kind_of("A", [])
('nim', None, None)
"""
from __future__ import annotations

import re
from functools import lru_cache

from .words import english

_BOARD = re.compile(r"^([XO·.]{3})/([XO·.]{3})/([XO·.]{3})$")
_PILES = re.compile(r"^(\d{1,3}(?:-\d{1,3})*)(?:#\d+)?$")

def N_(message: str) -> str:
    """Mark a message for the catalogue (said later through ``tell``)."""
    return message


PLACES = (N_("the top-left corner"), N_("the top edge"), N_("the top-right corner"),
          N_("the left edge"), N_("the centre"), N_("the right edge"),
          N_("the bottom-left corner"), N_("the bottom edge"), N_("the bottom-right corner"))
"""Cells 1-9 (row by row) as a lecturer names them."""
AT_PLACES = (N_("in the top-left corner"), N_("on the top edge"), N_("in the top-right corner"),
             N_("on the left edge"), N_("in the centre"), N_("on the right edge"),
             N_("in the bottom-left corner"), N_("on the bottom edge"),
             N_("in the bottom-right corner"))
"""The same cells with their preposition ("X in the centre")."""


@lru_cache(maxsize=16384)  # a long game run names the same few thousand positions again and again
def board(label: str) -> tuple[str, ...] | None:
    """The nine cells (``X``, ``O`` or ``.``) of a tic-tac-toe label, else None."""
    m = _BOARD.match(label or "")
    if m is None:
        return None
    return tuple("." if c == "·" else c for c in "".join(m.groups()))


@lru_cache(maxsize=4096)
def piles(label: str) -> tuple[int, ...] | None:
    """The piles of a Nim label (``4-2-1`` or ``4-2-1#2``), else None."""
    m = _PILES.match(label or "")
    if m is None:
        return None
    out = tuple(int(p) for p in m.group(1).split("-"))
    return out if all(p > 0 for p in out) else None


def _prep(cell: int, tell=english) -> str:
    return tell(AT_PLACES[cell])


def words(cells: tuple[str, ...], tell=english, *, full: bool = False) -> str:
    """A board in words: "the empty board", "X in the centre", ...
    (``tell(msgid, **fields)`` says them in another language). A crowded
    board is shown as its short grid, unless ``full`` (read aloud, where a
    grid of dots is no help): then every mark is named.

    >>> words(board("XXO/·O·/···"), full=True)
    'X in the top-left corner and the top edge, O in the top-right corner and the centre'
    """
    marks = {p: [i for i, c in enumerate(cells) if c == p] for p in "XO"}
    count = len(marks["X"]) + len(marks["O"])
    if count == 0:
        return tell("the empty board")
    if count <= 3 or full:
        parts = []
        for p in "XO":
            if marks[p]:
                cells_p = [_prep(i, tell) if k == 0 else tell(PLACES[i])
                           for k, i in enumerate(marks[p])]
                places = cells_p[0]
                for more in cells_p[1:]:
                    places = tell("{first} and {second}", first=places, second=more)
                parts.append(tell("{mark} {places}", mark=p, places=places))
        return ", ".join(parts)
    # A crowded board: the short grid is clearer than a list of places.
    rows = ["".join("·" if c == "." else c for c in cells[r * 3:r * 3 + 3]) for r in range(3)]
    return tell("the board {rows}", rows="/".join(rows))


def piles_words(heaps: tuple[int, ...], tell=english) -> str:
    if len(heaps) == 1:
        return tell("one pile of {n}", n=heaps[0])
    return tell("piles {piles}", piles="-".join(map(str, heaps)))


def kind_of(root_label: str, child_labels) -> str | None:
    """Which game a tree's labels show: ``"tictactoe"``, ``"nim"`` or None.

    A board label cannot be mistaken for anything else; a Nim label is just
    numbers, so the root's children must also be Nim positions one split on
    (one more pile, the same number of tokens)."""
    if board(root_label) is not None:
        return "tictactoe"
    top = piles(root_label)
    kids = [piles(c) for c in child_labels]
    if top is None or not kids or any(k is None for k in kids):
        return None
    if all(len(k) == len(top) + 1 and sum(k) == sum(top) for k in kids):
        return "nim"
    return None


def move_words(kind: str | None, parent: str, child: str, tell=english) -> str | None:
    """The move from position ``parent`` to ``child`` in words ("O on the top
    edge", "7 split into 6 and 1"), or None when it cannot be read.

    >>> move_words("tictactoe", "X··/···/···", "X··/·O·/···")
    'O in the centre'
    >>> move_words("nim", "6-1", "4-2-1")
    '6 split into 4 and 2'
    """
    if kind == "tictactoe":
        a, b = board(parent), board(child)
        if a is None or b is None:
            return None
        new = [i for i in range(9) if a[i] == "." and b[i] != "."]
        if len(new) != 1:
            return None
        return tell("{mark} {places}", mark=b[new[0]], places=_prep(new[0], tell))
    if kind == "nim":
        a, b = piles(parent), piles(child)
        if a is None or b is None:
            return None
        rest = list(b)
        for heap in a:
            if heap in rest:
                rest.remove(heap)
        gone = list(a)
        for heap in b:
            if heap in gone:
                gone.remove(heap)
        if len(gone) == 1 and len(rest) == 2:
            big, small = sorted(rest, reverse=True)
            return tell("{heap} split into {big} and {small}", heap=gone[0], big=big, small=small)
    return None


def describe(kind: str | None, label: str, tell=english, *, full: bool = False) -> str | None:
    """A node's position in words, or None when ``label`` is not one
    (``full``: every mark of a crowded board named, see :func:`words`)."""
    if kind == "tictactoe":
        cells = board(label)
        return words(cells, tell, full=full) if cells is not None else None
    if kind == "nim":
        heaps = piles(label)
        return piles_words(heaps, tell) if heaps is not None else None
    return None
