"""Tic-tac-toe with Luger's heuristic E(n), and its opening trees.

X is MAX and moves first. Cells are numbered 1-9 row by row (1 = top
left, 5 = centre); a board is drawn on one line, rows split by ``/`` and
empty cells as ``·``: ``X··/·O·/···`` is X in the top-left corner, O in the
centre (a middle dot, so that a board ending a sentence stays readable).

Luger's evaluation (also Natsheh's E(n) = M(n) - O(n)):

    E(n) = (rows, columns and diagonals still open for MAX)
         - (rows, columns and diagonals still open for MIN)

>>> game = TicTacToe()
>>> game.evaluate(game.initial)                      # 8 - 8
0
>>> game.evaluate(game.play("X5", "O2"))             # 6 - 4, as on the slide
2
>>> game.result(game.play("X5"), 4)
Traceback (most recent call last):
...
ValueError: cell 5 is taken
"""
from __future__ import annotations

from typing import NamedTuple

from .protocol import game_tree

EMPTY = "\u00b7"
"""How an empty cell is drawn (a middle dot)."""

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
         (0, 4, 8), (2, 4, 6))             # diagonals


def _symmetries() -> list[tuple[int, ...]]:
    """The 8 symmetries of the square, each as a permutation of the cells."""
    rotate = tuple(3 * (2 - c) + r for r in range(3) for c in range(3))  # new[i] = old[rotate[i]]
    mirror = tuple(3 * r + (2 - c) for r in range(3) for c in range(3))
    perms = []
    perm = tuple(range(9))
    for _ in range(4):
        perms.append(perm)
        perms.append(tuple(perm[mirror[i]] for i in range(9)))
        perm = tuple(perm[rotate[i]] for i in range(9))
    return perms


SYMMETRIES = _symmetries()


class TTTState(NamedTuple):
    board: tuple[str, ...]
    """Nine cells, each ``"X"``, ``"O"`` or ``"."``, row by row."""
    to_move: str
    """``"X"`` or ``"O"``."""


class TicTacToe:
    """Tic-tac-toe; X = MAX. ``x_order``/``o_order`` list the cells (0-8)
    in the order each player's moves are generated (the order a search
    visits them); the default is reading order."""

    players = ("MAX", "MIN")
    win_value = 10
    """A won game's utility for the winner. Larger than any E(n) (which lies
    in -8..8), so a win outranks every heuristic value, as Luger's +infinity
    does, while staying a plain number."""

    def __init__(self, x_order=tuple(range(9)), o_order=tuple(range(9)), start: str | None = None):
        for order in (x_order, o_order):
            if sorted(order) != list(range(9)):
                raise ValueError(f"a move order must list the cells 0-8 once each, not {order!r}")
        self._order = {"X": tuple(x_order), "O": tuple(o_order)}
        self.initial = parse_board(start) if start else TTTState((".",) * 9, "X")

    # -- the rules ------------------------------------------------------
    def to_move(self, state: TTTState) -> str:
        return "MAX" if state.to_move == "X" else "MIN"

    def actions(self, state: TTTState) -> list[int]:
        if self.winner(state):
            return []
        return [c for c in self._order[state.to_move] if state.board[c] == "."]

    def result(self, state: TTTState, action: int) -> TTTState:
        if not isinstance(action, int) or not 0 <= action <= 8:
            raise ValueError(f"a move is a cell 0-8, not {action!r}")
        if state.board[action] != ".":
            raise ValueError(f"cell {action + 1} is taken")
        if self.terminal_test(state):
            raise ValueError("the game is over")
        board = list(state.board)
        board[action] = state.to_move
        return TTTState(tuple(board), "O" if state.to_move == "X" else "X")

    def terminal_test(self, state: TTTState) -> bool:
        return bool(self.winner(state)) or "." not in state.board

    def utility(self, state: TTTState, player: str) -> int:
        """+win_value for a win of ``player``, minus that for a loss, 0 for a draw."""
        won = self.winner(state)
        if not won:
            return 0
        return self.win_value if (won == "X") == (player == "MAX") else -self.win_value

    def winner(self, state: TTTState) -> str | None:
        b = state.board
        for i, j, k in LINES:
            if b[i] != "." and b[i] == b[j] == b[k]:
                return b[i]
        return None

    # -- heuristic, symmetry, names ------------------------------------
    def evaluate(self, state: TTTState) -> int:
        """Luger's E(n): lines open for X minus lines open for O (a decided
        game scores its utility instead)."""
        if self.terminal_test(state):
            return self.utility(state, "MAX")
        b = state.board
        open_x = sum(1 for line in LINES if all(b[i] != "O" for i in line))
        open_o = sum(1 for line in LINES if all(b[i] != "X" for i in line))
        return open_x - open_o

    def canonical(self, state: TTTState) -> tuple:
        """The same key for boards that are rotations or reflections of each other."""
        return min(tuple(state.board[p[i]] for i in range(9)) for p in SYMMETRIES), state.to_move

    def display(self, state: TTTState) -> str:
        b = "".join(state.board).replace(".", EMPTY)
        return f"{b[0:3]}/{b[3:6]}/{b[6:9]}"

    def move_name(self, state: TTTState, action: int) -> str:
        return f"{state.to_move}{action + 1}"

    def play(self, *moves: str) -> TTTState:
        """The state after moves named like ``"X5", "O1"`` from the start."""
        state = self.initial
        for name in moves:
            if name[:1] != state.to_move:
                raise ValueError(f"{state.to_move} is to move, not {name[:1]!r}")
            state = self.result(state, int(name[1:]) - 1)
        return state


def parse_board(text: str) -> TTTState:
    """A position drawn as :meth:`TicTacToe.display` draws it (``X··/·O·/···``;
    ``.`` for an empty cell is fine too); X is to move when both have played
    as often, else O.

    >>> parse_board("X../.O./..X").to_move
    'O'
    """
    cells = text.replace("/", "").replace(EMPTY, ".")
    if len(cells) != 9 or set(cells) - set("XO."):
        raise ValueError(f"a board is 9 cells of X, O or '.', in rows split by '/', not {text!r}")
    xs, os_ = cells.count("X"), cells.count("O")
    if xs - os_ not in (0, 1):
        raise ValueError(f"{text}: X moves first, so X has as many marks as O or one more")
    return TTTState(tuple(cells), "X" if xs == os_ else "O")


def opening_tree(game: TicTacToe | None = None, *, plies: int = 2, **meta) -> dict:
    """Luger's n-ply look-ahead from the empty board, up to symmetry:
    leaves at the horizon carry E(n), inner nodes their E(n) as ``eval``."""
    return game_tree(game or TicTacToe(), max_depth=plies, inner_eval=True, root_id="start", **meta)


def full_tree(game: TicTacToe, **meta) -> dict:
    """The whole game tree from ``game.initial`` (up to symmetry), with every
    inner node's E(n) as ``eval``: a full search and depth-limited
    H-MINIMAX can be compared on the same tree."""
    return game_tree(game, inner_eval=True, root_id="start", **meta)
