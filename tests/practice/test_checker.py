"""The checker marks right answers right and each kind of mistake wrong.

Expected answers for AIMA Fig. 5.2 are the textbook's, worked by hand:
A = 3 (B = 3, C <= 2 after c1, D = 2), c2 and c3 pruned. Under the AIMA
formulation a node that meets the cut test returns before updating its own
bound, so C keeps beta = +inf and D keeps beta = 5; Wikipedia's updates first.
"""
from __future__ import annotations

import pytest

from app.practice import PracticeError, answer_key, check, practice_options
from app.search import SearchOptions

RIGHT_AIMA = {
    "values": {"A": 3, "B": 3, "C": 2, "D": 2},
    "alpha": {"A": 3, "B": "-inf", "C": 3, "D": 3},
    "beta": {"A": "inf", "B": 3, "C": "inf", "D": 5},
    "pruned": ["c2", "c3"],
}


def with_(answers: dict, field: str, node: str, value) -> dict:
    out = {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in answers.items()}
    out[field][node] = value
    return out


def status(result: dict, kind: str, node: str) -> str:
    [entry] = [e for e in result["entries"] if e["kind"] == kind and e["node"] == node]
    return entry["status"]


def wrong(result: dict) -> list[tuple[str, str, str]]:
    return [(e["kind"], e["node"], e["status"]) for e in result["entries"]
            if e["graded"] and e["status"] != "right"]


def test_textbook_answer_is_all_right(fig52):
    result = check(fig52, RIGHT_AIMA, "full", tree_id="fig52")
    assert result["solved"] is True
    assert result["score"] == {"right": 14, "total": 14}   # 4 values, 8 bounds, 2 cuts
    assert result["first_mistake"] is None
    assert result["link"] == "/t/fig52?algorithm=alphabeta"


def test_entries_are_read_as_students_write_them(fig52):
    typed = with_(with_(RIGHT_AIMA, "beta", "A", "+∞"), "alpha", "B", "−∞")
    typed = with_(typed, "values", "C", " 2 ")
    assert check(fig52, typed, "full")["solved"]


def test_wrong_value_is_wrong_and_explained(fig52):
    result = check(fig52, with_(RIGHT_AIMA, "values", "C", 4), "full", tree_id="fig52")
    assert wrong(result) == [("value", "C", "wrong")]
    assert result["score"] == {"right": 13, "total": 14}
    first = result["first_mistake"]
    assert (first["kind"], first["node"]) == ("value", "C")
    key = answer_key(fig52, practice_options(fig52, "full"))
    exit_c = key.event(first["step"])
    assert (exit_c["type"], exit_c["node"], exit_c["value"]) == ("exit", "C", 2)
    assert first["link"] == f"/t/fig52?algorithm=alphabeta&step={first['step']}"
    assert "returns" in first["sentence"] and "at most 2" in first["sentence"]
    assert "You wrote 4" in first["sentence"]


@pytest.mark.parametrize("field,node,value", [("alpha", "D", 5), ("beta", "B", "inf"),
                                              ("alpha", "A", "-inf")])
def test_wrong_bound_is_wrong(fig52, field, node, value):
    result = check(fig52, with_(RIGHT_AIMA, field, node, value), "full")
    assert wrong(result) == [(field, node, "wrong")]


def test_missed_cut_is_wrong_and_points_at_the_prune_step(fig52):
    result = check(fig52, dict(RIGHT_AIMA, pruned=["c2"]), "full", tree_id="t")
    assert wrong(result) == [("cut", "c3", "missing")]
    first = result["first_mistake"]
    key = answer_key(fig52, practice_options(fig52, "full"))
    prune = key.event(first["step"])
    assert prune["type"] == "prune" and "c3" in prune["skipped"]
    assert "c3" in first["sentence"] and "≤ α = 3" in first["sentence"]


def test_extra_cut_on_an_inner_branch_is_wrong(fig52):
    answers = dict(RIGHT_AIMA, pruned=["c2", "c3", "D"])
    result = check(fig52, answers, "full", tree_id="t")
    assert ("cut", "D", "extra") in wrong(result)
    # D is searched, so its entries still count; only the extra mark is wrong here.
    assert wrong(result) == [("cut", "D", "extra")]
    sentence = result["first_mistake"]["sentence"]
    assert "D is searched" in sentence and "3 ≤ 3" not in sentence


def test_extra_cut_on_a_leaf_branch_is_wrong(fig52):
    answers = dict(RIGHT_AIMA, pruned=["c2", "c3", "d3"])
    result = check(fig52, answers, "full", tree_id="t")
    assert wrong(result) == [("cut", "d3", "extra")]
    first = result["first_mistake"]
    key = answer_key(fig52, practice_options(fig52, "full"))
    assert key.event(first["step"])["node"] == "d3"         # the step that searches d3
    assert "v = 5 and α = 3" in first["sentence"] and "5 ≤ 3 does not hold" in first["sentence"]


def test_first_child_branch_can_never_be_cut(fig52):
    result = check(fig52, dict(RIGHT_AIMA, pruned=["c2", "c3", "b1"]), "full")
    assert wrong(result) == [("cut", "b1", "extra")]
    assert "first child" in result["first_mistake"]["sentence"]


def test_missing_and_unreadable_entries_count_as_wrong(fig52):
    answers = with_(with_(RIGHT_AIMA, "values", "B", ""), "alpha", "C", "three")
    del answers["values"]["D"]
    result = check(fig52, answers, "full")
    assert sorted(wrong(result)) == [("alpha", "C", "unreadable"), ("value", "B", "missing"),
                                     ("value", "D", "missing")]
    # What the student wrote wrong is explained before what they left empty.
    assert result["first_mistake"]["node"] == "C"
    assert "not a number" in result["first_mistake"]["sentence"]


def test_entries_inside_a_pruned_subtree_need_nothing(notation):
    tree = notation("((5 6) ((1 2) (9 9)))")   # C (MIN) is cut after D = 2 <= alpha = 5
    key = answer_key(tree, practice_options(tree, "full"))
    assert list(key.cuts) == ["E"] and key.inside_cut == {"e1", "e2"}
    right = {"values": {n: nk.value for n, nk in key.inner.items()},
             "alpha": {n: nk.alpha for n, nk in key.inner.items()},
             "beta": {n: nk.beta for n, nk in key.inner.items()},
             "pruned": ["E", "e1"]}              # a mark below the cut: harmless
    right["values"]["E"] = 9                     # a value inside the cut: ignored
    result = check(tree, right, "full")
    assert result["solved"]
    ignored = {(e["kind"], e["node"]) for e in result["entries"] if e["status"] == "ignored"}
    assert ignored == {("value", "E"), ("cut", "e1")}


def test_ties_follow_the_strict_option(notation):
    # At C, c1 returns 3 and alpha is 3: 3 <= 3 cuts, 3 < 3 does not.
    tree = notation("((3 5) (3 9))")
    cut = {"values": {"A": 3, "B": 3, "C": 3}, "pruned": ["c2"]}
    no_cut = {"values": {"A": 3, "B": 3, "C": 3}, "pruned": []}
    plain, strict = SearchOptions(), SearchOptions(strict=True)
    assert check(tree, cut, "cuts", plain)["solved"]
    assert not check(tree, no_cut, "cuts", plain)["solved"]
    assert check(tree, no_cut, "cuts", strict)["solved"]
    result = check(tree, cut, "cuts", strict, tree_id="t")
    assert wrong(result) == [("cut", "c2", "extra")]
    assert "strict convention" in result["first_mistake"]["sentence"]
    assert "strict=1" in result["first_mistake"]["link"]


def test_wikipedia_formulation_updates_the_bound_before_the_cut(fig52):
    wiki = with_(with_(RIGHT_AIMA, "beta", "C", 2), "beta", "D", 2)
    opts = SearchOptions(style="wikipedia")
    assert check(fig52, wiki, "full", opts)["solved"]
    aima = check(fig52, wiki, "full")
    assert sorted(wrong(aima)) == [("beta", "C", "wrong"), ("beta", "D", "wrong")]
    assert "AIMA formulation" in aima["first_mistake"]["sentence"]


def test_values_mode_is_plain_minimax(fig52):
    # Minimax backs up every node: C is worth 2 (min of 2, 4, 6) and nothing is cut.
    result = check(fig52, {"values": {"A": 3, "B": 3, "C": 2, "D": 2}, "pruned": ["c2"]}, "values")
    assert result["solved"] and result["options"]["algorithm"] == "minimax"
    assert {e["kind"] for e in result["entries"]} == {"value"}


def test_cuts_mode_scores_cuts_and_checks_values_as_hints(fig52):
    result = check(fig52, {"values": {"B": 3, "C": 6}, "pruned": ["c2", "c3"]}, "cuts")
    assert result["solved"] and result["score"] == {"right": 2, "total": 2}
    hints = {e["node"]: e["status"] for e in result["entries"] if not e["graded"]}
    assert hints == {"B": "right", "C": "wrong"}


def test_values_of_a_chance_tree_accept_rounded_decimals():
    from app.treefile import load_tree
    tree = load_tree("""
title: chance
root:
  children:
    - type: chance
      children:
        - {probability: 0.3, value: 1}
        - {probability: 0.7, value: 2}
    - type: chance
      children:
        - {probability: 0.5, value: 0}
        - {probability: 0.5, value: 3}
""")
    ids = [n.id for n in tree.nodes if n.children]
    b, c = ids[1], ids[2]
    result = check(tree, {"values": {ids[0]: 1.7, b: "1.70", c: 1.5}}, "values")
    assert result["solved"] and result["options"]["algorithm"] == "expectiminimax"
    result = check(tree, {"values": {ids[0]: 1.7, b: 1.6, c: 1.5}}, "values")
    assert wrong(result) == [("value", b, "wrong")]
    assert "0.3 × 1 + 0.7 × 2 = 1.7" in result["first_mistake"]["sentence"]


def test_values_of_a_three_player_tree_are_vectors(notation):
    tree = notation("(([1 2 6] [4 2 3]) ([6 1 2] [7 4 1]))")
    key = answer_key(tree, practice_options(tree, "values"))
    assert key.options.algorithm == "maxn"
    answers = {"values": {n: ", ".join(map(str, nk.value)) for n, nk in key.inner.items()}}
    assert check(tree, answers, "values")["solved"]
    # B is the second player's: both children give it 2, and a tie keeps the first.
    assert key.inner["B"].value == (1, 2, 6)
    answers["values"]["B"] = "4 2 3"
    assert wrong(check(tree, answers, "values")) == [("value", "B", "wrong")]


def test_depth_limit_asks_only_above_the_limit():
    from app.games.random_tree import random_tree
    tree = random_tree(branching=2, depth=3, seed=5, evals=True)
    key = answer_key(tree, practice_options(tree, "full", SearchOptions(depth=1)))
    assert list(key.inner) == ["A"]
    assert key.below_limit == {n.id for n in tree.nodes if n.depth >= 2}
    assert key.inner["A"].value == max(c.eval for c in tree.root.children)


def test_alphabeta_modes_refuse_unfit_trees(notation):
    tree = notation("(([1 2 6] [4 2 3]) ([6 1 2] [7 4 1]))")
    with pytest.raises(PracticeError, match="two-player tree without chance"):
        check(tree, {}, "full")


@pytest.mark.parametrize("answers,message", [
    ({"values": {"Z": 1}}, "not in the tree"),
    ({"pruned": ["A"]}, "root"),
    ({"pruned": "c2"}, "list of node ids"),
    ({"vals": {}}, "unknown answer field"),
])
def test_bad_answers_are_refused(fig52, answers, message):
    with pytest.raises(PracticeError, match=message):
        check(fig52, answers, "full")


def test_answers_made_from_the_key_are_right_and_one_change_is_caught():
    """Over many random trees: the key's own answers pass, and changing any one
    entry makes exactly that entry wrong."""
    from app.games.random_tree import random_tree
    for seed in range(25):
        tree = random_tree(branching=(2, 3), depth=3, values=(0, 9), seed=seed)
        key = answer_key(tree, practice_options(tree, "full"))
        answers = {"values": {n: k.value for n, k in key.inner.items()},
                   "alpha": {n: k.alpha for n, k in key.inner.items()},
                   "beta": {n: k.beta for n, k in key.inner.items()},
                   "pruned": list(key.cuts)}
        assert check(tree, answers, "full")["solved"], seed
        node = list(key.inner)[seed % len(key.inner)]
        bumped = with_(answers, "values", node, key.inner[node].value + 1)
        assert wrong(check(tree, bumped, "full")) == [("value", node, "wrong")], seed
