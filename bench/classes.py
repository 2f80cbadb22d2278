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

5. ``--cpu ROUNDS``: instead, the server CPU per delivered step. Four
   classes of ``--students`` at once, each joined once: the app on one
   gunicorn (gevent worker) and on two behind nginx + Redis, and beside each
   a bare Flask-SocketIO broadcast of the same ``state`` (bench/bare_broadcast.py)
   run the same way; then ROUNDS rounds of ``--steps`` steps, the four
   interleaved in a rotated order. Each process's CPU time (utime + stime
   from /proc, its workers included) over a round's steps, over the
   ``state`` messages it delivered (which process serves a student is
   nginx's ip_hash of its network, read from nginx's access log); Redis's
   and nginx's CPU beside. Two cores run everything, so only ratios within
   a round mean much: two processes ÷ one, and the app ÷ the bare broadcast.

    .venv/bin/python bench/classes.py [--students 200] [--steps 40] [--recovery 32 | --cpu 8]
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
        self.source = source
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


# -- CPU per delivered step: one process against two behind Redis (issue 30 point 5) --

def bare_gunicorn(svc: Services, mq: str | None, name: str) -> int:
    """bench/bare_broadcast.py under gunicorn's gevent worker (the app's worker
    class), on a free port: the anchor's server, run as the app's is."""
    from tests.classes.services import free_port

    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("MESSAGE_QUEUE", None)
    if mq:
        env["MESSAGE_QUEUE"] = mq
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    svc._start(name, [gunicorn, "-k", "gevent", "-w", "1",
                      "--worker-connections", "4000", "-b", f"127.0.0.1:{port}",
                      "--log-level", "warning", "bench.bare_broadcast:app"], port, env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5).ok:
                return port
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{name} did not answer within 60 s")


def upstreams(svc: Services, nginx: str, port: int, ports: dict[int, str]) -> dict[str, str]:
    """Loopback network (127.0.n) -> the app process nginx's ip_hash sends it to
    (ip_hash keys on an address's first three octets): one WebSocket from each
    network, opened and closed, then read from nginx's access log (written as
    a connection ends)."""
    for n in range(8):
        Peer(port, f"127.0.{n}.250").close()
    where: dict[str, str] = {}
    deadline = time.monotonic() + 10
    while len(where) < 8 and time.monotonic() < deadline:
        time.sleep(0.1)
        for line in svc.access_log(nginx).splitlines():
            parts = line.split()
            if len(parts) > 2 and "transport=websocket" in line and ":" in parts[1]:
                up = ports.get(int(parts[1].rsplit(":", 1)[1]), parts[1])
                where[parts[0].rsplit(".", 1)[0]] = up
    assert len(where) == 8, where
    return where


IDLE = 20.0
"""Seconds every process is read idle (students connected, nothing sent):
a process's own upkeep, which a second process doubles."""

TEMPLATE = {"code": "BARE01", "tree": "aima-fig-5-2", "options": {}, "step": 0, "seq": 0,
            "ended": None, "question": None}


class Lecture:
    """One class (the app's, or the bare broadcast's) of ``students`` on
    ``port``, joined once and kept open over the rounds; ``procs`` (name ->
    pid) are the processes whose CPU a round reads, ``where`` maps a loopback
    network to the app process serving it (None: one process)."""

    def __init__(self, port: int, students: int, bare: bool, procs: dict[str, int],
                 where: dict[str, str] | None):
        self.procs, self.where, self.bare = procs, where, bare
        if bare:
            self.code, self.token = "BARE01", None
        else:
            cls = requests.post(f"http://127.0.0.1:{port}/api/classes",
                                json={"tree": "aima-fig-5-2", "algorithm": "alphabeta"},
                                timeout=10).json()
            self.code, self.token = cls["code"], cls["instructor"]
        self.instructor = Peer(port)
        self.pupils = [Peer(port, f"127.0.{i % 8}.{2 + i // 8}") for i in range(students)]
        self.everyone = [self.instructor, *self.pupils]
        self.k = 0
        self.idle: dict[str, float] = {}
        """ms of CPU a second each process spends idle, its students connected."""

    def join(self, room: Room) -> None:
        if self.bare:
            room.call(self.instructor, "present", {"code": self.code, "state": TEMPLATE})
        else:
            room.call(self.instructor, "present", {"code": self.code, "token": self.token,
                                                   "live": True})
        for p in self.pupils:
            room.call(p, "join", {"code": self.code})

    def round(self, room: Room, steps: int) -> dict:
        """``steps`` steps, 80 ms apart: the CPU of each process over them, the
        ``state`` messages each delivered, and the latencies."""
        room.pump(0.3)
        for p in self.everyone:
            p.events.clear()
        sent = {}
        load0 = load()
        cpu0, t0 = {n: cpu_ms([pid]) for n, pid in self.procs.items()}, time.perf_counter()
        for _ in range(steps):
            self.k += 1
            sent[self.k] = time.perf_counter()
            payload = {"code": self.code, "step": self.k}
            if self.token:
                payload["token"] = self.token
            room.call(self.instructor, "step", payload)
            room.pump(0.08)
        room.pump(1.0)
        cpu = {n: cpu_ms([pid]) - cpu0[n] for n, pid in self.procs.items()}
        window = time.perf_counter() - t0
        last: dict[int, float] = {}
        lat, delivered, missing = [], {}, 0
        for p in self.everyone:
            got = [(t, d["step"]) for t, name, d in p.events if name == "state"]
            missing += steps - len(got)
            at = self.where[p.source.rsplit(".", 1)[0]] if self.where is not None else "one"
            delivered[at] = delivered.get(at, 0) + len(got)
            for t, k in got:
                ms = (t - sent[k]) * 1000
                last[k] = max(last.get(k, 0.0), ms)
                if p is not self.instructor:
                    lat.append(ms)
        return {"cpu": cpu, "idle": {n: self.idle.get(n, 0.0) * window for n in cpu},
                "delivered": delivered, "missing": missing,
                "load": (load0 + load()) / 2,
                "to_last": statistics.median(last.values()), "p95": percentile(lat, 0.95)}

    def close(self) -> None:
        for p in self.everyone:
            p.close()


def cpu_per_delivered(rounds: int, students: int, steps: int) -> None:
    """Four set-ups, each on gunicorn's gevent worker: the app and the bare
    broadcast, each on one process and on two behind nginx (ip_hash) with
    Redis as the message queue. Every class is joined once; then rounds of
    ``steps`` steps each, the set-ups interleaved in a rotated order. One
    selector reads every connection throughout (the idle classes answer
    their pings)."""
    with tempfile.TemporaryDirectory() as tmp:
        svc = Services(Path(tmp))
        lectures: dict[str, Lecture] = {}
        try:
            mq = svc.redis()
            one = svc.gunicorn(None, "one")
            two = {svc.gunicorn(mq, "app-a"): "app-a", svc.gunicorn(mq, "app-b"): "app-b"}
            two_port = svc.nginx(list(two), "nginx-app")
            bare = bare_gunicorn(svc, None, "bare")
            btwo = {bare_gunicorn(svc, mq, "bare-a"): "bare-a",
                    bare_gunicorn(svc, mq, "bare-b"): "bare-b"}
            btwo_port = svc.nginx(list(btwo), "nginx-bare")
            pid = {n: p for n in ("one", "app-a", "app-b", "bare", "bare-a", "bare-b", "redis",
                                  "nginx-app", "nginx-bare") for p in svc.pids(n)}
            setups = {
                "app, one process": (one, False, ["one"], None),
                "app, 2 processes + Redis": (two_port, False, ["app-a", "app-b", "redis", "nginx-app"],
                                             upstreams(svc, "nginx-app", two_port, two)),
                "bare, one process": (bare, True, ["bare"], None),
                "bare, 2 processes + Redis": (btwo_port, True, ["bare-a", "bare-b", "redis", "nginx-bare"],
                                              upstreams(svc, "nginx-bare", btwo_port, btwo)),
            }
            for name, (port, is_bare, procs, where) in setups.items():
                lectures[name] = Lecture(port, students, is_bare, {n: pid[n] for n in procs}, where)
            room = Room([p for lec in lectures.values() for p in lec.everyone])
            for lec in lectures.values():
                lec.join(room)
            room.pump(1.0)
            every = {n: p for lec in lectures.values() for n, p in lec.procs.items()}
            idle0, i0 = {n: cpu_ms([p]) for n, p in every.items()}, time.perf_counter()
            room.pump(IDLE)
            idle = {n: (cpu_ms([p]) - idle0[n]) / (time.perf_counter() - i0) for n, p in every.items()}
            print(f"idle, ms of CPU a second: {idle}", file=sys.stderr, flush=True)
            for lec in lectures.values():
                lec.idle = idle
            names = list(setups)
            runs: dict[str, list[dict]] = {n: [] for n in names}
            for r in range(rounds):
                for name in names[r % 4:] + names[:r % 4]:     # a rotated order each round
                    out = lectures[name].round(room, steps)
                    runs[name].append(out)
                    print(f"round {r + 1} {name}: {out}", file=sys.stderr, flush=True)
        finally:
            for lec in lectures.values():
                lec.close()
            svc.close()
    report(runs, students, steps)


def report(runs: dict[str, list[dict]], students: int, steps: int) -> None:
    med = statistics.median

    def per_msg(out: dict, servers, net: bool = False) -> float:
        """Server CPU in µs per delivered message (of ``servers``); ``net``:
        less what the same processes spent idle for as long."""
        cpu = sum(v - (out["idle"][n] if net else 0) for n, v in out["cpu"].items()
                  if n in servers)
        return 1000 * cpu / max(1, sum(out["delivered"].values()))

    apps = {"one", "app-a", "app-b", "bare", "bare-a", "bare-b"}
    print(f"{students} students, {steps} steps a round, {len(next(iter(runs.values())))} "
          f"interleaved rounds; medians over rounds (min-max)")
    print("| set-up | delivered / round | per process | app CPU µs / delivered | "
          "net of idle | + Redis + nginx µs | to the last student ms (median step) | p95 ms | load |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    stats = {}
    for name, outs in runs.items():
        own = [per_msg(o, apps) for o in outs]
        total = [per_msg(o, list(o["cpu"])) for o in outs]
        each = {}
        for o in outs:
            for n in o["cpu"]:
                if n in apps and o["delivered"]:
                    d = o["delivered"].get(n, o["delivered"].get("one", 0))
                    each.setdefault(n, []).append(1000 * o["cpu"][n] / max(1, d))
        net = [per_msg(o, apps, True) for o in outs]
        stats[name] = {"cpu": own, "net": net, "to_last": [o["to_last"] for o in outs],
                       "pooled": 1000 * sum(v for o in outs for n, v in o["cpu"].items() if n in apps)
                       / max(1, sum(sum(o["delivered"].values()) for o in outs))}
        print(f"| {name} | {med([sum(o['delivered'].values()) for o in outs]):,.0f} "
              f"(missing {sum(o['missing'] for o in outs)}) "
              f"| {', '.join(f'{n} {med(v):.0f} µs' for n, v in each.items())} "
              f"| **{med(own):.0f}** ({min(own):.0f}-{max(own):.0f}) | {med(net):.0f} "
              f"| {med(total):.0f} | {med(stats[name]['to_last']):.1f} "
              f"| {med([o['p95'] for o in outs]):.1f} "
              f"| {min(o['load'] for o in outs):.1f}-{max(o['load'] for o in outs):.1f} |")

    def ratio(a: str, b: str, key: str) -> str:
        rs = [x / max(y, 1e-9) for x, y in zip(stats[a][key], stats[b][key])]
        return f"{med(rs):.2f} ({min(rs):.2f}-{max(rs):.2f})"

    def pooled(a: str, b: str) -> str:
        return f"{stats[a]['pooled'] / max(stats[b]['pooled'], 1e-9):.2f}"

    print(f"- app CPU per delivered, two + Redis ÷ one: {ratio('app, 2 processes + Redis', 'app, one process', 'cpu')}, "
          f"all rounds pooled {pooled('app, 2 processes + Redis', 'app, one process')} (goal ≤ 1.20)")
    print(f"- the same net of idle upkeep: app {ratio('app, 2 processes + Redis', 'app, one process', 'net')}, "
          f"bare {ratio('bare, 2 processes + Redis', 'bare, one process', 'net')}")
    print(f"- bare CPU per delivered, two + Redis ÷ one: {ratio('bare, 2 processes + Redis', 'bare, one process', 'cpu')}, "
          f"pooled {pooled('bare, 2 processes + Redis', 'bare, one process')}")
    print(f"- app ÷ bare CPU per delivered, one process: {ratio('app, one process', 'bare, one process', 'cpu')}; "
          f"two: {ratio('app, 2 processes + Redis', 'bare, 2 processes + Redis', 'cpu')}")
    print(f"- to the last student, app ÷ bare, one process: {ratio('app, one process', 'bare, one process', 'to_last')}; "
          f"two + Redis: {ratio('app, 2 processes + Redis', 'bare, 2 processes + Redis', 'to_last')} (goal ≤ 1.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--recovery", type=int, metavar="N",
                        help="time the students' recovery after kill -9 of one process instead")
    parser.add_argument("--cpu", type=int, metavar="ROUNDS",
                        help="server CPU per delivered step, one process vs two behind Redis, "
                             "each beside a bare Flask-SocketIO broadcast, in ROUNDS interleaved "
                             "rounds (gunicorn + gevent) instead")
    args = parser.parse_args()
    if args.cpu:
        cpu_per_delivered(args.cpu, args.students, args.steps)
        return
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
