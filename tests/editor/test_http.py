"""The editor's routes: pages, what-if runs, text parsing; every mistake a
JSON error (never a 500), every request within the budget."""
from __future__ import annotations

import json

import pytest

from .docs import library_doc, node


def test_pages(client):
    assert client.get("/edit").status_code == 200
    page = client.get("/edit/aima-fig-5-2")
    assert page.status_code == 200 and b'data-tree="aima-fig-5-2"' in page.data
    for hook in (b'data-action="add-child"', b'data-action="delete"', b'data-action="undo"',
                 b'data-action="redo"', b'data-action="save"', b"data-notation",
                 b'data-edit="value"'):
        assert hook in page.data
    assert client.get("/edit/no-such-tree").status_code == 404
    random = client.get("/edit/random")
    assert random.status_code == 302 and random.headers["Location"].startswith("/edit/r-")
    assert client.get(random.headers["Location"]).status_code == 200
    # No inline script: the page runs under the CSP.
    assert b"<script>" not in page.data and b" on" + b"click=" not in page.data


def test_run_answers_ids_result_and_texts(client):
    doc = library_doc()
    res = client.post("/api/edit/run", json={"tree": doc, "options": {"algorithm": "alphabeta"}})
    assert res.status_code == 200
    body = res.get_json()
    assert body["result"]["pruned"] == ["c2", "c3"] and body["result"]["best_move"] == "B"
    assert body["ids"][doc["root"]["key"]] == "A"
    assert body["notation"].startswith("A(B(b1=3")


def test_a_refused_edit_names_its_node(client):
    doc = library_doc()
    node(doc, "c2")["value"] = "four"
    res = client.post("/api/edit/run", json={"tree": doc})
    assert res.status_code == 400
    error = res.get_json()["error"]
    assert error["key"] == node(doc, "c2")["key"] and "value" in error["message"]


@pytest.mark.parametrize("body, status", [
    (b"", 400), (b"[]", 400), (b"{", 400), (b'{"tree": NaN}', 400),
    (b'{"tree": {}, "wat": 1}', 400), (b'{"options": {}}', 400),
    (b"[" * 100_000 + b"]" * 100_000, 400),
    (json.dumps({"tree": {"title": "t", "root": {"key": "a", "value": 1}},
                 "options": {"depth": -1}}).encode(), 400),
    (json.dumps({"tree": {"title": "t", "root": {"key": "a", "value": 1}},
                 "options": {"algorithm": "bogo"}}).encode(), 400),
    (b'{"tree": "' + b"x" * (2 << 20) + b'"}', 413),
])
def test_bad_requests_are_json_errors(client, body, status):
    res = client.post("/api/edit/run", data=body, content_type="application/json")
    assert res.status_code == status
    assert res.get_json()["error"]["message"]


def test_parse_and_best_order(client):
    res = client.post("/api/edit/parse", json={"text": "((3 12 8) (2 4 6) (14 5 2))",
                                               "format": "notation"})
    assert res.get_json()["tree"]["root"]["children"][0]["id"] == "B"
    bad = client.post("/api/edit/parse", json={"text": "((3 12 8) (2 4", "format": "notation"})
    assert bad.status_code == 400 and bad.get_json()["error"]["column"] == 11
    assert client.post("/api/edit/parse", json={"text": 3}).status_code == 400
    doc = library_doc()
    order = client.post("/api/edit/best-order", json={"tree": doc}).get_json()["order"]
    assert node(doc, "D")["key"] in order


def test_a_search_over_the_editors_budget_is_a_clear_413(make_app):
    client = make_app(BUDGET={"editor_steps": 5, "editor_nodes": 12}).test_client()
    small = {"title": "t", "root": {"key": "a", "children": [{"key": "b", "value": 1},
                                                              {"key": "c", "value": 2}]}}
    res = client.post("/api/edit/run", json={"tree": small})
    assert res.status_code == 413 and "more than 5 steps" in res.get_json()["error"]["message"]
    res = client.post("/api/edit/run", json={"tree": library_doc()})      # 13 nodes
    assert res.status_code == 400 and "more than 12 nodes" in res.get_json()["error"]["message"]
