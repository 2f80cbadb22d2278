"""``node_test(file, fixture, tests=n)``: run tests/js/<file> under
``node --test`` with ``fixture`` (the Python core's outputs) as its JSON
input; see tests/js/node.py."""
from __future__ import annotations

import pytest

from tests.js.node import run_node_test


@pytest.fixture
def node_test(tmp_path):
    def run(test_file: str, fixture, tests: int = 1, timeout: float = 120):
        return run_node_test(test_file, fixture, tmp_path, tests=tests, timeout=timeout)
    return run
