"""The editor's what-if runs over a real Socket.IO connection (namespace
``/edit``, event ``run``): the same answers as ``POST /api/edit/run``, every
mistake an error acknowledgement, and the budget: a search too long (413),
a connection asking too often (429), the connection kept through all of it."""
from __future__ import annotations

import json
import threading
import time

import pytest
import requests
import socketio

from .docs import library_doc, node


def connect(url: str) -> socketio.Client:
    client = socketio.Client(reconnection=False)
    client.connect(url, namespaces=["/edit"], transports=["websocket"], wait_timeout=10)
    assert client.transport() == "websocket"
    return client


def run(client: socketio.Client, body) -> dict:
    """The acknowledgement, its answer read: ``{ok: true, ...answer}`` or ``{ok: false, error}``."""
    ack = client.call("run", body, namespace="/edit", timeout=10)
    if ack.get("ok") is True:
        assert set(ack) == {"ok", "answer_json"}
        return {"ok": True, **json.loads(ack["answer_json"])}
    return ack


@pytest.fixture
def sio(live_server):
    client = connect(live_server)
    yield client
    client.disconnect()


def test_a_run_over_the_socket_answers_as_over_http(live_server, sio):
    doc = library_doc()
    body = {"tree": doc, "options": {"algorithm": "alphabeta"}, "text": "notation"}
    answer = run(sio, body)
    assert answer.pop("ok") is True
    http = requests.post(f"{live_server}/api/edit/run", json=body, timeout=10)
    assert http.status_code == 200 and answer == http.json()
    assert answer["result"]["pruned"] == ["c2", "c3"] and answer["notation"].startswith("A(B(b1=3")
    # The next edit names the run before by its token: the change is said.
    node(doc, "c2")["value"] = 1
    edited = run(sio, {"tree": doc, "options": {"algorithm": "alphabeta"}, "text": "notation",
                       "previous_state": answer["state"],
                       "edit": {"kind": "value", "key": node(doc, "c2")["key"], "old": 4, "new": 1}})
    assert edited["ok"] and edited["change"]["sentence"] == \
        "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."


def test_mistakes_are_error_acknowledgements_and_the_connection_stays(sio):
    doc = library_doc()
    node(doc, "c2")["value"] = "four"
    refused = run(sio, {"tree": doc})
    assert refused["ok"] is False
    assert refused["error"]["key"] == node(doc, "c2")["key"] and "value" in refused["error"]["message"]
    for body, words in [(3, "one JSON object"), ({"options": {}}, "missing field 'tree'"),
                        ({"tree": doc, "wat": 1}, "unknown field 'wat'"),
                        ({"tree": library_doc(), "text": "yaml please"}, "text is"),
                        ({"tree": library_doc(), "options": {"algorithm": "bogo"}}, "unknown algorithm")]:
        answer = run(sio, body)
        assert answer["ok"] is False and words in answer["error"]["message"], (body, answer)
    unknown = sio.call("walk", {}, namespace="/edit", timeout=10)
    assert unknown["ok"] is False and "expected run" in unknown["error"]["message"]
    assert run(sio, {"tree": library_doc()})["ok"] is True      # still connected, still served


@pytest.fixture
def small_budget_server(make_app):
    """A real server whose editor budget is tiny: 20 search steps, 2 runs a second."""
    from app.web.serving import threaded_server

    app = make_app(RATELIMIT_ENABLED=False,
                   BUDGET={"editor_steps": 20, "editor_runs_per_second": 2})
    server = threaded_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_the_budget_refuses_a_long_search_and_a_flood(small_budget_server):
    client = connect(small_budget_server)
    try:
        small = {"title": "t", "root": {"key": "a", "children": [{"key": "b", "value": 1},
                                                                  {"key": "c", "value": 2}]}}
        assert run(client, {"tree": small})["ok"] is True
        too_long = run(client, {"tree": library_doc()})        # 13 nodes: 31 steps
        assert too_long["ok"] is False and too_long["error"]["status"] == 413
        assert "more than 20 steps" in too_long["error"]["message"]
        # Two runs a second, four at once: the burst is spent (the two runs above
        # took two), the next are refused with 429 and when to come back.
        answers = [run(client, {"tree": small}) for _ in range(6)]
        refused = [a for a in answers if not a["ok"]]
        assert refused and all(a["error"]["status"] == 429 and a["error"]["retry_after"] >= 1
                               and "at most 2 a second" in a["error"]["message"] for a in refused)
        assert sum(a["ok"] for a in answers) <= 3
        time.sleep(1.1)                                          # two tokens back
        assert run(client, {"tree": small})["ok"] is True
        # Another page has a bucket of its own.
        other = connect(small_budget_server)
        try:
            assert run(other, {"tree": small})["ok"] is True
        finally:
            other.disconnect()
    finally:
        client.disconnect()
