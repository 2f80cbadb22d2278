"""Contract §8 for homework over HTTP: the submission's answer carries the misconception
when the feedback shows which entries are right, and the results count them per exercise
across the students' own (random) trees."""
from __future__ import annotations

import json

from tests.assignments.test_api import FIG52_RIGHT, _auth, _join, _make, _submit
from tests.practice.misconception_refs import backed_up

CUTTER = dict(FIG52_RIGHT, pruned=["c1", "c2", "c3"])   # the cut-off's own child marked too


def test_the_answer_carries_it_by_feedback_and_results_count_it(client):
    a = _make(client, attempts=None, feedback="submit")
    out = _submit(client, a, _join(client, a, "Ana"), answers=CUTTER).json
    assert out["misconception"]["id"] == "cutter" and out["misconception"]["node"] == "C"
    assert out["misconception"]["slips"] == 0 and "link" not in out["misconception"]
    assert "expected" not in json.dumps(out["entries"])     # still nothing of the key
    right = _submit(client, a, _join(client, a, "Budi"), answers=FIG52_RIGHT).json
    assert right["misconception"] is None
    step = _make(client, attempts=None, feedback="step")
    out = _submit(client, step, _join(client, step, "Ana"), answers=CUTTER).json
    assert out["misconception"]["id"] == "cutter" and "link" not in out["misconception"]
    due = _make(client, attempts=None, feedback="due", due="2999-01-01T00:00:00Z")
    out = _submit(client, due, _join(client, due, "Ana"), answers=CUTTER).json
    assert "misconception" not in out                       # nothing shown before the due date
    r = client.get(f"/api/assignments/{due['id']}/results", headers=_auth(due)).json
    assert r["exercises"][0]["misconceptions"] == {"cutter": 1}   # yet stored with the attempt
    r = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    assert r["exercises"][0]["misconceptions"] == {"cutter": 1}
    work = client.get(f"/api/assignments/{a['id']}/students/Ana/attempts", headers=_auth(a)).json
    assert [x["misconception"] for x in work["attempts"]] == ["cutter"]
    assert work["misconception_names"]["cutter"] == "the cut-off's own child marked pruned"


def test_counted_on_each_students_own_tree_by_their_last_attempt(client):
    a = _make(client, attempts=None, exercises=[
        {"tree": "random", "mode": "values", "branching": 3, "depth": 3},
        {"tree": "aima-fig-5-2", "mode": "values"}])
    expect = {"levels-swapped": 0}
    for i in range(5):
        name = f"S{i}"
        s = _join(client, a, name)
        tree_id = client.get(f"/api/assignments/{a['id']}/students/{name}/exercises",
                             headers=_auth(a)).json[0]["tree"]
        assert client.get(f"/api/trees/{tree_id}").status_code == 200
        tree = client.application.extensions["trees"].get(tree_id)   # the tree the student sees
        swapped, _ = backed_up(tree, swap=True)
        right, _ = backed_up(tree)
        # students 0-2 hold MAX and MIN swapped on their own trees; 3 and 4 get it right last
        _submit(client, a, s, answers={"values": swapped})
        if i >= 3:
            _submit(client, a, s, answers={"values": right})
        elif swapped != right:
            expect["levels-swapped"] += 1
    r = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    assert expect["levels-swapped"] >= 2
    assert r["exercises"][0]["misconceptions"] == expect
    assert r["exercises"][1]["misconceptions"] == {}
