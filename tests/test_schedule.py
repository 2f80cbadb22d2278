"""The suite's schedule under ``-n 2 --dist loadgroup`` (scripts/bootstrap.sh
test): a file's browser and server tests run on one worker, one after another
(its module fixtures, a page or a server, made once). Until 2026-11-27 none
were: tests/conftest.py asked the worker's ``dist`` option (xdist sets it to
"no" there), and on pytest 9.2 xdist's group suffix is lost (pytest-xdist#1386).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FILE = '''import os, pytest
pytestmark = pytest.mark.slow
@pytest.fixture(scope="module")
def made():
    with open("made.txt", "a") as f:
        f.write(__name__ + "\\n")
@pytest.mark.parametrize("i", range(4))
def test_it(made, i):
    with open("ran.txt", "a") as f:
        f.write(f"{__name__} {os.environ['PYTEST_XDIST_WORKER']}\\n")
'''


@pytest.mark.slow     # a pytest of two workers: 8 s at load 8
def test_a_files_slow_tests_share_one_worker_and_its_module_fixture(tmp_path):
    (tmp_path / "conftest.py").write_text(
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\n"
        "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    for name in ("test_a", "test_b", "test_c"):
        (tmp_path / f"{name}.py").write_text(FILE)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist",
         "-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder", "-c", "/dev/null",
         "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [line.split() for line in (tmp_path / "ran.txt").read_text().split("\n") if line]
    assert len(ran) == 12
    workers = {name: {w for n, w in ran if n == name} for name, _ in ran}
    assert all(len(w) == 1 for w in workers.values()), workers
    assert len(set().union(*workers.values())) == 2          # and both workers had work
    made = (tmp_path / "made.txt").read_text().split()
    assert sorted(made) == sorted(workers), made             # each file's fixture once
