"""Game positions drawn in a picture: a tic-tac-toe board as a 3x3 grid with
X and O, a Connect Four rack as a 6x7 grid of discs, a Nim position as piles
of tokens, both as Graphviz HTML-like tables.

Keyed on a node's label alone, read by :mod:`app.search.states` (the
narration's words come from there too), so a tree grown from a game's rules
gets the same pictures as a file of the library.

>>> size("tictactoe", "X··/·O·/···"), size("nim", "4-2-1"), size(None, "A")
((33.0, 33.0), (18.0, 26.0), None)
>>> size("connect4", "/".join(["·······"] * 6))
(42.0, 36.0)
>>> "X" in table("tictactoe", "X··/···/···") and "<TABLE" in table("tictactoe", "X··/···/···")
True
"""
from __future__ import annotations

from app.search.states import board, piles, rack

CELL = 11.0      # a board cell, points
TOKEN = 6.0      # a Nim token's pitch, points
SLOT = 6.0       # a Connect Four cell, points
X_COLOR = "#0072B2"   # as on the page: X is MAX's blue, O MIN's vermillion
O_COLOR = "#D55E00"


def size(kind: str | None, label: str) -> tuple[float, float] | None:
    """Width and height of the picture of ``label`` (points), or None."""
    if kind == "tictactoe" and board(label) is not None:
        return 3 * CELL, 3 * CELL
    if kind == "connect4" and rack(label) is not None:
        return 7 * SLOT, 6 * SLOT
    if kind == "nim":
        heaps = piles(label)
        if heaps is not None:
            return len(heaps) * TOKEN, max(heaps) * TOKEN + 2
    return None


def table(kind: str | None, label: str) -> str | None:
    """The picture of ``label`` as an HTML-like table, or None."""
    if kind == "tictactoe":
        cells = board(label)
        if cells is None:
            return None
        rows = []
        for r in range(3):
            tds = []
            for c in cells[r * 3:r * 3 + 3]:
                mark = (f'<FONT COLOR="{X_COLOR}" POINT-SIZE="8"><B>X</B></FONT>' if c == "X" else
                        f'<FONT COLOR="{O_COLOR}" POINT-SIZE="8"><B>O</B></FONT>' if c == "O" else " ")
                tds.append(f'<TD FIXEDSIZE="TRUE" WIDTH="{CELL:g}" HEIGHT="{CELL:g}">{mark}</TD>')
            rows.append("<TR>" + "".join(tds) + "</TR>")
        return ('<TABLE BORDER="1" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0" COLOR="#777777" '
                'BGCOLOR="white">' + "".join(rows) + "</TABLE>")
    if kind == "connect4":
        cells = rack(label)
        if cells is None:
            return None
        colour = {"X": f' BGCOLOR="{X_COLOR}"', "O": f' BGCOLOR="{O_COLOR}"', ".": ""}
        rows = ["<TR>" + "".join(f'<TD FIXEDSIZE="TRUE" WIDTH="{SLOT - 1:g}" HEIGHT="{SLOT - 1:g}"'
                                 f'{colour[c]}></TD>' for c in cells[r * 7:r * 7 + 7]) + "</TR>"
                for r in range(6)]
        return ('<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="1" CELLPADDING="0" COLOR="#777777" '
                'BGCOLOR="white">' + "".join(rows) + "</TABLE>")
    if kind == "nim":
        heaps = piles(label)
        if heaps is None:
            return None
        tall = max(heaps)
        rows = []
        for level in range(tall, 0, -1):   # top row first: piles stand on one base line
            tds = [f'<TD FIXEDSIZE="TRUE" WIDTH="{TOKEN - 1:g}" HEIGHT="{TOKEN - 1:g}"'
                   + (' BGCOLOR="#555555"' if h >= level else "") + "></TD>" for h in heaps]
            rows.append("<TR>" + "".join(tds) + "</TR>")
        return ('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="1" CELLPADDING="0">'
                + "".join(rows) + "</TABLE>")
    return None
