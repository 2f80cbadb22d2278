"""Issue 17: no single client takes the room down, against real servers.

Two servers for the whole module (``python run.py`` and gunicorn with its
gevent worker, deploy/gunicorn.conf.py), each on a fresh store, with a
budget small enough that small loads prove each point: 40 connections per
address, heavy work of 2 threads with 2 waiting (3 per client), 5 classes a minute per
client, a store of 400 kB with 200 kB per uploader. Clients of other
addresses speak from 127.0.0.2-127.0.0.9 (loopback is a /8).
"""
from __future__ import annotations

import random
import socket
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from requests.adapters import HTTPAdapter

from .conftest import launch, raise_own_fd_limit

pytestmark = pytest.mark.slow

PER_ADDRESS = 40
BUDGET = {"connections_per_address": PER_ADDRESS, "work_threads": 2, "work_queue": 2,
          "work_per_client": 3, "work_per_address": 3, "classes_per_client": "5 per minute",
          "store_bytes": 400_000, "store_client_bytes": 200_000,
          "uploads_per_client": "100000 per minute", "sessions_per_address": 20}
KINDS = ("run", "gunicorn")


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    raise_own_fd_limit(1024)
    folder = tmp_path_factory.mktemp("fair")
    started = {}
    try:
        for kind in KINDS:
            started[kind] = launch(kind, folder / kind, settings={"BUDGET": BUDGET})
        yield started
    finally:
        for served in started.values():
            served.stop()


class SourceAdapter(HTTPAdapter):
    """requests from a given loopback address (another client of the server)."""

    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def client(source: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", SourceAdapter(source))
    return session


def port_of(served) -> int:
    return int(served.url.rsplit(":", 1)[1])


def timed_get(session, url: str) -> tuple[int, float]:
    started = time.monotonic()
    status = session.get(url, timeout=30).status_code
    return status, time.monotonic() - started


# -- finding 1: one request took a worker down ---------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_finding_1_a_game_too_big_is_413_with_its_size_on_every_endpoint(servers, kind):
    """Was: Nim 40 searched without end (/api/play) and answered 500 after
    seconds of CPU (OverflowError in len(tree.nodes)) on 10 endpoints."""
    s = servers[kind]
    started = time.monotonic()
    for method, path, body in (
            ("post", "/api/play", {"position": "game:nim:40"}),
            ("get", "/api/trees/game:nim:40", None),
            ("get", "/api/trees/game:nim:40/trace?algorithm=alphabeta", None),
            ("get", "/api/trees/game:nim:40/export.svg", None),
            ("get", "/api/trees/game:nim:40/worksheet.pdf", None),
            ("get", "/practice/game:nim:40", None),
            ("get", "/play/nim?piles=40", None)):
        res = getattr(requests, method)(s.url + path, json=body, timeout=30)
        assert res.status_code == 413, (path, res.status_code, res.text[:200])
        if res.headers["Content-Type"].startswith("application/json"):
            error = res.json()["error"]
            assert error["nodes"] > error["limit"] == 1_000_000_000 and not error["exact"]
            assert "game:nim:40 has more than 1,000,000,000 nodes" in error["message"]
    assert time.monotonic() - started < 10      # each refused in a blink, not after seconds
    # Plain minimax enters every node: refused up front, its size named exactly.
    res = requests.post(s.url + "/api/play", json={"position": "game:nim:17",
                                                   "algorithm": "minimax"}, timeout=30)
    assert res.status_code == 413 and res.json()["error"]["nodes"] == 2_115_296
    assert s.get("/healthz").json()["status"] == "ok"


@pytest.mark.parametrize("kind", KINDS)
def test_finding_1_a_search_runs_off_the_loop_and_pages_answer_meanwhile(servers, kind):
    """Was: tic-tac-toe minimax on the play page blocked every request of a
    gunicorn process for 3.4 s (it ran on the gevent loop)."""
    s = servers[kind]
    other = client("127.0.0.2")
    done = {}

    def search():
        done["res"] = requests.post(s.url + "/api/play", timeout=120, json={
            "position": "game:tictactoe", "algorithm": "minimax"})

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.3)
    probes = []
    while worker.is_alive() and len(probes) < 60:
        probes.append(timed_get(other, s.url + ("/healthz" if len(probes) % 2 else "/")))
        time.sleep(0.05)
    worker.join()
    assert done["res"].status_code == 200 and done["res"].json()["computer"]["entered"] == 549_946
    assert len(probes) >= 4, "the search ended before the pages were probed"
    assert all(status == 200 for status, _ in probes)
    times = sorted(t for _, t in probes)
    # (Not the maximum: on a shared 2-core machine any one probe may wait for
    # the CPU; before, gunicorn's loop answered none of them for seconds.)
    assert statistics.median(times) < 0.1 and times[int(0.9 * len(times))] < 0.5, times


# -- finding 2: one client shut everyone out -----------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_finding_2_one_address_gets_its_share_of_connections_not_all(servers, kind):
    """Was: 800 sockets from one address filled the process's cap: run.py
    refused everyone else, gunicorn made them time out."""
    s = servers[kind]
    port = port_of(s)
    held = [socket.create_connection(("127.0.0.1", port), timeout=10)
            for _ in range(PER_ADDRESS + 5)]
    try:
        refused = []
        for sock in held[PER_ADDRESS:]:
            sock.settimeout(5)
            refused.append(sock.recv(1000))
        assert all(r.startswith(b"HTTP/1.1 429 ") for r in refused), refused
        assert b"Too many connections from your address" in refused[0]
        for source in ("127.0.0.2", "127.0.0.3"):     # the others still get in, at once
            status, seconds = timed_get(client(source), s.url + "/")
            assert status == 200 and seconds < 1.0
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    assert requests.get(s.url + "/healthz", timeout=10).status_code == 200   # freed


@pytest.mark.parametrize("kind", KINDS)
def test_w35e_one_address_gets_its_share_of_engineio_sessions_not_all(servers, kind):
    """Was: one client on one keep-alive connection made 3,000 Engine.IO
    sessions in 12 s, each held until its ping timed out (300 MB)."""
    s = servers[kind]
    url = s.url + "/socket.io/?EIO=4&transport=polling"
    mine = client("127.0.0.5")
    sids = [mine.get(url, timeout=10).text for _ in range(20)]
    assert all(text.startswith('0{"sid"') for text in sids), sids[:2]
    over = mine.get(url, timeout=10)
    assert over.status_code == 429 and over.headers["Retry-After"] == "10", over.text[:200]
    assert "Socket.IO" in over.json()["error"]["message"]
    assert client("127.0.0.6").get(url, timeout=10).status_code == 200   # the others get in
    sid = sids[0][1:].split('"sid":"')[1].split('"')[0]
    assert mine.post(f"{url}&sid={sid}", data="1", timeout=10).status_code == 200   # closed
    assert mine.get(url, timeout=10).status_code == 200    # its place was freed


# -- finding 3: one client evicted an instructor's tree --------------------------------
def _tree(tag: str, leaves: int) -> str:
    """A tree of its own (ids come from the content, comments aside)."""
    rng = random.Random(tag)
    return "(" + " ".join(str(rng.randrange(100)) for _ in range(leaves)) + ")"


@pytest.mark.parametrize("kind", KINDS)
def test_finding_3_one_uploader_evicts_only_its_own_uploads(servers, kind):
    """Was: 34 uploads of 2 MB from one address pushed out the tree a live
    class used (its link then 404, the instructor's Ask 500)."""
    s = servers[kind]
    teacher = client("127.0.0.4")
    mine = teacher.post(s.url + "/api/trees", data=_tree(f"lecture {kind}", 2000),
                        headers={"Content-Type": "text/plain"}, timeout=30)
    assert mine.status_code == 201
    hostile = client("127.0.0.5")
    answers = [hostile.post(s.url + "/api/trees", data=_tree(f"flood {kind} {i}", 9000),
                            headers={"Content-Type": "text/plain"}, timeout=30)
               for i in range(12)]      # 12 x ~40 kB: past the uploader's 200 kB share
    assert all(a.status_code == 201 for a in answers)
    # (the stored text: a parsed copy may outlive it a while in the tree cache)
    assert requests.get(s.url + f"/api/trees/{mine.json()['id']}/file",
                        timeout=30).status_code == 200
    kept = [requests.get(s.url + f"/api/trees/{a.json()['id']}/file", timeout=30).status_code
            for a in answers]
    assert kept[-1] == 200 and kept[0] == 404      # its own oldest made room


@pytest.mark.parametrize("kind", KINDS)
def test_finding_6_deleting_while_another_uploads_the_same_text_keeps_it(servers, kind):
    """Was: a second uploader got 201 while the first deleted the tree, and
    the tree was gone: an acknowledged upload lost."""
    s = servers[kind]
    lost = []
    for i in range(12):
        text = _tree(f"race {kind} {i}", 20)
        first = requests.post(s.url + "/api/trees", data=text, timeout=30,
                              headers={"Content-Type": "text/plain"}).json()
        with ThreadPoolExecutor(2) as pool:
            gone = pool.submit(requests.delete, s.url + "/api/trees/" + first["id"],
                               headers={"X-Delete-Token": first["delete_token"]}, timeout=30)
            again = pool.submit(requests.post, s.url + "/api/trees", data=text, timeout=30,
                                headers={"Content-Type": "text/plain"})
            assert gone.result().status_code == 204
            if again.result().status_code == 201:
                got = requests.get(s.url + "/api/trees/" + first["id"], timeout=30)
                if got.status_code != 200:
                    lost.append(i)
    assert not lost


# -- finding 5: work that piled up was neither done nor refused ------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_finding_5_heavy_work_past_the_queue_is_refused_at_once(servers, kind):
    """Was: ten big starts all waited 22.5 s; with more, most never answered
    in 60 s. Now 2 run, 2 wait, the rest 503 + Retry-After at once; one
    client has at most 3 running or waiting (429)."""
    s = servers[kind]
    body = {"position": "game:nim:19", "algorithm": "alphabeta"}    # ~0.5-2 s each

    def play(source: str):
        started = time.monotonic()
        res = client(source).post(s.url + "/api/play", json=body, timeout=120)
        return res.status_code, time.monotonic() - started, res.headers.get("Retry-After")

    with ThreadPoolExecutor(9) as pool:
        futures = [pool.submit(play, f"127.0.0.{6 + k % 3}") for k in range(9)]
        time.sleep(0.3)
        status, seconds = timed_get(client("127.0.0.9"), s.url + "/")
        results = [f.result() for f in futures]
    assert status == 200 and seconds < 1.0
    done = [r for r in results if r[0] == 200]
    shed = [r for r in results if r[0] in (503, 429)]
    assert len(done) + len(shed) == 9 and len(done) >= 2 and len(shed) >= 3, results
    assert all(r[2] and r[1] < 2.0 for r in shed), shed    # at once, saying when to retry
    # One client alone: the fourth at once is refused (429), not queued.
    with ThreadPoolExecutor(5) as pool:
        results = list(pool.map(lambda _: play("127.0.0.8"), range(5)))
    assert any(r[0] == 429 for r in results) or sum(r[0] == 503 for r in results) >= 1


# -- finding 6: the smaller ones -------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_finding_6_class_creation_is_throttled_and_origin_checked(servers, kind):
    """Was: 3,000 POST /api/classes from one client in 21 s all accepted,
    with Origin: evil.example or null too."""
    s = servers[kind]
    body = {"tree": "aima-fig-5-2"}
    for origin in ("http://evil.example", "null"):
        for path, data in (("/api/classes", body), ("/api/play", {"position": "game:nim:7"}),
                           ("/api/practice/check", {})):
            res = requests.post(s.url + path, json=data, headers={"Origin": origin}, timeout=30)
            assert res.status_code == 403 and res.json()["error"]["message"], (origin, path)
    creator = client("127.0.0.10")
    statuses = [creator.post(s.url + "/api/classes", json=body, timeout=30).status_code
                for _ in range(6)]
    assert statuses[:5] == [201] * 5 and statuses[5] == 429
    assert client("127.0.0.11").post(s.url + "/api/classes", json=body,
                                     timeout=30).status_code == 201


@pytest.mark.parametrize("kind", KINDS)
def test_finding_6_an_empty_or_missing_host_is_refused(servers, kind):
    port = port_of(servers[kind])
    for head in (b"GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
                 b"GET / HTTP/1.0\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(head)
            answer = sock.recv(200)
        assert answer.split(b" ")[1] == b"400", answer


@pytest.mark.parametrize("kind", KINDS)
def test_finding_6_forged_instructor_messages_make_one_log_line(servers, kind):
    """Was: 790 forged messages a second, each a logged warning."""
    import socketio

    s = servers[kind]
    code = requests.post(s.url + "/api/classes", json={"tree": "aima-fig-5-2"},
                         timeout=30).json()["code"]
    sio = socketio.Client(reconnection=False)
    sio.connect(s.url, namespaces=["/class"], transports=["websocket"], wait_timeout=20)
    try:
        acks = [sio.call("step", {"code": code, "token": "forged", "step": 1},
                         namespace="/class", timeout=20) for _ in range(40)]
    finally:
        sio.disconnect()
    assert all(not a["ok"] and a["error"]["status"] == 403 for a in acks)
    s.log_file.flush()
    log = (s.instance / f"{kind}.log").read_text(errors="replace")
    assert 1 <= log.count("class: refused step") <= 2, log.count("class: refused step")


def test_finding_6_healthz_says_when_redis_is_down(tmp_path, monkeypatch):
    """Was: while Redis was down, /healthz said ok."""
    from tests.classes.services import Services

    services = Services(tmp_path / "services")
    try:
        monkeypatch.setenv("MESSAGE_QUEUE", services.redis())   # run.py's --message-queue
        served = launch("run", tmp_path / "app")
        try:
            health = served.get("/healthz")
            assert health.status_code == 200 and health.json()["checks"]["redis"] == "ok"
            services.close()          # Redis goes away
            started = time.monotonic()
            health = served.get("/healthz")
            assert time.monotonic() - started < 3
            assert health.status_code == 503
            assert health.json()["status"] == "down" and health.json()["checks"]["redis"] == "down"
        finally:
            served.stop()
    finally:
        services.close()


@pytest.mark.parametrize("kind", KINDS)
def test_finding_6_refused_requests_leave_no_traceback(servers, kind):
    """Was: gevent printed a traceback for every refused request. (Runs last
    in the module: every refusal above is in the log.)"""
    s = servers[kind]
    s.log_file.flush()
    log = (s.instance / f"{kind}.log").read_text(errors="replace")
    assert "Traceback" not in log, log[log.find("Traceback") - 300:][:3000]
