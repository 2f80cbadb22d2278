"""ITB exercise: the 3-ply L/R game (MAX, MIN, MAX; L explored before R)."""
from __future__ import annotations

from .library import search

PAYOFFS = {"LLL": 3, "LLR": 5, "LRL": 6, "LRR": 9, "RLL": 1, "RLR": 2, "RRL": 0, "RRR": -1}


def test_payoffs_and_ids_are_the_move_sequences():
    from .library import load
    tree = load("itb-3-ply-lr")
    assert {leaf.id: leaf.value for leaf in tree.leaves} == PAYOFFS
    assert [n.id for n in tree.root.children] == ["L", "R"]   # L explored before R


def test_part_a_values_under_rational_play():
    r = search("itb-3-ply-lr", algorithm="minimax")
    assert {n: r.exits[n] for n in ("LL", "LR", "RL", "RR")} == {"LL": 5, "LR": 9, "RL": 2, "RR": 0}
    assert (r.exits["L"], r.exits["R"]) == (5, 0)
    assert r.value == 5 and r.best_move == "L"
    assert r.done["pv"] == ["root", "L", "LL", "LLR"]


def test_part_b_alpha_beta_prunes_lrr_and_rr():
    r = search("itb-3-ply-lr", algorithm="alphabeta")
    assert r.pruned == ["LRR", "RR"]
    assert r.evaluated == ["LLL", "LLR", "LRL", "RLL", "RLR"]
    assert [(p["node"], p["cut"], p["by"]) for p in r.prunes] == [
        ("LR", "beta", "L"),      # LRL = 6 >= beta = 5 (MIN at L holds MAX to 5)
        ("R", "alpha", "root")]   # RL = 2 <= alpha = 5
    assert r.value == 5
