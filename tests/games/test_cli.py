"""Games named on the command line (contract §1 and §2)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest


def trace(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", "trace", *args], capture_output=True,
                          text=True, timeout=900)


@pytest.mark.slow
def test_alphabeta_on_the_whole_of_tictactoe():
    out = trace("game:tictactoe", "--algorithm", "alphabeta", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    done = json.loads(lines[-1])
    assert done["type"] == "done" and len(lines) == done["step"] == 52_172
    assert (done["stats"]["entered"], done["stats"]["evaluated"]) == (18_297, 7_330)
    assert done["stats"]["minimax_evaluated"] == 255_168


@pytest.mark.slow
def test_minimax_on_the_whole_of_tictactoe_enters_549946_nodes():
    out = trace("game:tictactoe", "--algorithm", "minimax", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    done = json.loads(out.stdout[out.stdout.rindex("\n", 0, len(out.stdout) - 1) + 1:])
    assert (done["stats"]["entered"], done["stats"]["evaluated"]) == (549_946, 255_168)
    assert done["value"] == 0 and len(done["evaluated"]) == 255_168


def test_positions_nim_and_connect4_and_refusals():
    out = trace("game:tictactoe:x...o....", "--format", "text")
    assert out.returncode == 0 and "Done" in out.stdout.splitlines()[-1]
    done = json.loads(trace("game:nim:7", "--algorithm", "minimax", "--format", "jsonl").stdout.splitlines()[-1])
    assert done["value"] == 0
    done = json.loads(trace("game:connect4", "--depth", "3", "--format", "jsonl").stdout.splitlines()[-1])
    assert done["best_move"] == "X4"
    bad = trace("game:connect4")
    assert bad.returncode == 2 and "depth limit from 1 to 8" in bad.stderr
    bad = trace("game:chess")
    assert bad.returncode == 2 and "unknown game" in bad.stderr
