"""What a browser context costs the machine, as the test suite's Chromium is
launched (tests/conftest.py: the address bar's WebUI pop-ups off) and with
Playwright's defaults, side by side (issue 30 point 6).

Almost every browser test opens a context of its own (~670 in a run of the
whole suite). In Chromium's new headless mode each context is a browser
window, and each window preloads its address bar's pop-ups
(chrome://omnibox-popup.top-chrome/) in renderers of their own. The two
browsers run at once and rounds interleave them; a round opens N contexts,
each with one page, on ``about:blank`` and then on Figure 5.2's visualizer
(waiting for its ready mark), and closes them. CPU is the whole machine's
busy time (/proc/stat: every Chromium process, the in-process server and
this client) over the contexts opened, so run it on a machine otherwise
quiet; the load average is printed.

    .venv/bin/python bench/browser_context.py [--rounds 3] [--contexts 12]
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.web import create_app  # noqa: E402
from app.web.serving import threaded_server  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, CHROMIUM_LAUNCH  # noqa: E402


def busy_seconds() -> float:
    """The machine's busy CPU time so far (all cores; idle and iowait left out)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def serve() -> str:
    app = create_app({"RATELIMIT_ENABLED": False},
                     instance_path=tempfile.mkdtemp(prefix="contexts-") + "/instance")
    server = threaded_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.port}"


def contexts(browser, url: str, path: str, n: int) -> tuple[float, float]:
    """(CPU ms, wall ms) a context: opened, one page at ``path``, closed."""
    cpu, started = busy_seconds(), time.perf_counter()
    for _ in range(n):
        context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(path)
        if path != "about:blank":
            page.wait_for_selector("#visualizer.ready", timeout=30000)
        context.close()
    return (busy_seconds() - cpu) / n * 1000, (time.perf_counter() - started) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--contexts", type=int, default=12)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    url = serve()
    paths = ("about:blank", "/t/aima-fig-5-2")
    got: dict = {}
    loads = [os.getloadavg()[0]]
    with sync_playwright() as p:
        browsers = {"Playwright's defaults": p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS),
                    "as the tests launch it": p.chromium.launch(**CHROMIUM_LAUNCH)}
        for b in browsers.values():
            contexts(b, url, paths[1], 2)                      # warm-up: the server's first answers
        for r in range(args.rounds):
            order = list(browsers.items()) if r % 2 == 0 else list(reversed(browsers.items()))
            for name, b in order:
                for path in paths:
                    got.setdefault((name, path), []).append(contexts(b, url, path, args.contexts))
            loads.append(os.getloadavg()[0])
        for b in browsers.values():
            b.close()
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}; "
          f"{args.rounds} rounds of {args.contexts} contexts")
    print("| Chromium | page | CPU a context (median; rounds) | wall a context (median) | CPU ÷ defaults' |")
    print("|---|---|---:|---:|---:|")
    for path in paths:
        base = statistics.median(c for c, _ in got[("Playwright's defaults", path)])
        for name in browsers:
            rows = got[(name, path)]
            cpu = statistics.median(c for c, _ in rows)
            print(f"| {name} | {path} | {cpu:.0f} ms ({', '.join(f'{c:.0f}' for c, _ in rows)}) "
                  f"| {statistics.median(w for _, w in rows):.0f} ms | {cpu / base:.2f} |")


if __name__ == "__main__":
    main()
