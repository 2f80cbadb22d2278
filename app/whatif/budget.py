"""What one what-if request may cost: the editor's fields of the server's
one budget (:mod:`app.budget`), turned into the loader's limits.

>>> from app.budget import Budget
>>> limits(Budget(editor_nodes=50)).max_nodes
50
"""
from __future__ import annotations

from app.budget import Budget, OverBudget
from app.treefile import Limits

__all__ = ["Budget", "OverBudget", "limits"]


def limits(budget: Budget) -> Limits:
    """The loader's limits for an edited tree."""
    return Limits(max_bytes=budget.editor.editor_bytes, max_nodes=budget.editor.editor_nodes)
