"""The Luger-based lecture: fixed-ply minimax, alpha-beta Examples 1-3, Nim,
tic-tac-toe (two-ply opening, Latombe's alpha-beta)."""
from __future__ import annotations

import pytest

from .library import search


def test_fixed_ply_backed_up_values():
    r = search("luger-fixed-ply", algorithm="minimax")
    # max(2,3) = 3, max(5,9) = 9, ... ; min(3,9) = 3, min(0,7) = 0, min(2,6) = 2
    assert [r.exits[n] for n in "EFGHIJ"] == [3, 9, 0, 7, 2, 6]
    assert [r.exits[n] for n in "BCD"] == [3, 0, 2]
    # The slide prints "min(0,7) = 9": a typo, the minimum is 0.
    assert r.exits["C"] == min(0, 7) != 9
    assert r.value == 3 and r.best_move == "B"      # max(3, 0, 2) = 3, "best next move"
    assert r.stats["evaluated"] == 11


def test_example_1_prunes_the_right_branches_of_b_d_and_e():
    r = search("luger-alpha-beta-example-1", algorithm="alphabeta")
    assert r.exits["A"] == 3              # A = min(3, max(5, ?))
    assert r.exits["B"] == 5              # B >= 5 is enough
    assert r.exits["D"] == 0 and r.exits["E"] == 2   # D <= 0, E <= 2
    assert r.value == 3 and r.best_move == "A"       # C = max(3, min(0,?), min(2,?))
    assert r.pruned == ["b2", "H", "J"]   # B's, D's and E's right branches
    assert [(p["node"], p["by"]) for p in r.prunes] == [("B", "A"), ("D", "C"), ("E", "C")]
    assert r.evaluated == ["f1", "f2", "b1", "g1", "i1", "i2"]   # 2 3 5 0 2 1


def test_example_1_is_the_fixed_ply_tree():
    fixed = search("luger-fixed-ply", algorithm="alphabeta")
    ex1 = search("luger-alpha-beta-example-1", algorithm="alphabeta")
    assert fixed.value == ex1.value == 3
    assert fixed.stats["evaluated"] == ex1.stats["evaluated"] == 6
    assert fixed.stats["minimax_evaluated"] == ex1.stats["minimax_evaluated"] == 11


def test_example_2_wikipedia_figure():
    r = search("wikipedia-ab-pruning", algorithm="alphabeta")
    assert r.value == 6 and r.best_move == "C"
    assert [r.exits[n] for n in "BCD"] == [3, 6, 5]
    assert [r.exits[n] for n in "EFGHI"] == [5, 3, 6, 7, 5]
    # The greyed parts of the figure: the 5 under L, the 9 under O, subtree J.
    assert r.pruned == ["l3", "o2", "J"]
    assert [(p["node"], p["by"]) for p in r.prunes] == [("L", "E"), ("O", "G"), ("D", "A")]
    assert r.stats["minimax_evaluated"] == 14 and r.stats["evaluated"] == 9


def test_example_2_strict_pruning_keeps_the_9():
    # Courses that forbid pruning on equality look at the 9 under O as well.
    r = search("wikipedia-ab-pruning", algorithm="alphabeta", strict=True)
    assert "o2" in r.evaluated and r.pruned == ["l3", "J"] and r.value == 6


def test_example_3_explores_10_of_27():
    r = search("alpha-beta-example-3", algorithm="alphabeta")
    assert r.value == 2 and r.best_move == "B"
    # "10 nodes explored out of 27": static evaluations (leaves) out of all leaves.
    assert (r.stats["evaluated"], r.stats["minimax_evaluated"]) == (10, 27)
    assert r.stats["saved"] == 17          # Natsheh: "17 static evaluations saved"
    assert r.evaluated == ["j1", "j2", "j3", "k1", "l1", "l2", "l3", "m1", "m2", "n1"]


def test_example_3_bounds_follow_the_slides():
    r = search("alpha-beta-example-3", algorithm="alphabeta")
    # Slides 43-66: <=4 <=3 (=3) >=3 <=2 prune (=3) <=3 <=4 <=2 =2 =2 <=2 <=5 =4 >=4
    # prune (=2) >=2 <=1 prune "deep cut!" (=1) <=1 prune
    assert r.updates() == [("J", 4), ("J", 3), ("D", 3), ("K", 2), ("B", 3), ("L", 4),
                           ("L", 2), ("E", 2), ("B", 2), ("M", 5), ("M", 4), ("F", 4),
                           ("A", 2), ("N", 1), ("G", 1), ("C", 1)]
    assert [(p["node"], p["cut"], p["by"]) for p in r.prunes] == [
        ("K", "alpha", "D"),   # parent MAX >= child MIN
        ("F", "beta", "B"),    # parent MIN <= child MAX
        ("N", "alpha", "A"),   # the deep cut: the bound comes from three levels up
        ("C", "alpha", "A")]
    from .library import load
    tree = load("alpha-beta-example-3")
    assert tree.node("N").depth - tree.node("A").depth == 3


def test_example_3_best_ordering_explores_8_of_27():
    r = search("alpha-beta-example-3", algorithm="alphabeta", order="best")
    assert (r.stats["evaluated"], r.stats["minimax_evaluated"]) == (8, 27)
    assert r.stats["saved"] == 19          # Natsheh: "19 static evaluations saved"
    assert r.value == 2 and r.best_move == "B"


def test_nim_second_player_forces_a_win():
    # MAX moves first: the root is worth 0 = "win for MIN" -- the second player wins.
    r = search("nim-7", algorithm="minimax")
    assert r.value == 0
    assert all(r.exits[m] == 0 for m in ("6-1", "5-2", "4-3"))  # every first move loses
    assert r.stats["minimax_evaluated"] == 7


def test_nim_luger_orientation_max_forces_a_win():
    # Luger's figure: MIN moves first and the bold lines are MAX's forced win.
    r = search("nim-7-luger", algorithm="minimax")
    assert r.value == 1
    assert all(r.exits[m] == 1 for m in ("6-1", "5-2", "4-3"))
    # After 6-1, MAX's winning reply is 4-2-1; 5-1-1 would lose.
    assert r.exits["4-2-1"] == 1 and r.exits["5-1-1"] == 0


def test_nim_alphabeta_agrees_with_minimax():
    for tree_id in ("nim-7", "nim-7-luger"):
        assert search(tree_id, algorithm="alphabeta").value == search(tree_id, algorithm="minimax").value


def test_tictactoe_two_ply_opening():
    r = search("tictactoe-two-ply", algorithm="minimax")
    # Luger: corner -1, edge -2, centre 1; the centre is the best opening.
    assert (r.exits["X1"], r.exits["X2"], r.exits["X5"]) == (-1, -2, 1)
    assert r.value == 1 and r.best_move == "X5"
    assert r.stats["evaluated"] == 12      # 5 + 5 + 2 replies up to symmetry


def test_tictactoe_one_ply_uses_the_evals():
    r = search("tictactoe-two-ply", algorithm="minimax", depth=1)
    assert r.evaluated == ["X1", "X2", "X5"]
    assert [e["value"] for e in r.events if e["type"] == "evaluate"] == [3, 2, 4]
    assert all(e["cutoff"] for e in r.events if e["type"] == "evaluate")
    assert r.value == 4 and r.best_move == "X5"


def test_latombe_tictactoe_alphabeta():
    r = search("latombe-tictactoe-alphabeta", algorithm="alphabeta")
    evals = [(e["node"], e["value"]) for e in r.events if e["type"] == "evaluate"]
    # e(n) = 2, then e(n) = 1: value 1; then e(n) = -1 <= alpha = 1: stop search.
    assert evals[:3] == [("X5-O2", 2), ("X5-O1", 1), ("X1-O5", -1)]
    assert r.exits["X5"] == 1
    first_cut = r.prunes[0]
    assert (first_cut["node"], first_cut["by"], first_cut["v"], first_cut["alpha"]) == ("X1", "start", -1, 1)
    assert r.value == 1 and r.best_move == "X5"
    assert r.stats["evaluated"] == 4 and r.stats["minimax_evaluated"] == 12


@pytest.mark.parametrize("depth, best, value", [(None, "X1", 10), (1, "X9", 3), (2, "X9", 0), (3, "X1", 10)])
def test_horizon_effect(depth, best, value):
    for algorithm in ("minimax", "alphabeta"):
        r = search("tictactoe-horizon", algorithm=algorithm, depth=depth)
        assert (r.best_move, r.value) == (best, value), (algorithm, depth)
