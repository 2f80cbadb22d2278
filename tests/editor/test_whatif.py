"""app.whatif: edited trees checked by the loader's own rules (errors placed
at their node), searched by the core, and compared run to run."""
from __future__ import annotations

import copy

import pytest

from app.budget import Budget, OverBudget
from app.search import SearchOptions, run
from app.treefile import load_path, load_tree, tree_to_dict
from app.whatif import DocumentError, WhatIf, check_document, parse_text

from .docs import REPO, keyed, library_doc, node

FIG52 = REPO / "trees" / "aima-fig-5-2.yaml"


def refused(doc, options=None) -> DocumentError:
    with pytest.raises(DocumentError) as info:
        WhatIf().run(doc, options)
    return info.value


def test_a_tree_built_without_ids_gets_the_textbook_ids_and_the_library_trace():
    library = load_path(FIG52)
    built = keyed(tree_to_dict(library), named=False)     # ids left to the loader
    checked = check_document(built)
    assert [n.id for n in checked.tree.nodes] == [n.id for n in library.nodes]
    assert tree_to_dict(checked.tree)["root"] == tree_to_dict(library)["root"]
    opts = SearchOptions(algorithm="alphabeta")
    assert list(run(checked.tree, opts)) == list(run(library, opts))


@pytest.mark.parametrize("breakage, at, words", [
    # A chance node whose probabilities do not sum to 1: the error is at the chance node.
    (lambda d: (node(d, "D").update(type="chance"),
                [c.update(probability=p) for c, p in zip(node(d, "D")["children"], ["1/3", "1/3", 0.5])]),
     "D", "sum to 1.166666667, not 1"),
    (lambda d: node(d, "c2").update(value="abc"), "c2", "value"),
    (lambda d: node(d, "b1").update(eval=3), "b1", "'eval' belongs to inner nodes"),
    (lambda d: node(d, "d3").update(id="B"), "d3", "duplicate id 'B'"),
    (lambda d: node(d, "C").update(children=[]), "C", "children is empty"),
    (lambda d: node(d, "b2").update(probability=0.5), "b2", "'probability' belongs only"),
    (lambda d: node(d, "B").update(colour="red"), "B", "unknown key 'colour'"),
])
def test_a_bad_edit_is_refused_at_the_node_it_concerns(breakage, at, words):
    doc = library_doc()
    key = node(doc, at)["key"]
    breakage(doc)
    error = refused(doc)
    assert error.key == key
    assert words in error.message


def test_a_depth_limit_over_a_node_without_eval_is_refused_at_that_node():
    doc = library_doc()
    error = refused(doc, {"algorithm": "alphabeta", "depth": 1})
    assert error.key == node(doc, "B")["key"]
    assert "depth limit 1 stops at B" in error.message
    for name in "BCD":
        node(doc, name)["eval"] = 1
    assert WhatIf().run(doc, {"algorithm": "alphabeta", "depth": 1})["result"]["evaluated"] == \
        ["B", "C", "D"]


def test_fractions_are_probabilities():
    doc = library_doc()
    node(doc, "D")["type"] = "chance"
    for child in node(doc, "D")["children"]:
        child["probability"] = "1/3"
    answer = WhatIf().run(doc, {"algorithm": "alphabeta"})
    # alphabeta does not fit a tree with chance nodes: the tree's default runs, and says so.
    assert answer["result"]["options"]["algorithm"] == "expectiminimax"
    assert "alphabeta does not fit" in answer["note"]
    assert answer["result"]["nodes"]["D"][1] == 7


def run_change(doc, edit_node, value, options=None):
    edited = copy.deepcopy(doc)
    node(edited, edit_node)["value"] = value
    w = WhatIf()
    return w.run(edited, options or {"algorithm": "alphabeta"}, previous=doc,
                 edit={"kind": "value", "key": node(doc, edit_node)["key"], "old": None,
                       "new": value})


def test_new_cuts_are_marked_and_said():
    change = run_change(library_doc(), "d1", 1)["change"]
    assert change["new_cuts"] == ["d2", "d3"] and change["lost_cuts"] == []
    assert not change["best_move"]["changed"]
    assert change["sentence"] == ("Changing d1 to 1 cuts d2 and d3 at D (alpha = 3); "
                                  "static evaluations 7 → 5 (2 saved).")


def test_lost_cuts_and_a_new_best_move_are_marked_and_said():
    change = run_change(library_doc(), "c1", 5)["change"]
    assert change["lost_cuts"] == ["c2", "c3"] and change["new_cuts"] == []
    assert change["best_move"] == {"before": "B", "after": "C", "changed": True}
    assert change["value"] == {"before": 3, "after": 4}
    assert change["sentence"] == ("Changing c1 to 5 no longer cuts c2 and c3; the best move "
                                  "changes from B to C; the root's value goes from 3 to 4; "
                                  "static evaluations 7 → 9.")


def test_an_edit_inside_a_cut_subtree_adds_no_cut():
    change = run_change(library_doc(), "c2", 1)["change"]
    assert change["sentence"] == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."
    change = run_change(library_doc(), "b2", 10)["change"]
    assert change["sentence"] == "Changing b2 to 10 changes no cut, and the best move stays B."


def test_most_cuts_orders_children_best_first():
    doc = library_doc()
    order = WhatIf().best_order(doc, {"algorithm": "alphabeta"})["order"]
    b, d = node(doc, "B"), node(doc, "D")
    keys = {n["id"]: n["key"] for n in b["children"] + d["children"]}
    # MIN moves first to its smallest child: b1 (3) b3 (8) b2 (12), d3 (2) d2 (5) d1 (14).
    assert order == {b["key"]: [keys[i] for i in ("b1", "b3", "b2")],
                     d["key"]: [keys[i] for i in ("d3", "d2", "d1")]}
    d["children"].reverse()
    assert WhatIf().run(doc, {"algorithm": "alphabeta"})["result"]["stats"]["evaluated"] == 5


def test_texts_are_in_step_and_parse_back():
    doc = library_doc()
    answer = WhatIf().run(doc)
    assert answer["notation"] == "A(B(b1=3 b2=12 b3=8) C(c1=2 c2=4 c3=6) D(d1=14 d2=5 d3=2))"
    library = load_path(FIG52)
    for text, fmt in ((answer["notation"], "notation"), (answer["yaml"], "yaml")):
        parsed = parse_text(text, fmt)
        assert parsed["root"] == tree_to_dict(library, explicit_ids=True)["root"]
    unnamed = keyed(tree_to_dict(library), named=False)
    assert WhatIf().run(unnamed)["notation"] == "((3 12 8) (2 4 6) (14 5 2))"
    # A single leaf is a tree too, in both directions.
    leaf = WhatIf().run({"title": "t", "root": {"key": "r", "value": 0}})
    assert leaf["notation"] == "0" and parse_text("0", "notation")["root"] == {"id": "A", "value": 0}


def test_budgets_hold():
    small = WhatIf(Budget(editor_nodes=10))
    error = pytest.raises(DocumentError, small.run, library_doc()).value
    assert "more than 10 nodes" in error.message
    few_steps = WhatIf(Budget(editor_steps=5))
    with pytest.raises(OverBudget, match="more than 5 steps"):
        few_steps.run(library_doc())


@pytest.mark.parametrize("doc", [
    None, [], {"title": "t"}, {"title": "t", "root": 3}, {"title": "t", "root": {"value": 1}},
    {"title": "t", "root": {"key": "a", "children": [{"key": "a", "value": 1}]}},
    {"title": "t", "root": {"key": "a", "children": 3}},
    {"title": "t", "root": {"key": "a", "value": float("nan")}},
    {"title": "t", "wat": 1, "root": {"key": "a", "value": 1}},
])
def test_malformed_documents_are_refused_with_a_message(doc):
    assert refused(doc).message


def test_a_chain_as_deep_as_the_loader_allows_needs_no_recursion():
    root = leaf = {"key": "k0"}
    for i in range(1, 200):
        child = {"key": f"k{i}"}
        leaf["children"] = [child]
        leaf = child
    leaf["value"] = 1
    answer = WhatIf(Budget()).run({"title": "deep", "root": root})
    assert answer["result"]["value"] == 1
    assert load_tree(answer["yaml"]).height == 199


def test_a_whole_pruned_subtree_is_shown_pruned():
    # A(B(3 5) C(1 D(1 9))): C's first leaf 1 <= alpha = 3, so C's inner child D is cut,
    # and everything below it is shown cut too.
    doc = keyed(tree_to_dict(load_tree("A(B(3 5) C(1 D(1 9)))")), named=False)
    result = WhatIf().run(doc, {"algorithm": "alphabeta"})["result"]
    assert result["pruned"] == ["D"]
    assert {i: result["nodes"][i][0] for i in ("C", "D", "d1", "d2")} == \
        {"C": "visited", "D": "pruned", "d1": "pruned", "d2": "pruned"}


def test_the_run_before_is_named_by_its_state_token():
    w = WhatIf()
    doc = library_doc()
    first = w.run(doc, {"algorithm": "alphabeta"}, text="notation")
    assert "yaml" not in first and first["notation"]
    edited = copy.deepcopy(doc)
    node(edited, "d1")["value"] = 1
    answer = w.run(edited, {"algorithm": "alphabeta"}, previous_state=first["state"],
                   edit={"kind": "value", "key": node(doc, "d1")["key"], "new": 1})
    assert answer["change"]["new_cuts"] == ["d2", "d3"]
    # Options changed: compared with the run before under its own options.
    strict = w.run(doc, {"algorithm": "minimax"}, previous_state=first["state"],
                   edit={"kind": "options"})
    assert strict["change"]["lost_cuts"] == ["c2", "c3"]
    assert strict["change"]["sentence"].startswith("Changing the search options no longer cuts")
    # A token this server does not know: said so (the page then sends the tree before).
    assert w.run(edited, previous_state="nope")["previous_missing"] is True


def test_one_tree_asked_with_each_option_is_checked_once(monkeypatch):
    # The editor's option menus ask the same tree again and again: checking the
    # whole document by the loader's rules each time was 44 % of a run (issue 30).
    import app.whatif as whatif

    calls = []
    real = whatif.check_document
    monkeypatch.setattr(whatif, "check_document", lambda *a, **k: calls.append(1) or real(*a, **k))
    doc = library_doc("aima-fig-5-2")
    server = WhatIf()
    answers = [server.run(copy.deepcopy(doc), {"algorithm": algorithm, "order": order}, text=False)
               for algorithm in ("minimax", "alphabeta") for order in ("given", "best", "worst")]
    assert len(calls) == 1
    assert {a["result"]["value"] for a in answers} == {3}
    assert answers[3]["result"]["pruned"] == ["c2", "c3"] and not answers[0]["result"]["pruned"]
    broken = copy.deepcopy(doc)
    node(broken, "c2").update(value="abc")
    with pytest.raises(DocumentError):   # an edit is a new document: checked again (and refused)
        server.run(broken, {})
    assert len(calls) == 2
