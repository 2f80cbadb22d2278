"""Practice tests: AIMA Fig. 5.2 through the real loader, and small trees
written in the one-line notation (``((3 5) (3 9))``: inner nodes in
parentheses, leaves as numbers, ids made by the loader: A, B, C, b1, ...)."""
from __future__ import annotations

import pytest

from app.treefile import load_tree


@pytest.fixture(scope="session")
def fig52(fig52_yaml):
    return load_tree(fig52_yaml)


@pytest.fixture
def notation():
    """``notation("((3 5) (3 9))")`` -> a Tree."""
    return lambda text: load_tree(text, fmt="notation")
