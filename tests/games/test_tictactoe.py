"""Tic-tac-toe: rules, Luger's E(n), symmetry, the opening trees."""
from __future__ import annotations

import pytest

from app.games.tictactoe import SYMMETRIES, TicTacToe, opening_tree, parse_board


def test_e_of_n_examples_from_the_slides():
    game = TicTacToe()
    assert game.evaluate(game.initial) == 0                  # 8 - 8
    assert game.evaluate(game.play("X5", "O2")) == 2         # 6 - 4
    assert game.evaluate(parse_board("XOX/.O./...")) == 0    # 3 - 3
    assert game.evaluate(game.play("X1", "O5")) == -1        # 4 - 5


def test_wins_draws_and_illegal_moves():
    game = TicTacToe()
    won = game.play("X1", "O4", "X2", "O5", "X3")
    assert game.winner(won) == "X" and game.terminal_test(won) and game.actions(won) == []
    assert game.utility(won, "MAX") == 10 and game.utility(won, "MIN") == -10
    assert game.evaluate(won) == 10
    draw = parse_board("XOX/XOO/OXX")
    assert game.terminal_test(draw) and game.utility(draw, "MAX") == 0
    with pytest.raises(ValueError, match="taken"):
        game.result(game.play("X5"), 4)
    with pytest.raises(ValueError, match="over"):
        game.result(won, 8)
    with pytest.raises(ValueError, match="cell 0-8"):
        game.result(game.initial, 9)
    with pytest.raises(ValueError):
        parse_board("XX./.../...")


def test_symmetries_are_the_eight_of_the_square():
    assert len(set(SYMMETRIES)) == 8
    game = TicTacToe()
    corners = {game.canonical(game.play(f"X{c}")) for c in (1, 3, 7, 9)}
    assert len(corners) == 1
    assert game.canonical(game.play("X1")) != game.canonical(game.play("X2"))


def test_opening_tree_shape_up_to_symmetry():
    doc = opening_tree(title="t")
    first = doc["root"]["children"]
    assert [c["id"] for c in first] == ["X1", "X2", "X5"]            # corner, edge, centre
    assert [len(c["children"]) for c in first] == [5, 5, 2]
    assert [c["eval"] for c in first] == [3, 2, 4]
    assert doc["root"]["eval"] == 0 and doc["root"]["label"] == "···/···/···"
    leaves = {g["id"]: g["value"] for c in first for g in c["children"]}
    assert leaves == {"X1-O2": 1, "X1-O3": 0, "X1-O5": -1, "X1-O6": 1, "X1-O9": 0,
                      "X2-O1": -1, "X2-O4": 0, "X2-O5": -2, "X2-O7": -1, "X2-O8": 0,
                      "X5-O1": 1, "X5-O2": 2}


def test_move_orders():
    game = TicTacToe(x_order=(4, 0, 2, 6, 8, 1, 3, 5, 7))
    assert game.actions(game.initial)[:2] == [4, 0]
    with pytest.raises(ValueError, match="once each"):
        TicTacToe(x_order=(0, 1, 2))
