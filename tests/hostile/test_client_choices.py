"""Trust nothing a client can choose: a fresh-eyes sweep of every route and
Socket.IO event (session 35, w35b), each finding kept here as a test.

Every request goes through Flask's and Flask-SocketIO's test clients (quick):
the answer must be a clear 4xx JSON error (or an error acknowledgement),
never a 500, a hang, or work that one client makes everyone else wait for.
"""
from __future__ import annotations

import pytest

from app.web import socketio_of

from tests.web.helpers import watch_builds

JSON = "application/json"
FIG = "aima-fig-5-2"


def nested(depth: int, kind: str = "list") -> str:
    """A JSON value ``depth`` levels deep: shallow enough for the parser, deep
    enough that walking it again in a handler passes the recursion limit."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def post(client, url: str, body: str, **headers):
    return client.post(url, data=body, content_type=JSON, headers=headers)


def refused(res, status: int = 400) -> dict:
    assert res.status_code == status, (res.status_code, res.data[:300])
    assert res.is_json and res.json["error"]["message"], res.data[:300]
    return res.json["error"]


# -- 1. /practice/random: a depth of a billion counted its nodes for ever ----------

def test_random_practice_refuses_a_seed_its_id_cannot_carry(client):
    # Before: 302 to /practice/r-b3-d3-s<20 digits>, which is no tree (404): an id
    # holds 18 digits of seed, 9 of a value.
    error = refused(client.get("/practice/random?seed=99999999999999999999"))
    assert error["argument"] == "seed"
    assert refused(client.get("/practice/random?values=-5:10000000000"))["argument"] == "values"


@pytest.mark.parametrize("query", ["depth=1000000000", "branching=1&depth=999999999999",
                                   "depth=20000"])
def test_random_practice_refuses_a_huge_depth_before_counting(client, query):
    # Before: RandomSpec summed branching**d for every d up to the depth: a
    # billion levels never finished (a request's thread at 100 % CPU for good).
    error = refused(client.get(f"/practice/random?{query}"))
    assert error["argument"] == "depth" and len(error["message"]) < 200


# -- 2. practice and homework answers: a mode that is not a string, huge numbers,
#       objects and deep lists as entries -------------------------------------------

@pytest.mark.parametrize("mode", ["[]", "{}", '{"a": 1}', "[1]"])
def test_a_mode_that_is_not_a_string_is_a_400(client, mode):
    # Before: TypeError (unhashable type) in `mode not in GRADED`: a 500.
    body = '{"tree": "%s", "mode": %s, "answers": {}}' % (FIG, mode)
    assert refused(post(client, "/api/practice/check", body))["argument"] == "mode"


def test_a_whole_number_too_big_for_a_float_is_an_answer_not_a_500(client):
    # Before: OverflowError in math.isinf: a 500. A 400-digit number reads as
    # infinite, as the text "1e400" does.
    huge = "1" + "0" * 400
    res = post(client, "/api/practice/check",
               '{"tree": "%s", "mode": "guided", "index": 0, "answer": %s}' % (FIG, huge))
    assert res.status_code == 200 and res.json["result"]["correct"] is False
    res = post(client, "/api/practice/check",
               '{"tree": "%s", "mode": "guided", "index": 0, "answer": [-%s, 1]}' % (FIG, huge))
    assert res.status_code == 200 and res.json["result"]["correct"] is False


@pytest.mark.parametrize("entry", ['{"a": NaN}', '[{"a": NaN}]', "[[NaN]]", nested(800),
                                  nested(800, "dict")])
def test_an_entry_no_number_is_made_of_is_unreadable_not_a_500(client, entry):
    # Before: an object holding NaN was echoed as given (ValueError in the strict
    # encoder), a deep list walked past the recursion limit (RecursionError).
    body = '{"tree": "%s", "mode": "full", "answers": {"values": {"A": %s}}}' % (FIG, entry)
    res = post(client, "/api/practice/check", body)
    assert res.status_code == 200, res.data[:300]
    a = next(e for e in res.json["entries"] if e["kind"] == "value" and e["node"] == "A")
    assert a["status"] == "unreadable"


@pytest.fixture
def homework(client):
    made = client.post("/api/assignments", json={"exercises": [
        {"tree": FIG, "mode": "full"}, {"tree": FIG, "mode": "guided"}], "attempts": None}).json
    me = client.post(f"/api/assignments/{made['id']}/students", json={"student": "Ina"}).json
    return made, {"X-Student-Token": me["token"]}


@pytest.mark.parametrize("index, field", [(0, '"answers": {"values": {"A": %s}}'),
                                          (1, '"index": 0, "answer": %s')])
@pytest.mark.parametrize("entry", [nested(800), nested(800, "dict"), '{"a": NaN}',
                                   "1" + "0" * 400])
def test_homework_stores_any_entry_without_a_500(client, homework, index, field, entry):
    # Before: the stored copy of the answers was made by walking them
    # (RecursionError on deep ones), and a huge number overflowed the grading.
    made, student = homework
    res = post(client, f"/api/assignments/{made['id']}/me/exercises/{index}",
               "{" + field % entry + "}", **student)
    # (a guided answer is a number, a text or yes/no: an object is refused)
    assert res.status_code == (400 if index and entry.startswith("{") else 200), res.data[:300]
    attempts = client.get(f"/api/assignments/{made['id']}/students/Ina/attempts",
                          headers={"Authorization": f"Bearer {made['instructor']}"})
    assert attempts.status_code == 200
    assert len(attempts.json["attempts"]) == (res.status_code == 200)


# -- 3. /api/play with depth 0: the search found no move --------------------------

def test_play_with_depth_zero_is_a_400(client):
    # Before: a depth limit of 0 searched no child, and `best.id` of None was a 500.
    res = client.post("/api/play", json={"position": "game:tictactoe", "move": "X5",
                                         "reply": True, "depth": 0})
    assert refused(res)["argument"] == "depth"
    res = client.post("/api/play", json={"position": "game:tictactoe", "depth": 1})
    assert res.status_code == 200 and res.json["computer"]["move"]


# -- 4. Socket.IO events named like the reserved ones -------------------------------

def test_a_client_cannot_reset_its_what_if_rate_limit_by_sending_connect(make_app):
    # Before: python-socketio hands a client's own event named "connect" (or
    # "disconnect") to the namespace's handler of the real one: the /edit
    # namespace gave the connection a fresh bucket (or none: no limit at all).
    app = make_app(BUDGET={"editor_runs_per_second": 1.0})
    sc = socketio_of(app).test_client(app, namespace="/edit")
    leaves = [{"key": "a", "value": 1}, {"key": "b", "value": 2}]
    run = {"tree": {"title": "t", "root": {"children": leaves, "key": "r"}}}
    answers = [sc.emit("run", run, namespace="/edit", callback=True) for _ in range(3)]
    assert [a["ok"] for a in answers] == [True, True, False]   # a burst of two
    assert answers[2]["error"]["status"] == 429
    for reserved in ("connect", "disconnect"):
        ack = sc.emit(reserved, {}, namespace="/edit", callback=True)
        assert ack["ok"] is False and "unknown event" in ack["error"]["message"]
        again = sc.emit("run", run, namespace="/edit", callback=True)
        assert again["ok"] is False and again["error"]["status"] == 429, again
    sc.disconnect(namespace="/edit")


@pytest.mark.parametrize("namespace", ["/", "/class"])
def test_a_client_event_named_disconnect_closes_nothing(app, client, namespace):
    # Before: it ran the disconnect handler on a live connection: its runs closed
    # (and every later start refused), or a student left the class's room.
    sc = socketio_of(app).test_client(app, namespace=namespace, flask_test_client=client)
    if namespace == "/":
        first = sc.emit("start", {"tree": FIG}, callback=True)
        ack = sc.emit("disconnect", {}, callback=True)
        assert ack["ok"] is False
        assert sc.emit("pull", {"run": first["run"], "count": 1}, callback=True)["ok"]
        assert sc.emit("start", {"tree": FIG}, callback=True)["ok"]
    else:
        made = client.post("/api/classes", json={"tree": FIG}).json
        joined = sc.emit("join", {"code": made["code"]}, namespace=namespace, callback=True)
        assert joined["ok"]
        ack = sc.emit("disconnect", {}, namespace=namespace, callback=True)
        assert ack["ok"] is False
        mine = sc.emit("mine", {"code": made["code"]}, namespace=namespace, callback=True)
        assert mine["ok"], mine          # still the joined student
    sc.disconnect(namespace=namespace)


# -- 5. random trees built in the request's own thread --------------------------------

@pytest.mark.parametrize("url, status", [
    ("/t/r-b3-d4-s{n}", 200), ("/edit/r-b3-d4-s{n}", 200), ("/practice/r-b3-d4-s{n}", 200),
    ("/api/trees/r-b3-d4-s{n}/file", 200), ("/api/trees?ids=r-b3-d4-s{n},r-b3-d4-s{m}", 200),
    ("/api/trees/r-b3-d7-s{n}/export.svg", 413), ("/api/trees/r-b3-d7-s{n}/worksheet.pdf", 413),
    ("POST /api/classes r-b3-d4-s{n}", 201),
    ("POST /api/practice/check r-b3-d7-s{n}", 413)])
def test_a_random_tree_is_built_as_heavy_work(app, client, monkeypatch, url, status):
    # A random tree of 100,000 nodes takes 0.6 s to build: the API built it as
    # heavy work (app.web.offload: off gevent's loop, a fair share per client),
    # but the pages, the file, pictures, classes, practice's check and ?ids=
    # built it in the request's own thread, on the loop every visitor shares
    # (?ids= took as many as were named: 500 of them, minutes).
    running = watch_builds(app, monkeypatch)
    if url.startswith("POST"):
        _, path, tree = url.format(n=91).split()
        res = client.post(path, json={"tree": tree, "mode": "values", "answers": {}}
                          if "practice" in path else {"tree": tree})
    else:
        res = client.get(url.format(n=91, m=92))
    assert res.status_code == status, res.data[:200]
    assert running and all(running), "a random tree was built outside the work queue"


def test_ids_builds_a_few_random_trees_at_most(app, client):
    # Before: every random id named (500) was built, one after the other.
    ids = ",".join(f"r-b2-d2-s{n}" for n in range(40))
    described = client.get(f"/api/trees?ids={ids}").json
    assert 0 < len(described) <= 8
    assert [e["id"] for e in described] == [f"r-b2-d2-s{n}" for n in range(len(described))]


def test_nan_inside_a_vector_is_unreadable_as_alone():
    # Before: [NaN, Infinity] read as the vector (nan, inf): a class's chart
    # showed the answer "(nan, +∞)" (NaN alone was refused already).
    from app.practice.answers import Unreadable, parse_entry

    for raw in (float("nan"), [float("nan"), 1], [1, float("nan")]):
        with pytest.raises(Unreadable):
            parse_entry(raw)
    assert parse_entry([10 ** 400, -(10 ** 400), 2]) == (float("inf"), float("-inf"), 2)


# -- 6. a Socket.IO message that is not JSON ----------------------------------------

def test_an_undecodable_socket_message_logs_one_line_not_a_traceback_each(app, caplog):
    # python-engineio logged a traceback (ERROR) for every message python-socketio
    # could not decode (broken JSON, or nested past the parser's depth): a client
    # sending a few thousand a second filled the log. A client's doing, said once
    # a while in one line; the connection goes on.
    import logging

    sio = socketio_of(app)
    sc = sio.test_client(app)
    with caplog.at_level(logging.INFO, logger="engineio.server"):
        for packet in ("42[", '42["start",{]', "42[" + "[" * 5000 + "]" * 5000 + "]"):
            for _ in range(20):
                sio.server.eio._trigger_event("message", sc.eio_sid, packet, run_async=False)
    logged = [r for r in caplog.records if r.name == "engineio.server"]
    assert len(logged) <= 1 and not any(r.exc_info for r in logged), logged[:2]
    assert sc.emit("start", {"tree": FIG}, callback=True)["ok"]
    sc.disconnect()


# -- 7. a game's ?open= with one id of thousands of moves ----------------------------

def test_opening_a_game_node_by_a_long_made_up_path_costs_little_memory(client):
    # Before: every prefix of every opened id was kept (a set of n prefixes of up
    # to n moves): one 63 KB address (run.py reads request lines up to 64 KiB)
    # took 2.7 s and 741 MB. A path is no longer than the game.
    import tracemalloc

    plain = client.get("/api/trees/game:tictactoe").json
    tracemalloc.start()
    try:
        res = client.get("/api/trees/game:tictactoe?open=" + "-".join(["X5"] * 8000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.status_code == 200 and res.json["root"] == plain["root"]
    assert peak < 20 << 20, f"{peak / (1 << 20):.0f} MB"
    opened = client.get("/api/trees/game:tictactoe?open=X5-O1").json["root"]
    x5 = next(c for c in opened["children"] if c["id"] == "X5")
    assert next(c for c in x5["children"] if c["id"] == "X5-O1")["children"]


# -- 8. refusals that echo what was sent, whole ---------------------------------------

@pytest.mark.parametrize("url, body", [
    ("/api/trees", "(" + "a" * 200_000 + ")"),
    ("/api/edit/parse", '{"text": "(%s)"}' % ("a" * 200_000)),
    ("/api/edit/parse", '{"text": "(%s=)"}' % ("a" * 200_000)),
    ("/api/play", '{"position": "game:tictactoe", "move": "%s"}' % ("a" * 200_000)),
    ("/api/play", '{"position": "game:tictactoe", "move": [%s]}' % ",".join(["1"] * 20_000))])
def test_a_refusal_quotes_a_long_entry_cut_short(client, url, body):
    # Before: the one-line notation's "expected '(' or '=' after <name>" quoted the
    # name twice and the play API the move whole: 200 KB sent, 600 KB answered.
    res = client.post(url, data=body, content_type="text/plain" if url == "/api/trees" else JSON)
    assert res.status_code == 400 and len(res.data) < 1000, (len(res.data), res.data[:200])


def test_a_socket_refusal_quotes_a_long_run_id_or_key_cut_short(socket_client):
    # Before: "no open run '<60 KB>'" and an unknown key's whole name as the
    # error's argument: each refusal as long as what was sent.
    for event, payload in (("pull", {"run": "r" * 60_000, "count": 1}),
                           ("start", {"tree": FIG, "k" * 50_000: 1}),
                           ("pull", {"run": "r1", "k" * 50_000: 1})):
        ack = socket_client.emit(event, payload, callback=True)
        assert ack["ok"] is False and len(str(ack)) < 1000, str(ack)[:200]


# -- 9. requests the HTTP server itself refuses (run.py's threaded server) ------------

@pytest.mark.parametrize("name, request_bytes, status", [
    ("101 headers", b"GET /api/trees HTTP/1.1\r\nHost: 127.0.0.1\r\n"
     + b"".join(b"X-%d: 1\r\n" % i for i in range(101)) + b"\r\n", 431),
    ("a request line over 64 KiB", b"GET /api/trees?" + b"a" * 70_000
     + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
    ("a header line over 64 KiB", b"GET /api/trees HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: "
     + b"a" * 70_000 + b"\r\n\r\n", 431),
    ("TLS to the plain port", b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"\x00" * 100
     + b" HTTP/1.1\r\n\r\n", None)])   # (no request line read: answered as HTTP/0.9, a body alone)
def test_what_the_http_server_refuses_itself_is_json_too(live_server, name, request_bytes, status):
    # Before: http.server's own HTML error page (the app never sees such a request).
    import json
    import socket

    port = int(live_server.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request_bytes)
        conn.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    if status is None:
        assert json.loads(reply)["error"]["message"], reply[:200]
        return
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == str(status).encode(), head[:200]
    assert b"content-type: application/json" in head.lower(), head
    assert json.loads(body)["error"]["message"], body[:200]


def test_a_class_answer_sent_as_binary_data_is_refused_not_a_500(app, client, caplog):
    # Socket.IO carries binary attachments: a student's answer arrived as bytes,
    # and measuring it as JSON raised TypeError: a 500 and a traceback per message.
    import logging

    sio = socketio_of(app)
    made = client.post("/api/classes", json={"tree": FIG}).json
    teacher = sio.test_client(app, namespace="/class", flask_test_client=client)
    teacher.emit("present", {"code": made["code"], "token": made["instructor"]},
                 namespace="/class", callback=True)
    asked = teacher.emit("ask", {"code": made["code"], "token": made["instructor"],
                                 "kind": "value", "node": "B"}, namespace="/class", callback=True)
    student = sio.test_client(app, namespace="/class", flask_test_client=client)
    assert student.emit("join", {"code": made["code"]}, namespace="/class", callback=True)["ok"]
    question = asked["state"]["question"]["id"]
    with caplog.at_level(logging.ERROR, logger="app.web.class_sockets"):
        for answer in (b"\x00\x01", [b"3"], {"a": b"3"}):
            ack = student.emit("answer", {"code": made["code"], "question": question,
                                          "answer": answer}, namespace="/class", callback=True)
            assert ack["ok"] is False and ack["error"]["status"] == 400, ack
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    ack = student.emit("answer", {"code": made["code"], "question": question, "answer": 3},
                       namespace="/class", callback=True)
    assert ack["ok"] and ack["accepted"]      # (a refused entry used up nothing)
