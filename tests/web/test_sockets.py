"""The Socket.IO stream through Flask-SocketIO's test client."""
from __future__ import annotations

import json

import pytest

import app.web.sockets as sockets

from .helpers import assert_fig52_done


def ack(sc, event, *args):
    return sc.emit(event, *args, callback=True)


def start(sc, **payload):
    reply = ack(sc, "start", {"tree": "fig52", **payload})
    assert reply["ok"] is True, reply
    return reply["run"]


def pull_all(sc, run, count):
    events, batches = [], 0
    while True:
        reply = ack(sc, "pull", {"run": run, "count": count})
        assert reply["ok"] and len(reply["events"]) <= count
        events += reply["events"]
        batches += 1
        assert reply["position"] == len(events)
        if reply["done"]:
            return events, batches


def test_a_run_streams_in_batches_to_done_and_equals_the_http_trace(socket_client, client):
    run = start(socket_client, algorithm="alphabeta")
    events, batches = pull_all(socket_client, run, count=4)
    assert_fig52_done(events[-1])
    assert batches == -(-len(events) // 4)  # done arrives with the last event
    assert events == client.get("/api/trees/fig52/trace?algorithm=alphabeta").get_json()["events"]


def test_a_batch_can_come_as_one_json_text(socket_client, client):
    import json

    run = start(socket_client, algorithm="alphabeta")
    reply = ack(socket_client, "pull", {"run": run, "count": 1000, "encoding": "json"})
    assert reply["ok"] and reply["done"] and "events" not in reply
    events = json.loads(reply["events_json"])
    assert events == client.get("/api/trees/fig52/trace?algorithm=alphabeta").get_json()["events"]
    assert reply["position"] == len(events)
    bad = ack(socket_client, "pull", {"run": run, "count": 1, "encoding": "xml"})
    assert bad["ok"] is False and bad["error"]["argument"] == "encoding"


def test_a_run_can_stream_the_compact_records_the_page_narrates(socket_client, app):
    """``encoding: "compact"``: the raw events' records (app.search.compact),
    ``count`` records a pull, the header first and the summary's count last;
    a run streams one encoding, chosen by its first pull."""
    from app.search import SearchOptions
    from app.search.compact import records

    run = start(socket_client, algorithm="alphabeta", lang="id")
    got = []
    while True:
        reply = ack(socket_client, "pull", {"run": run, "count": 3, "encoding": "compact"})
        assert reply["ok"] and "events" not in reply and "events_json" not in reply
        batch = json.loads(reply["records_json"])
        assert 1 <= len(batch) <= 3 or reply["done"]
        got += batch
        assert reply["position"] == len(got)
        if reply["done"]:
            break
    assert got[0][0] == 9 and got[0][1]["algorithm"] == "alphabeta" and got[-1] == [8, 9]
    with app.app_context():
        tree = app.extensions["trees"].get("fig52")
    assert got == [json.loads(t) for t, _ in records(tree, SearchOptions("alphabeta"))]
    # B's leaf b1 returns 3 (v 3, beta 3); C is cut after c1, skipping c2 and c3
    assert ["b1", 3, 1, 3, 3] in got and ["c1", 2, 1, 2, "inf", ["c2", "c3"], 2] in got
    other = ack(socket_client, "pull", {"run": run, "count": 1, "encoding": "json"})
    assert other["ok"] is False and other["error"]["argument"] == "encoding"
    # and the other way round: a run that began with events goes on with events
    run = start(socket_client)
    assert ack(socket_client, "pull", {"run": run, "count": 1, "encoding": "json"})["ok"]
    late = ack(socket_client, "pull", {"run": run, "count": 1, "encoding": "compact"})
    assert late["ok"] is False and late["error"]["argument"] == "encoding"


def test_start_acknowledges_the_resolved_options(socket_client):
    reply = ack(socket_client, "start", {"tree": "fig52", "algorithm": None, "depth": None,
                                         "order": "best", "seed": None, "strict": True,
                                         "style": "wikipedia"})
    assert reply["ok"] and reply["tree"] == "fig52" and reply["max_count"] == 1000
    assert reply["options"] == {"algorithm": "alphabeta", "depth": None, "order": "best",
                                "seed": None, "strict": True, "style": "wikipedia"}


def test_pulls_after_done_are_empty(socket_client):
    run = start(socket_client)
    pull_all(socket_client, run, count=1000)
    reply = ack(socket_client, "pull", {"run": run, "count": 10})
    assert reply == {"ok": True, "events": [], "done": True, "position": reply["position"]}


def test_runs_are_drawn_lazily(socket_client, monkeypatch):
    drawn = []
    real_run = sockets.encoded

    def counting(tree, options, *words):
        for text, changes in real_run(tree, options, *words):
            drawn.append(json.loads(text)["step"])
            yield text, changes

    monkeypatch.setattr(sockets, "encoded", counting)
    run = start(socket_client, algorithm="minimax")
    assert len(drawn) == 1  # primed only
    ack(socket_client, "pull", {"run": run, "count": 5})
    assert drawn == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("payload, argument", [
    ({"tree": 5}, "tree"),
    ({"tree": "fig52", "depth": "2"}, "depth"),
    ({"tree": "fig52", "depth": True}, "depth"),
    ({"tree": "fig52", "depth": -1}, "depth"),
    ({"tree": "fig52", "seed": 1.5}, "seed"),
    ({"tree": "fig52", "strict": 1}, "strict"),
    ({"tree": "fig52", "algorithm": "negamax"}, "algorithm"),
    ({"tree": "fig52", "order": 3}, "order"),
    ({"tree": "fig52", "colour": "red"}, "colour"),
])
def test_bad_start_payloads_get_error_acks_naming_the_field(socket_client, payload, argument):
    reply = ack(socket_client, "start", payload)
    assert reply["ok"] is False and reply["error"]["argument"] == argument
    assert reply["error"]["message"]


def test_start_errors_of_meaning(socket_client):
    unknown = ack(socket_client, "start", {"tree": "nope"})
    assert unknown["ok"] is False and "nope" in unknown["error"]["message"]
    misfit = ack(socket_client, "start", {"tree": "fig52", "algorithm": "maxn"})
    assert misfit["ok"] is False and "maxn" in misfit["error"]["message"]


@pytest.mark.parametrize("args", [(), ("fig52",), ([1, 2],), ({"tree": "fig52"}, {"x": 1})])
def test_payloads_that_are_not_one_object_get_error_acks(socket_client, args):
    reply = ack(socket_client, "start", *args)
    assert reply["ok"] is False and "object" in reply["error"]["message"]


def test_bad_pulls_get_error_acks(socket_client):
    run = start(socket_client)
    for payload, argument in [({"run": run, "count": 0}, "count"),
                              ({"run": run, "count": 1001}, "count"),
                              ({"run": run, "count": "10"}, "count"),
                              ({"run": run, "count": 10, "from": 3}, "from"),
                              ({"run": "r999", "count": 10}, "run"),
                              ({"count": 10}, "run")]:
        reply = ack(socket_client, "pull", payload)
        assert reply["ok"] is False and reply["error"]["argument"] == argument, payload
    # The run is unharmed by the refused pulls.
    assert ack(socket_client, "pull", {"run": run, "count": 3})["events"][0]["step"] == 1


def test_an_unknown_event_gets_an_error_ack(socket_client):
    reply = ack(socket_client, "rewind", {"run": "r1"})
    assert reply["ok"] is False and "rewind" in reply["error"]["message"]


def test_close_ends_a_run(socket_client, app):
    run = start(socket_client)
    assert ack(socket_client, "close", {"run": run}) == {"ok": True}
    assert ack(socket_client, "pull", {"run": run, "count": 1})["ok"] is False
    assert ack(socket_client, "close", {"run": run})["ok"] is False
    assert app.extensions["stream"].runs.count() == 0


def test_a_fifth_run_closes_the_oldest(socket_client, app):
    runs = [start(socket_client) for _ in range(5)]
    assert ack(socket_client, "pull", {"run": runs[0], "count": 1})["ok"] is False
    for run in runs[1:]:
        assert ack(socket_client, "pull", {"run": run, "count": 1})["ok"] is True
    assert app.extensions["stream"].runs.count() == 4


def test_runs_belong_to_their_connection(app, client, socket_client):
    from app.web import socketio_of

    run = start(socket_client)
    other = socketio_of(app).test_client(app, flask_test_client=client)
    try:
        assert ack(other, "pull", {"run": run, "count": 1})["ok"] is False
        assert ack(socket_client, "pull", {"run": run, "count": 1})["ok"] is True
    finally:
        other.disconnect()


def test_disconnect_closes_the_connections_runs(socket_client, app, monkeypatch):
    closed = []
    real_run = sockets.encoded

    def watched(tree, options, *words):
        try:
            yield from real_run(tree, options, *words)
        finally:
            closed.append(True)

    monkeypatch.setattr(sockets, "encoded", watched)
    start(socket_client)
    start(socket_client)
    assert app.extensions["stream"].runs.count() == 2
    socket_client.disconnect()
    assert app.extensions["stream"].runs.count() == 0 and closed == [True, True]


def test_a_handler_bug_is_an_error_ack_not_a_dropped_connection(socket_client, monkeypatch):
    def broken(tree, options, *words):
        raise RuntimeError("bug")

    monkeypatch.setattr(sockets, "encoded", broken)
    reply = ack(socket_client, "start", {"tree": "fig52"})
    assert reply["ok"] is False and "bug" not in reply["error"]["message"]
    assert socket_client.is_connected()
