"""What one what-if request may cost.

The editor re-runs the search on every edit, so a request is held to the
sizes people edit by hand. (To be folded into the server's shared budget
module once it exists; the names say what each limit counts.)
"""
from __future__ import annotations

from dataclasses import dataclass

from app.treefile import Limits


class OverBudget(ValueError):
    """The edited tree or its search is beyond what the editor re-runs."""


@dataclass(frozen=True)
class Budget:
    max_nodes: int = 3000
    """Nodes of an edited tree (a tree drawn and edited by hand is far smaller)."""
    max_depth: int = 60
    """Depth of an edited tree."""
    max_events: int = 100_000
    """Steps of one what-if search."""
    max_bytes: int = 512 * 1024
    """Bytes of one request's tree text."""

    def limits(self) -> Limits:
        return Limits(max_bytes=self.max_bytes, max_nodes=self.max_nodes,
                      max_depth=self.max_depth)
