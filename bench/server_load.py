"""A lecture hall's load on one server process, measured from outside.

Starts the server (gunicorn with its gevent worker, as deployed, or
``python run.py`` with ``--server run``) on a free 127.0.0.1 port and a
fresh instance folder, then at once:

* 20 uploaders x 50 distinct uploads each (random trees of 15-120 nodes);
* 20 tracers, each fetching 25 whole traces (lecture trees and a 1,093-node
  random tree, several algorithms);
* 30 Socket.IO clients streaming big runs (minimax on 87,381-node random
  trees, 5 distinct trees, 60 pulls of 1,000 events each, one client after
  the other starting);
* one prober timing ``GET /`` every 0.1 s.

Each group runs in its own process, so the load generator's own GIL does
not slow the prober. The server's memory (VmRSS of the process that serves)
is sampled every 0.1 s; after the load, 60 s of quiet, then it is read again
(and compared with idle, read just after start-up).

    .venv/bin/python bench/server_load.py [--server gunicorn|run] [--quick] [--repo DIR]

It ends with the checks of the lecture hall's bar, one line each, and
"N of 10 checks hold": zero 5xx apart from load shed (503 with
``Retry-After``), every request answered, shed at once, every upload kept,
every trace and stream finished or shed (fast), ``GET /`` p95 under 1 s,
memory under 1 GiB and back near idle. ``--repo DIR`` serves another
checkout (an export of the code before) with the same load.

The upload rate limit is raised for the run (all clients share 127.0.0.1);
everything else is the default budget (app/budget.py). Prints one JSON line
and a table row for bench/README.md.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import notation  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
AFTER_SECONDS = 60
"""Quiet seconds after the load before "after" is read."""


def start(kind: str, instance: Path, repo: Path = REPO):
    instance.mkdir(parents=True)
    (instance / "config.py").write_text(
        'BUDGET = {"uploads_per_client": "100000 per minute"}\n')
    env = {**os.environ, "ADVSEARCH_INSTANCE": str(instance)}
    if kind == "run":
        cmd = [sys.executable, "run.py", "--port", "0", "--instance", str(instance)]
    else:
        cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", "deploy/gunicorn.conf.py",
               "--bind", "127.0.0.1:0"]
    log = open(instance / "server.log", "w+b")
    proc = subprocess.Popen(cmd, cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    port = None
    for _ in range(600):
        log.seek(0)
        m = re.search(rb"(?:on|Listening at:) http://127\.0\.0\.1:(\d+)", log.read())
        if m:
            port = int(m.group(1))
            break
        time.sleep(0.1)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if requests.get(url + "/healthz", timeout=2).ok:
                break
        except requests.RequestException:
            time.sleep(0.1)
    pid = proc.pid
    if kind == "gunicorn":   # the worker serves
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        if not children:
            log.seek(0)
            raise RuntimeError("gunicorn's worker did not start:\n" + log.read().decode()[-2000:])
        pid = int(children[0])
    return proc, url, pid


def rss(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", text, re.M).group(1)) * 1024


# -- the load, one process per group -------------------------------------------------

TRACE_PATHS = ["/api/trees/aima-fig-5-2/trace?algorithm=alphabeta",
               "/api/trees/aima-fig-5-2/trace?algorithm=minimax",
               "/api/trees/r-b3-d6-s7/trace?algorithm=alphabeta",
               "/api/trees/r-b3-d6-s7/trace?algorithm=minimax",
               "/api/trees/r-b4-d4-s2/trace?algorithm=alphabeta&order=best"]


def upload(http, url, k, i, rng):
    """Uploader ``k``'s ``i``-th request: a distinct random tree of 15-120 nodes."""
    text = notation(rng, rng.randint(2, 4), rng.randint(2, 3))
    return http.post(url + "/api/trees", data=f"# uploader {k} tree {i}\n{text}",
                     headers={"Content-Type": "text/plain"}, timeout=120)


def trace(http, url, k, i, rng):
    """Tracer ``k``'s ``i``-th request: a whole trace, the paths in turn."""
    return http.get(url + TRACE_PATHS[(k + i) % len(TRACE_PATHS)], timeout=120)


def http_clients(name, request, url, count, per, out):
    """``count`` clients at once, each making ``per`` requests in turn with
    ``request(http, url, k, i, rng)``; puts ``(name, statuses, seconds)``."""
    from concurrent.futures import ThreadPoolExecutor

    def one(k):
        rng = random.Random(k)
        statuses, times = [], []
        with requests.Session() as http:
            for i in range(per):
                t = time.monotonic()
                try:
                    res = request(http, url, k, i, rng)
                    # A 503 (busy) or 429 (this client's share) that says when to
                    # come back is load shed, counted apart.
                    statuses.append(-503 if res.status_code in (503, 429)
                                    and res.headers.get("Retry-After") else res.status_code)
                except requests.RequestException:
                    statuses.append(0)            # no answer within 120 s
                times.append(time.monotonic() - t)
        return statuses, times

    with ThreadPoolExecutor(count) as pool:
        results = list(pool.map(one, range(count)))
    out.put((name, [s for r in results for s in r[0]], [t for r in results for t in r[1]]))


def streamers(url, count, pulls, out):
    import threading

    import socketio

    results = []
    lock = threading.Lock()

    def one(k):
        sio = socketio.Client(reconnection=False)
        closed = []
        sio.on("closed", lambda d: closed.append(d))
        events, errors, times, why = 0, 0, [], []
        finished, shed_after = False, None
        try:
            sio.connect(url, transports=["websocket"], wait_timeout=60)
            ack = sio.call("start", {"tree": f"r-b4-d8-s{k % 5}", "algorithm": "minimax"},
                           timeout=120)
            if not ack.get("ok"):
                errors += 1
                why.append(str(ack)[:200])
                if ack.get("error", {}).get("status") == 503:
                    shed_after = 0.0
            else:
                for _ in range(pulls):
                    t = time.monotonic()
                    r = sio.call("pull", {"run": ack["run"], "count": 1000, "encoding": "json"},
                                 timeout=120)
                    times.append(time.monotonic() - t)
                    if not r.get("ok"):
                        errors += 1
                        why.append(str(r)[:200])
                        if r.get("error", {}).get("status") == 503:
                            shed_after = times[-1]    # refused: how long it took to say so
                        break
                    # Counted, not parsed: the load generator shares the machine.
                    events += r["events_json"].count('"step":')
                else:
                    finished = True
            sio.disconnect()
        except Exception as exc:  # noqa: BLE001 (a failure is counted, the bench goes on)
            errors += 1
            why.append(repr(exc)[:200])
        with lock:
            results.append((events, errors, times, len(closed), why, finished, shed_after))

    threads = []
    for k in range(count):
        threads.append(threading.Thread(target=one, args=(k,)))
        threads[-1].start()
        time.sleep(0.05)
    for t in threads:
        t.join()
    out.put(("streams", results))


def prober(url, stop, out):
    times, statuses = [], []
    with requests.Session() as http:
        while not stop.is_set():
            t = time.monotonic()
            try:
                r = http.get(url + "/", timeout=30)
                statuses.append(r.status_code)
            except requests.RequestException:
                statuses.append(0)
            times.append(time.monotonic() - t)
            time.sleep(0.1)
    out.put(("probe", statuses, times))


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("gunicorn", "run"), default="gunicorn")
    parser.add_argument("--quick", action="store_true", help="a tenth of the load (a smoke run)")
    parser.add_argument("--repo", type=Path, default=REPO,
                        help="serve another checkout (an export of the code before)")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    load_before = os.getloadavg()[0]
    proc, url, pid = start(args.server, Path(tempfile.mkdtemp()) / "instance", args.repo)
    try:
        time.sleep(1)
        idle = rss(pid)
        out, stop = mp.Queue(), mp.Event()
        groups = [mp.Process(target=http_clients, args=("uploads", upload, url, 20, 50 // scale, out)),
                  mp.Process(target=http_clients, args=("traces", trace, url, 20, 25 // scale, out)),
                  mp.Process(target=streamers, args=(url, 30 // (scale // 2 or 1),
                                                     60 // scale, out))]
        probe = mp.Process(target=prober, args=(url, stop, out))
        probe.start()
        started = time.monotonic()
        for g in groups:
            g.start()
        peak, samples = idle, []
        results = {}
        while any(g.is_alive() for g in groups) or len(results) < len(groups):
            samples.append(rss(pid))
            peak = max(peak, samples[-1])
            while not out.empty():
                item = out.get()
                results[item[0]] = item
            time.sleep(0.1)
            if time.monotonic() - started > 1800:
                break
        duration = time.monotonic() - started
        stop.set()
        probe.join(60)
        while len(results) < len(groups) + 1:
            item = out.get(timeout=60)
            results[item[0]] = item
        for g in groups:
            g.join(10)
        # Parsed trees unused for 30 s are forgotten, and once no run is open
        # garbage is collected and memory returned (app.web.sockets, memory).
        settle = []
        for _ in range(AFTER_SECONDS):
            time.sleep(1)
            settle.append(rss(pid))
        after = settle[-1]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    _, up_status, up_times = results["uploads"]
    _, tr_status, tr_times = results["traces"]
    _, probe_status, probe_times = results["probe"]
    streams = results["streams"][1]
    all_status = up_status + tr_status + probe_status
    shed_http = [t for s, t in zip(up_status + tr_status, up_times + tr_times) if s == -503]
    figures = {
        "server": args.server, "seconds": round(duration, 1),
        "requests": len(all_status), "5xx": sum(s >= 500 for s in all_status),
        "shed_503": len(shed_http), "shed_p95_s": round(pct(shed_http, 95), 3),
        "streams_finished": sum(r[5] for r in streams),
        "streams_shed": sum(r[6] is not None for r in streams),
        "stream_shed_max_s": round(max([r[6] for r in streams if r[6] is not None], default=0), 3),
        "no_answer_120s": sum(s == 0 for s in all_status),
        "uploads_201": sum(s == 201 for s in up_status), "uploads": len(up_status),
        "upload_p95_s": round(pct(up_times, 95), 3),
        "traces_200": sum(s == 200 for s in tr_status), "traces": len(tr_status),
        "trace_p95_s": round(pct(tr_times, 95), 3),
        "streams": len(streams), "stream_events": sum(r[0] for r in streams),
        "stream_errors": sum(r[1] for r in streams), "runs_closed_for_room": sum(r[3] for r in streams),
        "pull_p95_s": round(pct([t for r in streams for t in r[2]], 95), 3),
        "stream_error_kinds": sorted({w for r in streams for w in r[4]})[:5],
        "get_root_p50_s": round(statistics.median(probe_times), 3),
        "get_root_p95_s": round(pct(probe_times, 95), 3),
        "get_root_max_s": round(max(probe_times), 3), "get_root_probes": len(probe_times),
        "rss_idle_mib": idle >> 20, "rss_peak_mib": peak >> 20, "rss_after_mib": after >> 20,
        "rss_after_over_idle_mib": (after - idle) >> 20,
        "rss_after_10s_mib": settle[9] >> 20,
    }
    figures["load_avg"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    print(json.dumps(figures))
    checks = {   # issue 17's bar (and issue 8's): each True or False
        "no 5xx but load shed (503 + Retry-After)": figures["5xx"] == 0,
        "every request answered within 120 s": figures["no_answer_120s"] == 0,
        "load shed within a few seconds (p95 < 5 s)": figures["shed_p95_s"] < 5.0,
        "every upload 201": figures["uploads_201"] == figures["uploads"],
        "every trace 200 or shed": figures["traces_200"] + sum(s == -503 for s in tr_status)
                                   == figures["traces"],
        "every stream finished or shed": figures["streams_finished"] + figures["streams_shed"]
                                         == figures["streams"],
        "streams shed fast (< 10 s)": figures["stream_shed_max_s"] < 10,
        "GET / p95 < 1 s": figures["get_root_p95_s"] < 1.0,
        "peak memory < 1 GiB": figures["rss_peak_mib"] < 1024,
        "back near idle (+100 MiB)": figures["rss_after_over_idle_mib"] <= 100,
    }
    for name, ok in checks.items():
        print(("holds  " if ok else "FAILS  ") + name)
    print(f"{sum(checks.values())} of {len(checks)} checks hold")
    print(f"| {args.server} | {figures['seconds']} | {figures['requests']:,} | {figures['5xx']} "
          f"(+{figures['shed_503']} shed) | "
          f"{figures['uploads_201']}/{figures['uploads']} | {figures['upload_p95_s']} | "
          f"{figures['traces_200']}/{figures['traces']} | {figures['trace_p95_s']} | "
          f"{figures['stream_events']:,} ({figures['streams_finished']} done, "
          f"{figures['streams_shed']} shed, {figures['stream_errors']} err) | "
          f"{figures['pull_p95_s']} | {figures['get_root_p50_s']} / **{figures['get_root_p95_s']}** | "
          f"{figures['rss_idle_mib']} / **{figures['rss_peak_mib']}** / {figures['rss_after_mib']} "
          f"(+{figures['rss_after_over_idle_mib']}) | {figures['load_avg'][0]}-{figures['load_avg'][1]} |")


if __name__ == "__main__":
    main()
