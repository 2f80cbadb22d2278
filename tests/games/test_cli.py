"""Games named on the command line (contract §1 and §2)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.games.ids import resolve

from .test_lazy import counts


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
def test_minimax_through_the_command_line_counts_as_the_core():
    # The whole game (549,946 nodes, 1,394,670 narrated events) took 37-90 s
    # here; its counts stay asserted from the raw events (test_lazy.py) and
    # narrated through the server into the page (tests/browser/test_whole_game.py).
    # The command line's own part is the same on a position a tenth the size.
    position = "game:tictactoe:x........"
    out = trace(position, "--algorithm", "minimax", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    done = json.loads(lines[-1])
    assert done["type"] == "done" and len(lines) == done["step"] == 151_383
    assert (done["stats"]["entered"], done["stats"]["evaluated"]) == (59_705, 27_732) \
        == counts(resolve(position), algorithm="minimax")
    assert done["value"] == 0 and len(done["evaluated"]) == 27_732


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
