"""Star1 served: the HTTP trace, the Socket.IO compact stream, the records of the
algorithms (GET /api/algorithms) in both languages."""
from __future__ import annotations

import json

from app.search import SearchOptions
from app.search.compact import records


def test_http_trace_and_compact_stream(app, client, socket_client):
    events = client.get("/api/trees/star1-prunes/trace?algorithm=star1").get_json()["events"]
    assert events[-1]["value"] == 7.5 and events[-1]["stats"]["evaluated"] == 6
    assert [e["node"] for e in events if e["type"] == "prune" and e["player"] == "CHANCE"] \
        == ["C", "D"]
    reply = socket_client.emit("start", {"tree": "star1-prunes", "algorithm": "star1"},
                               callback=True)
    assert reply["ok"], reply
    got = []
    while True:
        pulled = socket_client.emit("pull", {"run": reply["run"], "count": 50,
                                             "encoding": "compact"}, callback=True)
        got += json.loads(pulled["records_json"])
        if pulled["done"]:
            break
    header = got[0][1]
    assert header["leaf_bounds"] == [0, 10] and header["keeps_bounds"] is True
    # C's first outcome cuts it: C returns at most 6 and skips c2, c3
    assert ["c1", 2, 0, 1, 6, ["c2", "c3"], 6] in got   # (6: the nodes under c2 and c3)
    with app.app_context():
        tree = app.extensions["trees"].get("star1-prunes")
    assert got == [json.loads(t) for t, _ in records(tree, SearchOptions("star1"))]


def test_the_records_in_both_languages(client):
    en = client.get("/api/algorithms?lang=en").get_json()["algorithms"]
    id_ = client.get("/api/algorithms?lang=id").get_json()["algorithms"]
    assert [a["id"] for a in en] == [a["id"] for a in id_]
    star = {a["id"]: a for a in id_}["star1"]
    assert star["name"] == "Star1 (α-β dengan simpul chance)" and star["leaf_bounds"]
    assert {a["id"]: a for a in en}["minimax"]["prunes_nothing"].startswith("Minimax prunes")
