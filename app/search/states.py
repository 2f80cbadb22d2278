"""Game positions read back from a node's label: tic-tac-toe and Connect Four
boards, Nim piles.

Trees made from a game's rules label each node with its position: a
tic-tac-toe board on one line, rows split by ``/`` (``X··/·O·/···``), a
Connect Four rack the same way (six rows of seven, the top row first), a Nim
position as its piles largest first (``4-2-1``, a repeat numbered
``4-2-1#2``). A sentence never shows a board as its string: a position is
named in words ("X in the centre", "X in column 4 ×2, O in column 3") and
a move by where it goes ("O in the top-right corner to block", "X in
column 4"). The narration names such positions in words and the pictures
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
>>> kind_of("/".join(["·······"] * 6), [])
'connect4'
"""
from __future__ import annotations

import re
from functools import lru_cache

from .words import english

_BOARD = re.compile(r"^([XO·.]{3})/([XO·.]{3})/([XO·.]{3})$")
_RACK = re.compile(r"^(?:[XO·.]{7}/){5}[XO·.]{7}$")
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
CELLS = (N_("top-left"), N_("top middle"), N_("top-right"), N_("middle left"), N_("centre"),
         N_("middle right"), N_("bottom-left"), N_("bottom middle"), N_("bottom-right"))
"""The same cells named short, for a crowded board ("X at top-left, centre and bottom-right")."""
CROWDED = 4
"""Marks from which a board is named cell by cell, short (a sentence names it, often twice)."""


@lru_cache(maxsize=16384)  # a long game run names the same few thousand positions again and again
def board(label: str) -> tuple[str, ...] | None:
    """The nine cells (``X``, ``O`` or ``.``) of a tic-tac-toe label, else None."""
    m = _BOARD.match(label or "")
    if m is None:
        return None
    return tuple("." if c == "·" else c for c in "".join(m.groups()))


@lru_cache(maxsize=16384)
def rack(label: str) -> tuple[str, ...] | None:
    """The 42 cells (``X``, ``O`` or ``.``, the top row first) of a Connect
    Four label, else None."""
    if _RACK.match(label or "") is None:
        return None
    return tuple("." if c == "·" else c for c in label if c != "/")


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


def _listed(items: list[str], tell) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return tell("{first} and {second}", first=", ".join(items[:-1]), second=items[-1])


def words(cells: tuple[str, ...], tell=english, *, full: bool = True) -> str:
    """A board in words: "the empty board", "X in the centre", every mark
    named however crowded the board, from :data:`CROWDED` marks on with the
    cells' short names (``tell(msgid, **fields)`` says them in another
    language; ``full`` is kept for callers of old: a board is never said as
    its string of cells).

    >>> words(board("XX·/·O·/···"))
    'X in the top-left corner and the top edge, O in the centre'
    >>> words(board("XXO/·O·/X··"))
    'X at top-left, top middle and bottom-left; O at top-right and centre'
    """
    marks = {p: [i for i, c in enumerate(cells) if c == p] for p in "XO"}
    if not marks["X"] and not marks["O"]:
        return tell("the empty board")
    if len(marks["X"]) + len(marks["O"]) >= CROWDED:
        return "; ".join(tell("{mark} at {cells}", mark=p,
                              cells=_listed([tell(CELLS[i]) for i in marks[p]], tell))
                         for p in "XO" if marks[p])
    parts = []
    for p in "XO":
        if marks[p]:
            places = [_prep(i, tell) if k == 0 else tell(PLACES[i])
                      for k, i in enumerate(marks[p])]
            parts.append(tell("{mark} {places}", mark=p, places=_listed(places, tell)))
    return ", ".join(parts)


def rack_words(cells: tuple[str, ...], tell=english) -> str:
    """A Connect Four position in words: each side's discs by column, left
    to right, a column holding several of them marked ×n.

    >>> rack_words(rack("·······/·······/·······/···O···/···X···/··OX···"))
    'X in column 4 ×2, O in column 3 and column 4'
    """
    parts = []
    for p in "XO":
        count = [0] * 7
        for i, c in enumerate(cells):
            if c == p:
                count[i % 7] += 1
        places = []
        for col, n in enumerate(count):
            if n:
                said = (tell("column {column}", column=col + 1) if places else
                        tell("in column {column}", column=col + 1))
                places.append(said if n == 1 else f"{said} ×{n}")
        if places:
            parts.append(tell("{mark} {places}", mark=p, places=_listed(places, tell)))
    return ", ".join(parts) if parts else tell("the empty board")


def piles_words(heaps: tuple[int, ...], tell=english) -> str:
    if len(heaps) == 1:
        return tell("one pile of {n}", n=heaps[0])
    return tell("piles {piles}", piles="-".join(map(str, heaps)))


def kind_of(root_label: str, child_labels) -> str | None:
    """Which game a tree's labels show: ``"tictactoe"``, ``"connect4"``,
    ``"nim"`` or None.

    A board label cannot be mistaken for anything else; a Nim label is just
    numbers, so the root's children must also be Nim positions one split on
    (one more pile, the same number of tokens)."""
    if board(root_label) is not None:
        return "tictactoe"
    if rack(root_label) is not None:
        return "connect4"
    top = piles(root_label)
    kids = [piles(c) for c in child_labels]
    if top is None or not kids or any(k is None for k in kids):
        return None
    if all(len(k) == len(top) + 1 and sum(k) == sum(top) for k in kids):
        return "nim"
    return None


_LINES3 = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_LINES4 = tuple(tuple((r + k * dr) * 7 + c + k * dc for k in range(4))
                for r in range(6) for c in range(7)
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
                if 0 <= r + 3 * dr < 6 and 0 <= c + 3 * dc < 7)
"""Tic-tac-toe's eight lines; Connect Four's 69 windows of four."""
_AT3 = tuple(tuple(w for w in _LINES3 if i in w) for i in range(9))
_AT4 = tuple(tuple(w for w in _LINES4 if i in w) for i in range(42))
"""The lines through each cell, in the same order (a move's aim reads only those:
Monte Carlo tree search says a few moves of every playout in words)."""


def _aim(cells, cell: int, mark: str, lines) -> str | None:
    """What a mark put on ``cell`` does: "win" (it completes a line of its
    own), "block" (the other side had the rest of a line), else None
    (``lines``: the lines through each cell)."""
    other = "O" if mark == "X" else "X"
    block = False
    for line in lines[cell]:
        rest = [cells[j] for j in line if j != cell]
        if all(c == mark for c in rest):
            return "win"
        block = block or all(c == other for c in rest)
    return "block" if block else None


def _aimed(said: str, aim: str | None, tell) -> str:
    if aim == "win":
        return tell("{move} to win", move=said)
    if aim == "block":
        return tell("{move} to block", move=said)
    return said


def move_words(kind: str | None, parent: str, child: str, tell=english) -> str | None:
    """The move from position ``parent`` to ``child`` in words ("O on the top
    edge", "X in column 4", "7 split into 6 and 1"), with what it does when
    it wins or blocks a line; None when it cannot be read.

    >>> move_words("tictactoe", "X··/···/···", "X··/·O·/···")
    'O in the centre'
    >>> move_words("tictactoe", "XX·/·O·/···", "XXO/·O·/···")
    'O in the top-right corner to block'
    >>> move_words("connect4", *(("/".join(["·······"] * 5) + "/" + r) for r in ("·······", "···X···")))
    'X in column 4'
    >>> move_words("nim", "6-1", "4-2-1")
    '6 split into 4 and 2'
    """
    if kind in ("tictactoe", "connect4"):
        read, lines = (board, _AT3) if kind == "tictactoe" else (rack, _AT4)
        a, b = read(parent), read(child)
        if a is None or b is None:
            return None
        new = [i for i in range(len(a)) if a[i] == "." and b[i] != "."]
        if len(new) != 1:
            return None
        cell = new[0]
        mark = b[cell]
        said = (tell("{mark} {places}", mark=mark, places=_prep(cell, tell))
                if kind == "tictactoe" else
                tell("{mark} in column {column}", mark=mark, column=cell % 7 + 1))
        return _aimed(said, _aim(a, cell, mark, lines), tell)
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


def describe(kind: str | None, label: str, tell=english, *, full: bool = True) -> str | None:
    """A node's position in words, or None when ``label`` is not one."""
    if kind == "tictactoe":
        cells = board(label)
        return words(cells, tell) if cells is not None else None
    if kind == "connect4":
        cells = rack(label)
        return rack_words(cells, tell) if cells is not None else None
    if kind == "nim":
        heaps = piles(label)
        return piles_words(heaps, tell) if heaps is not None else None
    return None
