"""Contract §8 over HTTP: every POST /api/practice/check answer carries ``misconception``."""
from __future__ import annotations

import pytest

from tests.practice.test_api import RIGHT, post

# A deep cut-off: α = 5 comes down from the root A to E, two levels below C (issue 28).
DEEP = """title: A deep cut-off
root:
  id: A
  children:
    - id: B
      children: [{id: b1, value: 5}, {id: b2, value: 6}]
    - id: C
      children:
        - id: D
          children:
            - id: E
              children: [{id: e1, value: 3}, {id: e2, value: 9}]
            - id: F
              children: [{id: f1, value: 2}, {id: f2, value: 8}]
        - {id: c2, value: 7}
"""
# the key prunes e2 (deep), f2 and c2; a student without deep cut-offs searches e2
KEY_CUTS = ["e2", "f2", "c2"]
SHALLOW_CUTS = ["f2", "c2"]


@pytest.fixture
def client(make_app, tmp_path, fig52_yaml):
    trees = tmp_path / "trees"
    trees.mkdir()
    (trees / "fig52.yaml").write_text(fig52_yaml, encoding="utf-8")
    (trees / "deep.yaml").write_text(DEEP, encoding="utf-8")
    return make_app(TREES_DIR=str(trees), PRACTICE_MAX_NODES=200).test_client()


def test_every_answer_carries_it_null_when_none_explains(client):
    body = post(client, tree="fig52", mode="full", answers=RIGHT).json
    assert body["misconception"] is None                  # a right answer: none
    body = post(client, tree="fig52", mode="cuts", answers={"pruned": ["b2", "d1"]}).json
    assert "misconception" in body and body["misconception"] is None   # noise: none
    empty = post(client, tree="fig52", mode="values", answers={}).json
    assert empty["misconception"] is None                 # nothing written: nearer the key
    for mode, extra in (("guided", {"index": 0, "answer": "3"}), ("order", {"ordering": {}})):
        body = post(client, tree="fig52", mode=mode, **extra).json
        assert "misconception" in body and body["misconception"] is None, mode


def test_the_cut_offs_own_child_at_its_node_with_a_link_to_that_step(client):
    body = post(client, tree="fig52", mode="cuts", answers={"pruned": ["c1", "c2", "c3"]}).json
    found = body["misconception"]
    assert found["id"] == "cutter" and found["slips"] == 0 and found["node"] == "C"
    assert "c1" in found["text"] and "c2, c3" in found["text"]
    assert found["link"] == f"/t/fig52?algorithm=alphabeta&step={found['step']}"
    # one slip off (c3 forgotten) is still that rule
    one = post(client, tree="fig52", mode="cuts", answers={"pruned": ["c1", "c2"]}).json
    assert one["misconception"]["id"] == "cutter" and one["misconception"]["slips"] == 1


def test_no_deep_cut_offs_said_with_the_numbers_in_both_languages(client):
    body = post(client, tree="deep", mode="cuts", answers={"pruned": SHALLOW_CUTS}).json
    found = body["misconception"]
    assert found["id"] == "shallow" and found["node"] == "E"
    assert found["text"] == ("You pruned at E using only its parent's bound. Alpha-beta also "
                             "carries α = 5 down from A: E's value 3 ≤ 5, so it prunes e2 "
                             "there — a deep cut-off.")
    ok = post(client, tree="deep", mode="cuts", answers={"pruned": KEY_CUTS}).json
    assert ok["misconception"] is None and ok["solved"]
    res = client.post("/api/practice/check?lang=id", json={
        "tree": "deep", "mode": "cuts", "answers": {"pruned": SHALLOW_CUTS}})
    said = res.json["misconception"]
    assert said["id"] == "shallow" and "pemangkasan dalam" in said["text"]
    assert "α = 5" in said["text"] and "deep cut-off" not in said["text"]


def test_values_levels_swapped_and_the_exercises_tie_rule(client):
    swapped = {"values": {"A": 6, "B": 12, "C": 6, "D": 14}}
    body = post(client, tree="fig52", mode="values", answers=swapped).json
    assert body["misconception"]["id"] == "levels-swapped"
    assert body["misconception"]["node"] == "B"           # the first value the search backs up
