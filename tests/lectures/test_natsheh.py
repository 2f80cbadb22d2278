"""Natsheh's lecture: the minimax example, the alpha-beta exercise, three players."""
from __future__ import annotations

from .library import load, search


def test_minimax_example_max_goes_right():
    r = search("natsheh-minimax-example", algorithm="minimax")
    assert r.exits["B"] == 3      # left: MIN will choose 3, although 9 is there
    assert r.exits["C"] == 5      # right: MIN chooses 5 of 5, 6, 7
    assert r.value == 5 and r.best_move == "C"
    assert max(leaf.value for leaf in load("natsheh-minimax-example").leaves) == 9


def test_alpha_beta_exercise():
    tree = load("natsheh-alpha-beta-exercise")
    assert [leaf.value for leaf in tree.leaves] == [4, 3, 6, 2, 2, 1, 9, 5, 3, 1, 5, 4, 7, 5]
    r = search("natsheh-alpha-beta-exercise", algorithm="alphabeta", style="wikipedia")
    assert r.value == 5 and r.best_move == "D"
    assert r.exits["B"] == 4 and r.exits["D"] == 5 and r.exits["G"] == 2
    assert r.pruned == ["f2", "H", "I", "k2"]
    assert r.stats["evaluated"] == 8
    # The slide's 9 alpha/beta/V boxes: the inner nodes the search enters.
    entered_inner = {e["node"] for e in r.events
                     if e["type"] == "enter" and tree.node(e["node"]).children}
    assert entered_inner == set("ABCDEFGJK") and len(entered_inner) == 9


def test_alpha_beta_exercise_same_cuts_in_both_styles():
    aima = search("natsheh-alpha-beta-exercise", algorithm="alphabeta", style="aima")
    wiki = search("natsheh-alpha-beta-exercise", algorithm="alphabeta", style="wikipedia")
    assert aima.pruned == wiki.pruned and aima.evaluated == wiki.evaluated


def test_alpha_beta_exercise_matches_minimax():
    assert search("natsheh-alpha-beta-exercise", algorithm="minimax").value == 5


def test_three_players_max_third_second_first():
    r = search("natsheh-three-player", algorithm="maxn")
    # MaxThirdPlayer on the four pairs
    assert [r.exits[n] for n in "DEFG"] == [[1, 2, 3], [6, 1, 2], [-1, 5, 2], [5, 4, 5]]
    # MaxSecondPlayer
    assert [r.exits[n] for n in "BC"] == [[1, 2, 3], [-1, 5, 2]]
    # MaxFirstPlayer([1,2,3], [-1,5,2]) -- the slide's "[-1,5,4]" is a typo
    assert r.value == [1, 2, 3] and r.best_move == "B"
    assert r.exits["C"] != [-1, 5, 4]
    assert load("natsheh-three-player").players == ("P1", "P2", "P3")
