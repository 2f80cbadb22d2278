"""Run a JavaScript test file under Node's own test runner (node:test),
against data
the Python core made: the pattern of every twin-parity test in tests/js.

A pytest test computes what the page's DOM-free module must give (from the
core itself, never a hand-written copy), writes it as one JSON fixture and
runs Node on a ``*.test.mjs`` file that reads it
(``fixture()`` of tests/js/fixture.mjs), imports the module from static/js
and asserts with ``node:assert``::

    def test_model_agrees(node_test):
        node_test("model.test.mjs", {"cases": [...]}, tests=3)

``node_test`` (tests/js/conftest.py) fails the pytest test with Node's own
report when any Node test fails, when Node ran fewer tests than ``tests``
(a file that silently stopped testing), or when Node is missing or older
than 20 (Debian's ``nodejs``; no npm package is used).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NODE_MAJOR = 20   # node --test and ES module syntax detection in .js files


def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is not installed (bash scripts/bootstrap.sh test installs Debian's nodejs)")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()
    major = int(re.match(r"v(\d+)", version).group(1))
    if major < NODE_MAJOR:
        pytest.fail(f"node {version} is older than {NODE_MAJOR}")
    return path


def run_node_test(test_file: str | Path, fixture, folder: Path, tests: int = 1,
                  timeout: float = 120) -> dict[str, int]:
    """Run the node:test file ``test_file`` (relative to tests/js) with
    ``fixture`` as strict JSON in ``folder``; returns Node's summary
    (``tests``, ``pass``, ``fail``, ...) once all passed and at least
    ``tests`` ran."""
    test_file = HERE / test_file
    data = folder / f"{test_file.stem}.fixture.json"
    data.write_text(json.dumps(fixture, allow_nan=False, separators=(",", ":")), encoding="utf-8")
    env = {**os.environ, "FIXTURE": str(data), "NO_COLOR": "1"}
    # The file runs its node:test tests in this one Node process; ``node --test``
    # would start a second process per file (half of a small file's time).
    proc = subprocess.run([node(), "--test-reporter=spec", str(test_file)],
                          cwd=HERE, env=env, capture_output=True, text=True, timeout=timeout)
    report = proc.stdout + proc.stderr
    summary = {k: int(v) for k, v in re.findall(r"^ℹ (\w+) (\d+)$", report, re.M)}
    if proc.returncode != 0 or summary.get("fail", 1) or summary.get("pass", 0) < tests:
        # The failed tests' names first, then Node's report with each line cut
        # short (a deepEqual of two whole views is one very long line).
        failed = sorted({line.strip() for line in report.splitlines() if line.lstrip().startswith("✖")})
        lines = "\n".join(line if len(line) < 400 else line[:400] + " …"
                          for line in report.splitlines())
        pytest.fail(f"node {test_file.name} (exit {proc.returncode}, "
                    f"{summary.get('pass', 0)} passed, at least {tests} wanted)\n"
                    + "\n".join(failed[:20]) + "\n\n" + lines[-5000:], pytrace=False)
    return summary
