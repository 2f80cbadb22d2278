"""Where a step's frame goes on the 11,111-node tree (issue 30 point 1).

Both painters (canvas, then ``draw=svg``): Chrome traces of ArrowRight
presses (a step) and ArrowUp presses (the one-character floor), the
renderer main thread's trace slices summed by name per press, and the
style/layout passes with the script that forced them (its stack).

    .venv/bin/python bench/step_trace.py [--presses 40] [--damage]

``--damage``: the frames' damage instead (the renderer's compositor frame
as the display compositor draws it in software: the union of what changed
is drawn again whole), each frame's damaged rectangle and its share of the
window, and the raster CPU per composited layer (issue 30 point 1, fourth
round).

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
import statistics
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


def threads(ev: list[dict], presses: int, top: int = 8) -> list[tuple[str, float, float]]:
    """Each thread's top-level slices, (thread, wall ms, CPU ms) per press: the
    work a press costs on the renderer's main, compositor and raster threads
    and the display compositor's (CPU time is what load changes least)."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
    by: dict = collections.defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and "dur" in e and (e.get("pid"), e.get("tid")) in names:
            by[(e["pid"], e["tid"])].append(e)
    wall, cpu = collections.Counter(), collections.Counter()
    for k, xs in by.items():
        end = -1
        for e in sorted(xs, key=lambda e: (e["ts"], -e["dur"])):
            if e["ts"] >= end:       # top level: not inside the last one counted
                end = e["ts"] + e["dur"]
                name = names[k].rstrip("0123456789/")
                wall[name] += e["dur"]
                cpu[name] += e.get("tdur", e["dur"])
    return [(n, wall[n] / 1000 / presses, cpu[n] / 1000 / presses) for n, _ in wall.most_common(top)]


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


def stages(ev: list[dict]) -> list[tuple[str, int, float, float]]:
    """EventLatency's own stages of key presses (its nested slices on the same
    track: queueing, the renderer's main thread, commit, activation, submit,
    presentation), (name, presses it was in, median ms, mean ms) each, in order."""
    spans: dict = collections.defaultdict(list)     # (pid, id) -> [(name, start, end)]
    open_: dict = {}
    for e in sorted((e for e in ev if e.get("ph") in ("b", "e")), key=lambda e: e.get("ts", 0)):
        track = (e.get("pid"), (e.get("id2") or {}).get("local", e.get("id")))
        k = track + (e["name"],)
        if e["ph"] == "b":
            open_[k] = e
        elif k in open_:
            b = open_.pop(k)
            spans[track].append((e["name"], b["ts"], e["ts"], b.get("args") or {}))
    per: dict = collections.defaultdict(list)
    first: dict = {}
    for track, xs in spans.items():
        keys = [x for x in xs if x[0] == "EventLatency"
                and x[3].get("event_latency", {}).get("event_type") == "KEY_PRESSED"]
        if not keys:
            continue
        for name, t0, t1, _ in xs:
            per[name].append((t1 - t0) / 1000)
            first.setdefault(name, len(first))
    return [(n, len(per[n]), statistics.median(per[n]), statistics.fmean(per[n])) for n in sorted(per, key=first.get)]


DAMAGE_CATS = ["input", "disabled-by-default-devtools.timeline", "disabled-by-default-cc.debug",
               "disabled-by-default-viz.quads"]


def damage(ev: list[dict], presses: int) -> None:
    """Print each compositor frame's damage (x, y, w, h) and the raster CPU per layer, per press."""
    snaps = [e["args"]["snapshot"] for e in ev
             if e.get("name") == "LayerTreeHostImpl:snapshot" and "snapshot" in (e.get("args") or {})]
    names: dict = {}
    shares = []
    for s in snaps:
        for layer in s.get("active_tree", {}).get("layers", []):
            names[layer["layer_id"]] = (layer.get("layer_name") or "")[:60]
        size = s.get("device_viewport_size") or {"width": 1, "height": 1}
        for rp in (s.get("frame") or {}).get("render_passes", [])[-1:]:
            x, y, w, h = rp["damage_rect"]
            shares.append(w * h / (size["width"] * size["height"]))
            print(f"    frame damage {rp['damage_rect']} ({100 * shares[-1]:.0f} % of the window), "
                  f"{len(rp['quad_list'])} quads")
    if shares:
        print(f"    median damaged share of the window: {100 * statistics.median(shares):.0f} %")
    raster: collections.Counter = collections.Counter()
    for e in ev:
        if e.get("name") == "RasterTask" and e.get("ph") == "X":
            raster[((e.get("args") or {}).get("tileData") or {}).get("layerId")] += e.get("tdur", e.get("dur", 0))
    for layer, us in raster.most_common():
        print(f"    raster {us / 1000 / presses:5.2f} ms CPU/press  layer {layer} {names.get(layer, '')}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=40)
    ap.add_argument("--damage", action="store_true", help="the frames' damage and raster per layer")
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
                browser.start_tracing(page=page, categories=DAMAGE_CATS if args.damage else CATS)
                for i in range(args.presses):
                    page.keyboard.press(key)
                    page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
                    time.sleep(rng.uniform(0, 2 / 60))
                trace = browser.stop_tracing()
                ev = events(trace)
                lat = sorted(B.key_latencies(trace))
                print(f"{query or 'canvas'} {key}: EventLatency median "
                      f"{lat[len(lat) // 2]:.1f} ms (traced)")
                if args.damage:
                    damage(ev, args.presses)
                    continue
                for name, n, med, mean in stages(ev):
                    print(f"    stage {med:6.2f} ms median {mean:6.2f} mean ({n:3d})  {name}")
                for name, w, c in threads(ev, args.presses):
                    print(f"    thread {w:6.2f} ms wall {c:6.2f} ms CPU /press  {name}")
                for name, ms in by_name(ev, args.presses):
                    print(f"    {ms:6.2f} ms/press  {name}")
                for name, n, ms in forced(ev, args.presses):
                    print(f"    {n:4d} passes {ms:5.2f} ms/press  {name[:160]}")
        browser.close()
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
