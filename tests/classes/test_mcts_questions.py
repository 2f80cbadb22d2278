"""[mcts] A class asks "which child does UCB1 select next?" of a Monte Carlo
tree search: the answer is the next select event's child, graded as practice
grades a move."""
from __future__ import annotations

import pytest

from app.classes.questions import AnswerError, QuestionError, grade, make_question
from app.cli.common import load
from app.practice import answer_key
from app.search import SearchOptions


def test_ucb_question_answers_the_next_selection():
    tree = load("aima-fig-5-2")
    key = answer_key(tree, SearchOptions(algorithm="mcts", iterations=20, seed=1))
    # After three expansions (B, C, D: 9 steps), the root selects by UCB1:
    # C (mean 6 of 2..14: 0.333 + 1.482 = 1.816) over B (1.566) and D (1.482).
    q = make_question(key, 9, "ucb", None)
    assert (q.kind, q.node, q.entry, q.choices, q.answer, q.reveal_step) == \
        ("ucb", "A", "choose-one", ("B", "C", "D"), "C", 10)
    assert q.prompt == "Which child of A does UCB1 select next?"
    d = q.to_dict()
    assert grade(d, tree, "C") == ("C", True)
    assert grade(d, tree, "B") == ("B", False)
    with pytest.raises(AnswerError):
        grade(d, tree, "b1")       # not a child of A
    later = make_question(key, 10, "ucb", None)     # the next one after that step
    assert later.reveal_step > 10 and later.answer in tree
    with pytest.raises(QuestionError):
        make_question(key, len(key.events), "ucb", None)
    ab = answer_key(tree, SearchOptions(algorithm="alphabeta"))
    with pytest.raises(QuestionError):
        make_question(ab, 0, "ucb", None)


def test_a_class_runs_mcts(client):
    made = client.post("/api/classes", json={"tree": "aima-fig-5-2", "algorithm": "mcts",
                                             "iterations": 20, "seed": 1, "step": 9})
    assert made.status_code == 201, made.get_json()
    state = client.get(f"/api/classes/{made.get_json()['code']}").get_json()
    assert state["options"]["iterations"] == 20 and state["options"]["algorithm"] == "mcts"
    too_many = client.post("/api/classes", json={"tree": "aima-fig-5-2", "algorithm": "mcts",
                                                 "iterations": 10**6})
    assert too_many.status_code == 413
