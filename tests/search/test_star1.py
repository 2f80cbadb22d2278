"""Star1 (pruning at chance nodes): always expectiminimax's value, never more leaves."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.search import SearchError, SearchOptions, run
from app.search.tree import Node, Tree
from app.treefile import load_path

from .strategies import trees

TREES = Path(__file__).resolve().parents[2] / "trees"


def done(tree, **opts):
    return list(run(tree, SearchOptions(**opts)))[-1]


def bounded(tree, lo=-20, hi=20):
    return Tree(root=tree.root, players=tree.players, title=tree.title, bounds=(lo, hi))


@settings(max_examples=150, deadline=None)
@given(trees(chance=True, max_depth=4, max_branch=4), st.booleans(),
       st.sampled_from(["given", "best", "worst", "random"]), st.integers(0, 5))
def test_star1_is_expectiminimax_with_fewer_leaves(tree, strict, order, slack):
    tree = bounded(tree, -20 - slack, 20 + slack)
    plain = done(tree, algorithm="expectiminimax", order=order, seed=3)
    star = done(tree, algorithm="star1", strict=strict, order=order, seed=3)
    assert star["value"] == plain["value"]
    assert set(star["evaluated"]) <= set(plain["evaluated"])
    assert len(star["evaluated"]) + star["stats"]["saved"] == plain["stats"]["evaluated"]
    # what is evaluated and what is cut never overlap, and a cut top is never searched
    assert not set(star["evaluated"]) & set(star["pruned"])


@settings(max_examples=60, deadline=None)
@given(trees(chance=True, max_depth=4, evals=True), st.integers(1, 3))
def test_star1_depth_limited_is_expectiminimax(tree, depth):
    tree = bounded(tree)
    plain = done(tree, algorithm="expectiminimax", depth=depth)
    star = done(tree, algorithm="star1", depth=depth)
    assert star["value"] == plain["value"]
    assert set(star["evaluated"]) <= set(plain["evaluated"])


def test_lecture_example_prunes_with_the_bound_arithmetic():
    tree = load_path(TREES / "star1-prunes.yaml")
    events = list(run(tree, SearchOptions(algorithm="star1")))
    plain = done(tree, algorithm="expectiminimax")
    assert events[-1]["value"] == plain["value"]
    assert len(events[-1]["evaluated"]) < len(plain["evaluated"])
    prunes = [e for e in events if e["type"] == "prune"]
    assert [e["node"] for e in prunes if e["player"] == "CHANCE"] == ["C", "D"]
    assert events[-1]["value"] == 7.5 and events[-1]["best_move"] == "B"
    assert events[-1]["stats"]["evaluated"] == 6 and plain["stats"]["evaluated"] == 14
    first = next(e for e in prunes if e["node"] == "C")
    # the sentence says the arithmetic: the seen outcomes, the rest at the bound, the test
    assert " × " in first["text"] and " = " in first["text"] and "α = " in first["text"]
    assert first["lines"]["aima"] == 31
    assert first["reach"] == 6 and first["bound"] == 7.5 and first["skipped"] == ["c2", "c3"]
    assert "0.5 × 2 + 0.5 × 10 = 6 ≤ α = 7.5" in first["text"]


def test_bounds_are_needed_and_checked():
    leaf = lambda i, v, p: Node(id=i, label=i, player=1, depth=2, value=v, probability=p)
    chance = Node(id="B", label="B", player=1, depth=1, chance=True,
                  children=(leaf("b1", 3, 0.5), leaf("b2", 5, 0.5)))
    plain = Tree(root=Node(id="A", label="A", player=0, depth=0, children=(chance,)))
    with pytest.raises(SearchError, match="range of the leaf values"):
        done(plain, algorithm="star1")
    with pytest.raises(SearchError, match="outside the bounds"):
        done(plain, algorithm="star1", bounds=(0, 4))
    with pytest.raises(SearchError, match="L < U"):
        done(plain, algorithm="star1", bounds=(5, 0))
    assert done(plain, algorithm="star1", bounds=(0, 5))["value"] == 4


def test_a_bounds_file_refuses_a_leaf_outside(tmp_path):
    from app.treefile import TreeFileError
    path = tmp_path / "t.yaml"
    path.write_text("title: t\nbounds: [0, 10]\nroot:\n  children: [3, 12]\n")
    with pytest.raises(TreeFileError) as err:
        load_path(path)
    assert "outside the bounds" in str(err.value) and err.value.line == 4


def test_practice_and_a_class_question_on_star1():
    """Practice grades Star1's cut-offs on a chance tree with bounds: the key's own
    answers pass (the chance node's bound, the cut outcomes), a missed cut is caught."""
    from app.practice import answer_key, check, practice_options
    tree = load_path(TREES / "star1-prunes.yaml")
    opts = practice_options(tree, "full")
    assert opts.algorithm == "star1" and opts.bounds == (0, 10)
    key = answer_key(tree, opts)
    assert {"c2", "c3", "d2"} <= set(key.cuts)
    answers = {"values": {n: k.value for n, k in key.inner.items()},
               "alpha": {n: k.alpha for n, k in key.inner.items()},
               "beta": {n: k.beta for n, k in key.inner.items()},
               "pruned": list(key.cuts)}
    assert key.inner["C"].value == 6   # the bound C returns, as on paper
    assert check(tree, answers, "full")["solved"]
    missed = {**answers, "pruned": [c for c in answers["pruned"] if c != "d2"]}
    result = check(tree, missed, "full")
    assert not result["solved"]
    assert [e["node"] for e in result["entries"] if e["graded"] and e["status"] != "right"] \
        == ["d2"]
    # A class asks the same key: "which outcomes of D are pruned?", "what does C return?"
    from app.classes.questions import make_question
    d_enter = next(e["step"] for e in key.events if e["type"] == "enter" and e["node"] == "D")
    assert make_question(key, d_enter, "pruned", "D").to_dict()["answer"] == ["d2"]
    assert make_question(key, 0, "value", "C").to_dict()["answer"] == 6


@settings(max_examples=120, deadline=None)
@given(trees(max_depth=4, max_branch=4, evals=True), st.booleans(),
       st.sampled_from(["given", "best", "worst", "random"]), st.sampled_from([None, 1, 2]))
def test_without_chance_nodes_star1_is_alphabeta_event_for_event(tree, strict, order, depth):
    # (star1.py writes alpha-beta's MAX and MIN returns out again: held to them here)
    from app.search import raw_events

    def raw(alg, **extra):
        opts = SearchOptions(algorithm=alg, strict=strict, order=order, seed=5, depth=depth,
                             **extra)
        return [tuple(getattr(x, "id", x) if not isinstance(x, (list, tuple)) else
                      tuple(getattr(y, "id", y) for y in x) for x in ev)
                for ev in raw_events(tree, opts)]

    assert raw("star1", bounds=(-20, 20)) == raw("alphabeta")
