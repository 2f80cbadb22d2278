"""Questions to the class on AIMA Figure 5.2 under alpha-beta: the answers as
the lecture has them, and the steps that show them (looked up in the run's
events: B's exit, C's prune, D's entry, ...)."""
from __future__ import annotations

import pytest

from app.classes.questions import AnswerError, QuestionError, grade, make_question
from app.practice import answer_key
from app.search import SearchOptions
from app.search.numbers import fmt
from app.treefile import load_tree


@pytest.fixture(scope="module")
def key(fig52_yaml):
    tree = load_tree(fig52_yaml)
    return answer_key(tree, SearchOptions(algorithm="alphabeta"))


@pytest.fixture(scope="module")
def minimax_key(fig52_yaml):
    return answer_key(load_tree(fig52_yaml), SearchOptions(algorithm="minimax"))


def ask(key, step, kind, node=None):
    return make_question(key, step, kind, node).to_dict()


def at(key, kind, node):
    """The step of the event ``kind`` at ``node``."""
    return next(e["step"] for e in key.events if e["type"] == kind and e.get("node") == node)


def test_value_of_a_node_is_what_it_returns_and_reveals_at_its_exit(key):
    q = ask(key, 0, "value", "B")
    assert (q["answer"], q["answer_text"], q["reveal_step"], q["entry"]) == (3, "3", at(key, "exit", "B"), "number")
    assert ask(key, at(key, "enter", "C"), "value", "C")["answer"] == 2   # a bound: C is cut off after c1


def test_pruned_children_and_none(key):
    q = ask(key, at(key, "enter", "C"), "pruned", "C")
    assert (q["answer"], q["answer_text"], q["reveal_step"]) == (["c2", "c3"], "c2, c3",
                                                                 at(key, "prune", "C"))
    assert q["choices"] == ["c1", "c2", "c3"]
    d = ask(key, at(key, "enter", "D"), "pruned", "D")
    assert (d["answer"], d["answer_text"], d["reveal_step"]) == ([], "none", at(key, "exit", "D"))


def test_bounds_now_are_hidden_on_screen_and_bounds_ahead_show_at_entry(key):
    k = at(key, "enter", "C") + 1
    now = ask(key, k, "bounds", "C")
    assert (now["answer"], now["mask"], now["reveal_step"]) == ([3, "inf"], "C", k)
    assert now["answer_text"] == "α = 3, β = +∞"
    ahead = ask(key, k, "bounds", "D")
    assert (ahead["answer"], ahead["mask"], ahead["reveal_step"]) == ([3, "inf"], None,
                                                                      at(key, "enter", "D"))


def test_root_move_and_next_node(key):
    move = ask(key, 0, "move")
    assert (move["answer"], move["choices"], move["reveal_step"]) == ("B", ["B", "C", "D"],
                                                                   at(key, "exit", "A"))
    nxt = ask(key, at(key, "enter", "B"), "next")
    assert (nxt["answer"], nxt["reveal_step"]) == ("b1", at(key, "evaluate", "b1"))
    assert ask(key, at(key, "exit", "C"), "next")["answer"] == "D"


@pytest.mark.parametrize("when, kind, node, words", [
    (("exit", "B"), "value", "B", "already on the board"),
    (None, "value", "b1", "is a leaf"),
    (None, "value", "Z", "choose a node"),
    (("prune", "C"), "pruned", "C", "already on the board"),
    (("exit", "A"), "move", None, "already on the board"),
    (("exit", "A"), "next", None, "no more nodes"),
    (None, "guess", None, "unknown question"),
])
def test_questions_that_cannot_be_asked(key, when, kind, node, words):
    step = at(key, *when) if when else 0
    with pytest.raises(QuestionError, match=words):
        make_question(key, step, kind, node)


def test_pruning_questions_need_alpha_beta(minimax_key):
    # (the minimax record's reason: issue 26)
    with pytest.raises(QuestionError, match="Minimax keeps no α and β and cuts nothing off"):
        make_question(minimax_key, 0, "pruned", "C")
    with pytest.raises(QuestionError, match="α and β"):
        make_question(minimax_key, 0, "bounds", "C")


def test_grading_reads_numbers_as_practice_does(key, fig52_yaml):
    tree = load_tree(fig52_yaml)
    value = ask(key, 0, "value", "B")
    assert grade(value, tree, "3") == ("3", True)
    assert grade(value, tree, " 3.0 ") == ("3", True)
    assert grade(value, tree, 3) == ("3", True)
    assert grade(value, tree, "−3") == (fmt(-3), False)   # typographic minus read as minus
    for bad in ("", "three", None, "1" * 50, ["1"] * 20):
        with pytest.raises(AnswerError):
            grade(value, tree, bad)
    bounds = ask(key, at(key, "enter", "C") + 1, "bounds", "C")
    assert grade(bounds, tree, ["3", "+∞"]) == ("α = 3, β = +∞", True)
    assert grade(bounds, tree, ["-inf", "inf"]) == ("α = −∞, β = +∞", False)
    with pytest.raises(AnswerError):
        grade(bounds, tree, "3")


def test_grading_taps(key, fig52_yaml):
    tree = load_tree(fig52_yaml)
    pruned = ask(key, at(key, "enter", "C"), "pruned", "C")
    assert grade(pruned, tree, ["c3", "c2"]) == ("c2, c3", True)
    assert grade(pruned, tree, ["c3"]) == ("c3", False)
    assert grade(pruned, tree, []) == ("none", False)
    with pytest.raises(AnswerError):
        grade(pruned, tree, ["d1"])                           # not a child of C
    move = ask(key, 0, "move")
    assert grade(move, tree, "C") == ("C", False)
    assert grade(move, tree, "B") == ("B", True)
    with pytest.raises(AnswerError):
        grade(move, tree, "b1")
    nxt = ask(key, at(key, "enter", "B"), "next")
    assert grade(nxt, tree, "b1") == ("b1", True)
    with pytest.raises(AnswerError):
        grade(nxt, tree, "nowhere")
