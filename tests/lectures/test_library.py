"""Every tree of the lecture library: well formed, documented, searchable."""
from __future__ import annotations

import re

import pytest

from app.search import SearchOptions, run

from .library import TREES, load

TREE_IDS = sorted(p.stem for p in TREES.glob("*.yaml"))


def test_the_library_has_the_lecture_trees():
    expected = {"aima-fig-5-2", "itb-3-ply-lr", "natsheh-three-player", "itb-three-player",
                "luger-fixed-ply", "luger-alpha-beta-example-1", "wikipedia-ab-pruning",
                "alpha-beta-example-3", "natsheh-alpha-beta-exercise", "tictactoe-two-ply",
                "latombe-tictactoe-alphabeta", "nim-7", "aima-fig-5-12"}
    assert expected <= set(TREE_IDS)


@pytest.mark.parametrize("tree_id", TREE_IDS)
def test_tree_is_documented(tree_id):
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", tree_id), "file stem = id: lower case and hyphens"
    tree = load(tree_id)
    assert tree.title.strip() and tree.source.strip()
    assert len(tree.description.split()) >= 20, "a short Markdown description"


@pytest.mark.parametrize("tree_id", TREE_IDS)
def test_tree_runs_with_its_default_algorithm(tree_id):
    tree = load(tree_id)
    events = list(run(tree, SearchOptions()))
    done = events[-1]
    assert done["type"] == "done" and done["best_move"] in {c.id for c in tree.root.children}
    if not tree.multiplayer and not tree.has_chance:
        # Pruning and move ordering never change the value (two-player trees).
        values = {(a, o): list(run(tree, SearchOptions(algorithm=a, order=o)))[-1]["value"]
                  for a, o in [("minimax", "given"), ("alphabeta", "given"),
                               ("alphabeta", "best"), ("alphabeta", "worst")]}
        assert len(set(values.values())) == 1, values
