"""The practice pages and POST /api/practice/check over HTTP."""
from __future__ import annotations

import pytest

from app.games.random_tree import random_tree

RIGHT = {"values": {"A": 3, "B": 3, "C": 2, "D": 2},
         "alpha": {"A": 3, "B": "-inf", "C": 3, "D": 3},
         "beta": {"A": "inf", "B": 3, "C": "inf", "D": 5},
         "pruned": ["c2", "c3"]}


@pytest.fixture
def client(make_app, tmp_path, fig52_yaml):
    trees = tmp_path / "trees"
    trees.mkdir()
    (trees / "fig52.yaml").write_text(fig52_yaml, encoding="utf-8")
    return make_app(TREES_DIR=str(trees), PRACTICE_MAX_NODES=200).test_client()


def post(client, **body):
    return client.post("/api/practice/check", json=body)


def test_check_right_and_wrong(client):
    res = post(client, tree="fig52", mode="full", answers=RIGHT)
    assert res.status_code == 200
    assert res.json["solved"] is True and res.json["score"] == {"right": 14, "total": 14}
    wrong = dict(RIGHT, pruned=["c2", "c3", "d3"])
    body = post(client, tree="fig52", mode="full", answers=wrong).json
    assert body["solved"] is False and body["first_mistake"]["node"] == "d3"
    assert body["first_mistake"]["link"].startswith("/t/fig52?algorithm=alphabeta&step=")


def test_options_reach_the_checker(client):
    wiki = dict(RIGHT, beta=dict(RIGHT["beta"], C=2, D=2))
    assert post(client, tree="fig52", mode="full", answers=wiki, style="wikipedia").json["solved"]
    body = post(client, tree="fig52", mode="full", answers=wiki).json
    assert body["score"]["right"] == 12
    linked = post(client, tree="fig52", mode="full", answers={}, strict=True, style="wikipedia").json
    assert "strict=1" in linked["first_mistake"]["link"] and "style=wikipedia" in linked["link"]


def test_reveal_sends_the_key_and_explanations(client):
    body = post(client, tree="fig52", mode="full", answers={}, reveal=True).json
    c = [e for e in body["entries"] if e["kind"] == "value" and e["node"] == "C"][0]
    assert c["expected"] == 2 and c["status"] == "missing" and "at most 2" in c["sentence"]
    hidden = post(client, tree="fig52", mode="full", answers={"values": {"C": 5, "D": 9}}).json
    d = [e for e in hidden["entries"] if e["kind"] == "value" and e["node"] == "D"][0]
    assert d["status"] == "wrong" and "expected" not in d     # not the first mistake


def test_guided_and_order_modes(client):
    q = post(client, tree="fig52", mode="guided", index=0).json
    assert q["question"]["prompt"] == "b1 returned 3 to B. What is v at B now?" and q["total"] > 10
    assert "answer" not in q
    a = post(client, tree="fig52", mode="guided", index=0, answer="3").json
    assert a["result"]["correct"] and a["link"].startswith("/t/fig52?algorithm=alphabeta&step=")
    o = post(client, tree="fig52", mode="order", ordering={"D": ["d3", "d1", "d2"]}).json
    assert o["solved"] is True and o["mine"]["evaluated"] == 5


def test_random_trees_by_id(client):
    tid = "r-b2-d3-v0..9-s4217"
    body = post(client, tree=tid, mode="values", answers={}).json
    tree = random_tree(branching=2, depth=3, values=(0, 9), seed=4217)
    assert body["score"]["total"] == sum(1 for n in tree.nodes if n.children)
    # The visualizer and the API know the id, so the mistake link works.
    assert client.get(f"/t/{tid}").status_code == 200
    api = client.get(f"/api/trees/{tid}").json
    assert api["title"] == tree.title
    assert client.get(f"/api/trees/{tid}/file").status_code == 200
    assert client.get("/api/trees/r-b0-d3-s1").status_code == 404


def test_random_page_redirects_to_a_reproducible_id(client):
    res = client.get("/practice/random?branching=2:3&depth=3&seed=42&values=-5:5&mode=cuts&strict=1")
    assert res.status_code == 302
    assert res.headers["Location"] == "/practice/r-b2..3-d3-v-5..5-s42?mode=cuts&strict=1"
    fresh = client.get("/practice/random?branching=2&depth=2")
    assert fresh.status_code == 302 and "-s" in fresh.headers["Location"]
    assert client.get("/practice/random?branching=9&depth=5").status_code == 400
    assert client.get("/practice/random?depht=2").status_code == 400


def test_the_random_forms_refusal_is_a_page_for_a_browser_and_json_for_the_api(client):
    """The chooser's form is sent by a browser (it prefers HTML): a refusal
    comes back as the chooser with the reason in an alert, the status kept;
    the API's callers get the JSON error as before, in the asked language."""
    page = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    res = client.get("/practice/random?branching=9&depth=5&lang=id", headers=page)
    assert res.status_code == 400 and res.mimetype == "text/html"
    html = res.get_data(as_text=True)
    assert 'data-role="form-error"' in html and "terlalu banyak untuk dikerjakan" in html
    assert 'class="random-form"' in html
    empty = client.get("/practice/random?branching=2&values=5:1&lang=id", headers=page)
    assert empty.status_code == 400 and "Rentang nilai 5..1 kosong" in empty.get_data(as_text=True)
    api = client.get("/practice/random?branching=2&values=5:1&lang=id")
    assert api.status_code == 400 and api.json["error"]["message"].startswith("rentang nilai 5..1")
    assert client.get("/practice/random?branching=2&values=5:1&lang=en").json["error"]["message"] == \
        "value range 5..1 is empty: write low..high"
    assert client.get("/practice/random?depht=2", headers=page).status_code == 400


def test_a_random_tree_takes_its_shape_from_the_algorithms_record(client):
    """Issue 26: /practice/random?algorithm=star1 made a plain tree, so practice
    quietly graded alpha-beta; Star1's record gives chance nodes and leaf bounds."""
    res = client.get("/practice/random?depth=3&seed=7&mode=cuts&algorithm=star1")
    assert res.status_code == 302
    assert res.headers["Location"] == "/practice/r-b3-d3-c-l-s7?mode=cuts&algorithm=star1"
    tree = client.get("/api/trees/r-b3-d3-c-l-s7").json
    assert tree["bounds"] == [-10, 10]
    cuts = post(client, tree="r-b3-d3-c-l-s7", mode="cuts", answers={}, reveal=True).json
    assert cuts["options"]["algorithm"] == "star1" and cuts["score"]["total"] > 0
    assert client.get("/practice/random?algorithm=alphabeta&chance=1").status_code == 400
    assert client.get("/practice/random?algorithm=nope").status_code == 400


def test_pages(client):
    page = client.get("/practice/fig52?mode=guided")
    assert page.status_code == 200 and b'data-mode="guided"' in page.data
    assert b"practice.js" in page.data
    assert client.get("/practice").status_code == 200
    assert client.get("/practice/nope").status_code == 404
    big = client.get("/practice/r-b3-d5-s1")             # 364 nodes > 200
    assert big.status_code == 413


@pytest.mark.parametrize("body,status,message", [
    ({"mode": "full"}, 400, "tree"),
    ({"tree": "fig52", "mode": "nope"}, 400, "mode"),
    ({"tree": "fig52", "mode": "full", "answers": {"values": {"Z": 1}}}, 400, "not in the tree"),
    ({"tree": "fig52", "mode": "full", "colour": "red"}, 400, "unknown argument"),
    ({"tree": "fig52", "mode": "guided", "index": 999}, 400, "index"),
    ({"tree": "r-b2-d2-p3-s1", "mode": "full"}, 400, "two-player"),
    ({"tree": "missing", "mode": "full"}, 404, "no tree"),
])
def test_bad_requests(client, body, status, message):
    res = post(client, **body)
    assert res.status_code == status
    assert message in res.json["error"]["message"]


def test_not_json_is_refused(client):
    res = client.post("/api/practice/check", data="hello", content_type="text/plain")
    assert res.status_code == 400


def test_non_finite_numbers_in_the_request_do_not_break_the_answer(client):
    body = '{"tree": "fig52", "mode": "full", "answers": {"values": {"A": NaN, "B": Infinity}}}'
    res = client.post("/api/practice/check", data=body, content_type="application/json")
    assert res.status_code == 200
    entries = {e["node"]: e for e in res.json["entries"] if e["kind"] == "value"}
    assert entries["A"]["status"] == "unreadable" and entries["A"]["given"] == "nan"
    assert entries["B"]["status"] == "wrong" and entries["B"]["given"] == "inf"
