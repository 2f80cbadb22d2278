"""``python -m app random``: YAML out, the same tree for the same options."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.cli import main
from app.games.random_tree import random_tree
from app.treefile import load_tree

REPO = Path(__file__).resolve().parents[2]


def values(tree):
    return [(n.id, n.value) for n in tree.leaves]


def test_writes_the_seeded_tree_to_stdout(capsys):
    assert main(["random", "--branching", "3", "--depth", "3", "--seed", "4217"]) == 0
    tree = load_tree(capsys.readouterr().out)
    assert values(tree) == values(random_tree(branching=3, depth=3, seed=4217))
    assert "4217" in tree.title


def test_all_options_and_an_output_file(tmp_path):
    out = tmp_path / "tree.yaml"
    # The command as a lecturer types it, negative value range included.
    code = main(["random", "--branching", "2:4", "--depth", "3", "--seed", "9",
                 "--values", "-10:10", "--chance", "--evals", "-o", str(out)])
    assert code == 0
    tree = load_tree(out.read_text(encoding="utf-8"))
    expected = random_tree(branching=(2, 4), depth=3, values=(-10, 10), seed=9, chance=True,
                           evals=True)
    assert [(n.id, n.probability, n.value, n.eval) for n in tree.nodes] == \
           [(n.id, n.probability, n.value, n.eval) for n in expected.nodes]


def test_three_players(capsys):
    assert main(["random", "--depth", "2", "--seed", "1", "--players", "3", "--values", "0:9"]) == 0
    tree = load_tree(capsys.readouterr().out)
    assert tree.players == ("P1", "P2", "P3") and len(tree.leaves[0].value) == 3


def test_bad_arguments_exit_2_with_one_line(capsys):
    for argv in (["random", "--branching", "0"], ["random", "--values", "5:1"],
                 ["random", "--values", "x"], ["random", "--players", "3", "--chance"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1


def test_runs_as_a_module():
    res = subprocess.run([sys.executable, "-m", "app", "random", "--branching", "2", "--depth",
                          "2", "--seed", "4217", "--values", "-10:10"],
                         cwd=REPO, capture_output=True, text=True, check=True)
    assert values(load_tree(res.stdout)) == values(random_tree(branching=2, depth=2, seed=4217))
