"""Questions to the class on AIMA Figure 5.2 under alpha-beta: the answers and
the steps that show them, as the lecture has them (steps from the trace:
B exits at 8, C is entered at 11 and cuts c2, c3 at 14, D is entered at 16)."""
from __future__ import annotations

import pytest

from app.classes.questions import AnswerError, QuestionError, grade, make_question
from app.practice import answer_key
from app.search import SearchOptions
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


def test_value_of_a_node_is_what_it_returns_and_reveals_at_its_exit(key):
    q = ask(key, 0, "value", "B")
    assert (q["answer"], q["answer_text"], q["reveal_step"], q["entry"]) == (3, "3", 8, "number")
    assert ask(key, 11, "value", "C")["answer"] == 2   # a bound: C is cut off after c1


def test_pruned_children_and_none(key):
    q = ask(key, 11, "pruned", "C")
    assert (q["answer"], q["answer_text"], q["reveal_step"]) == (["c2", "c3"], "c2, c3", 14)
    assert q["choices"] == ["c1", "c2", "c3"]
    d = ask(key, 16, "pruned", "D")
    assert (d["answer"], d["answer_text"], d["reveal_step"]) == ([], "none", 25)


def test_bounds_now_are_hidden_on_screen_and_bounds_ahead_show_at_entry(key):
    now = ask(key, 12, "bounds", "C")
    assert (now["answer"], now["mask"], now["reveal_step"]) == ([3, "inf"], "C", 12)
    assert now["answer_text"] == "α = 3, β = +∞"
    ahead = ask(key, 12, "bounds", "D")
    assert (ahead["answer"], ahead["mask"], ahead["reveal_step"]) == ([3, "inf"], None, 16)


def test_root_move_and_next_node(key):
    move = ask(key, 0, "move")
    assert (move["answer"], move["choices"], move["reveal_step"]) == ("B", ["B", "C", "D"], 26)
    nxt = ask(key, 2, "next")
    assert (nxt["answer"], nxt["reveal_step"]) == ("b1", 3)
    assert ask(key, 15, "next")["answer"] == "D"


@pytest.mark.parametrize("step, kind, node, words", [
    (8, "value", "B", "already on the board"),
    (0, "value", "b1", "is a leaf"),
    (0, "value", "Z", "choose a node"),
    (14, "pruned", "C", "already on the board"),
    (26, "move", None, "already on the board"),
    (26, "next", None, "no more nodes"),
    (0, "guess", None, "unknown question"),
])
def test_questions_that_cannot_be_asked(key, step, kind, node, words):
    with pytest.raises(QuestionError, match=words):
        make_question(key, step, kind, node)


def test_pruning_questions_need_alpha_beta(minimax_key):
    with pytest.raises(QuestionError, match="only alpha-beta"):
        make_question(minimax_key, 0, "pruned", "C")
    with pytest.raises(QuestionError, match="α and β"):
        make_question(minimax_key, 0, "bounds", "C")


def test_grading_reads_numbers_as_practice_does(key, fig52_yaml):
    tree = load_tree(fig52_yaml)
    value = ask(key, 0, "value", "B")
    assert grade(value, tree, "3") == ("3", True)
    assert grade(value, tree, " 3.0 ") == ("3", True)
    assert grade(value, tree, 3) == ("3", True)
    assert grade(value, tree, "−3") == ("-3", False)      # typographic minus read as minus
    for bad in ("", "three", None, "1" * 50, ["1"] * 20):
        with pytest.raises(AnswerError):
            grade(value, tree, bad)
    bounds = ask(key, 12, "bounds", "C")
    assert grade(bounds, tree, ["3", "+∞"]) == ("α = 3, β = +∞", True)
    assert grade(bounds, tree, ["-inf", "inf"]) == ("α = −∞, β = +∞", False)
    with pytest.raises(AnswerError):
        grade(bounds, tree, "3")


def test_grading_taps(key, fig52_yaml):
    tree = load_tree(fig52_yaml)
    pruned = ask(key, 11, "pruned", "C")
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
    nxt = ask(key, 2, "next")
    assert grade(nxt, tree, "b1") == ("b1", True)
    with pytest.raises(AnswerError):
        grade(nxt, tree, "nowhere")
