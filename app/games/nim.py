"""Luger's Nim (Grundy's game): split one heap into two unequal heaps.

The version in Luger's *Artificial Intelligence* (and the lectures): the
players start with one heap of tokens; a move splits any heap into two
non-empty heaps of different sizes; the player who cannot move loses. A
state is the sorted tuple of heaps (largest first, as the figure writes
``5-1-1``) and the player to move. Utilities follow Luger's figure:
``1`` is a win for MAX, ``0`` a win for MIN.

>>> game = Nim(7)
>>> game.display(game.initial), game.actions(game.initial)
('7', [(7, 1), (7, 2), (7, 3)])
>>> s = game.result(game.initial, (7, 2))
>>> game.display(s), game.to_move(s)
('5-2', 'MIN')
>>> game.result(s, (2, 1))
Traceback (most recent call last):
...
ValueError: cannot split 2 into 1 and 1: the two heaps must differ
"""
from __future__ import annotations

from typing import NamedTuple

from .protocol import game_tree


class NimState(NamedTuple):
    heaps: tuple[int, ...]
    """Heap sizes, largest first."""
    to_move: str


class Nim:
    """Luger's Nim with ``tokens`` in one heap; ``first`` moves first."""

    players = ("MAX", "MIN")

    def __init__(self, tokens: int = 7, first: str = "MAX"):
        if not isinstance(tokens, int) or tokens < 1:
            raise ValueError(f"Nim needs a whole number of tokens >= 1, not {tokens!r}")
        if first not in self.players:
            raise ValueError(f"first must be MAX or MIN, not {first!r}")
        self.tokens = tokens
        self.initial = NimState((tokens,), first)

    def to_move(self, state: NimState) -> str:
        return state.to_move

    def actions(self, state: NimState) -> list[tuple[int, int]]:
        """Moves ``(heap, smaller part)``: each heap size once (splitting
        either of two equal heaps gives the same state), smaller part first."""
        moves = []
        for heap in sorted(set(state.heaps), reverse=True):
            moves.extend((heap, k) for k in range(1, (heap + 1) // 2) if k != heap - k)
        return moves

    def result(self, state: NimState, action: tuple[int, int]) -> NimState:
        try:
            heap, part = action
        except (TypeError, ValueError):
            raise ValueError(f"a Nim move is (heap, part), not {action!r}") from None
        if heap not in state.heaps:
            raise ValueError(f"there is no heap of {heap} in {self.display(state)}")
        if not 0 < part < heap:
            raise ValueError(f"cannot split {heap} into {part} and {heap - part}: both must be non-empty")
        if part == heap - part:
            raise ValueError(f"cannot split {heap} into {part} and {part}: the two heaps must differ")
        heaps = list(state.heaps)
        heaps.remove(heap)
        heaps += [part, heap - part]
        return NimState(tuple(sorted(heaps, reverse=True)), self._other(state.to_move))

    def terminal_test(self, state: NimState) -> bool:
        return all(h <= 2 for h in state.heaps)  # 1 and 2 cannot be split unequally

    def utility(self, state: NimState, player: str) -> int:
        """1 if ``player`` has won (the opponent is to move and cannot), else 0."""
        return 0 if state.to_move == player else 1

    def display(self, state: NimState) -> str:
        return "-".join(map(str, state.heaps))

    def _other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]


def nim_tree(tokens: int = 7, first: str = "MAX", **meta) -> dict:
    """The full game tree of :class:`Nim` as a tree-file dict."""
    return game_tree(Nim(tokens, first), **meta)
