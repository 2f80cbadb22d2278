"""A student's page views, with the page's files under versioned URLs (kept
by the browser: app/web/assets.py) and as before (``STATIC_VERSIONS`` off:
every file revalidated on every view), side by side (issue 30 point 6).

Two in-process servers of the same app, one of each kind; rounds interleave
them. A round opens a new browser context (a student's first visit) and views
every library tree in the visualizer in turn, then its practice page, waiting
each time for the page's own ready mark: the time of the whole walk, the
requests for static files that reached the server, and this process's CPU
time (both servers and the Playwright client: the other server idles).

    .venv/bin/python bench/page_views.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from app.web import create_app  # noqa: E402
from app.web.serving import threaded_server  # noqa: E402


def serve(versions: bool):
    app = create_app({"RATELIMIT_ENABLED": False, "STATIC_VERSIONS": versions},
                     instance_path=tempfile.mkdtemp(prefix="views-") + "/instance")
    asked = {"static": 0}

    @app.before_request
    def _count():
        from flask import request
        if request.endpoint == "static":
            asked["static"] += 1

    server = threaded_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.port}", asked


def walk(browser, url: str, trees: list[str]) -> float:
    context = browser.new_context(base_url=url, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    started = time.perf_counter()
    for tree in trees:
        page.goto(f"/t/{tree}")
        page.wait_for_selector("#visualizer.ready", timeout=30000)
        page.goto(f"/practice/{tree}?mode=values")
        page.wait_for_selector("#practice.ready", timeout=30000)
    spent = time.perf_counter() - started
    context.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    servers = {"before (no-cache)": serve(False), "versioned": serve(True)}
    trees = [t["id"] for t in requests.get(servers["versioned"][0] + "/api/trees", timeout=10).json()
             if t.get("builtin")]
    got = {name: {"walk": [], "static": [], "cpu": []} for name in servers}
    print(f"load before: {os.getloadavg()}; {len(trees)} trees, {2 * len(trees)} page views a walk")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        for name, (url, _) in servers.items():
            walk(browser, url, trees[:2])                     # warm-up
        for r in range(args.rounds):
            order = list(servers.items()) if r % 2 == 0 else list(reversed(servers.items()))
            for name, (url, asked) in order:
                asked["static"] = 0
                cpu = time.process_time()
                got[name]["walk"].append(walk(browser, url, trees))
                got[name]["cpu"].append(time.process_time() - cpu)
                got[name]["static"].append(asked["static"])
        browser.close()
    print(f"load after: {os.getloadavg()}")
    base = statistics.median(got["before (no-cache)"]["walk"])
    for name, g in got.items():
        walk_s = statistics.median(g["walk"])
        print(f"{name:18s} walk {walk_s:6.2f} s ({walk_s / base:.2f} of before)  "
              f"static requests {statistics.median(g['static']):5.0f}  "
              f"this process CPU {statistics.median(g['cpu']):5.2f} s")


if __name__ == "__main__":
    main()
