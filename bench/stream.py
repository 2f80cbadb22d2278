"""How fast does a run stream over a real socket, by batch size? (issue: visualizer, server)

Starts ``run.py`` on a free port (a process of its own, as in a lecture),
uploads a seeded random tree (branching 6, depth 6: about 99,000 minimax
events) and pulls runs over a WebSocket with python-socketio's client,
``count`` events per ``pull``. Batches of 1 are timed on the first
``--single`` events only (a whole run would take minutes); the figure
compared is events per second.

Then memory: the server's resident size (from /proc) idle, after ten
clients have each pulled the whole run and gone, and after one client has
pulled the whole of tic-tac-toe (minimax on ``game:tictactoe``, 1.4 million
events, searched lazily) and gone (goal: back within 20 MB of idle).

    .venv/bin/python bench/stream.py [--single 20000] [--transport websocket|polling]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from common import free_port, notation
import socketio

REPO = Path(__file__).resolve().parents[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def whole_run(base: str, transport: str, tree: str, algorithm: str = "minimax") -> int:
    """One client pulls a whole run, 1,000 at a time, then goes."""
    client = socketio.Client(reconnection=False)
    client.connect(base, transports=[transport], wait_timeout=10)
    try:
        run = client.call("start", {"tree": tree, "algorithm": algorithm}, timeout=30)["run"]
        got = 0
        while True:
            reply = client.call("pull", {"run": run, "count": 1000, "encoding": "json"}, timeout=60)
            got += len(json.loads(reply["events_json"]))
            if reply["done"]:
                return got
    finally:
        client.disconnect()


def pull_rate(client: socketio.Client, tree: str, count: int, limit: int | None) -> tuple[int, float]:
    """(events, seconds) pulling one minimax run ``count`` at a time."""
    run = client.call("start", {"tree": tree, "algorithm": "minimax"}, timeout=30)["run"]
    got, started = 0, time.perf_counter()
    while limit is None or got < limit:
        reply = client.call("pull", {"run": run, "count": count}, timeout=30)
        got += len(reply["events"])
        if reply["done"]:
            break
    seconds = time.perf_counter() - started
    client.call("close", {"run": run}, timeout=30)
    return got, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", type=int, default=20_000, help="events timed at batch size 1")
    parser.add_argument("--transport", default="websocket", choices=("websocket", "polling"))
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory() as instance:
        server = subprocess.Popen([sys.executable, "run.py", "--port", str(port),
                                   "--instance", instance], cwd=REPO,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    requests.get(base + "/api/trees", timeout=1)
                    break
                except requests.ConnectionError:
                    time.sleep(0.1)
            text = notation(random.Random(2024), 6, 6)
            tree = requests.post(base + "/api/trees", data=text, timeout=30,
                                 headers={"Content-Type": "text/plain"}).json()["id"]
            client = socketio.Client(reconnection=False)
            client.connect(base, transports=[args.transport], wait_timeout=10)
            print(f"{args.transport}, minimax on a 55,987-node tree; run.py in its own process")
            rates = {}
            for count, limit in ((1000, None), (100, None), (10, None), (1, args.single)):
                cpu = cpu_seconds(server.pid)
                events, seconds = pull_rate(client, tree, count, limit)
                cpu = cpu_seconds(server.pid) - cpu
                rates[count] = events / seconds
                print(f"batch {count:>5}: {events:>7,} events in {seconds:6.2f} s "
                      f"= {rates[count]:>9,.0f} events/s; server CPU {cpu:5.2f} s")
            client.disconnect()
            print(f"batches of 100 vs 1: {rates[100] / rates[1]:.1f}x the throughput")
            time.sleep(2)
            idle = rss_mb(server.pid)
            print(f"server RSS idle: {idle:.0f} MB")
            for _ in range(10):
                whole_run(base, args.transport, tree)
            time.sleep(3)
            print(f"after 10 clients pulled the whole run and left: {rss_mb(server.pid):.0f} MB "
                  f"({rss_mb(server.pid) - idle:+.0f} MB)")
            started = time.perf_counter()
            events = whole_run(base, args.transport, "game:tictactoe")
            seconds = time.perf_counter() - started
            time.sleep(3)
            print(f"whole tic-tac-toe (minimax, lazily): {events:,} events in {seconds:.1f} s "
                  f"= {events / seconds:,.0f} events/s; then RSS {rss_mb(server.pid):.0f} MB "
                  f"({rss_mb(server.pid) - idle:+.0f} MB from idle)")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
