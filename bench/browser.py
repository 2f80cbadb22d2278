"""How quick is the page in a real browser? (issue: the visualizer, page half)

Starts ``run.py`` on a free port (a process of its own, with a fresh upload
store), uploads seeded random trees in the one-line notation, and drives
Debian's Chromium through Playwright:

1. step latency: Right arrow on a 1,111-node tree (branching 10, depth 3),
   from the key's event time to the first frame painted with that step
   (median and p95 over ``--presses``; goal < 16 ms median, < 50 ms p95);
2. open + draw a 11,111-node tree (branching 10, depth 4): navigation start
   to the first frame painted with the tree drawn and the run started
   (median of ``--opens``; goal < 2 s);
3. stream a run of 100,000+ events to the end (minimax on branching 9,
   depth 5: 66,430 nodes): End pressed to the last step painted (goal < 3 s).
   The raw pull rate of the same run in the same page (no drawing) is
   printed beside it, to tell the server's share from the page's.

    .venv/bin/python bench/browser.py [--presses 200] [--opens 3]
"""
from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# In the page: time from each keydown to the frame after the step shows, and
# the synchronous work (keydown to the end of the page's own handlers, read by
# a listener on window, which runs after the page's listener on document).
LATENCY_JS = """() => {
  window.__lat = []; window.__work = [];
  const out = document.querySelector('[data-step]');
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight') return;
    const want = String(+out.textContent + 1), t0 = e.timeStamp;
    // Each animation frame: once the step shows, time the end of that frame
    // (a task posted from inside requestAnimationFrame runs after its paint).
    const check = () => {
      if (out.textContent !== want) return requestAnimationFrame(check);
      setTimeout(() => window.__lat.push(performance.now() - t0), 0);
    };
    requestAnimationFrame(check);
  }, true);
  window.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') window.__work.push(performance.now() - e.timeStamp);
  });
}"""

# The floor set by frame timing: the same measure for a one-character change.
BASELINE_JS = """() => {
  window.__lat = [];
  const s = document.createElement('span');
  document.body.append(s);
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'x') return;
    const t0 = e.timeStamp;
    s.textContent = String(+s.textContent + 1);
    requestAnimationFrame(() => setTimeout(() => window.__lat.push(performance.now() - t0), 0));
  }, true);
}"""

AFTER_PAINT_JS = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"


def notation(rng: random.Random, branching: int, depth: int) -> str:
    if depth == 0:
        return str(rng.randint(-50, 50))
    return "(" + " ".join(notation(rng, branching, depth - 1) for _ in range(branching)) + ")"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def upload(base: str, branching: int, depth: int, seed: int) -> str:
    text = notation(random.Random(seed), branching, depth)
    res = requests.post(f"{base}/api/trees", data=text.encode(),
                        headers={"Content-Type": "text/plain"}, timeout=60)
    res.raise_for_status()
    return res.json()["id"]


def open_tree(page, base: str, tree_id: str, query: str = "", timeout: float = 120_000) -> None:
    page.goto(f"{base}/t/{tree_id}{'?' + query if query else ''}", timeout=timeout)
    page.wait_for_selector("#visualizer.ready", timeout=timeout)
    page.evaluate(AFTER_PAINT_JS)


def step_latency(page, base: str, tree_id: str, presses: int) -> tuple[list, list, list]:
    """(latencies, synchronous work, baseline latencies) in ms."""
    open_tree(page, base, tree_id)
    page.evaluate(LATENCY_JS)
    for i in range(presses):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
    lat, work = page.evaluate("[window.__lat, window.__work]")
    page.evaluate(BASELINE_JS)
    for i in range(min(presses, 60)):
        page.keyboard.press("x")
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
    return lat, work, page.evaluate("window.__lat")


def open_time(page, base: str, tree_id: str) -> float:
    """Seconds from navigation start to the first frame painted when ready."""
    page.goto("about:blank")
    open_tree(page, base, tree_id)
    return page.evaluate("performance.now()") / 1000


def stream_time(page, base: str, tree_id: str) -> tuple[int, float, float]:
    """(events, seconds End -> last step painted, seconds of a bare pull loop)."""
    open_tree(page, base, tree_id, "algorithm=minimax")
    seconds = page.evaluate("""async () => {
      const out = document.querySelector('[data-step]');
      const t0 = performance.now();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
      await new Promise((resolve) => {
        const check = () => (out.hasAttribute('data-total') && out.textContent === out.dataset.total
          ? resolve() : setTimeout(check, 5));
        check();
      });
      await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
      return (performance.now() - t0) / 1000;
    }""")
    events = int(page.locator("[data-step]").inner_text())
    bare = page.evaluate("""async (tree) => {
      const { connect, startRun, makeFeeder } = await import('/static/js/stream.js');
      const { makeRun } = await import('/static/js/model.js');
      const socket = connect();
      const id = await startRun(socket, { tree, algorithm: 'minimax' });
      const run = makeRun();
      const t0 = performance.now();
      await makeFeeder(socket, id, run).fill(Infinity, 1000);
      socket.close();
      return (performance.now() - t0) / 1000;
    }""", tree_id)
    return events, seconds, bare


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200, help="Right presses timed")
    parser.add_argument("--opens", type=int, default=3, help="openings of the 10,000-node tree")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as instance:
        server = subprocess.Popen([sys.executable, str(REPO / "run.py"), "--port", str(port),
                                   "--instance", instance],
                                  cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    requests.get(f"{base}/api/trees", timeout=1)
                    break
                except requests.ConnectionError:
                    time.sleep(0.1)
            small = upload(base, 10, 3, seed=1)     # 1,111 nodes
            big = upload(base, 10, 4, seed=2)       # 11,111 nodes
            huge = upload(base, 9, 5, seed=3)       # 66,430 nodes, ~100,000 minimax events

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1440, "height": 900})

                lat, work, floor = step_latency(page, base, small, args.presses)
                print(f"step latency, 1,111-node tree, {len(lat)} Right presses: "
                      f"median {statistics.median(lat):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms, "
                      f"max {max(lat):.1f} ms   (goal < 16 ms median, < 50 ms p95)")
                print(f"  of which the page's own work (key to handlers done): "
                      f"median {statistics.median(work):.1f} ms, p95 {percentile(work, 0.95):.1f} ms; "
                      f"frame-timing floor (a one-character change, same measure): "
                      f"median {statistics.median(floor):.1f} ms")

                opens = [open_time(page, base, big) for _ in range(args.opens)]
                print(f"open + draw, 11,111-node tree: median {statistics.median(opens):.2f} s "
                      f"(runs: {', '.join(f'{t:.2f}' for t in opens)})   (goal < 2 s)")

                events, seconds, bare = stream_time(page, base, huge)
                print(f"stream to the end, {events:,} events (66,430-node tree): {seconds:.2f} s "
                      f"({events / seconds:,.0f} events/s; bare pull loop {bare:.2f} s)   "
                      f"(goal < 3 s)")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
