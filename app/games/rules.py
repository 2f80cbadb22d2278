"""Fast rules of the games searched lazily (:mod:`app.games.lazy`).

Each class has the :class:`~app.games.protocol.Game` protocol's methods
plus what a lazy search needs: ``move_name`` (node ids are paths of move
names), ``height`` (moves left at most), ``key`` (a hashable position for
memoised counts) and ``countable`` (can the whole game be counted?).
States are small immutable values, and what a position always gives the
same answer to (who has won, E(n)) is computed once per position: a
search of the whole of tic-tac-toe meets 549,946 nodes but only 5,478
positions.

>>> t = TicTacToeRules()
>>> s = t.result(t.result(t.initial, 4), 1)
>>> t.display(s), t.evaluate(s), t.to_move(s)
('·O·/·X·/···', 2, 'MAX')
>>> n = NimRules((7,))
>>> [n.move_name(n.initial, a) for a in n.actions(n.initial)]
['6+1', '5+2', '4+3']
>>> c = Connect4Rules()
>>> c.display(c.result(c.initial, 3))[-7:]
'···X···'
"""
from __future__ import annotations

from app.search.words import Said

from .nim import Nim, NimState

EMPTY = "\u00b7"


class BadPosition(Said, ValueError):
    """A position a game id names that the rules cannot start from; its
    sentence is a catalogue message (the pages say it in the reader's language)."""

# -- tic-tac-toe ---------------------------------------------------------------
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToeRules:
    """Tic-tac-toe; X = MAX. A state is the board as 9 characters
    (``X``, ``O``, ``.``, row by row); the side to move follows from the
    counts. Moves are cells 0-8 in reading order; win = 10 (beyond any
    E(n)), loss = -10, draw = 0, as in :class:`app.games.tictactoe.TicTacToe`."""

    players = ("MAX", "MIN")
    win_value = 10
    value_range = (-10, 10)   # [mcts] utilities for MAX, E(n) within them
    countable = True

    def __init__(self, board: str = "." * 9):
        board = board.upper()
        if len(board) != 9 or set(board) - set("XO."):
            raise BadPosition("a tic-tac-toe position is 9 cells of x, o or '.', row by row")
        xs, os_ = board.count("X"), board.count("O")
        if xs - os_ not in (0, 1):
            raise BadPosition("X moves first, so X has as many marks as O or one more")
        self.initial = board
        self._won: dict[str, str] = {}
        self._eval: dict[str, int] = {}

    def winner(self, board: str) -> str:
        """``"X"``, ``"O"`` or ``""``."""
        won = self._won.get(board)
        if won is None:
            won = ""
            for i, j, k in LINES:
                if board[i] != "." and board[i] == board[j] == board[k]:
                    won = board[i]
                    break
            self._won[board] = won
        return won

    def mover(self, board: str) -> str:
        return "X" if board.count("X") == board.count("O") else "O"

    def to_move(self, board: str) -> str:
        return "MAX" if self.mover(board) == "X" else "MIN"

    def actions(self, board: str) -> list[int]:
        if self.winner(board):
            return []
        return [i for i in range(9) if board[i] == "."]

    def result(self, board: str, action: int) -> str:
        if not isinstance(action, int) or not 0 <= action <= 8 or board[action] != ".":
            raise ValueError(f"cell {action!r} is not free")
        return board[:action] + self.mover(board) + board[action + 1:]

    def terminal_test(self, board: str) -> bool:
        return bool(self.winner(board)) or "." not in board

    def utility(self, board: str, player: str) -> int:
        won = self.winner(board)
        if not won:
            return 0
        return self.win_value if (won == "X") == (player == "MAX") else -self.win_value

    def evaluate(self, board: str) -> int:
        """Luger's E(n) = M - O: lines still open for X minus lines open for O
        (a finished game scores its utility)."""
        e = self._eval.get(board)
        if e is None:
            if self.terminal_test(board):
                e = self.utility(board, "MAX")
            else:
                e = (sum(1 for line in LINES if all(board[i] != "O" for i in line))
                     - sum(1 for line in LINES if all(board[i] != "X" for i in line)))
            self._eval[board] = e
        return e

    def display(self, board: str) -> str:
        b = board.replace(".", EMPTY)
        return f"{b[0:3]}/{b[3:6]}/{b[6:9]}"

    def move_name(self, board: str, action: int) -> str:
        return f"{self.mover(board)}{action + 1}"

    def move_names(self, board, moves) -> list[str]:
        """:meth:`move_name` of each of ``moves`` played in turn from ``board``, without
        making the positions (the marks alternate): a playout's ids, cheaply."""
        first, second = ("X", "O") if self.mover(board) == "X" else ("O", "X")
        return [f"{second if k & 1 else first}{a + 1}" for k, a in enumerate(moves)]

    def height(self, board: str) -> int:
        return board.count(".")

    def key(self, board: str) -> str:
        return board


# -- Nim -----------------------------------------------------------------------
class NimRules(Nim):
    """Luger's Nim (split a pile into two unequal piles; who cannot move
    loses) from any piles; utility 1 = MAX wins, 0 = MIN wins."""

    countable = True
    value_range = (0, 1)   # [mcts] utilities for MAX

    def __init__(self, heaps: tuple[int, ...], first: str = "MAX"):
        if not heaps or any(not isinstance(h, int) or h < 1 for h in heaps):
            raise BadPosition("Nim piles are whole numbers of at least 1 token")
        if sum(heaps) > 40:
            raise BadPosition("Nim from rules is searched for at most 40 tokens")
        super().__init__(max(heaps), first)
        self.initial = NimState(tuple(sorted(heaps, reverse=True)), first)

    def move_name(self, state: NimState, action: tuple[int, int]) -> str:
        heap, part = action
        return f"{heap - part}+{part}"

    def height(self, state: NimState) -> int:
        return sum(state.heaps) - len(state.heaps)  # each move adds a pile

    def key(self, state: NimState) -> tuple:
        """The position as counts and values see it: piles of 1 and 2 can
        never be split, so they change neither (``5-1-1`` and ``5`` have the
        same tree), and leaving them out keeps the memo small (counting Nim
        from 40 tokens up to a budget takes milliseconds, not seconds)."""
        return tuple(h for h in state.heaps if h > 2), state.to_move


# -- Connect Four ---------------------------------------------------------------
ROWS, COLS = 6, 7
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def _windows() -> list[tuple[int, ...]]:
    """Every line of four cells (index = row * 7 + column, row 0 at the top)."""
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLS for rr, cc in cells):
                    out.append(tuple(rr * COLS + cc for rr, cc in cells))
    return out


WINDOWS = _windows()
WINDOWS_AT = [tuple(w for w in WINDOWS if i in w) for i in range(ROWS * COLS)]


class Connect4Rules:
    """Connect Four on 6 rows x 7 columns; X (MAX) drops first. A state is
    ``(board, winner)``: 42 characters row by row from the top, and who has
    four in a row (``""`` if nobody). Moves are columns 0-6, searched from
    the centre out (the usual good order). A win is worth 1000 (beyond the
    evaluation); the evaluation counts lines of four still open: 2 and 3
    discs of one colour with the rest empty score 2 and 5, and each disc in
    the centre column 3, for MAX minus the same for MIN."""

    players = ("MAX", "MIN")
    win_value = 1000
    value_range = (-1000, 1000)   # [mcts] utilities for MAX, the evaluation within them
    countable = False

    def __init__(self, moves: str = ""):
        state = ("." * (ROWS * COLS), "")
        for ch in moves:
            if not ch.isdigit() or not 1 <= int(ch) <= COLS:
                raise BadPosition("Connect Four moves are columns 1-7")
            if state[1] or int(ch) - 1 not in self.actions(state):
                raise BadPosition("column {column} cannot be played in that position", column=ch)
            state = self.result(state, int(ch) - 1)
        self.initial = state

    def mover(self, state) -> str:
        board = state[0]
        return "X" if board.count("X") == board.count("O") else "O"

    def to_move(self, state) -> str:
        return "MAX" if self.mover(state) == "X" else "MIN"

    def actions(self, state) -> list[int]:
        if state[1]:
            return []
        board = state[0]
        return [c for c in CENTRE_FIRST if board[c] == "."]

    def result(self, state, action: int):
        board = state[0]
        if not isinstance(action, int) or not 0 <= action < COLS or board[action] != "." or state[1]:
            raise ValueError(f"column {action!r} cannot be played")
        row = max(r for r in range(ROWS) if board[r * COLS + action] == ".")
        i = row * COLS + action
        me = self.mover(state)
        board = board[:i] + me + board[i + 1:]
        won = me if any(all(board[j] == me for j in w) for w in WINDOWS_AT[i]) else ""
        return (board, won)

    def terminal_test(self, state) -> bool:
        return bool(state[1]) or "." not in state[0][:COLS]

    def utility(self, state, player: str) -> int:
        if not state[1]:
            return 0
        return self.win_value if (state[1] == "X") == (player == "MAX") else -self.win_value

    def evaluate(self, state) -> int:
        if self.terminal_test(state):
            return self.utility(state, "MAX")
        board = state[0]
        score = 0
        for w in WINDOWS:
            cells = [board[j] for j in w]
            x, o = cells.count("X"), cells.count("O")
            if o == 0 and x >= 2:
                score += 2 if x == 2 else 5
            elif x == 0 and o >= 2:
                score -= 2 if o == 2 else 5
        centre = [board[r * COLS + 3] for r in range(ROWS)]
        return score + 3 * (centre.count("X") - centre.count("O"))

    def display(self, state) -> str:
        b = state[0].replace(".", EMPTY)
        return "/".join(b[r * COLS:(r + 1) * COLS] for r in range(ROWS))

    def move_name(self, state, action: int) -> str:
        return f"{self.mover(state)}{action + 1}"

    def move_names(self, state, moves) -> list[str]:
        """:meth:`move_name` of each of ``moves`` played in turn from ``state``, without
        making the positions (the marks alternate): a playout's ids, cheaply."""
        first, second = ("X", "O") if self.mover(state) == "X" else ("O", "X")
        return [f"{second if k & 1 else first}{a + 1}" for k, a in enumerate(moves)]

    def height(self, state) -> int:
        return state[0].count(".")

    def key(self, state):
        return state[0]

    # -- [mcts] a random playout on bitboards --------------------------------
    def playout(self, state, random, steps: int | None = None):
        """Uniform random moves from ``state`` (among :meth:`actions`, in
        their order, ``random()`` in [0, 1) picking one), as RESULT and
        TERMINAL-TEST would play them, until the game ends or ``steps``
        moves are made: ``(utility for MAX, the moves, None)``, or ``(None,
        the moves, the state reached)`` when ``steps`` stopped it. Bitboards
        (a column of 7 bits, the 7th always empty, so no line wraps) make a
        move and its win test a few integer operations, not a scan of the
        board's lines: Monte Carlo tree search spends most of its time here."""
        board = state[0]
        heights = [0] * COLS
        bits = [0, 0]                       # X, O
        for i, ch in enumerate(board):
            if ch != ".":
                r, c = divmod(i, COLS)
                bits[ch == "O"] |= 1 << (c * 7 + (ROWS - 1 - r))
                heights[c] += 1
        filled = sum(heights)
        me = 0 if board.count("X") == board.count("O") else 1
        moves = []
        while True:
            acts = [c for c in CENTRE_FIRST if heights[c] < ROWS]
            a = acts[int(random() * len(acts))]
            moves.append(a)
            b = bits[me] = bits[me] | (1 << (a * 7 + heights[a]))
            heights[a] += 1
            filled += 1
            for shift in (1, 7, 6, 8):
                m = b & (b >> shift)
                if m & (m >> (2 * shift)):
                    return (self.win_value if me == 0 else -self.win_value), moves, None
            if filled == ROWS * COLS:
                return 0, moves, None
            if steps is not None and len(moves) == steps:
                cells = ["X" if bits[0] >> (c * 7 + ROWS - 1 - r) & 1 else
                         "O" if bits[1] >> (c * 7 + ROWS - 1 - r) & 1 else "."
                         for r in range(ROWS) for c in range(COLS)]
                return None, moves, ("".join(cells), "")
            me = 1 - me
