"""Fixtures of the live-class tests.

- ``make_class(app_client, **options)``: a class made through ``POST /api/classes``.
- ``sio(app)``: Flask-SocketIO test clients on ``/class`` (``.call(name, payload)``
  returns the acknowledgement).
"""
from __future__ import annotations

import pytest

from app.web import socketio_of

NS = "/class"
FIG52 = "aima-fig-5-2"


class Conn:
    """A test client on /class with a call that returns the ack."""

    def __init__(self, app, flask_client, headers=None):
        self.tc = socketio_of(app).test_client(app, namespace=NS, flask_test_client=flask_client,
                                               headers=headers)

    def call(self, name, *payload):
        return self.tc.emit(name, *payload, namespace=NS, callback=True)

    def received(self, name=None):
        got = self.tc.get_received(NS)
        return [m["args"][0] for m in got if name is None or m["name"] == name]

    def close(self):
        if self.tc.is_connected(NS):
            self.tc.disconnect(namespace=NS)


@pytest.fixture
def conns(app, client):
    made = []

    def make(headers=None):
        c = Conn(app, client, headers)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def new_class(client):
    def make(**body):
        res = client.post("/api/classes", json={"tree": FIG52, "algorithm": "alphabeta", **body})
        assert res.status_code == 201, res.get_json()
        return res.get_json()
    return make


@pytest.fixture
def step_of(client):
    """``step_of(type, node)``: the step of that event in Fig. 5.2 under alpha-beta
    (read from the trace, so the tests follow the core's narration)."""
    events = client.get(f"/api/trees/{FIG52}/trace?algorithm=alphabeta").get_json()["events"]
    return lambda kind, node: next(e["step"] for e in events
                                   if e["type"] == kind and e.get("node") == node)
