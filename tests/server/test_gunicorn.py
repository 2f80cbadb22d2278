"""The production way: gunicorn with one gevent worker (deploy/gunicorn.conf.py),
driven over real HTTP and Socket.IO (WebSocket and long-polling)."""
from __future__ import annotations

import pytest
import requests
import socketio

from tests.web.helpers import assert_fig52_done

from .conftest import launch

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    served = launch("gunicorn", tmp_path_factory.mktemp("gunicorn") / "instance")
    yield served
    served.stop()


def test_it_runs_one_gevent_worker(gunicorn):
    log = gunicorn.log_file
    log.seek(0)
    text = log.read().decode(errors="replace")
    # gevent's worker with the per-address cap of connections (app/gworker.py)
    assert "Using worker: app.gworker.FairGeventWorker" in text
    assert text.count("Booting worker") == 1
    health = gunicorn.get("/healthz").json()
    assert health["status"] == "ok"


def test_http_api_upload_tree_trace_and_picture(gunicorn, fig52_yaml):
    up = requests.post(gunicorn.url + "/api/trees", data=fig52_yaml,
                       headers={"Content-Type": "application/x-yaml"}, timeout=30)
    assert up.status_code == 201 and up.json()["delete_token"]
    tree_id = up.json()["id"]
    assert gunicorn.get(f"/api/trees/{tree_id}").json()["root"]["id"] == "A"
    trace = gunicorn.get(f"/api/trees/{tree_id}/trace?algorithm=alphabeta").json()
    assert_fig52_done(trace["events"][-1])
    svg = gunicorn.get(f"/api/trees/{tree_id}/export.svg?step=3", timeout=60)
    assert svg.status_code == 200 and svg.content.startswith(b"<?xml")
    page = gunicorn.get(f"/t/{tree_id}")
    assert page.status_code == 200 and "script-src 'self'" in page.headers[
        "Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert gunicorn.get("/api/trees/nope").status_code == 404


@pytest.mark.parametrize("transport", ["websocket", "polling"])
def test_socket_stream_start_pull_close(gunicorn, transport):
    sio = socketio.Client(reconnection=False)
    sio.connect(gunicorn.url, transports=[transport], wait_timeout=20)
    try:
        ack = sio.call("start", {"tree": "aima-fig-5-2", "algorithm": "alphabeta"}, timeout=20)
        assert ack["ok"], ack
        events, done = [], False
        while not done:
            batch = sio.call("pull", {"run": ack["run"], "count": 7}, timeout=20)
            assert batch["ok"], batch
            events += batch["events"]
            done = batch["done"]
        assert_fig52_done(events[-1])
        assert sio.call("close", {"run": ack["run"]}, timeout=20) == {"ok": True}
        bad = sio.call("start", {"tree": "r-b8-d8-s1"}, timeout=20)
        assert bad["ok"] is False and bad["error"]["message"]
    finally:
        sio.disconnect()


def test_rebinding_is_refused_for_http_and_socket_io(gunicorn, fig52_yaml):
    port = gunicorn.url.rsplit(":", 1)[1]
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    up = requests.post(gunicorn.url + "/api/trees", data=fig52_yaml, timeout=30,
                       headers={**evil, "Content-Type": "application/x-yaml"})
    assert up.status_code == 400
    handshake = requests.get(gunicorn.url + "/socket.io/?EIO=4&transport=polling",
                             headers=evil, timeout=30)
    assert handshake.status_code == 400
