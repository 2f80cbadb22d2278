"""Issue 25 (9): the command line ran ``--iterations 100000000`` without bound
(its search tree grows a node per iteration); it now keeps the server's
budget (app.budget.Games.mcts_iterations) unless told to lift it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.budget import Games
from app.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_iterations_past_the_budget_are_refused_saying_how_to_lift_it(capsys, monkeypatch):
    limit = Games().mcts_iterations
    status = main(["trace", "aima-fig-5-2", "--algorithm", "mcts", "--iterations", "100000000"])
    err = capsys.readouterr()
    assert status == 2 and not err.out
    assert f"{limit:,}" in err.err and "--max-iterations 100000000" in err.err
    # Lifted on purpose, it runs (a budget of 50 here keeps the test short).
    import app.cli.common as common
    monkeypatch.setattr(common, "Games", lambda: Games(mcts_iterations=50))
    assert main(["trace", "aima-fig-5-2", "--algorithm", "mcts", "--iterations", "60"]) == 2
    assert "--max-iterations 60" in capsys.readouterr().err
    status = main(["trace", "aima-fig-5-2", "--algorithm", "mcts", "--iterations", "60",
                   "--max-iterations", "60", "--format", "jsonl"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and '"iterations": 60' in lines[-1]


def test_the_refusal_comes_before_any_work_in_a_real_process():
    done = subprocess.run([sys.executable, "-m", "app", "trace", "game:connect4", "--algorithm",
                           "mcts", "--iterations", "100000000"], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert "--max-iterations" in done.stderr
