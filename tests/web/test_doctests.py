"""The examples in the web modules' docstrings run (CI collects tests/ only)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["app.web.jsonio", "app.web.origins", "app.web.params", "app.web.runs",
           "app.web.store", "app.web.security"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
