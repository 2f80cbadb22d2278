"""Homework under load (issue 22): 300 students submitting one exercise within
a minute to one server process, then the instructor's dashboard of those 300.

For each store, side by side in one run: SQLite (the embedded default, WAL)
and PostgreSQL (a throw-away cluster on loopback, as the tests start it).
One ``run.py`` process per store (Werkzeug threads). Each student registers
(not timed), then submits their own random tree's cuts at a moment spread
evenly over ``--seconds``; a submission's latency is the time from sending
it to its graded answer (grading by practice's key, attempt numbered and
stored in one transaction). Then the dashboard: ``GET .../results`` (every
submission read, scores and the most common mistakes made) and the page
itself in Chromium until its tables are filled.

    .venv/bin/python bench/assignments.py [--students 300] [--seconds 60] [--postgres-first]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from bench.common import free_port  # noqa: E402
from tests.assignments.postgres import cluster  # noqa: E402

EXERCISE = {"tree": "random", "mode": "cuts", "branching": 3, "depth": 3}


def serve(db_url: str | None, instance: str):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if db_url:
        env["DATABASE_URL"] = db_url
    proc = subprocess.Popen([sys.executable, "run.py", "--port", str(port), "--instance", instance],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if requests.get(f"{base}/healthz", timeout=1).ok:
                return proc, base
        except requests.RequestException:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_store(name: str, db_url: str | None, students: int, seconds: float) -> dict:
    instance = tempfile.mkdtemp(prefix="bench-hw-")
    proc, base = serve(db_url, instance)
    try:
        made = requests.post(f"{base}/api/assignments", timeout=10, json={
            "title": "Bench", "exercises": [EXERCISE], "attempts": None}).json()
        aid, key = made["id"], made["instructor"]
        s = requests.Session()
        tokens = [s.post(f"{base}/api/assignments/{aid}/students", timeout=10,
                         json={"student": f"S{n:05d}"}).json()["token"] for n in range(students)]
        trees = [s.get(f"{base}/api/assignments/{aid}/me", timeout=10,
                       headers={"X-Student-Token": t}).json()["exercises"][0]["tree"] for t in tokens]
        assert len(set(trees)) == students
        local = threading.local()
        latencies: list[float] = []
        failures: list[int] = []
        start = time.monotonic() + 0.5
        cpu0 = cpu_seconds(proc.pid)
        load0 = os.getloadavg()[0]

        def submit(n: int):
            if not hasattr(local, "s"):
                local.s = requests.Session()
            time.sleep(max(0.0, start + n * seconds / students - time.monotonic()))
            t0 = time.perf_counter()
            r = local.s.post(f"{base}/api/assignments/{aid}/me/exercises/0", timeout=30,
                             headers={"X-Student-Token": tokens[n]},
                             json={"answers": {"pruned": []}})
            elapsed = time.perf_counter() - t0
            if r.status_code != 200 or "score" not in r.json():
                failures.append(r.status_code)
            latencies.append(elapsed)

        with ThreadPoolExecutor(32) as pool:
            list(pool.map(submit, range(students)))
        cpu = cpu_seconds(proc.pid) - cpu0
        load1 = os.getloadavg()[0]
        dash = []
        for _ in range(5):
            t0 = time.perf_counter()
            res = s.get(f"{base}/api/assignments/{aid}/results", timeout=30,
                        headers={"Authorization": f"Bearer {key}"})
            dash.append(time.perf_counter() - t0)
            assert len(res.json()["students"]) == students
        page = page_time(base, made["dashboard"], students)
        lat = sorted(latencies)
        return {"store": name, "n": len(lat), "failed": len(failures),
                "p50": statistics.median(lat) * 1000, "p95": lat[int(0.95 * len(lat)) - 1] * 1000,
                "max": lat[-1] * 1000, "cpu_ms": cpu / students * 1000,
                "load": f"{load0:.1f}-{load1:.1f}", "results_ms": statistics.median(dash) * 1000,
                "page_ms": page * 1000}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def page_time(base: str, dashboard: str, students: int) -> float:
    """The dashboard page in Chromium: navigation start to both tables filled (median of 3)."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless=new", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        for _ in range(3):
            t0 = time.perf_counter()
            page.goto(base + dashboard.replace("#", "?fresh=1#"))
            page.wait_for_selector("#dashboard.ready")
            times.append(time.perf_counter() - t0)
            assert page.text_content("[data-students]") == str(students)
        browser.close()
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--postgres-first", action="store_true",
                    help="run PostgreSQL before SQLite (the second store meets the load the first left)")
    args = ap.parse_args()
    rows = []
    with cluster() as url:
        stores = [("SQLite (WAL)", None), ("PostgreSQL 15", url)]
        for name, db in (stores[::-1] if args.postgres_first else stores):
            rows.append(one_store(name, db, args.students, args.seconds))
    print(f"{args.students} students, submissions spread over {args.seconds:.0f} s, one run.py process")
    print("| store | submissions | failed | p50 ms | p95 ms | max ms | server CPU ms / submission "
          "| load avg (start-end) | results JSON ms | dashboard page ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['store']} | {r['n']} | {r['failed']} | {r['p50']:.0f} | {r['p95']:.0f} | "
              f"{r['max']:.0f} | {r['cpu_ms']:.1f} | {r['load']} | {r['results_ms']:.0f} | "
              f"{r['page_ms']:.0f} |")


if __name__ == "__main__":
    main()
