"""Live classes under load, side by side in one run (issue: the lecture hall).

1. **one process**: ``run.py`` (Werkzeug threaded, Flask-SocketIO threading
   mode), then gunicorn with ``deploy/gunicorn.conf.py`` (one gevent worker);
   200 students in one class; the instructor drives 40 steps; the latency of
   each step is the time from the instructor's ``step`` message leaving to
   its ``state`` broadcast arriving at each student.
2. **two processes behind nginx + Redis** (two ``run.py``, then two
   gunicorn): the same through ``deploy/nginx.conf`` (ip_hash; the students
   connect from 8 loopback networks, so they are spread over both processes)
   with the message queue ``redis://``.
3. **200 answers within one second** (in both set-ups): all counted, and how
   long after the last answer the instructor's tally says 200 (the second
   device's, ``present`` with ``live``: the projector gets only the count),
   then how long the reveal takes to bring back the chart of every answer.

The clients are not python-socketio's (two threads per client would measure
the client's GIL, not the server): one thread speaks the Engine.IO/Socket.IO
wire protocol over 201 WebSockets (websocket-client) with ``selectors``, and
timestamps a batch of arrivals when ``select`` returns them.

4. ``--recovery N``: instead, N students over two gunicorn processes behind
   nginx with Redis (its append-only file on); one process is killed (kill -9,
   master and worker) and each of its students, a ``Phone`` that reconnects
   every 0.5 s as the page does, is timed until it has joined the class again.

    .venv/bin/python bench/classes.py [--students 200] [--steps 40] [--recovery 32]
"""
from __future__ import annotations

import argparse
import itertools
import os
import json
import selectors
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests
import websocket

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.classes.services import Services, bound_socket  # noqa: E402

NS = "/class"


class Peer:
    """One Socket.IO client on /class over a raw WebSocket (EIO=4)."""

    ids = itertools.count(1)

    def __init__(self, port: int, source: str = "127.0.0.1"):
        url = f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(url, socket=bound_socket(source, port), timeout=30)
        opened = self.ws.recv()
        assert opened.startswith("0"), opened
        self.ws.send(f"40{NS},")
        reply = self.ws.recv()
        assert reply.startswith(f"40{NS},"), reply
        self.acks: dict[int, dict] = {}
        self.events: list[tuple[float, str, dict]] = []

    def emit(self, name: str, data: dict) -> int:
        ack = next(Peer.ids)
        self.ws.send(f"42{NS},{ack}" + json.dumps([name, data]))
        return ack

    def read(self, now: float) -> None:
        text = self.ws.recv()
        if text == "2":                      # the server's ping
            self.ws.send("3")
            return
        prefix = f"4{{}}{NS},"
        if text.startswith(prefix.format(3)):    # an acknowledgement: 43/class,<id>[...]
            body = text[len(prefix.format(3)):]
            i = body.index("[")
            self.acks[int(body[:i])] = json.loads(body[i:])[0]
        elif text.startswith(prefix.format(2)):
            name, data = json.loads(text[len(prefix.format(2)):])
            self.events.append((now, name, data))

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


class Room:
    """Every peer under one selector; ``pump`` reads what has arrived."""

    def __init__(self, peers: list[Peer]):
        self.sel = selectors.DefaultSelector()
        for p in peers:
            self.sel.register(p.ws.sock, selectors.EVENT_READ, p)

    def pump(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                return
            ready = self.sel.select(left)
            now = time.perf_counter()            # these had all arrived by now
            for key, _ in ready:
                key.data.read(now)

    def call(self, peer: Peer, name: str, data: dict, timeout: float = 20.0) -> dict:
        ack = peer.emit(name, data)
        end = time.perf_counter() + timeout
        while ack not in peer.acks:
            if time.perf_counter() > end:
                raise TimeoutError(f"no answer to {name}")
            self.pump(0.01)
        out = peer.acks.pop(ack)
        assert out.get("ok"), (name, out)
        return out


def descendants(pid: int) -> list[int]:
    """``pid`` and its children, recursively (gunicorn's and nginx's workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            todo += [int(c) for c in task.read_text().split()]
    return out


def cpu_ms(pids: list[int]) -> float:
    """User + system CPU time of these processes and their children so far, in ms."""
    total = 0
    for pid in (p for top in pids for p in descendants(top)):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return 1000 * total / os.sysconf("SC_CLK_TCK")


def load() -> float:
    return os.getloadavg()[0]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def scenario(port: int, students: int, steps: int, spread: bool, pids: list[int]) -> dict:
    base = f"http://127.0.0.1:{port}"
    cls = requests.post(f"{base}/api/classes", json={"tree": "aima-fig-5-2",
                                                     "algorithm": "alphabeta"}, timeout=10).json()
    code, token = cls["code"], cls["instructor"]
    instructor = Peer(port)
    # Students from 8 loopback networks (ip_hash spreads them behind nginx;
    # on one process, one address may hold at most CLASS_JOINS_PER_ADDRESS places).
    pupils = [Peer(port, f"127.0.{i % 8}.{2 + i // 8}" if spread else f"127.0.0.{2 + i % 8}")
              for i in range(students)]
    room = Room([instructor, *pupils])
    try:
        room.call(instructor, "present", {"code": code, "token": token, "live": True})
        for p in pupils:
            room.call(p, "join", {"code": code})
        room.pump(0.5)
        for p in pupils:
            p.events.clear()

        # Steps: latency from the instructor's message to each student.
        sent = {}
        cpu0, load0 = cpu_ms(pids), load()
        for k in range(1, steps + 1):
            sent[k] = time.perf_counter()
            room.call(instructor, "step", {"code": code, "token": token, "step": k})
            room.pump(0.08)
        room.pump(1.0)
        cpu_per_step = (cpu_ms(pids) - cpu0) / steps
        load1 = load()
        lat, missing, order_ok = [], 0, True
        for p in pupils:
            got = [(t, d["step"]) for t, name, d in p.events if name == "state"]
            order_ok &= [s for _, s in got] == list(range(1, steps + 1))
            missing += steps - len(got)
            lat += [(t - sent[s]) * 1000 for t, s in got]

        # Answers: every student answers once, spread over one second.
        room.call(instructor, "step", {"code": code, "token": token, "step": 0})
        q = room.call(instructor, "ask", {"code": code, "token": token, "kind": "value",
                                          "node": "B"})["state"]["question"]
        room.pump(0.3)
        instructor.events.clear()
        start = time.perf_counter()
        asked = []
        for i, p in enumerate(pupils):
            due = start + i / len(pupils)
            while time.perf_counter() < due:
                room.pump(min(0.002, max(0.0, due - time.perf_counter())))
            asked.append((p, p.emit("answer", {"code": code, "question": q["id"],
                                               "answer": "3" if i % 3 else "12"})))
        last_sent = time.perf_counter()
        deadline = last_sent + 10
        while time.perf_counter() < deadline and not any(
                name == "tally" and d["answers"] == len(pupils) for _, name, d in instructor.events):
            room.pump(0.005)
        tally_at = next((t for t, name, d in instructor.events
                         if name == "tally" and d["answers"] == len(pupils)), None)
        room.pump(0.3)
        accepted = sum(1 for p, a in asked if p.acks.get(a, {}).get("accepted"))
        refused: dict[str, int] = {}
        for p, a in asked:
            ack = p.acks.get(a)
            why = "no answer" if ack is None else None if ack.get("ok") else ack["error"]["message"]
            if why:
                refused[why] = refused.get(why, 0) + 1
        if refused:
            print("answers not accepted:", refused, file=sys.stderr)
        t_reveal = time.perf_counter()
        chart = room.call(instructor, "reveal", {"code": code, "token": token})["state"]["tally"]["chart"]
        reveal_ms = (time.perf_counter() - t_reveal) * 1000
        assert chart["answers"] == [accepted], chart
        # Tallies from two processes may arrive out of order; the page keeps the largest.
        final = max((d for _, name, d in instructor.events if name == "tally"),
                    key=lambda d: d["answers"])
        return {
            "received": len(lat), "expected": students * steps, "missing": missing,
            "in_order": order_ok, "cpu_per_step": cpu_per_step, "load": (load0 + load1) / 2,
            "p50": statistics.median(lat), "p95": percentile(lat, 0.95), "max": max(lat),
            "answers_sent_in_s": last_sent - start, "accepted": accepted,
            "tallied": final["answers"], "right": final["right"],
            "tally_after_last_ms": (tally_at - last_sent) * 1000 if tally_at else None,
            "reveal_ms": reveal_ms,
        }
    finally:
        for p in [instructor, *pupils]:
            p.close()


def recovery(students: int) -> None:
    """Seconds from kill -9 of one of two processes until each of its students
    is back in the class (on the other process, through nginx)."""
    import signal

    from tests.classes.services import Phone
    from tests.classes.test_faults import upstream_of, wait_for

    with tempfile.TemporaryDirectory() as tmp:
        svc = Services(Path(tmp))
        try:
            mq = svc.redis(aof=True)
            ports = {"app1": svc.gunicorn(mq, "app1"), "app2": svc.gunicorn(mq, "app2")}
            port = svc.nginx(list(ports.values()))
            cls = requests.post(f"http://127.0.0.1:{port}/api/classes",
                                json={"tree": "aima-fig-5-2"}, timeout=10).json()
            sources = [f"127.0.{i % 8}.{2 + i // 8}" for i in range(students)]
            where = {s: upstream_of(svc, port, s) for s in sources}
            phones = [Phone(port, s, cls["code"]) for s in sources]
            hit = [p for p in phones if where[p.source] == where[sources[0]]]
            victim = next(n for n, p in ports.items() if where[sources[0]].endswith(f":{p}"))
            before = load()
            svc.stop(victim, signal.SIGKILL)
            killed = time.monotonic()
            wait_for(lambda: all(p.back for p in hit), timeout=30, what="every student back")
            back = [p.back[-1] - killed for p in hit]
            for p in phones:
                p.close()
        finally:
            svc.close()
    print(f"{students} students, {len(hit)} on the killed process, load average {before:.1f}: "
          f"back after p50 {statistics.median(back):.2f} s, p95 {percentile(back, 0.95):.2f} s, "
          f"max {max(back):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--recovery", type=int, metavar="N",
                        help="time the students' recovery after kill -9 of one process instead")
    args = parser.parse_args()
    if args.recovery:
        recovery(args.recovery)
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        svc = Services(Path(tmp))
        try:
            single = svc.app(None, "single")
            rows.append(("one process", scenario(single, args.students, args.steps, False,
                                                 svc.pids("single"))))
            green = svc.gunicorn(None, "gevent")
            rows.append(("one process, gunicorn + gevent",
                         scenario(green, args.students, args.steps, False, svc.pids("gevent"))))
            mq = svc.redis()
            a, b = svc.app(mq, "app1"), svc.app(mq, "app2")
            port = svc.nginx([a, b])
            rows.append(("2 processes + nginx + Redis",
                         scenario(port, args.students, args.steps, True,
                                  svc.pids("app1", "app2", "redis", "nginx"))))
            spread = {}
            for line in svc.access_log().splitlines():
                if "transport=websocket" in line:
                    up = line.split()[1]
                    spread[up] = spread.get(up, 0) + 1
            g1, g2 = svc.gunicorn(mq, "green1"), svc.gunicorn(mq, "green2")
            port2 = svc.nginx([g1, g2], "nginx2")
            rows.append(("2 × gunicorn + gevent, nginx, Redis",
                         scenario(port2, args.students, args.steps, True,
                                  svc.pids("green1", "green2", "redis", "nginx2"))))
        finally:
            svc.close()
    print(f"{args.students} students, {args.steps} steps each; "
          f"connections per process behind nginx: {sorted(spread.values())}")
    print("| set-up | steps received | in order | p50 ms | p95 ms | max ms | server CPU ms / step "
          "| load avg | answers sent in | counted | tally after last answer | reveal with the chart |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        tally = f"{r['tally_after_last_ms']:.0f} ms" if r["tally_after_last_ms"] is not None else "never"
        print(f"| {name} | {r['received']:,} / {r['expected']:,} | {'yes' if r['in_order'] else 'NO'} "
              f"| {r['p50']:.1f} | {r['p95']:.1f} | {r['max']:.1f} | {r['cpu_per_step']:.1f} "
              f"| {r['load']:.1f} | {r['answers_sent_in_s']:.2f} s "
              f"| {r['accepted']} accepted, {r['tallied']} tallied | {tally} "
              f"| {r['reveal_ms']:.0f} ms |")


if __name__ == "__main__":
    main()
