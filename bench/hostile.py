"""One hostile client against one server process, measured from outside
(issue 17), side by side for this checkout and another (``--repo DIR``, an
export of the code before):

1. **the Nim request**: ``POST /api/play {"position": "game:nim:40"}`` and
   ``GET /api/trees/game:nim:40``: status and seconds (30 s at most), and
   ``/healthz`` from another client meanwhile;
2. **800 sockets from one address** (127.0.0.1, each a Socket.IO WebSocket
   that answers pings, held open), and beside them another client's
   (127.0.0.2) ``GET /``: status and seconds (10 s at most), 20 times.

    .venv/bin/python bench/hostile.py [--server run|gunicorn] [--repo DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from bench.server_load import start  # noqa: E402


def from_address(source: str, port: int, path: str, timeout: float) -> tuple[object, float]:
    """``GET path`` from ``source``: (status or the error's name, seconds)."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                      source_address=(source, 0)) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         "Connection: close\r\n\r\n".encode())
            head = sock.recv(64)
        status = int(head.split()[1]) if head else "closed"
    except OSError as exc:
        status = type(exc).__name__
    return status, round(time.monotonic() - started, 3)


def nim(url: str, port: int) -> dict:
    out = {}
    probes: list = []
    stop = threading.Event()

    def probe():
        while not stop.is_set():
            probes.append(from_address("127.0.0.2", port, "/healthz", 10)[1])
            time.sleep(0.2)

    t = threading.Thread(target=probe)
    t.start()
    for name, call in (("play", lambda: requests.post(url + "/api/play", timeout=30,
                                                      json={"position": "game:nim:40"})),
                       ("tree", lambda: requests.get(url + "/api/trees/game:nim:40",
                                                     timeout=30))):
        started = time.monotonic()
        try:
            status = call().status_code
        except requests.RequestException as exc:
            status = type(exc).__name__
        out[name] = {"status": status, "s": round(time.monotonic() - started, 2)}
    stop.set()
    t.join()
    out["healthz_max_s"] = max(probes) if probes else None
    return out


class Pinger:
    """800 Engine.IO WebSockets from one address, each answering pings."""

    def __init__(self, port: int, count: int):
        import websocket

        self.socks, self.refused = [], 0
        for _ in range(count):
            try:
                ws = websocket.create_connection(
                    f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", timeout=10)
                ws.recv()
                self.socks.append(ws)
            except Exception:  # noqa: BLE001 (refused: counted)
                self.refused += 1
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.pong, daemon=True)
        self.thread.start()

    def pong(self):
        while not self.stop.is_set():
            for ws in list(self.socks):
                try:
                    ws.settimeout(0.001)
                    if ws.recv() == "2":
                        ws.send("3")
                except Exception:  # noqa: BLE001 (nothing to read)
                    pass
            time.sleep(0.5)

    def close(self):
        self.stop.set()
        for ws in self.socks:
            try:
                ws.close()
            except Exception:  # noqa: BLE001
                pass


def crowd(port: int, count: int = 800) -> dict:
    pinger = Pinger(port, count)
    try:
        time.sleep(1)
        other = [from_address("127.0.0.2", port, "/", 10) for _ in range(20)]
    finally:
        pinger.close()
    ok = [s for st, s in other if st == 200]
    return {"held": len(pinger.socks), "refused": pinger.refused,
            "other_200": len(ok), "other_of": len(other),
            "other_median_s": statistics.median(s for _, s in other),
            "other_max_s": max(s for _, s in other),
            "other_statuses": sorted({str(st) for st, _ in other})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("gunicorn", "run"), default="run")
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    proc, url, _ = start(args.server, Path(tempfile.mkdtemp()) / "instance", args.repo)
    port = int(url.rsplit(":", 1)[1])
    try:
        figures = {"server": args.server, "repo": "this" if args.repo == REPO else str(args.repo),
                   "nim": nim(url, port), "crowd": crowd(port)}
    finally:
        import signal
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    figures["load_avg"] = [round(load, 1), round(os.getloadavg()[0], 1)]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
