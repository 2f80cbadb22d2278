"""Luger's Nim: rules, the 7-token tree, and the theory's check."""
from __future__ import annotations

import json

import pytest

from app.games.nim import Nim, NimState, nim_tree
from app.search import SearchOptions, run
from app.treefile import load_tree


def test_moves_split_one_heap_unequally():
    game = Nim(7)
    s = NimState((4, 2, 1), "MAX")
    assert game.actions(s) == [(4, 1)]           # 4 -> 3+1 only; 2 and 1 cannot be split
    assert game.display(game.result(s, (4, 1))) == "3-2-1-1"
    assert game.to_move(game.result(s, (4, 1))) == "MIN"


@pytest.mark.parametrize("move, message", [
    ((5, 1), "no heap of 5"), ((4, 2), "must differ"), ((4, 0), "non-empty"),
    ((4, 4), "non-empty"), ("x", "is \\(heap, part\\)")])
def test_illegal_moves_raise(move, message):
    with pytest.raises(ValueError, match=message):
        Nim(7).result(NimState((4, 2, 1), "MAX"), move)


def test_terminal_states_and_utility():
    game = Nim(7)
    end = NimState((2, 1, 1, 1, 1, 1), "MIN")
    assert game.terminal_test(end) and game.actions(end) == []
    assert game.utility(end, "MAX") == 1 and game.utility(end, "MIN") == 0  # MIN cannot move
    assert not game.terminal_test(NimState((3, 2, 1, 1), "MAX"))


def test_seven_tokens_reach_luger_s_fifteen_states():
    doc = nim_tree(7, title="nim")
    stack, labels, count = [doc["root"]], set(), 0
    while stack:
        node = stack.pop()
        count += 1
        labels.add(node["label"])
        stack.extend(node.get("children", []))
    assert labels == {"7", "6-1", "5-2", "4-3", "5-1-1", "4-2-1", "3-2-2", "3-3-1",
                      "4-1-1-1", "3-2-1-1", "2-2-2-1", "3-1-1-1-1", "2-2-1-1-1", "2-1-1-1-1-1"}
    assert count == 24        # the state space unfolded into a tree


def _grundy(n: int, memo={}) -> int:
    """Sprague-Grundy value of one heap in Grundy's game (independent of the search)."""
    if n not in memo:
        options = set()
        for k in range(1, (n + 1) // 2):
            if k != n - k:
                options.add(_grundy(k) ^ _grundy(n - k))
        memo[n] = next(g for g in range(n + 1) if g not in options)
    return memo[n]


@pytest.mark.parametrize("tokens", range(1, 11))
def test_search_agrees_with_sprague_grundy(tokens):
    tree = load_tree(json.dumps(nim_tree(tokens, title="nim")), fmt="json")
    value = list(run(tree, SearchOptions(algorithm="alphabeta")))[-1]["value"]
    assert value == (1 if _grundy(tokens) else 0)   # first player wins iff Grundy value != 0
    assert _grundy(7) == 0


def test_first_player_option():
    assert Nim(7, "MIN").initial.to_move == "MIN"
    with pytest.raises(ValueError):
        Nim(0)
    with pytest.raises(ValueError):
        Nim(7, "X")
