"""Move ordering: reordering changes the work of alpha-beta, never the value."""
from __future__ import annotations

import pytest

from app.practice import PracticeError, best_order, check_order, reorder


def test_the_files_order_is_not_best(fig52):
    # Fig. 5.2 as given: c2, c3 pruned, 7 of 9 leaves evaluated.
    result = check_order(fig52, {}, tree_id="t")
    assert result["mine"]["evaluated"] == 7 and result["mine"]["pruned"] == ["c2", "c3"]
    assert result["best"]["evaluated"] == 5            # d3 (2) first cuts d1 and d2 too
    assert result["worst"]["evaluated"] == 9
    assert result["solved"] is False
    assert result["links"]["best"] == "/t/t?algorithm=alphabeta&order=best"


def test_putting_d3_first_matches_best_first(fig52):
    result = check_order(fig52, {"D": ["d3", "d1", "d2"]})
    assert result["solved"] is True
    assert result["mine"]["evaluated"] == 5 and result["mine"]["cutoffs"] == 2
    assert result["value"] == 3


def test_best_order_is_the_cores(fig52):
    order = best_order(fig52)
    assert order["A"] == ["B", "C", "D"] and order["D"] == ["d3", "d2", "d1"]
    assert check_order(fig52, order)["solved"]


def test_reorder_keeps_ids_and_values(fig52):
    tree = reorder(fig52, {"A": ["D", "C", "B"], "B": ["b3", "b1", "b2"]})
    assert [c.id for c in tree.root.children] == ["D", "C", "B"]
    assert [c.value for c in tree.node("B").children] == [8, 3, 12]
    assert sorted(n.id for n in tree.nodes) == sorted(n.id for n in fig52.nodes)


@pytest.mark.parametrize("order,message", [
    ({"B": ["b1", "b2"]}, "each of its children"),
    ({"B": ["b1", "b1", "b2"]}, "each of its children"),
    ({"Q": []}, "not in the tree"),
    (["A"], "map node ids"),
])
def test_bad_orders_are_refused(fig52, order, message):
    with pytest.raises(PracticeError, match=message):
        check_order(fig52, order)
