"""Events carry their own change: forward, back and replay agree."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from app.search import SearchOptions, View, run

from .strategies import trees
from .trees import AIMA_5_2, nested


@settings(max_examples=80, deadline=None)
@given(trees(evals=True), st.sampled_from(["minimax", "alphabeta", "iterative"]),
       st.sampled_from(["given", "best", "random"]))
def test_undoing_every_change_in_reverse_returns_the_initial_view(tree, alg, order):
    events = list(run(tree, SearchOptions(algorithm=alg, order=order)))
    view = View(tree)
    snapshots = []
    for e in events:
        view.apply(e["changes"])
        snapshots.append(view.snapshot())
    for k in range(len(events) - 1, -1, -1):
        assert view.snapshot() == snapshots[k]
        view.undo(events[k]["changes"])
    assert view.snapshot() == {}


@settings(max_examples=40, deadline=None)
@given(trees(), st.data())
def test_replay_to_step_k_equals_stepping_forward(tree, data):
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    k = data.draw(st.integers(0, len(events)))
    view = View(tree)
    for e in events[:k]:
        view.apply(e["changes"])
    assert View.replay(tree, events, k).snapshot() == view.snapshot()


def test_every_change_starts_from_the_value_the_view_holds():
    events = list(run(nested(AIMA_5_2), SearchOptions(algorithm="alphabeta")))
    view = View()
    for e in events:
        for node_id, name, old, new in e["changes"]:
            assert view.field(node_id, name) == old, (e["step"], node_id, name)
            assert old != new
        view.apply(e["changes"])


def test_statuses_through_a_run():
    tree = nested(AIMA_5_2)
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    end = View.replay(tree, events)
    status = {n.id: end.get(n.id)["status"] for n in tree.nodes}
    assert status == {"A": "visited", "B": "visited", "C": "visited", "D": "visited",
                      "b1": "evaluated", "b2": "evaluated", "b3": "evaluated",
                      "c1": "evaluated", "c2": "pruned", "c3": "pruned",
                      "d1": "evaluated", "d2": "evaluated", "d3": "evaluated"}
    assert end.get("C") == {"status": "visited", "value": 2, "alpha": 3, "beta": "inf"}
    assert end.get("D") == {"status": "visited", "value": 2, "alpha": 3, "beta": 5}
    # Exactly one node is active at every step while the search runs.
    view = View(tree)
    for e in events[:-2]:
        view.apply(e["changes"])
        active = [n.id for n in tree.nodes if view.get(n.id)["status"] == "active"]
        # The active node is the one working: the entered node, or the parent a
        # leaf or a finished child reports to.
        focus = e["node"] if e["type"] not in ("evaluate", "exit") else tree.parent_of(e["node"]).id
        assert active == [focus], e["step"]


def test_pruned_subtrees_are_pruned_to_the_leaves():
    tree = nested([[5], [[4, 2], [7, 1]]])  # C: max(4, 2) = 4 <= alpha 5 cuts c2
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    end = View.replay(tree, events)
    assert events[-1]["pruned"] == ["c2"]
    assert [end.get(i)["status"] for i in ("c2", "c2.1", "c2.2")] == ["pruned"] * 3


def test_a_cut_marks_each_skipped_subtree_with_one_change_on_its_top():
    # c2 and c3 are whole subtrees (7 and 10 nodes): still one change each.
    tree = nested([[5], [[4, 2], [[7, 1], [3, 0]], [[1, 1], [2, 2], [3, 3]]]])
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    prune = next(e for e in events if e["type"] == "prune")
    assert prune["skipped"] == ["c2", "c3"]
    assert prune["changes"] == [["c2", "status", "unvisited", "pruned"],
                                ["c3", "status", "unvisited", "pruned"]]
    assert prune["pruned_nodes"] == 7 + 10 and events[-1]["stats"]["pruned_nodes"] == 17
    end = View.replay(tree, events)
    below = [n.id for n in tree.subtree(tree.node("c2"))] + [n.id for n in tree.subtree(tree.node("c3"))]
    assert {i: end.get(i)["status"] for i in below} == {i: "pruned" for i in below}
    assert {i: end.all()[i]["status"] for i in below} == {i: "pruned" for i in below}
    assert {i: end.snapshot()[i]["status"] for i in below} == {i: "pruned" for i in below}
    # Their own fields hold only what the changes said.
    assert end.state("c2.1")["status"] == "unvisited" and end.state("c2")["status"] == "pruned"
    # Undoing the cut shows the whole subtree unvisited again.
    end.undo(prune["changes"])
    assert all(end.get(i)["status"] == "unvisited" for i in below)
    assert not any(i in end.snapshot() for i in below)


@settings(max_examples=60, deadline=None)
@given(trees(evals=True), st.sampled_from(["alphabeta", "iterative"]),
       st.sampled_from(["given", "worst", "random"]))
def test_a_prune_event_changes_as_many_nodes_as_it_skips_children(tree, alg, order):
    view = View(tree)
    for e in run(tree, SearchOptions(algorithm=alg, order=order)):
        if e["type"] == "prune":
            assert [c[0] for c in e["changes"]] == e["skipped"]
            assert e["pruned_nodes"] == sum(len(list(tree.subtree(tree.node(i)))) for i in e["skipped"])
        view.apply(e["changes"])
        shown = view.all()
        # A node is shown pruned exactly when it or an ancestor carries the mark
        # (the marks gathered top-down once per event: the same check as asking
        # every node's path, without its cost of nodes x depth).
        marked: dict[str, bool] = {}
        for n in tree.subtree(tree.root):          # preorder: a parent before its children
            parent = tree.parent_of(n.id)
            marked[n.id] = (view.state(n.id)["status"] == "pruned"
                            or (parent is not None and marked[parent.id]))
        assert marked.keys() == {n.id for n in tree.nodes}
        for n in tree.nodes:
            assert (shown[n.id]["status"] == "pruned") == marked[n.id]
            assert view.get(n.id) == shown[n.id]
