"""Scale-out on real parts: Debian's redis-server and nginx started here on
loopback ports, two production app processes (gunicorn with
deploy/gunicorn.conf.py, one gevent worker each, ``MESSAGE_QUEUE=redis://...``)
behind nginx with ``ip_hash`` (deploy/nginx.conf). The instructor is on one
process, students on both (they connect from different 127.x addresses, so
ip_hash spreads them; nginx's access log says which process served whom).
Every student must receive every step, in order, and every answer must reach
the instructor's tally. A dead Redis must stop the start with a clear error."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
import socketio

from tests.classes.services import REPO, Services, bound_socket, free_port, wait_for

pytestmark = pytest.mark.slow
NS = "/class"
SOURCES = ["127.0.0.2", "127.0.1.2", "127.0.2.2", "127.0.3.2", "127.0.4.2", "127.0.5.2",
           "127.0.6.2", "127.0.7.2"]


class Client:
    """A python-socketio client on /class through nginx from ``source``."""

    def __init__(self, port: int, source: str):
        self.sio = socketio.Client(reconnection=False, websocket_extra_options={
            "socket": bound_socket(source, port)})
        self.states: list[dict] = []
        self.tallies: list[dict] = []
        self.sio.on("state", self.states.append, namespace=NS)
        self.sio.on("tally", self.tallies.append, namespace=NS)
        self.sio.connect(f"http://127.0.0.1:{port}", transports=["websocket"], namespaces=[NS],
                         wait_timeout=10)

    def call(self, name: str, payload: dict) -> dict:
        ack = self.sio.call(name, payload, namespace=NS, timeout=10)
        assert ack["ok"], (name, ack)
        return ack

    def close(self):
        self.sio.disconnect()


@pytest.fixture
def services(tmp_path):
    svc = Services(tmp_path)
    yield svc
    svc.close()


def test_two_processes_behind_nginx_share_one_class(services):
    mq = services.redis()
    first, second = services.gunicorn(mq, "app1"), services.gunicorn(mq, "app2")
    port = services.nginx([first, second])
    base = f"http://127.0.0.1:{port}"
    cls = requests.post(f"{base}/api/classes", json={"tree": "aima-fig-5-2",
                                                     "algorithm": "alphabeta"}, timeout=10).json()
    code, token = cls["code"], cls["instructor"]
    steps = requests.get(f"{base}/api/trees/aima-fig-5-2/trace?algorithm=alphabeta",
                         timeout=10).json()["events"]

    instructor = Client(port, "127.0.0.1")
    students = [Client(port, src) for src in SOURCES]
    try:
        instructor.call("present", {"code": code, "token": token, "live": True})   # the second device: it sees the distribution
        for s in students:
            s.call("join", {"code": code})
        # Each student is counted once, whichever process holds them.
        counted = instructor.call("present", {"code": code, "token": token, "live": True})["state"]["students"]
        assert counted == len(students)

        driven = list(range(1, 13)) + [7, 3, 12]
        for k in driven:
            instructor.call("step", {"code": code, "token": token, "step": k})
        last = driven[-1]
        wait_for(lambda: all(s.states and s.states[-1]["step"] == last and
                             len(s.states) >= len(driven) for s in students),
                 timeout=15.0, what="every student at the last step")
        for s in students:
            assert [m["step"] for m in s.states] == driven        # every step, in order

        b_exit = next(e["step"] for e in steps if e["type"] == "exit" and e["node"] == "B")
        instructor.call("step", {"code": code, "token": token, "step": 0})
        q = instructor.call("ask", {"code": code, "token": token, "kind": "value",
                                    "node": "B"})["state"]["question"]
        for i, s in enumerate(students):
            assert s.call("answer", {"code": code, "question": q["id"],
                                     "answer": "3" if i % 2 else "12"})["accepted"]
        wait_for(lambda: instructor.tallies and instructor.tallies[-1]["answers"] == len(students),
                 timeout=15.0, what="every answer in the tally")
        tally = instructor.tallies[-1]
        assert tally["right"] == len(students) // 2
        assert tally["wrong"] == [{"label": "12", "count": len(students) - len(students) // 2}]

        instructor.call("reveal", {"code": code, "token": token})
        wait_for(lambda: all(s.states[-1]["step"] == b_exit for s in students), timeout=15.0, what="the reveal")
    finally:
        for c in [instructor, *students]:
            c.close()

    # The students were spread over both processes (nginx logs a WebSocket at its end).
    wait_for(lambda: services.access_log().count("transport=websocket") >= len(SOURCES) + 1,
             timeout=15.0, what="nginx's access log")
    served = {}
    for line in services.access_log().splitlines():
        m = re.match(r"(\S+) (\S+) .*transport=websocket", line)
        if m:
            served[m.group(1)] = m.group(2)
    backends = {served[src] for src in SOURCES}
    assert backends == {f"127.0.0.1:{first}", f"127.0.0.1:{second}"}, served


def test_a_dead_redis_stops_the_start_with_a_clear_error(tmp_path):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "run.py", "--port", str(free_port()),
                           "--instance", str(tmp_path / "inst"), "--message-queue", dead],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "cannot be reached" in proc.stderr and dead in proc.stderr
    assert time.monotonic() - t0 < 30                               # never a hang


def test_gunicorn_with_a_dead_redis_does_not_boot(tmp_path):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    env = {**os.environ, "BIND": f"127.0.0.1:{free_port()}", "MESSAGE_QUEUE": dead,
           "ADVSEARCH_INSTANCE": str(tmp_path / "inst")}
    proc = subprocess.run([str(Path(sys.executable).with_name("gunicorn")), "-c",
                           "deploy/gunicorn.conf.py"], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0
    assert "Cannot start with the message queue" in proc.stdout + proc.stderr


def test_redis_going_away_gives_clients_a_clear_message(services):
    mq = services.redis()
    port = services.gunicorn(mq, "app1")
    base = f"http://127.0.0.1:{port}"
    cls = requests.post(f"{base}/api/classes", json={"tree": "aima-fig-5-2"}, timeout=10).json()
    student = Client(port, "127.0.0.1")
    try:
        student.call("join", {"code": cls["code"]})
        redis_proc = next(p for name, p in services.procs if name == "redis")
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        t0 = time.monotonic()
        ack = student.sio.call("mine", {"code": cls["code"]}, namespace=NS, timeout=20)
        assert ack["ok"] is False and ack["error"]["status"] == 503
        assert "Redis" in ack["error"]["message"]
        res = requests.get(f"{base}/api/classes/{cls['code']}", timeout=20)
        assert res.status_code == 503 and "Redis" in res.json()["error"]["message"]
        assert time.monotonic() - t0 < 15
    finally:
        student.close()
