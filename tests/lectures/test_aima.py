"""AIMA's trees as the lectures quote them (Fig. 5.2 / 5.5, Fig. 5.4, Fig. 5.12)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .library import TREES, REPO, search


def test_fig_5_2_minimax_values_match_the_itb_slide():
    # "Minimax(B) = min(3, 12, 8) = 3; Minimax(A) = max(3, 2, 2) = 3"
    r = search("aima-fig-5-2", algorithm="minimax")
    assert [r.exits[n] for n in "BCD"] == [3, 2, 2]
    assert r.value == 3 and r.best_move == "B"
    assert r.pruned == [] and r.stats["evaluated"] == 9


def test_fig_5_2_alphabeta_never_looks_at_x_and_y():
    # ODU: MINIMAX(root) = max(3, min(2, x, y), 2) = 3 without x and y.
    r = search("aima-fig-5-2", algorithm="alphabeta")
    assert r.value == 3 and r.best_move == "B"
    assert r.evaluated == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]
    assert r.pruned == ["c2", "c3"]
    assert r.exits["C"] == 2 and r.exits["D"] == 2
    (cut,) = r.prunes
    assert (cut["node"], cut["by"], cut["skipped"]) == ("C", "A", ["c2", "c3"])


def test_cli_trace_prints_the_contract_summary_line():
    """Contract §2: the last jsonl line for AIMA Fig. 5.2 with alphabeta."""
    proc = subprocess.run(
        [sys.executable, "-m", "app", "trace", str(TREES / "aima-fig-5-2.yaml"),
         "--algorithm", "alphabeta", "--format", "jsonl"],
        cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    events = [json.loads(line) for line in lines]  # every line is strict JSON
    last = events[-1]
    assert last["type"] == "done"
    assert {k: last[k] for k in ("value", "best_move", "evaluated", "pruned")} == {
        "value": 3, "best_move": "B",
        "evaluated": ["b1", "b2", "b3", "c1", "d1", "d2", "d3"],
        "pruned": ["c2", "c3"]}
    assert isinstance(last["stats"], dict)
    assert all("type" in e for e in events)


def test_fig_5_4_three_players_back_up_1_2_6():
    r = search("itb-three-player")
    # AIMA's leaves, minus signs included (the ITB lecture text lost them).
    leaves = {e["node"]: e["value"] for e in r.events if e["type"] == "evaluate"}
    assert [leaves[n] for n in ("n122", "n211", "n212", "n221")] == [
        [7, 4, -1], [5, -1, -1], [-1, 5, 2], [7, 7, -1]]
    # C's choices, then B's, as in the figure (1,2,6) (6,1,2) (-1,5,2) (5,4,5) / (1,2,6) (-1,5,2)
    assert [r.exits[n] for n in ("n11", "n12", "n21", "n22")] == [
        [1, 2, 6], [6, 1, 2], [-1, 5, 2], [5, 4, 5]]
    assert [r.exits[n] for n in ("n1", "n2")] == [[1, 2, 6], [-1, 5, 2]]
    # No tie at the root: A gets 1 through n1 and only -1 through n2.
    assert r.value == [1, 2, 6] and r.best_move == "n1"
    root_steps = [e for e in r.events if e["type"] == "update" and e["node"] == "n"]
    assert [(e["child"], e["old"] == e["new"]) for e in root_steps] == [("n1", False), ("n2", True)]
    assert "(−1 ≤ 1)" in root_steps[1]["text"]
    assert r.pruned == []


def test_fig_5_12_expectiminimax_prefers_a1():
    r = search("aima-fig-5-12")
    assert r.exits["a1"] == pytest.approx(2.1)   # 0.9 x 2 + 0.1 x 3
    assert r.exits["a2"] == pytest.approx(1.3)   # 0.9 x 1 + 0.1 x 4
    assert r.value == pytest.approx(2.1) and r.best_move == "a1"
    assert [r.exits[n] for n in "BCDE"] == [2, 3, 1, 4]  # the MIN nodes minimise


def test_fig_5_12_order_preserving_transformation_flips_the_move():
    r = search("aima-fig-5-12-transformed")
    assert r.exits["a1"] == pytest.approx(21)
    assert r.exits["a2"] == pytest.approx(40.9)
    assert r.best_move == "a2"


def test_chance_trees_set_min_explicitly_below_the_chance_layer():
    from .library import load
    tree = load("aima-fig-5-12")
    for node_id in "BCDE":
        node = tree.node(node_id)
        assert node.depth == 2 and tree.role(node) == "min"  # default would say MAX
    for node_id in ("a1", "a2"):
        kids = tree.node(node_id).children
        assert sum(c.probability for c in kids) == pytest.approx(1, abs=1e-9)
