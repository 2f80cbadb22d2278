"""The real threaded server over real sockets: HTTP, WebSocket, origins, run.py."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import socketio
import websocket

from .helpers import assert_fig52_done, strict_json

EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def fig52_id(live_server, fig52_yaml):
    response = requests.post(f"{live_server}/api/trees", data=fig52_yaml,
                             headers={"Content-Type": "application/x-yaml"}, timeout=10)
    assert response.status_code == 201
    return response.json()["id"]


@pytest.fixture
def sio(live_server):
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["websocket"], wait_timeout=10)
    yield client
    client.disconnect()


def wait_for(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_websocket_stream_equals_the_http_trace(live_server, fig52_id, sio):
    assert sio.transport() == "websocket"
    reply = sio.call("start", {"tree": fig52_id, "algorithm": "alphabeta"}, timeout=10)
    assert reply["ok"], reply
    events = []
    while True:
        batch = sio.call("pull", {"run": reply["run"], "count": 5}, timeout=10)
        assert batch["ok"] and len(batch["events"]) <= 5
        events += batch["events"]
        if batch["done"]:
            break
    assert_fig52_done(events[-1])
    http = requests.get(f"{live_server}/api/trees/{fig52_id}/trace?algorithm=alphabeta", timeout=10)
    assert events == strict_json(http.content)["events"]


def test_bad_payloads_get_error_acks_over_a_real_connection(fig52_id, sio):
    assert sio.call("start", {"tree": fig52_id, "depth": "deep"}, timeout=10)["ok"] is False
    assert sio.call("pull", {"run": "r0", "count": 5}, timeout=10)["ok"] is False
    assert sio.call("start", "not an object", timeout=10)["ok"] is False
    assert sio.connected


def test_disconnect_closes_the_runs_of_the_connection(live_server, fig52_id):
    runs = live_server.app.extensions["stream"].runs
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["websocket"], wait_timeout=10)
    sid = client.get_sid()
    for _ in range(3):
        assert client.call("start", {"tree": fig52_id}, timeout=10)["ok"]
    assert wait_for(lambda: runs.count(sid) == 3)
    client.disconnect()
    assert wait_for(lambda: runs.count(sid) == 0)


def test_a_cross_origin_websocket_is_refused(live_server):
    client = socketio.Client(reconnection=False, websocket_extra_options={"origin": EVIL})
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(live_server, transports=["websocket"], wait_timeout=5)
    assert not client.connected


def test_a_cross_origin_polling_handshake_is_refused(live_server):
    url = f"{live_server}/socket.io/?EIO=4&transport=polling"
    refused = requests.get(url, headers={"Origin": EVIL}, timeout=10)
    assert refused.status_code == 400 and "Access-Control-Allow-Origin" not in refused.headers
    forwarded = requests.get(url, headers={"Origin": EVIL, "X-Forwarded-Host": "evil.example"},
                             timeout=10)
    assert forwarded.status_code == 400
    own = requests.get(url, headers={"Origin": live_server}, timeout=10)
    assert own.status_code == 200
    assert own.headers["Access-Control-Allow-Origin"] == live_server


def test_an_oversized_upload_is_a_json_413_before_the_body_is_read(live_server):
    body = b"#" * (3 << 20)
    response = requests.post(f"{live_server}/api/trees", data=body,
                             headers={"Content-Type": "application/x-yaml"}, timeout=30)
    assert response.status_code == 413
    assert response.json()["error"]["message"]


def test_http_errors_are_json_on_the_real_server(live_server):
    missing = requests.get(f"{live_server}/api/trees/none-such", timeout=10)
    assert missing.status_code == 404 and missing.json()["error"]["message"]
    wrong = requests.put(f"{live_server}/api/trees", timeout=10)
    assert wrong.status_code == 405 and wrong.json()["error"]["message"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_run_py_serves_on_the_given_port(tmp_path):
    port = free_port()
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "run.py", "--port", str(port),
                             "--instance", str(tmp_path / "instance")],
                            cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []  # log lines may come before the banner
        while not lines or f"http://127.0.0.1:{port}/" not in lines[-1]:
            lines.append(proc.stdout.readline())
            assert lines[-1] and len(lines) < 50, lines
        url = f"http://127.0.0.1:{port}/api/trees"
        assert wait_for(lambda: _answers(url), timeout=15)
        assert isinstance(requests.get(url, timeout=5).json(), list)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.ConnectionError:
        return False


def test_the_live_server_keeps_streaming_when_other_apps_are_made(live_server, fig52_id, make_app):
    # Each app has its own SocketIO: a test's app must not take over the live server's events.
    make_app(), make_app()
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["websocket"], wait_timeout=10)
    try:
        reply = client.call("start", {"tree": fig52_id}, timeout=10)
        batch = client.call("pull", {"run": reply["run"], "count": 1000}, timeout=10)
        assert batch["done"] and batch["events"][-1]["value"] == 3
    finally:
        client.disconnect()


def test_polling_transport_streams_too(live_server, fig52_id):
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["polling"], wait_timeout=10)
    try:
        assert client.transport() == "polling"
        reply = client.call("start", {"tree": fig52_id, "algorithm": "minimax"}, timeout=10)
        batch = client.call("pull", {"run": reply["run"], "count": 1000}, timeout=10)
        assert batch["done"] and batch["events"][-1]["evaluated"] == [
            "b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3"]
    finally:
        client.disconnect()


def test_an_oversized_socket_message_ends_the_connection_not_the_server(live_server, fig52_id):
    # Raw Engine.IO over websocket-client, to send one message past the 64 KiB limit.
    ws = websocket.create_connection(
        live_server.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", timeout=10)
    try:
        assert ws.recv().startswith("0{")  # Engine.IO open
        ws.send("40")                       # Socket.IO connect to /
        assert ws.recv().startswith("40")
        ws.send('42["start",{"tree":"%s"}]' % ("x" * (100 << 10)))
        with pytest.raises(websocket.WebSocketConnectionClosedException):
            while True:  # pings may come first; then the server closes
                if not ws.recv():
                    raise websocket.WebSocketConnectionClosedException("closed")
    finally:
        ws.close()
        ws.shutdown()  # close() alone leaves the socket open once the server has closed it
    again = socketio.Client(reconnection=False)
    again.connect(live_server, transports=["websocket"], wait_timeout=10)
    try:
        assert again.call("start", {"tree": fig52_id}, timeout=10)["ok"]
    finally:
        again.disconnect()


def test_a_websocket_disconnect_ends_at_once(live_server):
    # Werkzeug used to read the closing frames as an HTTP request; the client then
    # waited 3 s for the closing handshake (see app/web/serving.py).
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["websocket"], wait_timeout=10)
    started = time.monotonic()
    client.disconnect()
    assert time.monotonic() - started < 1.5
