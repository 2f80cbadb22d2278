"""Guided mode on AIMA Fig. 5.2: the questions, their answers and the rules."""
from __future__ import annotations

import pytest

from app.practice import answer_key, guide, practice_options, questions
from app.search import SearchOptions


def key_for(tree, **options):
    return answer_key(tree, practice_options(tree, "guided", SearchOptions(**options)))


def test_questions_follow_the_search(fig52):
    qs = questions(key_for(fig52))
    first = qs[0]
    assert (first.kind, first.node, first.answer) == ("value", "B", 3)
    assert first.prompt == "b1 returned 3 to B. What is v at B now?"
    # Each returned value asks v; MIN nodes then "cut?" (if children remain) and beta.
    assert [(q.kind, q.node) for q in qs[:3]] == [("value", "B"), ("cut", "B"), ("beta", "B")]
    cuts = [(q.node, q.answer) for q in qs if q.kind == "cut"]
    assert ("C", True) in cuts and cuts.count(("C", True)) == 1
    assert all(answer is False for node, answer in cuts if node != "C")
    # After C's cut there is no beta question for C: AIMA returns at once.
    after = qs[[i for i, q in enumerate(qs) if q.node == "C" and q.kind == "cut"][0] + 1]
    assert after.node == "A"


def test_wikipedia_asks_the_bound_before_the_cut(fig52):
    qs = questions(key_for(fig52, style="wikipedia"))
    assert [(q.kind, q.node) for q in qs[:3]] == [("value", "B"), ("beta", "B"), ("cut", "B")]
    beta_c = [q for q in qs if q.node == "C" and q.kind == "beta"]
    assert [q.answer for q in beta_c] == [2]


def test_strict_ties_change_the_cut_answer(notation):
    tree = notation("((3 5) (3 9))")
    cut_at_c = lambda qs: [q.answer for q in qs if q.kind == "cut" and q.node == "C"]
    assert cut_at_c(questions(key_for(tree))) == [True]
    assert cut_at_c(questions(key_for(tree, strict=True))) == [False]


def test_a_wrong_answer_names_the_rule_and_hides_the_answer(fig52):
    key = key_for(fig52)
    out = guide(key, 0, "12")
    assert out["result"] == {"correct": False, "rule": out["result"]["rule"]}
    assert out["result"]["rule"] == "Rule: at a MIN node, v = min(v, the value the child returned)."
    assert "answer" not in out and "worked" not in out
    assert out["view"]["B"]["value"] is None          # the picture does not give it away


def test_a_right_answer_shows_the_step(fig52):
    key = key_for(fig52)
    out = guide(key, 0, "3", link=lambda s: f"/t/x?step={s}")
    assert out["result"] == {"correct": True}
    assert out["answer"] == 3 and out["next"] == 1
    assert out["reveal_view"]["B"]["value"] == 3
    assert out["link"] == f"/t/x?step={out['reveal_step']}"
    assert key.event(out["reveal_step"])["type"] == "update"


def test_cut_questions_take_yes_or_no(fig52):
    key = key_for(fig52)
    qs = questions(key)
    i = next(i for i, q in enumerate(qs) if q.kind == "cut" and q.answer)
    assert guide(key, i, "no")["result"]["rule"].startswith("Rule: a MIN node cuts off")
    right = guide(key, i, "yes")
    assert right["result"]["correct"] and "pruned" in right["worked"]
    assert guide(key, i, "maybe")["result"]["unreadable"] is True


def test_reveal_and_the_end(fig52):
    key = key_for(fig52)
    total = len(questions(key))
    last = guide(key, total - 1, reveal=True)
    assert last["finished"] is True and last["next"] is None and "answer" in last
    assert last["summary"].startswith("Done")
    with pytest.raises(ValueError):
        guide(key, total)


def test_minimax_guides_values_only(fig52):
    key = key_for(fig52, algorithm="minimax")
    qs = questions(key)
    assert {q.kind for q in qs} == {"value"}
    assert len(qs) == 12                                  # every child returns once
