"""How quick is an edit in the tree editor? (issue: build and edit trees, what if?)

Starts ``run.py`` on a free port (a process of its own, fresh upload store)
and drives Debian's Chromium through Playwright on ``/edit/<id>``. Each
edit is a person's: click a leaf, type a new value into the value box,
press Enter. The page then sends the edited tree to ``POST /api/edit/run``
(the server checks it with the loader and re-runs the search with the
core), and redraws the tree with the new values, cuts and marks.

Edit-to-frame: from the Enter key event (``event.timeStamp``) to the start
of the animation frame that shows the redrawn tree (the page notes it in
``data-frame-at``; the frame is painted right after). Goal on a 200-node
tree: median <= 16 ms, p95 <= 50 ms. Beside it, in the same run: the same
measure on AIMA Figure 5.2 (13 nodes), the request's round trip
(Resource Timing), the page's round trip of a request that does nothing
(``GET /healthz``: the floor), the server's share inside the process
(``app.whatif.WhatIf.run``, wall and CPU time, on the same trees) and the
page's redraw (answer received -> drawn).

    .venv/bin/python bench/editor.py [--edits 100]
"""
from __future__ import annotations

import argparse
import copy
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from common import free_port

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TREES = {"AIMA Fig. 5.2 (13 nodes)": "aima-fig-5-2",
         "random, 200 nodes": "r-b3..4-d4-s14"}

# Per Enter on the value box: its time stamp; the page's marks of the
# answer and the redraw; the request's round trip.
WATCH_JS = """() => {
  window.__enter = null;
  document.querySelector('[data-edit=value]').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') window.__enter = e.timeStamp;
  }, true);
}"""

READ_JS = """() => {
  const ed = document.querySelector('#editor');
  const mark = (n) => performance.getEntriesByName(n).at(-1)?.startTime;
  const runs = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/api/edit/run'));
  const run = runs.at(-1);
  const frame = Number(ed.dataset.frameAt);
  return { total: frame - window.__enter,
           trip: run ? run.responseEnd - run.startTime : null,
           before: mark('edit-sent') - window.__enter,
           answered: mark('edit-answered') - (run ? run.responseEnd : NaN),
           redraw: mark('edit-drawn') - mark('edit-answered'),
           wait: frame - mark('edit-drawn') };
}"""


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def leaves(page) -> list[str]:
    return page.eval_on_selector_all(".node.role-leaf", "els => els.map(e => e.dataset.node)")


def center(page, node_id: str) -> tuple[float, float]:
    box = page.locator(f"[data-node='{node_id}'] .shape").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def settle(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#editor').getAttribute('aria-busy') === 'false'")


def edit_latency(page, base: str, tree_id: str, edits: int, rng: random.Random,
                 typed: bool) -> list[dict]:
    """Per edit: click a leaf, give it a new value, Enter. ``typed``: the value is
    typed as a person types (80 ms a key, a pause before Enter), and the page
    sends its what-if request ahead while typing; else (cold) the page sends
    nothing ahead (``data-ahead="off"``) and the whole request follows Enter."""
    page.goto(f"{base}/edit/{tree_id}")
    page.wait_for_selector("#editor[data-revision]")
    settle(page)
    page.evaluate(WATCH_JS)
    if not typed:
        page.evaluate("() => { document.querySelector('#editor').dataset.ahead = 'off'; }")
    out = []
    for i in range(edits):
        ids = leaves(page)
        node = rng.choice(ids)
        page.mouse.click(*center(page, node))        # select (the tree may need panning: fit)
        revision = int(page.get_attribute("#editor", "data-revision"))
        current = page.input_value("[data-edit=value]")
        value = str(rng.randint(-20, 20) + 100 * (i % 2))
        while value == current:                      # an unchanged box makes no edit
            value = str(rng.randint(-20, 20))
        if typed:
            page.fill("[data-edit=value]", "")
            page.type("[data-edit=value]", value, delay=80)
            time.sleep(0.15)
        else:
            page.fill("[data-edit=value]", value)
        time.sleep(rng.uniform(0, 2 / 60))           # a random phase against the frame clock
        page.press("[data-edit=value]", "Enter")
        page.wait_for_function("r => Number(document.querySelector('#editor').dataset.revision) > r"
                               " && document.querySelector('#editor').dataset.frameAt", arg=revision)
        page.wait_for_function("t => Number(document.querySelector('#editor').dataset.frameAt) > t",
                               arg=page.evaluate("window.__enter"))
        out.append(page.evaluate(READ_JS))
        page.locator("[data-action=fit]").dispatch_event("click")  # back to fit, wherever the page scrolled
    return out


FLOOR_JS = """async (n) => {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await (await fetch('/healthz', { cache: 'no-store' })).text();
    out.push(performance.now() - t0);
  }
  return out;
}"""


def server_share(tree_id: str, edits: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """(wall ms, CPU ms) of app.whatif.WhatIf.run per edit in this process (the request's core)."""
    from app.web.library import TreeLibrary  # noqa: F401 (imports the app's packages)
    from app.games.random_tree import RandomSpec
    from app.treefile import load_path, tree_to_dict
    from app.whatif import WhatIf

    tree = (RandomSpec.from_id(tree_id).tree() if tree_id.startswith("r-")
            else load_path(REPO / "trees" / f"{tree_id}.yaml"))
    doc = tree_to_dict(tree, explicit_ids=True)
    stack, n, leaves_ = [doc["root"]], 0, []
    while stack:
        node = stack.pop()
        n += 1
        node["key"] = f"k{n}"
        if "children" in node:
            stack.extend(node["children"])
        else:
            leaves_.append(node["key"])
    w, times, cpu, prev = WhatIf(), [], [], doc
    state = w.run(prev)["state"]
    for i in range(edits):
        cur = copy.deepcopy(prev)
        key = rng.choice(leaves_)
        stack = [cur["root"]]
        while stack:
            node = stack.pop()
            if node["key"] == key:
                node["value"] = rng.randint(-20, 20) + 100 * (i % 2)
            stack.extend(node.get("children", []))
        t0, c0 = time.perf_counter(), time.process_time()
        state = w.run(cur, {}, previous_state=state, text="notation",
                      edit={"kind": "value", "key": key, "old": None, "new": 1})["state"]
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        prev = cur
    return times, cpu


def row(name: str, xs: list[float]) -> str:
    return (f"| {name} | {statistics.median(xs):.1f} ms | {percentile(xs, 0.95):.1f} ms | "
            f"{max(xs):.1f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=100, help="edits timed per tree")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as instance:
        server = subprocess.Popen([sys.executable, "run.py", "--port", str(port),
                                   "--instance", instance], cwd=REPO,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    requests.get(f"{base}/api/trees", timeout=1)
                    break
                except requests.ConnectionError:
                    time.sleep(0.1)
            results = {}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                for name, tree_id in TREES.items():
                    for typed in (False, True):
                        label = f"{name}, {'typed' if typed else 'cold'}"
                        results[label] = edit_latency(page, base, tree_id, args.edits,
                                                      random.Random(11), typed)
                floor = page.evaluate(FLOOR_JS, args.edits)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.edits} edits per tree\n")
    print("| measure | median | p95 | max |\n|---|---:|---:|---:|")
    for name, rs in results.items():
        print(row(f"**{name}: edit → frame**", [r["total"] for r in rs]))
        if name.endswith("cold"):
            print(row(f"{name}: Enter → request sent", [r["before"] for r in rs]))
            print(row(f"{name}: request round trip", [r["trip"] for r in rs if r["trip"]]))
            print(row(f"{name}: answer in → parsed (JSON)",
                      [r["answered"] for r in rs if r["trip"]]))
        print(row(f"{name}: page redraw (answer → drawn)", [r["redraw"] for r in rs]))
        print(row(f"{name}: drawn → next frame starts", [r["wait"] for r in rs]))
    print(row("the floor: the page's round trip of GET /healthz", floor))
    for name, tree_id in TREES.items():
        wall, cpu = server_share(tree_id, args.edits, random.Random(11))
        print(row(f"{name}: server core (WhatIf.run, in-process), wall", wall))
        print(row(f"{name}: server core, CPU time", cpu))
    for how in ("cold", "typed"):
        goal = [r["total"] for r in results[f"random, 200 nodes, {how}"]]
        ok = statistics.median(goal) <= 16 and percentile(goal, 0.95) <= 50
        print(f"\n200-node goal, value {how} (median <= 16 ms, p95 <= 50 ms): "
              f"{'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
