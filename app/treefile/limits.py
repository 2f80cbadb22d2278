"""What a tree file may cost: bytes, nodes, depth and string lengths.

Limits count what a file *becomes*, not just its bytes: aliases that could
multiply a small file into a huge tree are refused outright, and nesting is
counted while the file is read, so no input reaches Python's recursion limit.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Configurable cost limits (the web server and the command line share
    the defaults; tests and trusted tools may raise them)."""

    max_bytes: int = 2 * 1024 * 1024
    """Size of the file in bytes (UTF-8)."""
    max_nodes: int = 200_000
    """Nodes of the tree, leaves included."""
    max_depth: int = 200
    """Depth of the deepest node (the root has depth 0)."""

    @property
    def max_nesting(self) -> int:
        """Lists and mappings nested in the file: a node of depth d sits
        2d + 2 levels down (file, root, then a children list and a mapping per
        level), plus a vector value; a little slack keeps the message about
        tree depth (with its line) for the builder where it can be given."""
        return 2 * self.max_depth + 8


MAX_TITLE = 200
MAX_ID = 64
MAX_LABEL = 200
MAX_SOURCE = 500
MAX_DESCRIPTION = 20_000
MAX_PLAYER_NAME = 32
MAX_PLAYERS = 26
MAX_NUMBER = 1e15
"""Largest magnitude of a value, eval or probability numerator; beyond it
floats lose integer precision and values become unreadable on a slide."""
