"""Issue 17 for live classes, against real server processes: one connection
cannot stuff the vote (finding 4), and one address cannot take every place of
a class, while a whole lecture hall behind one campus NAT still joins.

The clients speak the Socket.IO wire protocol over plain WebSockets
(websocket-client, as bench/classes.py does), so a crowd costs the test a
socket each, not two threads each.
"""
from __future__ import annotations

import itertools
import json
import socket

import pytest
import requests
import websocket

from app.web import DEFAULTS

from .conftest import raise_own_fd_limit

NS = "/class"


class Peer:
    """One Socket.IO client on /class over a raw WebSocket (EIO=4), from ``source``."""

    ids = itertools.count(1)

    def __init__(self, url: str, source: str = "127.0.0.1"):
        port = int(url.rsplit(":", 1)[1])
        sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=(source, 0))
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", socket=sock, timeout=10)
        assert self.ws.recv().startswith("0")
        self.ws.send(f"40{NS},")
        assert self.ws.recv().startswith(f"40{NS},")

    def call(self, name: str, data: dict) -> dict:
        n = next(Peer.ids)
        self.ws.send(f"42{NS},{n}" + json.dumps([name, data]))
        while True:
            text = self.ws.recv()
            if text == "2":
                self.ws.send("3")
            elif text.startswith(f"43{NS},{n}["):
                return json.loads(text[len(f"43{NS},{n}"):])[0]

    def close(self):
        self.ws.close()


def new_class(url: str) -> tuple[str, str]:
    cls = requests.post(url + "/api/classes", json={"tree": "aima-fig-5-2",
                                                    "algorithm": "alphabeta"}, timeout=10).json()
    return cls["code"], cls["instructor"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["run", "gunicorn"])
def test_finding_4_one_connection_is_one_vote(start_server, kind):
    """Was: joining again without an id before each answer cast 300 accepted
    votes in 0.9 s from one connection; the tally showed 301 answers."""
    s = start_server(kind)
    code, token = new_class(s.url)
    teacher, voter = Peer(s.url), Peer(s.url)
    try:
        q = teacher.call("ask", {"code": code, "token": token, "kind": "move"})["state"]["question"]
        first = voter.call("join", {"code": code})
        accepted = 0
        for i in range(40):
            out = voter.call("answer", {"code": code, "question": q["id"], "answer": "BCD"[i % 3]})
            assert out["ok"], out
            accepted += out["accepted"]
            again = voter.call("join", {"code": code} if i % 2 else
                               {"code": code, "student": f"forged{i:022d}"})
            assert again["ok"] and again["student"] == first["student"]
        assert accepted == 1
        live = teacher.call("present", {"code": code, "token": token, "live": True})["state"]
        assert live["tally"]["answers"] == 1 and live["students"] == 1
        # A made-up id on a fresh connection is not someone else's vote either.
        other = Peer(s.url)
        made_up = other.call("join", {"code": code, "student": first["student"][:-1] + "x"})
        assert made_up["ok"] and made_up["student"] != first["student"]
        other.close()
    finally:
        teacher.close()
        voter.close()


@pytest.mark.slow
def test_a_hall_behind_one_nat_joins_but_one_address_cannot_fill_a_class(start_server):
    """Was: the 500 places of a class could all come from one address. Now
    connections of one address in one class are capped, generously: 300
    phones behind one campus NAT join one class (the default cap is above
    that, and configurable); the next is refused with a clear message while
    other addresses still join, and a phone that leaves frees its place."""
    assert DEFAULTS["CLASS_JOINS_PER_ADDRESS"] >= 300
    raise_own_fd_limit(1024)
    s = start_server("run", settings={"CLASS_JOINS_PER_ADDRESS": 300})
    code, _ = new_class(s.url)
    hall = []
    try:
        for _ in range(300):
            p = Peer(s.url)
            assert p.call("join", {"code": code})["ok"]
            hall.append(p)
        extra = Peer(s.url)
        refused = extra.call("join", {"code": code})
        assert not refused["ok"] and refused["error"]["status"] == 429
        assert "one network address (300)" in refused["error"]["message"]
        elsewhere = Peer(s.url, "127.0.0.9")
        assert elsewhere.call("join", {"code": code})["ok"]
        elsewhere.close()
        hall.pop().close()
        for _ in range(50):           # the server sees the close in a moment
            if extra.call("join", {"code": code})["ok"]:
                break
        else:
            raise AssertionError("a place freed by a phone that left was not given again")
        extra.close()
    finally:
        for p in hall:
            p.close()
