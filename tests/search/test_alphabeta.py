"""Alpha-beta on the textbook's own example and on random trees."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from app.search import SearchOptions, run
from app.search.ordering import true_values

from .oracle import value as oracle_value
from .strategies import trees
from .trees import AIMA_5_2, nested


def done_of(tree, **kw):
    return list(run(tree, SearchOptions(**kw)))[-1]


def test_aima_fig_5_2_matches_the_contract_summary():
    done = done_of(nested(AIMA_5_2), algorithm="alphabeta")
    assert done["value"] == 3
    assert done["best_move"] == "B"
    assert done["evaluated"] == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]
    assert done["pruned"] == ["c2", "c3"]
    assert done["pv"] == ["A", "B", "b1"]
    assert done["stats"]["cutoffs"] == 1 and done["stats"]["saved"] == 2


def test_aima_fig_5_2_prune_event_explains_the_cut():
    events = list(run(nested(AIMA_5_2), SearchOptions(algorithm="alphabeta")))
    (prune,) = [e for e in events if e["type"] == "prune"]
    assert prune["node"] == "C" and prune["skipped"] == ["c2", "c3"]
    assert prune["cut"] == "alpha" and prune["test"] == "v <= alpha"
    assert prune["alpha"] == 3 and prune["v"] == 2 and prune["by"] == "A"
    assert "2 ≤ α = 3" in prune["text"] and "through B" in prune["text"]


def test_equality_prunes_by_default_but_not_when_strict():
    # MIN's second child meets alpha = 3 exactly: 3 <= alpha prunes, 3 < alpha does not.
    tree = nested([[3, 5], [3, 9]])
    assert done_of(tree, algorithm="alphabeta")["pruned"] == ["c2"]
    assert done_of(tree, algorithm="alphabeta", strict=True)["pruned"] == []


def test_deep_cutoff_uses_an_ancestors_alpha():
    # A(MAX) -> B(MIN)=5 ; C(MIN) -> c1(MAX) -> c1.1(MIN) leaves: the deep MIN node sees alpha=5 from A.
    tree = nested([[5], [[[4, 9], 7], 8]])
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    prunes = [e for e in events if e["type"] == "prune"]
    assert prunes[0]["node"] == "c1.1" and prunes[0]["by"] == "A"
    assert events[-1]["value"] == 7  # max(5, min(max(min(4, 9), 7), 8))


def test_algorithm_text_and_lines_agree_with_the_listing():
    from app.search import listing
    keywords = {("update", "max"): "MAX(v", ("update", "min"): "MIN(v", ("alpha", "max"): "α ←",
                ("beta", "min"): "β ←", ("prune", "max"): "v ≥ β", ("prune", "min"): "v ≤ α",
                ("enter", "max"): "v ← −∞", ("enter", "min"): "v ← +∞"}
    lines = listing("alphabeta", "aima")
    tree = nested([[[3, 17], [2, 12]], [[15], [25, 0]], [[2, 5], [3]], [[2, 14]]])
    for e in run(tree, SearchOptions(algorithm="alphabeta")):
        role = "max" if e.get("player") == "MAX" else "min"
        if (e["type"], role) in keywords:
            assert keywords[(e["type"], role)] in lines[e["lines"]["aima"] - 1], e


@settings(max_examples=150, deadline=None)
@given(trees(evals=True), st.sampled_from(["given", "best", "worst", "random"]),
       st.booleans(), st.sampled_from(["aima", "wikipedia"]), st.integers(0, 3))
def test_alphabeta_value_and_move_equal_minimax(tree, order, strict, style, seed):
    opts = dict(order=order, strict=strict, style=style, seed=seed)
    ab = done_of(tree, algorithm="alphabeta", **opts)
    mm = done_of(tree, algorithm="minimax", **opts)
    assert ab["value"] == mm["value"] == oracle_value(tree.root)
    assert ab["best_move"] == mm["best_move"]
    assert set(ab["evaluated"]) <= set(mm["evaluated"])
    assert ab["stats"]["saved"] == len(mm["evaluated"]) - len(ab["evaluated"])


@settings(max_examples=60, deadline=None)
@given(trees(evals=True), st.integers(0, 3))
def test_depth_limited_search_uses_eval_at_the_limit(tree, depth):
    for alg in ("minimax", "alphabeta"):
        done = done_of(tree, algorithm=alg, depth=depth)
        assert done["value"] == oracle_value(tree.root, limit=depth)
        for node_id in done["evaluated"]:
            node = tree.node(node_id)
            assert node.is_leaf or node.depth == depth


@settings(max_examples=40, deadline=None)
@given(trees(evals=True))
def test_iterative_deepening_ends_with_the_full_value(tree):
    events = list(run(tree, SearchOptions(algorithm="iterative")))
    done = events[-1]
    assert done["value"] == oracle_value(tree.root)
    iterations = done.get("iterations", [])
    if not tree.root.is_leaf:
        assert [i["depth"] for i in iterations] == list(range(1, tree.height + 1))
        for it in iterations:
            assert it["value"] == oracle_value(tree.root, limit=it["depth"])


@pytest.mark.parametrize("b,d", [(2, 2), (2, 3), (3, 3), (2, 5), (3, 4), (4, 3)])
def test_perfect_ordering_meets_the_knuth_moore_minimum(b, d):
    # Distinct leaf values, so no tie can prune more than the theory allows.
    counter = itertools.count(1)

    def spec(depth):
        if depth == d:
            return (next(counter) * 7919) % 1009
        return [spec(depth + 1) for _ in range(b)]
    tree = nested(spec(0))
    done = done_of(tree, algorithm="alphabeta", order="best")
    assert done["stats"]["evaluated"] == b ** -(-d // 2) + b ** (d // 2) - 1
    worst = done_of(tree, algorithm="alphabeta", order="worst")
    if d <= 3:  # deeper, worst-first still allows deep cut-offs (an ancestor's alpha)
        assert worst["stats"]["evaluated"] == b ** d
    else:
        assert done["stats"]["evaluated"] < worst["stats"]["evaluated"] < b ** d


def test_best_order_sorts_by_true_value_for_the_mover():
    tree = nested(AIMA_5_2)
    values = true_values(tree, None)
    assert [values[k] for k in "ABCD"] == [3, 3, 2, 2]
    events = list(run(tree, SearchOptions(algorithm="alphabeta", order="best")))
    entered = [e["node"] for e in events if e["type"] == "enter"]
    assert entered[:2] == ["A", "B"]
    first_leaves = [e["node"] for e in events if e["type"] == "evaluate"][:3]
    assert first_leaves == ["b1", "b3", "b2"]  # MIN at B: smallest first, ties in file order
