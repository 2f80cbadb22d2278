"""Minimax, expectiminimax, max^n and the checks on options."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from app.search import SearchError, SearchOptions, raw_events, run
from app.search.tree import Node, Tree

from .oracle import value as oracle_value
from .strategies import trees
from .trees import AIMA_5_2, nested


def done_of(tree, **kw):
    return list(run(tree, SearchOptions(**kw)))[-1]


def test_minimax_evaluates_every_leaf_and_prunes_nothing():
    done = done_of(nested(AIMA_5_2), algorithm="minimax")
    assert done["value"] == 3 and done["best_move"] == "B" and done["pruned"] == []
    assert len(done["evaluated"]) == 9


@settings(max_examples=60, deadline=None)
@given(trees(chance=True))
def test_expectiminimax_is_the_probability_weighted_value(tree):
    done = done_of(tree, algorithm="expectiminimax")
    assert done["value"] == pytest.approx(oracle_value(tree.root), abs=1e-9)
    assert done["pruned"] == []


@settings(max_examples=60, deadline=None)
@given(trees(players=3))
def test_maxn_backs_up_the_movers_best_vector(tree):
    done = done_of(tree, algorithm="maxn")
    assert done["value"] == list(oracle_value(tree.root, multiplayer=True)) \
        if not tree.root.is_leaf else True
    assert done["pruned"] == []


def test_maxn_natsheh_three_player_tree():
    leaves = [(1, 2, 3), (4, 2, 1), (6, 1, 2), (7, 4, -1), (5, -1, -1), (-1, 5, 2), (7, 7, -1), (5, 4, 5)]
    it = iter(leaves)
    tree = nested([[[next(it) for _ in range(2)] for _ in range(2)] for _ in range(2)],
                  players=("P1", "P2", "P3"))
    events = list(run(tree, SearchOptions(algorithm="maxn")))
    exits = {e["node"]: e["value"] for e in events if e["type"] == "exit"}
    assert exits["b1"] == [1, 2, 3] and exits["b2"] == [6, 1, 2]
    assert exits["c1"] == [-1, 5, 2] and exits["c2"] == [5, 4, 5]
    assert exits["B"] == [1, 2, 3] and exits["C"] == [-1, 5, 2]
    assert events[-1]["value"] == [1, 2, 3] and events[-1]["best_move"] == "B"


def test_chance_values_are_exact_in_json():
    d1 = Node(id="d1", label="d1", player=1, depth=2, value=14, probability=0.5)
    d2 = Node(id="d2", label="d2", player=1, depth=2, value=2, probability=0.5)
    d = Node(id="D", label="D", player=1, depth=1, chance=True, children=(d1, d2))
    b = Node(id="B", label="B", player=1, depth=1, children=(
        Node(id="b1", label="b1", player=0, depth=2, value=3),))
    tree = Tree(root=Node(id="A", label="A", player=0, depth=0, children=(b, d)))
    done = done_of(tree, algorithm="expectiminimax")
    assert done["value"] == 8 and isinstance(done["value"], int) and done["best_move"] == "D"
    assert done["pv"] == ["A", "D"]  # chance picks no move: the line of best play stops there


def test_options_that_do_not_fit_fail_before_the_first_event():
    three = nested([[(1, 2, 3)]], players=("A", "B", "C"))
    with pytest.raises(SearchError, match="3 players"):
        run(three, SearchOptions(algorithm="alphabeta"))
    with pytest.raises(SearchError, match="no eval"):
        run(nested(AIMA_5_2), SearchOptions(algorithm="alphabeta", depth=1))
    with pytest.raises(SearchError, match="unknown order"):
        run(nested(AIMA_5_2), SearchOptions(order="sideways"))
    with pytest.raises(SearchError, match="one value per player"):
        run(nested(AIMA_5_2), SearchOptions(algorithm="maxn"))


def test_default_algorithm_follows_the_tree():
    assert done_of(nested(AIMA_5_2))["pruned"] == ["c2", "c3"]  # alphabeta
    three = nested([[(1, 2, 3), (3, 2, 1)]], players=("A", "B", "C"))
    assert done_of(three)["value"] == [1, 2, 3]


def test_a_consumer_that_stops_reading_stops_the_search():
    # The witness is the last leaf, which no search can compare: a search that
    # ran ahead of its reader would fail before its first events. (This was a
    # tree of 2^17 leaves, 7-18 s to build, whose size nothing measured.)
    counter = itertools.count()

    def spec(depth):
        return next(counter) % 97 if depth == 10 else [spec(depth + 1), spec(depth + 1)]
    shape = spec(0)  # 2^10 leaves
    last = shape
    while isinstance(last[-1], list):
        last = last[-1]
    last[-1] = "not a number"
    tree = nested(shape)
    for whole in (run, raw_events):   # read to the end, the witness is met
        with pytest.raises(TypeError):
            list(whole(tree, SearchOptions(algorithm="minimax")))
    events = run(tree, SearchOptions(algorithm="minimax"))
    first = list(itertools.islice(events, 5))
    assert [e["type"] for e in first[:2]] == ["enter", "enter"]
    events.close()
    raw = raw_events(tree, SearchOptions(algorithm="minimax"))
    assert sum(1 for _ in itertools.islice(raw, 100)) == 100
    raw.close()
    assert next(raw, None) is None


def test_depth_zero_evaluates_the_root():
    tree = nested(AIMA_5_2, evals={"A": 4})
    done = done_of(tree, algorithm="alphabeta", depth=0)
    assert done["value"] == 4 and done["evaluated"] == ["A"] and done["best_move"] is None
