"""`python -m app trace --algorithm star1` (contract §2, turn 3) as a user runs it,
and iterative deepening refused with the node that has no eval (issue 20)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def trace(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", "trace", *args, "--format", "jsonl"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_star1_on_the_library_tree_and_with_bounds_given():
    done = trace("star1-prunes", "--algorithm", "star1")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    last = events[-1]
    plain = json.loads(trace("star1-prunes", "--algorithm", "expectiminimax").stdout
                       .splitlines()[-1])
    assert (last["type"], last["value"], last["best_move"]) == ("done", 7.5, "B")
    assert last["value"] == plain["value"] and set(last["evaluated"]) < set(plain["evaluated"])
    assert last["pruned"] == ["c1.2", "c2", "c3", "d1.2", "d2"]
    # --bounds overrides the file's: wider bounds prune less, the value stays
    wide = json.loads(trace("star1-prunes", "--algorithm", "star1", "--bounds", "0", "100")
                      .stdout.splitlines()[-1])
    assert wide["value"] == 7.5 and len(wide["evaluated"]) > len(last["evaluated"])


def test_bad_bounds_and_iterative_without_evals_exit_2_naming_the_problem():
    out = trace("star1-prunes", "--algorithm", "star1", "--bounds", "0", "9")
    assert out.returncode == 2 and "outside the bounds [0, 9]" in out.stderr and not out.stdout
    out = trace("aima-fig-5-12", "--algorithm", "star1", "--bounds", "5", "1")
    assert out.returncode == 2 and "L < U" in out.stderr
    out = trace("aima-fig-5-2", "--algorithm", "iterative")
    assert out.returncode == 2 and "B (depth 1) has no eval" in out.stderr and not out.stdout
