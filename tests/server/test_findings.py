"""The eleven findings of the lecture-hall issue, each tried again as the
attacker in the room did, against a real server process, and each now
holding. Memory is read from /proc of the process that serves (VmRSS now,
VmHWM the peak), with a bound. (Findings 6 and 7, rebinding and headers:
test_headers.py; and against gunicorn: test_gunicorn.py.)
"""
from __future__ import annotations

import json
import select
import signal
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
import socketio

from app.games.random_tree import RandomSpec
from app.treefile import dump_yaml

from .conftest import MiB, launch, raise_own_fd_limit

YAML = {"Content-Type": "application/x-yaml"}


# Findings 1 (the first two), 9, 10 and 11 only ask a server of the default
# settings: one launch (2-4 s at the suite's load) for the five, kept together
# on one worker; a test reading the peak starts it again from its own start.
@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    served = launch("run", tmp_path_factory.mktemp("plain"))
    yield served
    served.stop()


def tree_text(i: int, title: str = "Tree") -> str:
    return f"title: {title} {i}\nroot: {{children: [{i}, {i + 1}, {i + 2}]}}\n"


# -- 1. one URL exhausts memory ------------------------------------------------------

@pytest.mark.slow
@pytest.mark.xdist_group("test_findings-plain")
def test_finding_1_a_huge_worksheet_is_refused_up_front_in_little_memory(plain):
    """Was: 7.1 GB before a 400; two at once killed the process."""
    s = plain
    s.reset_peak()
    base = s.rss()
    url = s.url + "/api/trees/r-b8-d4-s1/worksheet.pdf?steps=1&algorithm=minimax"
    started = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: requests.get(url, timeout=30), range(4)))
    assert time.monotonic() - started < 5
    for res in answers:
        assert res.status_code == 413, res.text
        assert "at most" in res.json()["error"]["message"]
    for path in ("worksheet.pdf", "export.png", "export.pdf?step=3"):
        res = s.get(f"/api/trees/r-b8-d4-s1/{path}")
        assert res.status_code == 413 and res.json()["error"]["limit"] == 2000
    assert s.alive() and s.peak() < base + 60 * MiB, (base >> 20, s.peak() >> 20)


@pytest.mark.slow
@pytest.mark.xdist_group("test_findings-plain")
def test_finding_1_a_big_tree_inside_the_budget_renders_outside_the_server(plain):
    """Was: a 4,862-node upload took 6.4 GB and ended in a 500 after 118 s.
    Now pictures stop at 2,000 nodes and the drawing happens in a worker
    process: the server's own memory hardly moves."""
    s = plain
    tree = RandomSpec.from_id("r-b6-d4-s3").tree()           # 1,555 nodes
    up = requests.post(s.url + "/api/trees", data=dump_yaml(tree).encode(), headers=YAML,
                       timeout=30)
    assert up.status_code == 201, up.text
    base = s.rss()
    for path in ("export.svg?algorithm=minimax", "export.pdf?algorithm=alphabeta",
                 "worksheet.pdf?algorithm=alphabeta"):
        started = time.monotonic()
        res = s.get(f"/api/trees/{up.json()['id']}/{path}", timeout=60)
        assert res.status_code == 200, res.text[:300]
        assert time.monotonic() - started < 35
    assert s.rss() < base + 80 * MiB, (base >> 20, s.rss() >> 20)
    # The biggest drawable tree of 4,861 nodes: refused before any work.
    assert s.get("/api/trees/r-b8-d4-s1/export.svg").status_code == 413


@pytest.mark.slow
def test_finding_1_a_render_over_its_memory_limit_is_a_clear_413(start_server):
    # The limit is on private data (heap and thread stacks): Fig 5.2 needs
    # 25 MiB, and 8 more when Pango starts its font thread (never failed at
    # 48 MiB in 30 tries); this 1,555-node picture needs over 60 MiB.
    s = start_server("run", settings={"BUDGET": {"render_memory": 56 * MiB}})
    res = s.get("/api/trees/r-b6-d4-s3/export.png?algorithm=minimax", timeout=60)
    assert res.status_code == 413, res.text[:300]
    assert "limits" in res.json()["error"]["message"]
    assert s.alive() and s.get("/api/trees/aima-fig-5-2/export.svg").status_code == 200


@pytest.mark.slow
def test_finding_1_heavy_renders_at_once_are_capped_with_retry_after(start_server):
    s = start_server("run", settings={"BUDGET": {"renders_at_once": 1,
                                                 "render_queue_seconds": 0}})
    url = s.url + "/api/trees/aima-fig-5-2/worksheet.pdf?steps=1"
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _: requests.get(url, timeout=60), range(3)))
    statuses = sorted(r.status_code for r in answers)
    assert statuses[0] == 200 and statuses[-1] == 503, statuses
    busy = next(r for r in answers if r.status_code == 503)
    assert int(busy.headers["Retry-After"]) > 0
    assert "busy" in busy.json()["error"]["message"]


# -- 2. runs pin memory without a global cap ---------------------------------------

def _client(url: str, closed: list) -> socketio.Client:
    sio = socketio.Client(reconnection=False)
    sio.on("closed", lambda data: closed.append(data))
    sio.connect(url, transports=["websocket"], wait_timeout=20)
    return sio


@pytest.mark.slow
def test_finding_2_open_runs_are_capped_server_wide_and_memory_comes_back(start_server):
    """Was: 50 clients x 4 runs on distinct random trees held 2.85 GB, and
    2.45 GB after they left. Now the trees held by open runs are capped
    (here 150,000 nodes), the least recently pulled run is closed and its
    client told, and the memory goes back when the runs close."""
    cap = 150_000
    s = start_server("run", settings={"BUDGET": {"run_nodes": cap, "tree_cache_nodes": 50_000}})
    base = s.rss()
    closed: list = []
    clients = [_client(s.url, closed) for _ in range(12)]
    acks = []
    for k, sio in enumerate(clients):
        for j in range(3):   # 36 distinct trees of 21,845 nodes: 786,420 nodes in all
            ack = sio.call("start", {"tree": f"r-b4-d7-s{k * 3 + j}", "algorithm": "minimax"},
                           timeout=60)
            assert ack["ok"], ack
            acks.append((sio, ack["run"]))
            pulled = sio.call("pull", {"run": ack["run"], "count": 1000}, timeout=60)
            assert pulled["ok"] and len(pulled["events"]) == 1000
            health = s.get("/healthz").json()
            assert health["run_nodes"] <= cap, health
    _until(lambda: len(closed) >= 20, 5)   # the notices arrive on the clients' threads
    assert len(closed) >= 20 and all("room" in c["reason"] for c in closed)
    # A run the server closed answers a clear error, never an exception.
    gone = closed[0]["run"]
    owner = next(sio for sio, run in acks if run == gone)
    reply = owner.call("pull", {"run": gone, "count": 10}, timeout=20)
    assert reply["ok"] is False and "no open run" in reply["error"]["message"]
    peak = s.peak()
    assert peak < base + 200 * MiB, (base >> 20, peak >> 20)
    for sio in clients:
        sio.disconnect()
    # Within 2 s (what this test once slept): every run closed, the memory back.
    _until(lambda: s.get("/healthz").json()["open_runs"] == 0
           and s.rss() < base + 60 * MiB, 2)
    assert s.get("/healthz").json()["open_runs"] == 0
    assert s.rss() < base + 60 * MiB, (base >> 20, s.rss() >> 20)


# -- 3. a full store refuses every upload, for good ---------------------------------

def test_finding_3_a_full_store_keeps_taking_uploads_and_uploaders_can_delete(start_server):
    """Was: 1,000 tiny uploads filled the store; every upload after: 507."""
    s = start_server("run", settings={"BUDGET": {"store_trees": 20,
                                                 "uploads_per_client": "1000 per minute"}})
    answers = [requests.post(s.url + "/api/trees", data=tree_text(i), headers=YAML, timeout=30)
               for i in range(60)]
    assert [r.status_code for r in answers] == [201] * 60
    ids = [r.json()["id"] for r in answers]
    known = {t["id"] for t in s.get(f"/api/trees?ids={','.join(ids)}").json()}
    assert known == set(ids[-20:])                      # the least recently opened went
    assert s.get("/healthz").json()["uploads"] == 20
    # The uploader deletes its own tree; nobody else can.
    last, token = ids[-1], answers[-1].json()["delete_token"]
    assert requests.delete(f"{s.url}/api/trees/{last}", headers={"X-Delete-Token": "guess"},
                           timeout=10).status_code == 403
    assert requests.delete(f"{s.url}/api/trees/{last}", headers={"X-Delete-Token": token},
                           timeout=10).status_code == 204
    assert s.get(f"/api/trees/{last}").status_code == 404


def test_finding_3_uploads_are_rate_limited_per_client_with_retry_after(start_server):
    s = start_server("run", settings={"BUDGET": {"uploads_per_client": "5 per minute"}})
    statuses = [requests.post(s.url + "/api/trees", data=tree_text(i), headers=YAML,
                              timeout=10) for i in range(7)]
    assert [r.status_code for r in statuses] == [201] * 5 + [429] * 2
    refused = statuses[-1]
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many requests" in refused.json()["error"]["message"]
    assert s.get("/").status_code == 200                   # reading is not limited


# -- 4. concurrent uploads can fail with 500 ----------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("kind", ["run", "gunicorn"])
def test_finding_4_twenty_concurrent_uploaders_never_get_a_5xx(start_server, kind):
    """Was: ``database is locked`` 500s under 20 concurrent uploaders."""
    s = start_server(kind, settings={"BUDGET": {"uploads_per_client": "100000 per minute"}})

    def uploader(u: int) -> list[int]:
        with requests.Session() as http:
            return [http.post(s.url + "/api/trees", data=tree_text(1000 * u + i), headers=YAML,
                              timeout=60).status_code for i in range(25)]

    with ThreadPoolExecutor(20) as pool:
        statuses = [code for codes in pool.map(uploader, range(20)) for code in codes]
    assert statuses == [201] * 500
    assert s.get("/healthz").json()["uploads"] == 500
    import sqlite3
    with sqlite3.connect(s.instance / "trees.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.slow
def test_finding_4_kill_9_during_an_upload_burst_loses_nothing_acknowledged(start_server):
    # Room for every upload of the burst: what is at stake is the crash, not the
    # store's per-client share (which makes room from the client's own oldest).
    s = start_server("run", name="kill", settings={"BUDGET": {
        "uploads_per_client": "100000 per minute", "store_trees": 100_000,
        "store_client_trees": 100_000, "store_client_bytes": 64 * 1024 * 1024}})
    acknowledged: list[str] = []
    stop = threading.Event()

    def uploader(u: int) -> None:
        with requests.Session() as http:
            for i in range(10_000):
                if stop.is_set():
                    return
                try:
                    res = http.post(s.url + "/api/trees", data=tree_text(100_000 * u + i),
                                    headers=YAML, timeout=10)
                except requests.RequestException:
                    return
                if res.status_code == 201:
                    acknowledged.append(res.json()["id"])

    threads = [threading.Thread(target=uploader, args=(u,)) for u in range(8)]
    for t in threads:
        t.start()
    time.sleep(2.0)
    s.stop(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(20)
    assert len(acknowledged) > 20
    restarted = launch("run", s.instance)       # the same store, after the crash
    try:
        for i in range(0, len(acknowledged), 200):
            chunk = acknowledged[i:i + 200]
            found = {t["id"] for t in restarted.get(f"/api/trees?ids={','.join(chunk)}").json()}
            assert found == set(chunk)
    finally:
        restarted.stop()


# -- 5. idle connections never time out -------------------------------------------

def _silent_sockets(url: str, count: int) -> list[socket.socket]:
    host, port = url.rsplit("/", 1)[1].split(":")
    socks = []
    for _ in range(count):
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(b"G")                       # one byte, then silence
        socks.append(sock)
    return socks


def _open_after(socks: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The sockets the server has not closed within ``seconds`` (looked at as
    they become readable, so the wait ends when the last one closes)."""
    deadline = time.monotonic() + seconds
    waiting = {sock.fileno(): sock for sock in socks}
    poller = select.poll()              # (select() stops at fd 1024)
    for fd in waiting:
        poller.register(fd, select.POLLIN)
    while waiting and time.monotonic() < deadline:
        for fd, _ in poller.poll(200):
            if fd in waiting and _closed_by_server(waiting[fd]):
                poller.unregister(fd)
                del waiting[fd]
    return list(waiting.values())


def _until(condition, seconds: float) -> None:
    """Wait for ``condition()`` for at most ``seconds`` (the caller asserts it)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed it (an answer such as a 400 may come first)."""
    sock.settimeout(0.2)
    try:
        while sock.recv(4096):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["run", "gunicorn"])
def test_finding_5_a_crowd_of_silent_sockets_cannot_stop_the_server(start_server, kind):
    """Was: under ``ulimit -n 1024``, 1,100 one-byte sockets stopped the server
    answering anyone, and a slow client was still open after 120 s."""
    raise_own_fd_limit(4096)
    idle = 3
    s = start_server(kind, nofile=1024, settings={"BUDGET": {"idle_seconds": idle}},
                     gunicorn_args=("--keep-alive", str(idle)))
    # A hall connecting at once waits in the listen queue, not in SYN retries
    # (1 s, then 3 s, ...): with run.py's queue of 128, these 1,100 connected
    # over 8 s; the kernel's own view of the queue (ss: Send-Q).
    port = s.url.rsplit(":", 1)[1]
    queue = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True,
                           text=True, check=True).stdout.split()
    assert int(queue[2]) >= 1024, queue
    socks = _silent_sockets(s.url, 1100)
    try:
        assert s.alive() and s.fds() < 1024
        still_open = _open_after(socks, idle + 3)
        assert not still_open, f"{len(still_open)} silent sockets still open"
        assert s.get("/", timeout=10).status_code == 200
        assert s.fds() < 100
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("kind", ["run", "gunicorn"])
def test_finding_5_a_client_trickling_its_headers_is_cut_off(start_server, kind):
    idle = 3
    s = start_server(kind, settings={"BUDGET": {"idle_seconds": idle}},
                     gunicorn_args=("--keep-alive", str(idle)))
    sock = _silent_sockets(s.url, 1)[0]
    sock.settimeout(0.3)
    started = time.monotonic()
    cut = None
    for ch in b"ET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
        try:
            sock.sendall(bytes([ch]))
            if sock.recv(1) == b"":
                cut = time.monotonic() - started
                break
        except socket.timeout:
            continue
        except OSError:
            cut = time.monotonic() - started
            break
        if time.monotonic() - started > 20:
            break
    sock.close()
    assert cut is not None and cut < idle + 3, cut


@pytest.mark.parametrize("kind", ["run", "gunicorn"])
def test_finding_5_a_slow_upload_body_is_cut_off(start_server, kind):
    s = start_server(kind, settings={"BUDGET": {"idle_seconds": 2}},
                     gunicorn_args=("--keep-alive", "2"))
    host, port = s.url.rsplit("/", 1)[1].split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(b"POST /api/trees HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                 b"application/x-yaml\r\nContent-Length: 1000\r\n\r\ntitle: x\n")
    started = time.monotonic()
    sock.settimeout(1.0)
    answer = b""
    while time.monotonic() - started < 15:
        try:
            sock.sendall(b"#")
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        except socket.timeout:
            continue
        except OSError:
            break
    sock.close()
    assert time.monotonic() - started < 8
    assert not answer or answer.startswith(b"HTTP/1.1 400")


# -- 8. node ids __proto__, constructor, toString break practice -----------------------

PROTO_TREE = """title: Prototype names
root:
  id: constructor
  children:
    - {id: __proto__, children: [{id: p1, value: 3}, {id: p2, value: 12}]}
    - {id: toString, children: [{id: t1, value: 2}, {id: t2, value: 4}]}
"""


@pytest.mark.browser
def test_finding_8_practice_with_prototype_names_as_node_ids(browser, live_server):
    up = requests.post(f"{live_server}/api/trees", data=PROTO_TREE, headers=YAML, timeout=10)
    assert up.status_code == 201, up.text
    ctx = browser.new_context(base_url=live_server, viewport={"width": 1366, "height": 768})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    sent: list[dict] = []
    pg.on("request", lambda r: sent.append(json.loads(r.post_data))
          if r.url.endswith("/api/practice/check") else None)
    pg.goto(f"/practice/{up.json()['id']}?mode=values&algorithm=minimax")
    pg.wait_for_selector("#practice.ready")
    inputs = pg.locator("input[data-field=value]")
    assert all(v == "" for v in inputs.evaluate_all("els => els.map(e => e.value)"))
    for node, value in (("__proto__", "3"), ("toString", "2"), ("constructor", "3")):
        pg.locator(f'input[data-for="{node}"][data-field="value"]').fill(value)
    pg.click("[data-action=check]")
    pg.locator("[data-score]").wait_for(state="visible")
    right, total = (int(x) for x in pg.locator("[data-score]").inner_text().split("/"))
    assert right == total and total >= 3
    assert sent and sent[-1]["answers"]["values"] == {"__proto__": "3", "toString": "2",
                                                      "constructor": "3"}
    pg.reload()                                    # the draft comes back as typed
    pg.wait_for_selector("#practice.ready")
    assert pg.locator('input[data-for="__proto__"][data-field="value"]').input_value() == "3"
    assert pg.locator('input[data-for="p1"][data-field="value"]').count() == 0 or \
        "function" not in pg.content()
    ctx.close()
    assert not errors, errors


# -- 9. deep JSON to /api/practice/check ------------------------------------------

@pytest.mark.slow
@pytest.mark.xdist_group("test_findings-plain")
def test_finding_9_deeply_nested_json_is_a_clean_400(plain):
    s = plain
    for body in ("[" * 100_000 + "]" * 100_000,
                 '{"tree": "aima-fig-5-2", "answers": ' + "{\"a\":" * 50_000 + "1" + "}" * 50_001):
        res = requests.post(s.url + "/api/practice/check", data=body, timeout=30,
                            headers={"Content-Type": "application/json"})
        assert res.status_code == 400 and "error" in res.json()
    assert s.alive()


# -- 10. every upload shows on every visitor's library page ---------------------------

@pytest.mark.slow
@pytest.mark.xdist_group("test_findings-plain")
def test_finding_10_uploads_are_unlisted_and_titled_tellingly(plain):
    s = plain
    typed = requests.post(s.url + "/api/trees", data="((3 12 8) (2 4 6) (14 5 2))",
                          headers={"Content-Type": "text/plain"}, timeout=10)
    other = requests.post(s.url + "/api/trees", data="((1 2) (3 4))",
                          headers={"Content-Type": "text/plain"}, timeout=10)
    ids = [typed.json()["id"], other.json()["id"]]
    listing = s.get("/api/trees").json()
    assert listing and all(t["builtin"] for t in listing)
    assert not set(ids) & {t["id"] for t in listing}
    described = s.get(f"/api/trees?ids={ids[0]},nope,{ids[1]}").json()
    assert [t["id"] for t in described] == ids
    assert [t["title"] for t in described] == ["Typed tree ((3 12 8) (2 4 6) (14 5 2))",
                                               "Typed tree ((1 2) (3 4))"]
    assert ids[0] not in s.get("/practice").text             # nor on the practice index


@pytest.mark.browser
def test_finding_10_the_library_shows_only_this_browsers_uploads(browser, live_server):
    def library(ctx):
        pg = ctx.new_page()
        pg.goto("/")
        pg.wait_for_selector("body.ready")   # the lecture trees and this browser's uploads drawn
        return pg

    mine = browser.new_context(base_url=live_server)
    pg = library(mine)
    pg.fill("#paste", "((7 1) (5 6 2))")
    with pg.expect_navigation():
        pg.click("#open")
    tree_id = pg.url.rsplit("/t/", 1)[1].split("?")[0]
    pg = library(mine)
    own = pg.locator(f'#uploads [data-tree="{tree_id}"]')
    assert own.count() == 1 and "Typed tree ((7 1) (5 6 2))" in own.inner_text()
    theirs = browser.new_context(base_url=live_server)
    other = library(theirs)
    assert other.locator(f'[data-tree="{tree_id}"]').count() == 0
    assert other.locator("#uploads-section").is_hidden()
    pg.click(f'#uploads .own-upload:has([data-tree="{tree_id}"]) [data-action=delete-upload]')
    pg.wait_for_selector(f'[data-tree="{tree_id}"]', state="detached")
    assert requests.get(f"{live_server}/api/trees/{tree_id}", timeout=10).status_code == 404
    mine.close()
    theirs.close()


# -- 11. a right-to-left override in a title ------------------------------------------

@pytest.mark.slow
@pytest.mark.xdist_group("test_findings-plain")
def test_finding_11_bidi_controls_in_titles_and_labels_are_refused(plain):
    s = plain
    for text in ("title: \"report\u202etxt.exe\"\nroot: {children: [1, 2]}\n",
                 "title: ok\nroot: {label: \"a\u2067b\", children: [1, 2]}\n",
                 "title: ok\nroot: {children: [{id: \"x\u200f\", value: 1}, 2]}\n"):
        res = requests.post(s.url + "/api/trees", data=text.encode(), headers=YAML, timeout=10)
        assert res.status_code == 400
        error = res.json()["error"]
        assert "bidirectional" in error["message"] and error["line"] in (1, 2)
