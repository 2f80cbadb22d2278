"""Where a step's frame goes on the 11,111-node tree (issue 30 point 1).

Both painters (canvas, then ``draw=svg``): Chrome traces of ArrowRight
presses (a step) and ArrowUp presses (the one-character floor), the
renderer main thread's trace slices summed by name per press, and the
style/layout passes with the script that forced them (its stack).

    .venv/bin/python bench/step_trace.py [--presses 40]

An in-process threaded server (not run.py): what is timed is the page.
Trace categories add overhead: compare the rows with each other, and take
latencies from ``browser.py``.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import browser as B  # noqa: E402

CATS = ["devtools.timeline", "disabled-by-default-devtools.timeline",
        "disabled-by-default-devtools.timeline.stack", "blink", "input", "v8.execute", "cc"]


def events(trace: bytes) -> list[dict]:
    ev = json.loads(trace)
    return ev["traceEvents"] if isinstance(ev, dict) else ev


def by_name(ev: list[dict], presses: int, top: int = 16) -> list[tuple[str, float]]:
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    total = collections.Counter()
    for e in ev:
        if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main and "dur" in e:
            total[e["name"]] += e["dur"]
    return [(n, d / 1000 / presses) for n, d in total.most_common(top)]


def forced(ev: list[dict], presses: int) -> list[tuple[str, int, float]]:
    """Style and layout passes by the script that forced them ('' = the frame's own)."""
    count, dur = collections.Counter(), collections.Counter()
    for e in ev:
        if e.get("name") in ("Layout", "UpdateLayoutTree") and e.get("ph") == "X":
            stack = ((e.get("args") or {}).get("beginData") or {}).get("stackTrace") or []
            key = e["name"] + " <- " + " < ".join(
                f"{f.get('functionName')}@{f.get('url', '').rsplit('/', 1)[-1]}:{f.get('lineNumber')}"
                for f in stack[:3])
            count[key] += 1
            dur[key] += e.get("dur", 0)
    return [(k, n, dur[k] / 1000 / presses) for k, n in count.most_common(8)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=40)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from app.web import create_app
    from app.web.serving import threaded_server

    app = create_app({"RATELIMIT_ENABLED": False}, instance_path=tempfile.mkdtemp() + "/i")
    server = threaded_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.port}"
    big = B.upload(base, 10, 4, seed=2)          # 11,111 nodes, as browser.py
    print(f"load average {os.getloadavg()[0]:.1f}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=B.CHROMIUM, args=B.ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        for query in ("", "draw=svg"):
            B.open_tree(page, base, big, query)
            rng = random.Random(7)
            for key in ("ArrowRight", "ArrowUp"):
                page.evaluate(B.LATENCY_JS, key)
                browser.start_tracing(page=page, categories=CATS)
                for i in range(args.presses):
                    page.keyboard.press(key)
                    page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
                    time.sleep(rng.uniform(0, 2 / 60))
                trace = browser.stop_tracing()
                ev = events(trace)
                lat = sorted(B.key_latencies(trace))
                print(f"{query or 'canvas'} {key}: EventLatency median "
                      f"{lat[len(lat) // 2]:.1f} ms (traced)")
                for name, ms in by_name(ev, args.presses):
                    print(f"    {ms:6.2f} ms/press  {name}")
                for name, n, ms in forced(ev, args.presses):
                    print(f"    {n:4d} passes {ms:5.2f} ms/press  {name[:160]}")
        browser.close()
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
