"""The real server under a barrage of bad uploads, queries and socket messages.

Every answer must be JSON with the right 4xx status, and afterwards the
server must still list the same trees (plus the barrage's own accepted
uploads) and serve the uploads made before it, byte for byte. All traffic
goes to the ``live_server`` fixture on 127.0.0.1, in bounded loops.
"""
from __future__ import annotations

import gzip
import io
import json
import socket
import time

import pytest
import requests
import socketio
from hypothesis import HealthCheck, given, settings, strategies as st

from app.treefile import TreeFileError, TreeTooLarge, load_tree

from .corpus import mutated_lectures, random_json, random_notation, random_texts

TIMEOUT = 10
YAML = {"Content-Type": "application/x-yaml"}
accepted: set[str] = set()       # ids the barrage's own uploads got
THREE_PLAYERS = """\
title: Barrage, three players
players: [A, B, C]
root:
  children:
    - children: [[1, 2, 3], [3, 2, 1]]
    - children: [[2, 2, 2], [0, 5, 1]]
"""
CHANCE = """{"title": "Barrage, chance", "root": {"children": [
  {"type": "chance", "children": [{"probability": 0.25, "value": 4},
                                  {"probability": "3/4", "value": -4}]},
  {"type": "chance", "children": [{"probability": 1, "value": 1}]}]}}"""
# Trees of their own (the live server is shared: another test's upload of
# the same tree would hold the first text sent under the same id).
TYPED = "A(B(3 12 8) C(2 4 6) D(14 5 2 -41))  # barrage"


def get(live_server, path: str) -> requests.Response:
    return requests.get(f"{live_server}{path}", timeout=TIMEOUT)


def answer(response: requests.Response, *statuses: int) -> dict:
    """The JSON body of a response with one of ``statuses``; an error body
    has a non-empty message."""
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["Content-Type"].startswith("application/json"), response.headers
    body = json.loads(response.content, parse_constant=lambda name: pytest.fail(name))
    if response.status_code >= 400:
        assert isinstance(body["error"]["message"], str) and body["error"]["message"].strip()
    return body


@pytest.fixture(scope="module")
def before(live_server):
    """The listing, and three uploads with their JSON and text, before the barrage."""
    uploads = {}
    for text, ctype in ((THREE_PLAYERS, "text/yaml"), (CHANCE, "application/json"),
                        (TYPED, "text/plain")):
        res = requests.post(f"{live_server}/api/trees", data=text.encode(),
                            headers={"Content-Type": ctype}, timeout=TIMEOUT)
        tree_id = answer(res, 201)["id"]
        uploads[tree_id] = (get(live_server, f"/api/trees/{tree_id}").content,
                            get(live_server, f"/api/trees/{tree_id}/file").content)
        assert uploads[tree_id][1] == text.encode()
    listing = answer(requests.get(f"{live_server}/api/trees", timeout=TIMEOUT), 200)
    return listing, uploads


def server_verdict(data: bytes, fmt: str | None, filename: str | None):
    """What the loader says of an upload: (status, id-less error or None)."""
    try:
        load_tree(data, fmt=fmt, filename=filename)
    except TreeFileError as exc:
        return 413 if isinstance(exc, TreeTooLarge) else 400, exc
    return 201, None


# -- uploads -------------------------------------------------------------------
HOW = st.sampled_from([("raw", "application/x-yaml", "yaml"), ("raw", "text/yaml", "yaml"),
                       ("raw", "application/json", "json"), ("raw", "text/plain", None),
                       ("multipart", None, None)])


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=random_texts() | mutated_lectures() | random_json() | random_notation(), how=HOW,
       filename=st.sampled_from(["t.yaml", "t.json", "t.txt", "../../etc/passwd", "<b>.yml",
                                 "x" * 300, ""]))
def test_the_fuzz_corpus_uploads_as_the_loader_says(live_server, before, data, how, filename):
    body = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    kind, ctype, fmt = how
    if kind == "raw":
        res = requests.post(f"{live_server}/api/trees", data=body,
                            headers={"Content-Type": ctype}, timeout=TIMEOUT)
        status, error = server_verdict(body, fmt, None)
    else:
        res = requests.post(f"{live_server}/api/trees", files={"file": (filename, body)},
                            timeout=TIMEOUT)
        status, error = server_verdict(body, None, filename or None)
    reply = answer(res, status)
    if error is not None:
        assert reply["error"] == {"message": error.message, "line": error.line,
                                  "column": error.column}
        return
    accepted.add(reply["id"])
    assert answer(requests.get(f"{live_server}/api/trees/{reply['id']}", timeout=TIMEOUT), 200)
    trace = requests.get(f"{live_server}/api/trees/{reply['id']}/trace", timeout=TIMEOUT)
    if answer(trace, 200, 400).get("events"):
        assert trace.json()["events"][-1]["type"] == "done"


def raw_http(live_server, request: bytes, *, half_close: bool = True) -> bytes:
    """Send bytes as they are and read the whole answer (the server closes)."""
    port = int(live_server.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as conn:
        conn.sendall(request)
        if half_close:
            conn.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def raw_status(reply: bytes) -> tuple[int, dict]:
    head, _, body = reply.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower(), head
    return status, json.loads(body)


def post_head(length: str | None = None, ctype: str = "application/x-yaml",
              extra: str = "") -> bytes:
    lines = ["POST /api/trees HTTP/1.1", "Host: 127.0.0.1", f"Content-Type: {ctype}"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + extra + "\r\n\r\n").encode()


def test_hostile_request_shapes_get_json_4xx(live_server, before):
    url = f"{live_server}/api/trees"
    post = lambda **kw: requests.post(url, timeout=TIMEOUT, **kw)  # noqa: E731
    # Too large: announced, and streamed in chunks without a length.
    message = lambda *args: answer(*args)["error"]["message"]  # noqa: E731
    assert "larger than" in message(post(data=b"a" * (3 << 20), headers=YAML), 413)
    streamed = (b"title: cut here\nroot: 1\n" if i == 0 else b"\n" * (64 << 10) for i in range(50))
    assert "larger than" in message(post(data=streamed, headers=YAML), 413)
    # Wrong or missing content types.
    for ctype in ("text/html", "image/png", "application/x-www-form-urlencoded", ""):
        answer(post(data=b"title: x\nroot: 1", headers={"Content-Type": ctype}), 415)
    # Multipart without the file, with an empty one, with a broken body.
    assert "'file'" in message(post(files={"tree": ("t.yaml", b"title: x\nroot: 1")}), 400)
    assert "'file'" in message(post(files={"text": (None, b"title: x\nroot: 1")}), 400)
    assert "'root'" in message(post(files={"file": (None, b"title: x")}), 400)   # a text field
    assert "empty" in message(post(files={"file": ("t.yaml", b"")}), 400)
    for ctype in ("multipart/form-data; boundary=xx", "multipart/form-data"):
        answer(post(data=b"--xx\r\ngarbage", headers={"Content-Type": ctype}), 400)
    # Not UTF-8: placed by line and character column.
    err = answer(post(data="title: é\nroot: ".encode() + b"\xff", headers=YAML), 400)["error"]
    assert (err["line"], err["column"]) == (2, 7) and "UTF-8" in err["message"]
    # A gzip bomb is not unpacked (Werkzeug never decodes request bodies): it is not text.
    bomb = gzip.compress(b"\n" * (64 << 20))
    started = time.monotonic()
    answer(post(data=bomb, headers={**YAML, "Content-Encoding": "gzip"}), 400)
    assert time.monotonic() - started < 2
    # A page of another site may not upload.
    answer(post(data=b"title: x\nroot: 1", headers={**YAML, "Origin": "http://evil.example"}), 403)
    # Content-Length that lies: longer than the body, shorter, negative, not a number, huge.
    assert raw_status(raw_http(live_server, post_head("1000") + b"title: x\n"))[0] == 400
    assert raw_status(raw_http(live_server, post_head("5") + b"title: x\nroot: 1\n"))[0] == 400
    for length in ("-5", "abc", "9" * 30):
        status, body = raw_status(raw_http(live_server, post_head(length) + b"title: x\nroot: 1\n"))
        assert status in (400, 413) and body["error"]["message"]


def test_a_client_that_never_sends_its_body_blocks_no_one(live_server):
    port = int(live_server.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as stalled:
        stalled.sendall(post_head("1000") + b"title: x\n")
        started = time.monotonic()
        answer(requests.get(f"{live_server}/api/trees", timeout=TIMEOUT), 200)
        assert time.monotonic() - started < 2


# -- trace queries -----------------------------------------------------------------
BAD_QUERIES = [
    ("depth=-1", "depth"), ("depth=1000000000", "depth"), ("depth=abc", "depth"),
    ("depth=1.5", "depth"), ("depth=%00", "depth"), ("depth=" + "9" * 5000, "depth"),
    ("order=%E2%80%A6", "order"), ("order=BEST", "order"), ("seed=abc", "seed"),
    ("seed=" + "9" * 40, "seed"), ("strict=maybe", "strict"), ("strict=%FF", "strict"),
    ("algorithm=%3Cscript%3Ealert(1)%3C/script%3E", "algorithm"), ("style=tex", "style"),
    ("step=3", "step"), ("depht=2", "depht"), ("a" * 3000 + "=1", "a" * 40),
]


@pytest.mark.parametrize("query, argument", BAD_QUERIES)
def test_hostile_trace_queries_name_the_argument(live_server, query, argument):
    res = requests.get(f"{live_server}/api/trees/aima-fig-5-2/trace?{query}", timeout=TIMEOUT)
    error = answer(res, 400)["error"]
    assert error["argument"].startswith(argument)
    assert len(error["message"]) < 300            # an echo of a huge argument is cut short


def test_queries_that_do_not_fit_the_tree_or_name_no_tree(live_server):
    base = f"{live_server}/api/trees"
    for query in ("algorithm=maxn", "algorithm=expectiminimax&depth=1", "depth=1&depth=2",
                  "algorithm=iterative"):
        answer(requests.get(f"{base}/aima-fig-5-2/trace?{query}", timeout=TIMEOUT), 400)
    for tree_id in ("%00", "..%2F..%2Fetc%2Fpasswd", "x" * 5000, "u-000000000000", "r-zzz",
                    "r-b999-d999-s1",      # 999**999 nodes: the message must not print them all
                    "r-b1-d999-s1"):       # 999 levels: once a RecursionError in the JSON encoder
        for path in ("/trace", "", "/file"):
            error = answer(requests.get(f"{base}/{tree_id}{path}", timeout=TIMEOUT), 404)["error"]
            assert len(error["message"]) < 300
    answer(requests.delete(f"{base}/aima-fig-5-2", timeout=TIMEOUT), 403)   # built-in


# -- Socket.IO -----------------------------------------------------------------------
@pytest.fixture
def sio(live_server):
    client = socketio.Client(reconnection=False)
    client.connect(live_server, transports=["websocket"], wait_timeout=TIMEOUT)
    yield client
    if client.connected:
        client.disconnect()


def refused(reply, argument: str | None = None) -> str:
    assert reply["ok"] is False and reply["error"]["message"], reply
    if argument:
        assert reply["error"].get("argument") == argument, reply
    return reply["error"]["message"]


def test_hostile_socket_payloads_get_error_acks(sio):
    call = lambda event, *data: sio.call(event, data[0] if len(data) == 1 else data,  # noqa: E731
                                         timeout=TIMEOUT)
    for payload in ([1, 2], "start", 5, None, True, [{"tree": "aima-fig-5-2"}], (1, 2, 3)):
        refused(call("start", payload))
        refused(call("pull", payload))
        refused(call("close", payload))
    refused(sio.call("start", timeout=TIMEOUT))
    refused(call("start", {"tree": 5}), "tree")
    refused(call("start", {"tree": "nope"}))
    refused(call("start", {"tree": "aima-fig-5-2", "depth": -1}), "depth")
    refused(call("start", {"tree": "aima-fig-5-2", "depth": 10**30}), "depth")
    refused(call("start", {"tree": "aima-fig-5-2", "strict": "maybe"}), "strict")
    refused(call("start", {"tree": "aima-fig-5-2", "algorithm": ["minimax"]}), "algorithm")
    refused(call("start", {"tree": "aima-fig-5-2", "x" * 10000: 1}))
    refused(call("start", {"tree": "aima-fig-5-2", "algorithm": "maxn"}))
    refused(call("boom", {}))
    run = call("start", {"tree": "aima-fig-5-2"})["run"]
    for count in (10**9, 10**30, 0, -1, 1.5, "5", True, None, [5]):
        refused(call("pull", {"run": run, "count": count}), "count")
    for run_id in ("r999999", "", 5, None, {"run": run}, "r" + "9" * 5000):
        refused(call("pull", {"run": run_id, "count": 1}), "run")
    refused(call("pull", {"run": run, "count": 1, "extra": 1}))
    assert call("pull", {"run": run, "count": 3})["position"] == 3


def test_a_fifth_start_closes_the_oldest_and_closed_runs_stay_closed(sio):
    runs = [sio.call("start", {"tree": "aima-fig-5-2"}, timeout=TIMEOUT)["run"] for _ in range(5)]
    assert len(set(runs)) == 5
    refused(sio.call("pull", {"run": runs[0], "count": 1}, timeout=TIMEOUT), "run")
    for run in runs[1:]:
        assert sio.call("pull", {"run": run, "count": 1}, timeout=TIMEOUT)["ok"]
    assert sio.call("close", {"run": runs[1]}, timeout=TIMEOUT) == {"ok": True}
    refused(sio.call("pull", {"run": runs[1], "count": 1}, timeout=TIMEOUT), "run")
    refused(sio.call("close", {"run": runs[1]}, timeout=TIMEOUT), "run")
    assert sio.call("pull", {"run": runs[4], "count": 1000}, timeout=TIMEOUT)["done"]


def test_malformed_socketio_packets_do_not_hurt_the_server(live_server, sio):
    import websocket

    ws = websocket.create_connection(
        live_server.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
        timeout=TIMEOUT)
    try:
        assert ws.recv().startswith("0{")           # Engine.IO open
        ws.send("40")                               # Socket.IO connect to /
        assert ws.recv().startswith("40")
        for packet in ("42[", "42", "42{}", "42[null]", "42[5,{}]", '421["start",{"tree":[]}]',
                       '42["connect"]', '422["disconnect", 1]', "451-[\"start\"]", "4x", "9",
                       '43["start"]', '42/nope,["start"]', "2probe", '42["' + "s" * 1000 + '"]'):
            try:
                ws.send(packet)
            except (websocket.WebSocketException, OSError):
                break
    finally:
        ws.close()
        ws.shutdown()
    # (A message past the 64 KiB limit is tests/web/test_live.py's.)
    assert sio.call("start", {"tree": "aima-fig-5-2"}, timeout=TIMEOUT)["ok"]


# -- the store's caps, on an app of its own --------------------------------------------
def test_a_full_store_makes_room_and_a_repeat_upload_costs_nothing(make_app, fig52_yaml):
    app = make_app(STORE_MAX_TREES=2, STORE_MAX_BYTES=1 << 20)
    client = app.test_client()
    store = app.extensions["trees"].store
    first = client.post("/api/trees", data=fig52_yaml, headers=YAML)
    assert first.status_code == 201
    usage = store.usage()
    # The same tree again, as YAML, as JSON and as multipart: the same id, nothing added.
    as_json = client.get(f"/api/trees/{first.json['id']}").get_json()
    as_json = {k: as_json[k] for k in ("title", "source", "algorithm", "root") if k in as_json}
    for again in (client.post("/api/trees", data=fig52_yaml, headers=YAML),
                  client.post("/api/trees", data=json.dumps(as_json),
                              headers={"Content-Type": "application/json"}),
                  client.post("/api/trees", data={"file": (io.BytesIO(fig52_yaml.encode()),
                                                           "again.yaml")})):
        assert again.status_code == 201 and again.json["id"] == first.json["id"]
        assert "delete_token" not in again.json    # only its first uploader may delete it
    assert store.usage() == usage
    typed = client.post("/api/trees", data=TYPED, headers={"Content-Type": "text/plain"})
    assert typed.status_code == 201
    # Full: the least recently opened tree (fig52, last uploaded before the typed one)
    # makes room for the next.
    third = client.post("/api/trees", data=THREE_PLAYERS, headers=YAML)
    assert third.status_code == 201
    assert {t.id for t in store.list()} == {typed.json["id"], third.json["id"]}


def test_a_tree_larger_than_the_whole_store_names_the_sizes(make_app, fig52_yaml):
    client = make_app(STORE_MAX_BYTES=600).test_client()  # fig52 is 482 bytes
    assert client.post("/api/trees", data=fig52_yaml, headers=YAML).status_code == 201
    assert client.post("/api/trees", data=THREE_PLAYERS, headers=YAML).status_code == 201
    huge = client.post("/api/trees", data=fig52_yaml + "#" * 200 + "\n", headers=YAML)
    assert huge.status_code == 413
    assert "MiB" in huge.json["error"]["message"] and "larger" in huge.json["error"]["message"]


# -- after the barrage ------------------------------------------------------------------
def test_after_the_barrage_the_library_is_intact(live_server, before):
    listing, uploads = before
    now = answer(requests.get(f"{live_server}/api/trees", timeout=TIMEOUT), 200)
    # The same list: uploads are unlisted, but each accepted one is there by its id.
    assert now == listing
    ids = ",".join(sorted(accepted))
    known = answer(requests.get(f"{live_server}/api/trees?ids={ids}", timeout=TIMEOUT), 200)
    assert {t["id"] for t in known} == accepted - {t["id"] for t in listing}
    for tree_id, (tree_json, text) in uploads.items():
        assert get(live_server, f"/api/trees/{tree_id}").content == tree_json
        assert get(live_server, f"/api/trees/{tree_id}/file").content == text
        trace = answer(get(live_server, f"/api/trees/{tree_id}/trace"), 200)
        assert trace["events"][-1]["type"] == "done"
