"""A class through the faults of a real deployment (issue 19, point 7), on
real parts started here on free loopback ports: Redis with its append-only
file, two gunicorn processes (deploy/gunicorn.conf.py) behind nginx
(deploy/nginx.conf, ip_hash), and the embedded ``run.py``. A handful of
phones (tests/classes/services.py's ``Phone``: reconnects and joins again
with its id, as the page does), from several 127.x addresses so that
ip_hash spreads them over both processes.

- kill -9 of one process mid-question: its students are back (through
  nginx, on the other process) within 5 s, at the same step with the open
  question; their answers count once; the tally loses nothing; the
  instructor keeps driving;
- Redis restarted mid-class: while it is down every call is refused at once
  with 503 "reconnecting…"; then the class goes on with its step, question
  and tally, and steps reach every student again;
- ``run.py`` restarted: the class is gone, and every student is told so.
"""
from __future__ import annotations

import re
import signal
import time

import pytest
import requests

from tests.classes.services import Phone, Services, bound_socket, wait_for

pytestmark = pytest.mark.slow
SOURCES = ["127.0.0.2", "127.0.1.2", "127.0.2.2", "127.0.3.2", "127.0.4.2", "127.0.5.2"]


def upstream_of(services: Services, port: int, source: str) -> str:
    """The app process (127.0.0.1:port) nginx's ip_hash gives ``source``: a
    plain request from it, then nginx's access log."""
    with bound_socket(source, port) as s:
        s.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        s.recv(256)
    pattern = re.compile(rf"^{re.escape(source)} (\S+) \"GET /healthz", re.M)
    wait_for(lambda: pattern.search(services.access_log()), what="nginx's access log")
    return pattern.findall(services.access_log())[-1]


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """Redis (append-only file), two gunicorn processes, nginx: one set for the module."""
    svc = Services(tmp_path_factory.mktemp("hall"))
    try:
        mq = svc.redis(aof=True)
        ports = {"app1": svc.gunicorn(mq, "app1"), "app2": svc.gunicorn(mq, "app2")}
        port = svc.nginx(list(ports.values()))
        yield svc, mq, ports, port
    finally:
        svc.close()


def new_class(port: int) -> tuple[str, str]:
    cls = requests.post(f"http://127.0.0.1:{port}/api/classes",
                        json={"tree": "aima-fig-5-2", "algorithm": "alphabeta"}, timeout=10).json()
    return cls["code"], cls["instructor"]


def test_redis_restarted_mid_class(hall):
    svc, mq, ports, port = hall
    code, token = new_class(port)
    teacher = Phone(port, "127.0.0.1", code, token)
    phones = [Phone(port, src, code) for src in SOURCES[:4]]
    try:
        teacher.drive("step", step=2)
        q = teacher.drive("ask", kind="value", node="B")["state"]["question"]
        for p, entry in zip(phones[:3], ["3", "12", "3"]):
            assert p.call("answer", {"question": q["id"], "answer": entry})["accepted"]
        wait_for(lambda: teacher.tallies and teacher.tallies[-1]["answers"] == 3, what="the tally")

        redis_port = int(mq.rsplit(":", 1)[1].split("/")[0])
        svc.stop("redis")
        t0 = time.monotonic()
        down = [p.call("mine", {}) for p in phones[:2]] + [teacher.call("step", {"token": token,
                                                                                "step": 5})]
        assert time.monotonic() - t0 < 10                       # refused at once, never a hang
        for ack in down:
            assert not ack["ok"] and ack["error"]["status"] == 503, ack
            assert "reconnecting" in ack["error"]["message"] and ack["error"]["retry"] is True
        svc.redis(aof=True, port=redis_port)                     # back, from its append-only file

        # The class goes on: the step, the question, each answer and the tally as they were.
        def step_again():
            ack = teacher.call("step", {"token": token, "step": 3})
            return ack["ok"]
        wait_for(step_again, timeout=15, what="the instructor driving again")
        state = teacher.drive("present", live=True)["state"]
        assert state["question"]["id"] == q["id"] and state["step"] == 3
        assert (state["tally"]["answers"], state["tally"]["right"]) == (3, 2)
        mine = phones[1].call("mine", {})["mine"]
        assert mine["answered"] and mine["label"] == "12"
        assert phones[3].call("answer", {"question": q["id"], "answer": "8"})["accepted"]
        assert not phones[0].call("answer", {"question": q["id"], "answer": "8"})["accepted"]
        # Broadcasts cross between the processes again (the message queue reconnected).
        def everyone_at(k):
            teacher.call("step", {"token": token, "step": k})
            return all(p.states and p.states[-1]["step"] == k for p in phones)
        wait_for(lambda: everyone_at(4), timeout=20, what="a step reaching every phone")
        assert teacher.drive("present", live=True)["state"]["tally"]["answers"] == 4
    finally:
        for p in [teacher, *phones]:
            p.close()


def test_one_process_killed_mid_question(hall):
    svc, mq, ports, port = hall
    code, token = new_class(port)
    where = {src: upstream_of(svc, port, src) for src in SOURCES}
    assert len(set(where.values())) == 2, where                  # both processes serve someone
    victim_addr = where[SOURCES[0]]
    victim = next(name for name, p in ports.items() if victim_addr.endswith(f":{p}"))
    survivor = next(p for p in ports.values() if not victim_addr.endswith(f":{p}"))
    teacher_src = next(s for s in ["127.0.0.1", *SOURCES] if where.get(s, upstream_of(
        svc, port, s)) == f"127.0.0.1:{survivor}")
    teacher = Phone(port, teacher_src, code, token)
    phones = [Phone(port, src, code) for src in SOURCES]
    hit = [p for p in phones if where[p.source] == victim_addr]
    try:
        teacher.drive("step", step=2)
        q = teacher.drive("ask", kind="value", node="B")["state"]["question"]
        for i, p in enumerate(phones[:4]):
            assert p.call("answer", {"question": q["id"], "answer": "3" if i % 2 else "12"})["accepted"]
        wait_for(lambda: teacher.tallies and teacher.tallies[-1]["answers"] == 4, what="the tally")
        ids = {p.source: p.student for p in phones}

        svc.stop(victim, signal.SIGKILL)                          # master and worker, at once
        killed = time.monotonic()
        wait_for(lambda: all(p.back for p in hit), timeout=10, what="the students back")
        back = [p.back[-1] - killed for p in hit]
        assert max(back) < 5.0, back
        for p in hit:
            assert p.student == ids[p.source]                      # the same student
            state = p.hello["state"]
            assert state["step"] == 2 and state["question"]["id"] == q["id"]
            if p in phones[:4]:
                assert p.hello["mine"]["answered"]                 # their answer is kept
                assert not p.call("answer", {"question": q["id"], "answer": "3"})["accepted"]
        for p in phones[4:]:
            assert p.call("answer", {"question": q["id"], "answer": "3"})["accepted"]
        tally = teacher.drive("present", live=True)["state"]["tally"]
        assert (tally["answers"], tally["right"]) == (len(phones), 2 + len(phones[4:]))
        assert tally["students"] == len(phones)                    # none counted twice
        # The instructor keeps driving, and every student follows.
        teacher.drive("step", step=4)
        wait_for(lambda: all(p.states and p.states[-1]["step"] == 4 for p in phones),
                 what="the step after the kill at every phone")
        assert teacher.drive("reveal")["state"]["tally"]["chart"]["answers"] == [len(phones)]
    finally:
        for p in [teacher, *phones]:
            p.close()


def test_run_py_restarted_ends_the_class_and_says_so(tmp_path):
    svc = Services(tmp_path)
    try:
        port = svc.app(None, "solo")
        code, token = new_class(port)
        phones = [Phone(port, "127.0.0.1", code) for _ in range(3)]
        teacher = Phone(port, "127.0.0.1", code, token)
        teacher.drive("step", step=3)
        svc.stop("solo")
        svc.app(None, "solo", port=port)                          # the same address, a new process
        wait_for(lambda: all(p.refused for p in phones), timeout=15, what="the phones told")
        for p in phones:
            err = p.refused[-1]["error"]
            assert err["status"] == 410 and "server was restarted" in err["message"], err
        res = requests.get(f"http://127.0.0.1:{port}/c/{code}", timeout=10)
        assert res.status_code == 404 and 'role="alert"' in res.text
    finally:
        for p in phones + [teacher]:
            p.close()
        svc.close()
