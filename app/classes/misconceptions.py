"""The misconceptions behind a class's wrong answers (contract §8), read at the reveal.

When a ``value`` or ``pruned`` question is asked, each misconception's sheet on the
class's run says the answer it gives at that node (:func:`answers_at`, kept with the
question); at the reveal each wrong bar of the chart whose answer one gives is labelled
with it (:func:`label`): a lookup per distinct answer, so 500 answers cost nothing more.
"""
from __future__ import annotations

from app.practice import AnswerKey
from app.practice.answers import Unreadable, key_value, parse_entry, same
from app.practice.misconceptions import BY_ID, applicable, key_sheet, sheets
from app.search.numbers import jv

from .questions import NONE


MAX_EVENTS = 20_000
"""Runs longer than this are demonstrations, not quizzes: their answers go unlabelled
(the misconceptions' searches would cost the first question half a second)."""


def wrong_sheets(key: AnswerKey) -> tuple:
    """``(the key's sheet, [(id, sheet)])`` of the class's run: made once per run (the
    caller keeps them beside its answer key)."""
    tree, opts = key.tree, key.options
    mode = "full" if key.bounds else "values"
    if len(key.events) > MAX_EVENTS or not applicable(tree, opts, mode):
        return None, []
    right = key_sheet(tree, opts)
    return right, sheets(tree, opts, mode, right)


def answers_at(key: AnswerKey, kind: str, node: str | None, choices=(),
               made: tuple | None = None) -> list[dict]:
    """``[{"id", "answer", "label"}]``: what each misconception answers to the question,
    where it differs from the key (a value; the pruned children in ``choices``' order,
    labelled as the tally labels them). ``made``: :func:`wrong_sheets` of the run."""
    if kind not in ("value", "pruned") or node is None:
        return []
    tree = key.tree
    right, wrong = made if made is not None else wrong_sheets(key)
    out = []
    for mid, sheet in wrong:
        if kind == "value":
            if node not in sheet.values or node not in right.values \
                    or same(sheet.values[node], right.values[node]):
                continue
            answer = jv(sheet.values[node])
        else:
            if node not in sheet.returned and node not in sheet.cut_at:
                continue   # this rule never searches the node: it has no answer there
            mine = [c for c in choices if sheet.pruned.get(c) == node]
            if mine == [c for c in choices if right.pruned.get(c) == node]:
                continue
            answer = mine
        text = None
        if kind == "pruned":
            text = ", ".join(tree.node(c).label for c in answer) or NONE
        out.append({"id": mid, "answer": answer, "label": text})
    return out


def label(question: dict, chart: dict) -> None:
    """Mark each wrong bar of ``chart`` with the misconception that gives its answer
    (``misconception``: ``{"id", "name"}``, the name a catalogue message)."""
    given = question.get("misconceptions") or []
    if not given:
        return
    for bar in chart["bars"]:
        if bar["right"]:
            continue
        mid = _explains(question["kind"], given, bar["label"])
        if mid is not None:
            bar["misconception"] = {"id": mid, "name": BY_ID[mid].name}


def _explains(kind: str, given: list[dict], text: str) -> str | None:
    if kind == "value":
        try:
            value = parse_entry(text)
        except Unreadable:
            return None
        for m in given:
            if value is not None and same(value, key_value(m["answer"])):
                return m["id"]
        return None
    for m in given:    # pruned: the bar's label is the picked children's labels, or "none"
        if m["label"] == text:
            return m["id"]
    return None
