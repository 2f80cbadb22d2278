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
    # Every number UCB1 needs, as the board shows it; the table comes with the reveal.
    assert d["givens"]["children"] == [{"id": c, "label": c, "visits": 1, "mean": m}
                                       for c, m in (("B", 3), ("C", 6), ("D", 2))]
    assert d["givens"]["say"]["fields"] == {"c": "1.414", "n": "3", "player": "MAX",
                                            "worst": "2", "best": "14"}
    assert [(r["id"], r["ucb"]) for r in d["table"]] == [("B", 1.566), ("C", 1.816), ("D", 1.482)]
    with pytest.raises(QuestionError):
        make_question(key, len(key.events), "ucb", None)


def test_ucb_is_asked_only_just_before_a_selection():
    """Issue 26: asked at step 3 it was revealed at step 10, after playouts the
    class had not seen. Now it is refused there, naming where to ask."""
    tree = load("aima-fig-5-2")
    key = answer_key(tree, SearchOptions(algorithm="mcts", iterations=20, seed=1))
    for step, before in ((3, 9), (10, 13)):     # (after 10: C expands, plays out, backs up)
        with pytest.raises(QuestionError) as err:
            make_question(key, step, "ucb", None)
        assert err.value.fields["before"] == before
    q = make_question(key, 13, "ucb", None)
    assert (q.answer, q.reveal_step) == ("B", 14) and key.event(14)["type"] == "select"


def test_the_record_says_which_questions_a_run_is_asked():
    """Issue 26: the menu offered α/β questions on MCTS; the record lists the
    kinds, and a kind not in it is refused with the record's reason."""
    from app.search.descriptors import get
    tree = load("aima-fig-5-2")
    assert get("mcts").questions == ("ucb",)
    assert "bounds" not in get("minimax").questions and "ucb" not in get("alphabeta").questions
    cases = (("mcts", "value", "B"), ("mcts", "bounds", "B"), ("minimax", "bounds", "B"),
             ("minimax", "pruned", "B"), ("alphabeta", "ucb", None))
    for alg, kind, node in cases:
        extra = {"iterations": 20, "seed": 1} if alg == "mcts" else {}
        k = answer_key(tree, SearchOptions(algorithm=alg, **extra))
        with pytest.raises(QuestionError) as err:
            make_question(k, 0, kind, node)
        assert err.value.msgid == get(alg).unasked and err.value.msgid, (alg, kind)
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


def test_the_projectors_menu_lists_the_records_questions(client):
    """Issue 26: the menu offered every kind on every run (α/β on MCTS, then refused)."""
    import re
    from app.search.descriptors import get
    for alg, extra in (("mcts", {"iterations": 20, "seed": 1}), ("minimax", {}),
                       ("alphabeta", {}), ("iterative", {"tree": "r-b2-d3-e-s1"})):
        made = client.post("/api/classes", json={"tree": "aima-fig-5-2", "algorithm": alg, **extra})
        assert made.status_code == 201, made.get_json()
        page = client.get(f"/c/{made.get_json()['code']}/present").get_data(as_text=True)
        menu = page[page.index('data-ask="kind"'):page.index("</select>", page.index('data-ask="kind"'))]
        assert re.findall(r'<option value="(\w+)"', menu) == list(get(alg).questions), alg
        assert ('data-role="unasked"' in page) == (not get(alg).questions), alg
