"""Another client's wait while the instructor asks the first question on a big tree.

The first ``ask`` of a class computes its answer key: a search of the tree
(0.6 s on the 65,535-node ``r-b2-d15``). Before, that ran inside the Socket.IO
handler; under gunicorn's gevent worker nothing else of the process was
served meanwhile. Now it is heavy work (app.web.offload).

Servers side by side (``--repo DIR``: an export of the code before), each as
``run.py`` and as gunicorn with ``deploy/gunicorn.conf.py`` (one gevent
worker); rounds interleaved. A round, per server: a new class on a fresh
random tree (``r-b2-d15-s<n>``, so no key is cached), an instructor and a
student on ``/class``; the student sends ``mine`` (a cheap message) every
10 ms, its acknowledgement timed, while the instructor asks. Reported: the
ask's time and the worst ``mine`` wait that overlapped it.

    .venv/bin/python bench/class_ask.py --repo /tmp/old [--rounds 5]
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
import socketio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.server_load import start  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TREE = "r-b2-d15-s{n}"


def client(url: str) -> socketio.Client:
    sio = socketio.Client(reconnection=False)
    sio.connect(url, namespaces=["/class"], transports=["websocket"])
    return sio


def one_round(url: str, n: int) -> dict:
    res = requests.post(url + "/api/classes", json={"tree": TREE.format(n=n),
                                                    "algorithm": "alphabeta"}, timeout=60)
    res.raise_for_status()
    cls = res.json()
    inst, student = client(url), client(url)
    try:
        ack = inst.call("present", {"code": cls["code"], "token": cls["instructor"]},
                        namespace="/class", timeout=30)
        assert ack["ok"], ack
        ack = student.call("join", {"code": cls["code"]}, namespace="/class", timeout=30)
        assert ack["ok"], ack
        pings: list[tuple[float, float]] = []
        stop = threading.Event()

        def ping():
            while not stop.is_set():
                sent = time.perf_counter()
                got = student.call("mine", {"code": cls["code"]}, namespace="/class",
                                   timeout=30)
                assert got["ok"], got
                pings.append((sent, time.perf_counter()))
                time.sleep(0.01)

        pinger = threading.Thread(target=ping)
        pinger.start()
        time.sleep(0.3)
        began = time.perf_counter()
        ack = inst.call("ask", {"code": cls["code"], "token": cls["instructor"],
                                "kind": "move"}, namespace="/class", timeout=60)
        ended = time.perf_counter()
        time.sleep(0.3)
        stop.set()
        pinger.join()
        assert ack["ok"], ack
        during = [b - a for a, b in pings if a < ended and b > began]
        quiet = [b - a for a, b in pings if b < began]
        return {"ask": ended - began, "worst": max(during), "pings": len(during),
                "quiet": statistics.median(quiet)}
    finally:
        inst.disconnect()
        student.disconnect()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", type=Path, required=True, help="the code before")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    servers = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for kind in ("run", "gunicorn"):
                for name, repo in (("before", args.repo), ("after", REPO)):
                    proc, url, _ = start(kind, Path(tmp) / f"{kind}-{name}", repo)
                    servers[f"{kind} {name}"] = (proc, url)
            print("load before:", open("/proc/loadavg").read().strip())
            got: dict[str, list[dict]] = {k: [] for k in servers}
            for r in range(args.rounds):
                order = list(servers)[r % len(servers):] + list(servers)[:r % len(servers)]
                for k, name in enumerate(order):
                    got[name].append(one_round(servers[name][1], 1000 * r + k + 1))
            print("load after:", open("/proc/loadavg").read().strip())
            for name, rows in got.items():
                print(f"{name:16} ask median {statistics.median(x['ask'] for x in rows):.2f} s; "
                      f"another client's worst wait during it: median "
                      f"{statistics.median(x['worst'] for x in rows) * 1000:.0f} ms, max "
                      f"{max(x['worst'] for x in rows) * 1000:.0f} ms "
                      f"({sum(x['pings'] for x in rows)} pings); quiet median "
                      f"{statistics.median(x['quiet'] for x in rows) * 1000:.1f} ms")
                print(f"{'':16} worst per round (ms):",
                      " ".join(f"{x['worst'] * 1000:.0f}" for x in rows))
        finally:
            for proc, _ in servers.values():
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(10)


if __name__ == "__main__":
    main()
