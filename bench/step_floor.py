"""A step on the 11,111-node tree against the page's own one-character frame
floor, and opening 111,111 nodes against opening 11,111, two versions of the
page side by side (issue 30 points 1 and 2).

One Python app, two in-process servers: the same server code, each serving
its own ``static/`` (the page's JavaScript and CSS) -- ``--before`` (a
directory holding an older ``static/`` and, if there, ``templates/``, e.g.
from ``git archive <commit> static templates | tar -x -C DIR``) and this
checkout's. The before's ``GET /api/trees/<id>`` is the route as it was
before issue 30's third round (:func:`old_tree_route`: its JSON made on
every request). Rounds interleave the two
versions and both painters (the canvas, the default past 3,000 drawn
nodes, and ``?draw=svg``); in each, ``browser.py``'s measure: Chromium's
EventLatency of ArrowRight presses (a step) and of ArrowUp presses that
change one character (the floor), in the same page, and each thread's CPU
time per press (the page's main thread, its compositor, the thread pool's
workers that raster, the display compositor: ``toplevel`` tasks in the same
trace). Medians over all presses
of a version and painter, and the median of the rounds' step/floor ratios.
With ``--opens N``: N rounds of ``browser.py``'s open (navigation start to
the first frame painted with the tree drawn and the run started) of the
11,111-node tree and of a 111,111-node one (branching 10, depth 5), the
versions interleaved; and, first, the server's part apart: the 111,111-node
tree's JSON fetched as each version's page asks for it, the first time and
again.

    .venv/bin/python bench/step_floor.py --before DIR [--rounds 3] [--presses 40] [--opens 0]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import browser as B  # noqa: E402
import step_trace as T  # noqa: E402

# The threads a press's frame runs on: the page's main thread, its
# compositor, the pool's workers (software raster) and the display
# compositor that draws the frame.
CPU_THREADS = ("CrRendererMain", "Compositor", "ThreadPoolForegroundWorker", "VizCompositorThread")


def press_cpu(browser, page, key: str, presses: int, rng: random.Random) -> tuple[list, dict]:
    """browser.py's press_latency, traced with the top-level tasks too: (EventLatency
    ms per press, each thread's CPU ms per press). CPU time is what the
    machine's load changes least: the step's extra work, where the latency's
    ratio drowns in the scheduler's noise."""
    import time
    page.evaluate(B.LATENCY_JS, key)
    browser.start_tracing(page=page, categories=["input", "toplevel"])
    for i in range(presses):
        page.keyboard.press(key)
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
        time.sleep(rng.uniform(0, 2 / 60))
    trace = browser.stop_tracing()
    cpu = {name: c for name, _, c in T.threads(T.events(trace), presses, top=40)}
    return B.key_latencies(trace), cpu


def old_tree_route(app) -> None:
    """``GET /api/trees/<id>`` as it was before issue 30's third round (its
    JSON made on every request, keys sorted by ``jsonify``), for ``--before``."""
    from flask import jsonify, request

    from app.i18n.positions import move_words, position_words
    from app.search import algorithms_for
    from app.treefile import tree_to_dict
    from app.web.api import SMALL_TREE, library
    from app.web.i18n import page_language
    from app.web.library import tree_url
    from app.web.offload import offload

    def get_tree(tree_id: str):
        lib = library()
        tree = lib.fetch(tree_id)
        if getattr(tree, "lazy", False):
            opened = [i for i in request.args.get("open", "").split(",") if i][:200]
            data = tree.to_dict(opened)
        else:
            data = (tree_to_dict(tree, explicit_ids=True) if len(tree.nodes) <= SMALL_TREE
                    else offload(tree_to_dict, tree, explicit_ids=True))
        positions = position_words(data, page_language())
        moves = move_words(data, page_language()) if positions else {}
        return jsonify({**data, "id": tree_id,
                        "url": tree_url(tree_id), "algorithms": algorithms_for(tree, whatif=False),
                        "builtin": lib.is_builtin(tree_id), "info": lib.entry(tree_id),
                        **({"positions": positions, "moves": moves} if positions else {})})

    app.view_functions["api.get_tree"] = get_tree


def serve(static: str | None, old_server: bool = False):
    """A server of this checkout's app on a free port; ``static``: another
    ``static/`` folder; ``old_server``: the server's side of the open as it
    was (:func:`old_tree_route`)."""
    from app.web import create_app
    from app.web.serving import threaded_server

    app = create_app({"RATELIMIT_ENABLED": False}, instance_path=tempfile.mkdtemp() + "/i")
    if static:
        app.static_folder = static
        # Its templates too, where the directory has them (the page's preload is in one).
        templates = Path(static).parent / "templates"
        if templates.is_dir():
            from jinja2 import ChoiceLoader, FileSystemLoader

            app.jinja_env.loader = ChoiceLoader([FileSystemLoader(str(templates)), app.jinja_env.loader])
    if old_server:
        old_tree_route(app)
    server = threaded_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.port}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="a directory with the older static/")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--presses", type=int, default=40)
    ap.add_argument("--painters", default="canvas,svg", help="canvas, svg (both 11,111 nodes), svg-2801")
    ap.add_argument("--opens", type=int, default=0, help="rounds of opening 11,111 and 111,111 nodes")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    # The before: its static/ and the tree's route as they were (the rest of the server is this checkout's).
    versions = {"before": serve(str(Path(args.before).resolve() / "static"), old_server=True), "after": serve(None)}
    trees = {v: B.upload(base, 10, 4, seed=2) for v, base in versions.items()}    # 11,111 nodes
    huge = {v: B.upload(base, 10, 5, seed=4) for v, base in versions.items()} if args.opens else {}
    painters = {"canvas": "", "svg": "draw=svg", "svg-2801": ""}
    # The SVG painter where the page chooses it: a 2,801-node tree (branching 7, depth 4).
    svg_trees = {v: B.upload(base, 7, 4, seed=5) for v, base in versions.items()} if "svg-2801" in args.painters else {}
    chosen = args.painters.split(",")
    # The server's part of an open, apart: GET /api/trees/<id> of the 111,111-node tree as
    # each version's page asks for it, the first time (nothing kept) and again (median of 5).
    served = {}
    for v, base in versions.items():
        url = f"{base}/api/trees/{huge[v]}" + ("?form=flat" if v == "after" else "") if huge else None
        if url:
            times = []
            for _ in range(6):
                t0 = time.perf_counter()
                size = len(requests.get(url, timeout=120).content)
                times.append(time.perf_counter() - t0)
            served[v] = (times[0], statistics.median(times[1:]), size)
    got: dict = {}
    loads = [os.getloadavg()[0]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=B.CHROMIUM, args=B.ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        for r in range(args.rounds):
            order = list(versions) if r % 2 == 0 else list(reversed(versions))
            for painter in chosen:
                for v in order:
                    rng = random.Random(7 + r)
                    B.open_tree(page, versions[v], (svg_trees if painter == "svg-2801" else trees)[v], painters[painter])
                    step, cs = press_cpu(browser, page, "ArrowRight", args.presses, rng)
                    floor, cf = press_cpu(browser, page, "ArrowUp", args.presses, rng)
                    g = got.setdefault((v, painter), {"step": [], "floor": [], "ratio": [], "cpu": []})
                    g["step"] += step
                    g["floor"] += floor
                    g["cpu"].append({t: (cs.get(t, 0), cf.get(t, 0)) for t in CPU_THREADS})
                    g["ratio"].append(statistics.median(step) / statistics.median(floor))
                    print(f"round {r + 1} {painter:6s} {v:6s}: step {statistics.median(step):5.1f} ms, "
                          f"floor {statistics.median(floor):5.1f} ms, ratio {g['ratio'][-1]:.2f}", flush=True)
            loads.append(os.getloadavg()[0])
        opens: dict = {}
        for r in range(args.opens):
            for v in (list(versions) if r % 2 == 0 else list(reversed(versions))):
                for size, tid in (("11,111", trees[v]), ("111,111", huge[v])):
                    seconds, marks = B.open_time(page, versions[v], tid)
                    opens.setdefault((v, size), []).append((seconds, marks))
                    print(f"open round {r + 1} {v:6s} {size:>7s}: {seconds:.2f} s  "
                          + ", ".join(f"{k} {t:.2f}" for k, t in marks.items()), flush=True)
            loads.append(os.getloadavg()[0])
        browser.close()
    print(f"\nload average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    if not args.rounds:
        chosen = []
    print("| painter | version | step median | floor median | step ÷ floor (pooled medians) | (median of rounds) | rounds |")
    print("|---|---|---:|---:|---:|---:|---|")
    for painter in chosen:
        for v in versions:
            g = got[(v, painter)]
            step, floor = statistics.median(g["step"]), statistics.median(g["floor"])
            print(f"| {painter} | {v} | {step:.1f} ms | {floor:.1f} ms | {step / floor:.2f} "
                  f"| {statistics.median(g['ratio']):.2f} | {', '.join(f'{x:.2f}' for x in g['ratio'])} |")
    if chosen:
        print("\nCPU ms per press (medians of rounds), step / floor, and the step's extra (step − floor):")
        print("| painter | version | " + " | ".join(CPU_THREADS) + " | extra, all four |")
        print("|---|---|" + "---:|" * (len(CPU_THREADS) + 1))
        for painter in chosen:
            for v in versions:
                rows = got[(v, painter)]["cpu"]
                med = {t: (statistics.median(r[t][0] for r in rows), statistics.median(r[t][1] for r in rows))
                       for t in CPU_THREADS}
                extra = statistics.median(sum(r[t][0] - r[t][1] for t in CPU_THREADS) for r in rows)
                print(f"| {painter} | {v} | " + " | ".join(f"{a:.2f} / {b:.2f}" for a, b in med.values())
                      + f" | {extra:.2f} |")
    if args.opens:
        print("\n| version | open 11,111 | open 111,111 | ratio (medians) | ratio per round | "
              "111,111: fetched / drawn / run started (median) |")
        print("|---|---:|---:|---:|---|---|")
        for v in versions:
            small = statistics.median(t for t, _ in opens[(v, "11,111")])
            big = opens[(v, "111,111")]
            marks = {k: statistics.median(m[k] for _, m in big if k in m) for k in big[0][1]}
            rounds = [b / a for (a, _), (b, _) in zip(opens[(v, "11,111")], big)]
            print(f"| {v} | {small:.2f} s | {statistics.median(t for t, _ in big):.2f} s | "
                  f"{statistics.median(t for t, _ in big) / small:.2f} | "
                  + ", ".join(f"{r:.2f}" for r in rounds) + " | "
                  + " / ".join(f"{t:.2f} s" for t in marks.values()) + " |")
            print(f"|  | (single opens: {', '.join(f'{t:.2f}' for t, _ in opens[(v, '11,111')])} | "
                  f"{', '.join(f'{t:.2f}' for t, _ in big)}) | | | |")
        print("\n| version | GET /api/trees/<111,111 nodes>: first | again (median of 5) | bytes |")
        print("|---|---:|---:|---:|")
        for v, (first, again, size) in served.items():
            print(f"| {v} | {1000 * first:.0f} ms | {1000 * again:.0f} ms | {size:,} |")


if __name__ == "__main__":
    main()
