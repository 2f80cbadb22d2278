"""Fair shares of the Socket.IO layer (session 35, w35e), through Flask's and
Flask-SocketIO's test clients (quick):

1. Engine.IO sessions had no cap: one client made 3,000 polling handshakes
   in 12 s and held each (some 300 MB) until its ping timed out.
2. Socket.IO heavy work was admitted per connection only: one client with
   many sockets filled the shared work queue and everyone else got 503.
"""
from __future__ import annotations

import threading
import time

from app.web import socketio_of

HANDSHAKE = "/socket.io/?EIO=4&transport=polling"
FIG = "aima-fig-5-2"


def handshake(client, address: str, **headers):
    return client.get(HANDSHAKE, environ_base={"REMOTE_ADDR": address}, headers=headers)


def sid_of(res) -> str:
    import json

    assert res.status_code == 200, res.data[:200]
    return json.loads(res.data[1:].decode().split("\x1e")[0])["sid"]


# -- 1. Engine.IO sessions per address and per process ----------------------------

def test_engineio_sessions_are_capped_per_address_and_per_process(make_app):
    app = make_app(BUDGET={"sessions_per_address": 3, "sessions": 5})
    client, eio = app.test_client(), socketio_of(app).server.eio
    mine = [sid_of(handshake(client, "10.0.0.1")) for _ in range(3)]
    before = len(eio.sockets)

    over = handshake(client, "10.0.0.1")
    assert over.status_code == 429 and over.is_json, over.data[:200]
    assert over.headers["Retry-After"] == "10"
    assert "Socket.IO" in over.json["error"]["message"] and over.json["error"]["status"] == 429
    assert len(eio.sockets) == before, "a refused handshake kept a session"

    # Other addresses have theirs, up to the process's cap (5 in all).
    sid_of(handshake(client, "10.0.0.2"))
    sid_of(handshake(client, "10.0.0.3"))
    full = handshake(client, "10.0.0.4")
    assert full.status_code == 503 and full.headers["Retry-After"] == "10", full.data[:200]
    assert full.json["error"]["message"]

    # A session that ends (closed by the client, or its ping timed out) frees its place.
    client.post(f"{HANDSHAKE}&sid={mine[0]}", data="1",
                environ_base={"REMOTE_ADDR": "10.0.0.1"})          # Engine.IO's close packet
    sid_of(handshake(client, "10.0.0.1"))
    eio.sockets[mine[1]].close(wait=False, abort=True)               # as a ping timeout does
    assert app.extensions["sessions"].open_sessions("10.0.0.1") == 2
    sid_of(handshake(client, "10.0.0.1"))
    assert handshake(client, "10.0.0.1").status_code == 429


def test_a_refused_handshake_is_said_in_the_clients_language(make_app):
    app = make_app(BUDGET={"sessions_per_address": 1})
    client = app.test_client()
    sid_of(handshake(client, "10.0.0.5"))
    english = handshake(client, "10.0.0.5").json["error"]["message"]
    indonesian = handshake(client, "10.0.0.5", **{"Accept-Language": "id"})
    assert indonesian.headers["Content-Language"] == "id"
    assert indonesian.json["error"]["message"] != english
    assert "Socket.IO" in indonesian.json["error"]["message"]


def test_the_default_session_caps_are_a_lecture_halls(make_app):
    # 300 phones behind one NAT address, a page or two each.
    budget = make_app().extensions["budget"].serving
    assert budget.sessions_per_address >= budget.connections_per_address >= 600
    assert budget.sessions > budget.sessions_per_address


# -- 2. Socket.IO heavy work per address -------------------------------------------

def test_socket_heavy_work_is_bounded_per_address_not_only_per_connection(make_app,
                                                                          monkeypatch):
    app = make_app(BUDGET={"work_threads": 1, "work_queue": 20, "work_wait_seconds": 30,
                           "work_per_client": 2, "work_per_address": 3},
                   CLASS_CLIENT_HEADER="X-Real-IP")
    work, sio = app.extensions["work"], socketio_of(app)
    gate = threading.Event()
    from app.web import runs

    prime = runs.Run.prime

    def held(run):        # a run's set-up that takes until the test says so
        gate.wait(20)
        return prime(run)

    monkeypatch.setattr(runs.Run, "prime", held)

    def socket(address):
        flask_client = app.test_client()
        return sio.test_client(app, flask_test_client=flask_client,
                               headers={"X-Real-IP": address})

    mine = [socket("10.0.1.1") for _ in range(5)]   # one client, five sockets
    acks: list = []

    def start(sc):
        acks.append(sc.emit("start", {"tree": FIG}, callback=True))

    threads = [threading.Thread(target=start, args=(sc,)) for sc in mine]
    try:
        for t in threads:
            t.start()
            time.sleep(0.05)
        deadline = time.monotonic() + 10
        while len(acks) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        refused = [a for a in acks if not a["ok"]]
        assert len(refused) == 2, acks          # 3 admitted (1 running, 2 waiting), 2 refused
        # 503 + retry_after: the page waits it out (a hall's phones share the address)
        assert all(a["error"]["status"] == 503 and a["error"]["retry_after"] > 0
                   and "your address" in a["error"]["message"].lower() for a in refused), refused
        assert work.running + work.waiting == 3
        # Another address still gets its work in (waiting its turn).
        other = socket("10.0.2.2")
        threads.append(threading.Thread(target=start, args=(other,)))
        threads[-1].start()
        deadline = time.monotonic() + 10
        while work.running + work.waiting < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert work.running + work.waiting == 4
    finally:
        gate.set()
        for t in threads:
            t.join(20)
    assert sum(a["ok"] for a in acks) == 4, acks
    assert work.running == work.waiting == 0 and not work._clients


def test_a_started_streams_pull_past_its_addresss_share_waits_its_turn():
    # Pulls of admitted runs are not refused (a page half-way through a run
    # would show an error): past the address's share they wait for that
    # address's own jobs, not counted among the queue's waiting jobs.
    from app.web.offload import WorkQueue

    work = WorkQueue(threads=2, queue=1, wait=5, per_client=2, per_address=2)
    entered, gate = [], threading.Event()

    def job(sid):
        with work.admitted(f"sid:{sid}", patient=True, address="10.0.3.3"):
            entered.append(sid)
            gate.wait(10)

    threads = [threading.Thread(target=job, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while len(entered) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert len(entered) == 2 and work.waiting == 0      # the third waits for its address
    assert work._clients["10.0.3.3"] == 2                 # not among the queue's waiting jobs
    gate.set()
    for t in threads:
        t.join(10)
    assert sorted(entered) == [0, 1, 2] and not work._clients


def test_a_session_gone_without_its_disconnect_does_not_hold_its_place(make_app):
    # The cap must not fill up for good if Engine.IO ever drops a session
    # without telling: at the cap, places of sessions it no longer has are freed.
    app = make_app(BUDGET={"sessions_per_address": 2})
    client, eio = app.test_client(), socketio_of(app).server.eio
    first = sid_of(handshake(client, "10.0.5.5"))
    sid_of(handshake(client, "10.0.5.5"))
    assert handshake(client, "10.0.5.5").status_code == 429
    del eio.sockets[first]                      # gone, no disconnect event
    sid_of(handshake(client, "10.0.5.5"))
    assert app.extensions["sessions"].open_sessions("10.0.5.5") == 2
