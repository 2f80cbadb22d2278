"""game_tree: from a game's rules to a tree-file dict."""
from __future__ import annotations

import json
import sys

import pytest

from app.games.protocol import Game, game_tree
from app.search import SearchOptions, run
from app.treefile import load_tree


class Chain:
    """A one-way game of ``n`` forced moves; then the player to move loses."""

    players = ("MAX", "MIN")

    def __init__(self, n: int, evaluate: bool = True):
        self.initial = (0, "MAX")
        self.n = n
        if evaluate:
            self.evaluate = lambda state: state[0]

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return ["next"]

    def result(self, state, action):
        if action != "next":
            raise ValueError(f"illegal move {action!r}")
        return (state[0] + 1, "MIN" if state[1] == "MAX" else "MAX")

    def terminal_test(self, state):
        return state[0] == self.n

    def utility(self, state, player):
        return -1 if state[1] == player else 1

    def display(self, state):
        return f"step {state[0]}"


def _nodes(doc):
    stack, out = [doc["root"]], []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.get("children", [])))
    return out


def test_games_satisfy_the_protocol():
    from app.games.nim import Nim
    from app.games.tictactoe import TicTacToe
    assert isinstance(Nim(), Game) and isinstance(TicTacToe(), Game) and isinstance(Chain(2), Game)


def test_deep_game_needs_no_recursion():
    depth = sys.getrecursionlimit() + 500
    doc = game_tree(Chain(depth), title="chain")
    nodes = _nodes(doc)
    assert len(nodes) == depth + 1
    assert nodes[-1]["value"] == (1 if depth % 2 else -1)
    assert nodes[0]["label"] == "step 0" and nodes[0]["id"] == "step0"  # ids: labels without spaces


def test_max_depth_makes_leaves_of_evaluate():
    doc = game_tree(Chain(10), title="chain", max_depth=3)
    nodes = _nodes(doc)
    assert len(nodes) == 4 and nodes[-1] == {"id": "step3", "label": "step 3", "value": 3}


def test_inner_eval_and_depth_limited_search():
    doc = game_tree(Chain(6), title="chain", inner_eval=True)
    assert [n.get("eval") for n in _nodes(doc)] == [0, 1, 2, 3, 4, 5, None]
    tree = load_tree(json.dumps(doc), fmt="json")
    done = list(run(tree, SearchOptions(algorithm="minimax", depth=2)))[-1]
    assert done["value"] == 2 and done["evaluated"] == ["step2"]


def test_cutting_off_needs_evaluate():
    with pytest.raises(ValueError, match="evaluate"):
        game_tree(Chain(5, evaluate=False), title="chain", max_depth=2)


def test_player_written_only_where_the_default_is_wrong():
    class MinFirst(Chain):
        def __init__(self):
            super().__init__(3)
            self.initial = (0, "MIN")
    doc = game_tree(MinFirst(), title="chain")
    inner = [n for n in _nodes(doc) if "children" in n]
    assert [n["player"] for n in inner] == ["MIN", "MAX", "MIN"]
    assert "player" not in _nodes(game_tree(Chain(3), title="chain"))[0]
    tree = load_tree(json.dumps(doc), fmt="json")
    assert tree.role(tree.root) == "min"


def test_document_fields_and_key_order():
    doc = game_tree(Chain(1), title="T", source="S", description="D", algorithm="minimax")
    assert list(doc) == ["title", "source", "description", "algorithm", "players", "root"]
    assert list(doc["root"]) == ["id", "label", "children"]


def test_bad_to_move_is_refused():
    class Broken(Chain):
        def to_move(self, state):
            return "X"
    with pytest.raises(ValueError, match="to_move"):
        game_tree(Broken(2), title="broken")
