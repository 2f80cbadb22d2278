"""Games from rules turned into trees, and random trees.

- :mod:`.protocol`: the :class:`Game` protocol (AIMA's S0, PLAYER, ACTIONS,
  RESULT, TERMINAL-TEST, UTILITY, EVAL) and :func:`game_tree`, which expands
  a game into a tree-file dict.
- :mod:`.nim`: Luger's Nim (split a heap into two unequal heaps).
- :mod:`.tictactoe`: tic-tac-toe with Luger's E(n), symmetry reduction.
- :mod:`.build`: ``python -m app.games.build`` writes the rule-made trees of
  the lecture library (``trees/``).
- :mod:`.random_tree`: random trees from a seed.
"""
from .nim import Nim
from .protocol import Game, game_tree
from .tictactoe import TicTacToe

__all__ = ["Game", "game_tree", "Nim", "TicTacToe"]
