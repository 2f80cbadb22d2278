"""The SVG picture shows the core's state: ids, values, statuses, cuts, PV."""
from __future__ import annotations

import pytest

from app.render import export, snapshot
from app.render.style import fmt_value
from app.search import SearchOptions, View, run

from .helpers import by_class, center_x, classes, groups, svg_root, texts

AB = SearchOptions(algorithm="alphabeta")
# AIMA Fig. 5.2 under alpha-beta (contract §2): values backed up, c2 and c3 cut;
# C, whose search was cut, shows its value as the bound it is (textbook "≤ 2").
FINAL_VALUES = {"A": "3", "B": "3", "C": "≤2", "D": "2", "b1": "3", "b2": "12", "b3": "8",
                "c1": "2", "c2": "4", "c3": "6", "d1": "14", "d2": "5", "d3": "2"}


def svg(tree, options=AB, step=None, **kw):
    return svg_root(export(tree, options, step, "svg", **kw))


def test_final_state_has_every_node_with_its_value_and_status(fig52):
    g = groups(svg(fig52))
    for node in fig52.nodes:
        assert node.id in g, node.id
        assert texts(g[node.id]) == [FINAL_VALUES[node.id]], node.id
    assert {"max", "visited"} <= classes(g["A"])
    assert {"min", "visited"} <= classes(g["C"])
    for leaf in ("b1", "b2", "b3", "c1", "d1", "d2", "d3"):
        assert {"leaf", "evaluated"} <= classes(g[leaf])
    for leaf in ("c2", "c3"):
        assert {"leaf", "pruned", "cut"} <= classes(g[leaf])
        assert "evaluated" not in classes(g[leaf])


def test_cut_edges_are_dashed_and_crossed(fig52):
    root = svg(fig52)
    g = groups(root)
    for child in ("c2", "c3"):
        edge = g[f"_edge:C->{child}"]
        assert "cut" in classes(edge)
        assert edge.find(".//{http://www.w3.org/2000/svg}path").get("stroke-dasharray")
    assert "cut" not in classes(g["_edge:C->c1"])
    assert len(by_class(root, "cut-mark")) == 4  # two strokes across each cut edge
    bounds = " ".join(t for b in by_class(root, "bounds") for t in texts(b))
    assert "α-cut: v = 2 ≤ α = 3" in bounds


def test_principal_variation_is_marked_at_the_end(fig52):
    g = groups(svg(fig52))
    pv = {i for i, grp in g.items() if "pv" in classes(grp) and "node" in classes(grp)}
    assert pv == {"A", "B", "b1"}
    assert "pv" in classes(g["_edge:A->B"]) and "pv" in classes(g["_edge:B->b1"])
    assert "pv" not in classes(g["_edge:A->C"])


def test_step_zero_is_the_blank_tree(fig52):
    g = groups(svg(fig52, step=0))
    for node in fig52.nodes:
        assert "unvisited" in classes(g[node.id])
        expected = [FINAL_VALUES[node.id]] if node.is_leaf else []
        assert texts(g[node.id]) == expected  # leaves keep their given values
    assert not by_class(svg(fig52, step=0), "pv")


@pytest.mark.parametrize("step", [1, 4, 9, 15, 20])
def test_each_step_shows_the_core_view(fig52, step):
    events = list(run(fig52, AB))
    view = View.replay(fig52, events, step)
    cut_by_now = {e["node"] for e in events[:step] if e["type"] == "prune"}
    g = groups(svg(fig52, step=step))
    active = [i for i in g if "active" in classes(g[i])]
    assert len(active) == 1  # the search is under way at these steps
    for node in fig52.nodes:
        state = view.get(node.id)
        assert state["status"] in classes(g[node.id])
        if not node.is_leaf:
            shown = texts(g[node.id])
            if state["value"] is None or state["status"] == "pruned":
                assert shown == []
            else:
                mark = ("≥" if node.player == 0 else "≤") if node.id in cut_by_now else ""
                assert shown == [mark + fmt_value(state["value"])]


def test_bounds_are_written_beside_the_nodes(fig52):
    snap = snapshot(fig52, AB, None)
    root = svg(fig52)
    bounds = [" ".join(texts(b)) for b in by_class(root, "bounds")]
    assert snap.nodes["D"]["alpha"] == 3 and snap.nodes["D"]["beta"] == 5
    assert any("α = 3" in b and "β = 5" in b for b in bounds)
    assert not by_class(svg(fig52, SearchOptions(algorithm="minimax")), "bounds")


def test_children_stay_in_file_order_whatever_the_search_order(fig52):
    opts = SearchOptions(algorithm="alphabeta", order="worst")
    root = svg(fig52, opts)
    g = groups(root)
    for parent in fig52.nodes:
        xs = [center_x(g[c.id]) for c in parent.children]
        assert xs == sorted(xs) and len(set(xs)) == len(xs), parent.id
    done = list(run(fig52, opts))[-1]
    first = done["evaluated"][0]
    assert texts(g[f"_order:{first}"]) == ["1"]
    assert first != "b1"  # worst-first really reordered the search


def test_chance_nodes_are_circles_with_probabilities(chance_tree):
    root = svg(chance_tree, SearchOptions(algorithm="expectiminimax"))
    g = groups(root)
    assert "chance" in classes(g["C1"])
    assert g["C1"].find(".//{http://www.w3.org/2000/svg}ellipse") is not None
    assert texts(g["C1"]) == ["2.5"] and texts(g["C2"]) == ["1"] and texts(g["A"]) == ["2.5"]
    probabilities = sorted(t for p in by_class(root, "probability") for t in texts(p))
    assert probabilities == ["0.25", "0.5", "0.5", "0.75"]
    assert texts(g["y2"]) == ["−2"]


def test_maxn_vectors(maxn_tree):
    g = groups(svg(maxn_tree, SearchOptions(algorithm="maxn")))
    assert "player" in classes(g["S"])
    assert texts(g["s1"]) == ["(1, 2, 6)"]
    assert texts(g["R"])[0].startswith("(")


def test_depth_limit_greys_what_lies_beyond(depth_tree):
    root = svg(depth_tree, SearchOptions(algorithm="minimax", depth=1))
    g = groups(root)
    assert texts(g["A"]) == ["4"]  # max(eval B = 4, eval C = 1)
    for leaf in depth_tree.leaves:
        assert "beyond" in classes(g[leaf.id])
    names = " ".join(t for n in by_class(root, "name") for t in texts(n))
    assert "B (eval 4)" in names and "C (eval 1)" in names


def test_legend_and_caption(fig52):
    root = svg(fig52, step=5)
    legend = " ".join(t for n in by_class(root, "legend") for t in texts(n))
    assert "MAX" in legend and "MIN" in legend and "active" in legend
    caption = " ".join(t for n in by_class(root, "caption") for t in texts(n))
    event = list(run(fig52, AB))[4]
    assert caption.split()[:3] == event["text"].split()[:3]
    assert not by_class(svg(fig52, step=5, legend=False), "legend")
