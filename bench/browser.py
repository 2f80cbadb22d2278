"""How quick is the page in a real browser? (issue: the visualizer, page half)

Starts ``run.py`` on a free port (a process of its own, with a fresh upload
store, wrapped to time the server's half of every ``pull``), uploads seeded
random trees in the one-line notation, and drives Debian's Chromium through
Playwright:

1. step latency: Right arrow on a 1,111-node tree (branching 10, depth 3),
   then the same on the 11,111-node tree (branching 10, depth 4),
   from the key event to the frame that shows the step *presented* on
   screen: Chromium's own ``EventLatency`` trace event (the input-to-
   presentation figure behind its interaction metrics), read from a trace
   of category ``input``. Presses come at random moments against the 60 Hz
   frame clock, as a person's do (a press right after a frame waits a whole
   frame). The page must show the step in the first frame after the key:
   every press is checked. Median and p95 (goal < 16 ms, < 50 ms); beside
   them the page's own work in the key handler, the main thread's work in
   that frame, and the same measure for a one-character change (the floor).
2. open + draw a 11,111-node tree (branching 10, depth 4): navigation start
   to the first frame painted with the tree drawn and the run started
   (median of ``--opens``; goal < 2 s).
3. stream a run of 100,000+ events to the end (minimax on branching 9,
   depth 5: 66,430 nodes): End pressed to the last step painted, split into
   the pull loop (End to the last event in: the page's mark
   ``end-fetched``), drawing (to ``end-drawn``) and the last paint. Goals
   (issue 13): drawn <= 1.5 s, and all events received <= 1.5x a *replay*
   of the same bytes: the server, in replay mode, answers each pull with the
   JSON text it sent for that pull when the run was recorded (no search, no
   narration, no encoding), so the ratio is what the search and narration
   add to the page's own transport and bookkeeping. The page runs with its
   default painter (a canvas past 3,000 nodes) and, side by side in the same
   run, with ``?draw=svg`` (one SVG element per shape, the page before the
   canvas painter). Then the same run pulled with no page work: the pull
   loop as the page runs it (3 pulls of 1,000 in flight), one pull at a
   time (round trip per pull), and the server's share per pull (timed
   inside the server process).

The 11,111-node step latency is measured with both painters too.

    .venv/bin/python bench/browser.py [--presses 200] [--opens 3] [--ends 2] [--parts steps,open,stream]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from common import free_port, notation

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# run.py, with the server's half of a pull timed: the handler (drawing and
# narrating the events), making the ack's Socket.IO packet, its JSON
# encoding, the WebSocket write (permessage-deflate and the socket), and the
# whole (request read to ack written). One line per timing ("kind ms") in
# the file $PULL_TIMES. The app itself is not changed.
TIMED_SERVER = r"""
import collections, os, runpy, sys, threading, time
import engineio.socket as es
import simple_websocket.ws as ws
import socketio.packet as sp
from app.web import sockets
out = open(os.environ["PULL_TIMES"], "a", buffering=1)
lock = threading.Lock()
def note(kind, t0):
    with lock:
        out.write(f"{kind} {1000 * (time.perf_counter() - t0):.3f}\n")
def wrap(owner, name, kind, big):
    orig = getattr(owner, name)
    def timed(self, *args, **kwargs):
        t0 = time.perf_counter()
        result = orig(self, *args, **kwargs)
        if big(self, args, result):
            note(kind, t0)
        return result
    setattr(owner, name, timed)
wrap(sockets.StreamNamespace, "on_pull", "handler", lambda s, a, r: True)
wrap(sp.Packet, "encode", "json", lambda s, a, r: isinstance(r, str) and len(r) > 20000)
# Making the ack's Socket.IO packet: python-socketio walks the whole payload
# looking for binary data to send as attachments.
wrap(sp.Packet, "__init__", "packet",
     lambda s, a, r: isinstance(s.data, list) and s.data and isinstance(s.data[0], dict)
     and len(s.data[0].get("events") or ()) >= 100)
# "total": a request read off the socket to its ack written (kept for big
# acks). One connection's requests are answered in order, one at a time.
arrived = collections.deque()
receive = es.Socket.receive
def timed_receive(self, pkt):
    if isinstance(pkt.data, str) and pkt.data[:1] == "2":     # an event (all ask for an ack)
        arrived.append(time.perf_counter())
    return receive(self, pkt)
es.Socket.receive = timed_receive
send = ws.Base.send
def timed_send(self, data):
    t0 = time.perf_counter()
    result = send(self, data)
    if isinstance(data, str) and data[:2] == "43" and arrived:   # an acknowledgement
        t_in = arrived.popleft()
        if len(data) > 20000:
            note("ws-send", t0)
            note("total", t_in)
    return result
ws.Base.send = timed_send
# Replay mode (the file $REPLAY_CTL says "record", "replay" or nothing): a
# recorded run's pulls are answered with the very texts sent when it was
# recorded, in order, whatever count is asked (the page's steps stay
# consecutive). The run is still started for real (its cost is not in End).
recorded = {}      # tree id -> [(key, text, done, position)]: events_json or records_json
cursor = {}        # run id -> (tree id, next batch)
def mode():
    try:
        return open(os.environ["REPLAY_CTL"]).read().strip()
    except OSError:
        return ""
start = sockets.StreamNamespace.on_start
def replay_start(self, data):
    ack = start(self, data)
    if isinstance(ack, dict) and ack.get("ok"):
        m = mode()
        if m == "record":
            recorded[data["tree"]] = []
            cursor[ack["run"]] = ("record", data["tree"])
        elif m == "replay" and data["tree"] in recorded:
            cursor[ack["run"]] = ("replay", data["tree"], 0)
    return ack
pull = sockets.StreamNamespace.on_pull
def replay_pull(self, data):
    c = cursor.get(data.get("run")) if isinstance(data, dict) else None
    if c and c[0] == "replay":
        batches = recorded[c[1]]
        if c[2] >= len(batches):
            return {"ok": True, batches[-1][0]: "[]", "done": True, "position": batches[-1][3]}
        key, text, done, position = batches[c[2]]
        cursor[data["run"]] = ("replay", c[1], c[2] + 1)
        return {"ok": True, key: text, "done": done, "position": position}
    ack = pull(self, data)
    if c and isinstance(ack, dict) and ack.get("ok"):
        for key in ("events_json", "records_json"):
            if key in ack:
                recorded[c[1]].append((key, ack[key], ack["done"], ack["position"]))
    return ack
sockets.StreamNamespace.on_start = replay_start
sockets.StreamNamespace.on_pull = replay_pull
sys.argv = ["run.py"] + sys.argv[1:]
runpy.run_path("run.py", run_name="__main__")
"""

# In the page, per Right press: was the step drawn by the time the key's
# handlers were done (`sync`, read by a listener on window, which runs after
# the page's listener on document) and in the first animation frame after
# the key (`first`)? `work`: key event to handlers done; `frame`: the first
# frame's main-thread work (its animation frame callbacks to the task after
# its paint).
LATENCY_JS = """(key) => {
  window.__lat = [];
  const out = key === 'ArrowRight' ? document.querySelector('[data-step]') : (() => {
    const s = document.createElement('span');           // the floor: one character
    s.style.cssText = 'position: fixed; left: 4px; top: 4px';
    s.textContent = '0';
    document.body.append(s);
    document.addEventListener('keydown', (e) => {
      if (e.key === key) s.textContent = String(+s.textContent + 1);
    });
    return s;
  })();
  let now = null;
  document.addEventListener('keydown', (e) => {
    if (e.key !== key) return;
    const want = String(+out.textContent + 1);
    now = { want, t0: e.timeStamp };
    const r = now;
    requestAnimationFrame(() => {
      r.first = out.textContent === want;
      const f0 = performance.now();
      setTimeout(() => { r.frame = performance.now() - f0; window.__lat.push(r); }, 0);
    });
  }, true);
  window.addEventListener('keydown', (e) => {
    if (e.key !== key || !now) return;
    now.sync = out.textContent === now.want;
    now.work = performance.now() - now.t0;
  });
}"""

AFTER_PAINT_JS = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"

STREAM_JS = """async () => {
  const out = document.querySelector('[data-step]');
  performance.clearMarks('end-fetched');
  performance.clearMarks('end-drawn');
  const t0 = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
  await new Promise((resolve) => {
    const check = () => (out.hasAttribute('data-total') && out.textContent === out.dataset.total
      ? resolve() : setTimeout(check, 5));
    check();
  });
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const shownAt = performance.now() - t0;
  // The hook items made in idle time after the end is drawn (issue 20): at rest when aria-busy is gone.
  while (document.querySelector('[role=tree][aria-busy=true]')) await new Promise(r => setTimeout(r, 5));
  const t = (name) => { const e = performance.getEntriesByName(name)[0]; return e ? e.startTime - t0 : null; };
  return { total: shownAt, hooks: performance.now() - t0, fetched: t('end-fetched'), painted: t('end-painted') ?? t('end-drawn'),
           drawn: t('end-drawn') };
}"""

PULL_JS = """async ([tree, depth, encoding]) => {
  const { connect, startRun } = await import('/static/js/core/stream.js');
  const { makeNarrator } = await import('/static/js/core/narrate.js');
  const { fetchTree, readTree } = await import('/static/js/core/tree.js');
  const narrator = makeNarrator(readTree(await fetchTree(tree)));
  const socket = connect();
  const id = await startRun(socket, { tree, algorithm: 'minimax' });
  const trips = [], inflight = [];
  let done = false, events = 0;
  const t0 = performance.now();
  while (!done) {
    while (inflight.length < depth) {
      const sent = performance.now();
      inflight.push(socket.timeout(20000).emitWithAck('pull', { run: id, count: 1000, encoding })
        .then((ack) => ({ ack, trip: performance.now() - sent })));
    }
    const { ack, trip } = await inflight.shift();
    trips.push(trip);
    // as the page does (stream.js): one parse, and the page's narration of compact records
    events += encoding === 'json' ? JSON.parse(ack.events_json).length
      : narrator.feed(JSON.parse(ack.records_json)).length;
    done = ack.done;
  }
  const seconds = (performance.now() - t0) / 1000;
  await Promise.allSettled(inflight);
  socket.close();
  return { seconds, events, trips };
}"""


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


def key_latencies(trace: bytes) -> list[float]:
    """Durations (ms) of Chromium's EventLatency slices of key presses, in order."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    begun, spans = {}, []
    for e in sorted(events, key=lambda e: e.get("ts", 0)):
        if e.get("name") != "EventLatency" or e.get("ph") not in ("b", "e"):
            continue
        key = (e.get("pid"), (e.get("id2") or {}).get("local", e.get("id")))
        if e["ph"] == "b":
            if e["args"]["event_latency"]["event_type"] == "KEY_PRESSED":
                begun[key] = e["ts"]
        elif key in begun:
            start = begun.pop(key)
            spans.append((start, (e["ts"] - start) / 1000))
    return [ms for _, ms in sorted(spans)]


def press_latency(browser, page, key: str, presses: int, rng: random.Random) -> tuple[list, list]:
    """(EventLatency ms per press, the page's record per press) for `presses` of `key`."""
    page.evaluate(LATENCY_JS, key)
    browser.start_tracing(page=page, categories=["input"])
    for i in range(presses):
        page.keyboard.press(key)
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
        # Somewhere in the next two frames: a random phase against the frame clock.
        time.sleep(rng.uniform(0, 2 / 60))
    latencies = key_latencies(browser.stop_tracing())
    return latencies, page.evaluate("window.__lat")


def step_latency(browser, page, base: str, tree_id: str, presses: int, query: str = "") -> dict:
    rng = random.Random(7)
    open_tree(page, base, tree_id, query)
    lat, rec = press_latency(browser, page, "ArrowRight", presses, rng)
    floor, _ = press_latency(browser, page, "ArrowUp", min(presses, 100), rng)
    return {"lat": lat, "floor": floor, "presses": presses,
            "first": sum(r["first"] for r in rec), "sync": sum(r.get("sync", False) for r in rec),
            "work": [r["work"] for r in rec if "work" in r], "frame": [r["frame"] for r in rec]}


def open_time(page, base: str, tree_id: str) -> tuple[float, dict]:
    """Seconds from navigation start to the first frame painted when ready, and the page's marks."""
    page.goto("about:blank")
    open_tree(page, base, tree_id)
    marks = page.evaluate("Object.fromEntries(performance.getEntriesByType('mark')"
                          ".map(m => [m.name, m.startTime / 1000]))")
    return page.evaluate("performance.now()") / 1000, marks


def server_times(path: Path) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    for line in path.read_text().splitlines():
        kind, ms = line.split()
        times.setdefault(kind, []).append(float(ms))
    return times


def end_run(page, base: str, tree_id: str, query: str = "") -> dict:
    """One End on a freshly opened page: {total, fetched, drawn} in ms from End, events."""
    page.goto("about:blank")
    open_tree(page, base, tree_id, "algorithm=minimax" + (f"&{query}" if query else ""))
    run = page.evaluate(STREAM_JS)
    run["events"] = int(page.locator("[data-step]").inner_text())
    run["painter"] = page.locator("#tree").get_attribute("data-painter")
    return run


def stream_time(page, base: str, tree_id: str, pull_times: Path, ctl: Path, ends: int,
                svg: bool = True) -> dict:
    """End (the page narrating; the server narrating, ``?stream=json``; the SVG
    painter; a replay of the recorded pulls), interleaved; then bare pull loops
    and the server's share."""
    ctl.write_text("record")
    end_run(page, base, tree_id)             # recorded (and a warm-up)
    runs: dict[str, list] = {"canvas": [], "json": [], "svg": [], "replay": []}
    for _ in range(ends):
        ctl.write_text("")
        runs["canvas"].append(end_run(page, base, tree_id))
        runs["json"].append(end_run(page, base, tree_id, "stream=json"))
        if svg:
            runs["svg"].append(end_run(page, base, tree_id, "draw=svg"))
        ctl.write_text("replay")
        runs["replay"].append(end_run(page, base, tree_id))
    ctl.write_text("")
    page_run = runs["canvas"][-1]
    pipelined = page.evaluate(PULL_JS, [tree_id, 3, "compact"])
    pipelined_json = page.evaluate(PULL_JS, [tree_id, 3, "json"])
    pull_times.write_text("")
    single = page.evaluate(PULL_JS, [tree_id, 1, "compact"])
    return {"page": page_run, "runs": runs, "pipelined": pipelined, "single": single,
            "pipelined_json": pipelined_json, "server": server_times(pull_times)}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def report_steps(s: dict, tree: str = "1,111-node tree", goal: str = "< 16 ms median, < 50 ms p95") -> None:
    lat, floor = s["lat"], s["floor"]
    print(f"step latency, {tree}, {s['presses']} Right presses, key to frame presented "
          f"(Chromium EventLatency, {len(lat)} measured): median {statistics.median(lat):.1f} ms, "
          f"p95 {percentile(lat, 0.95):.1f} ms, max {max(lat):.1f} ms   (goal {goal})")
    print(f"  step drawn by the end of the key's handlers: {s['sync']}/{s['presses']}, "
          f"shown in the first frame after the key: {s['first']}/{s['presses']}")
    print(f"  the page's work in the key handler: median {statistics.median(s['work']):.1f} ms, "
          f"p95 {percentile(s['work'], 0.95):.1f} ms; main-thread work of that frame: "
          f"median {statistics.median(s['frame']):.1f} ms, p95 {percentile(s['frame'], 0.95):.1f} ms")
    print(f"  floor, a one-character change measured the same way: median "
          f"{statistics.median(floor):.1f} ms, p95 {percentile(floor, 0.95):.1f} ms")


def report_stream(r: dict) -> None:
    p, pipe, one, server = r["page"], r["pipelined"], r["single"], r["server"]
    med = lambda runs, key: statistics.median(x[key] for x in runs) / 1000   # noqa: E731
    runs = r["runs"]
    print(f"End on {p['events']:,} events (66,430-node tree), median of {len(runs['canvas'])} each, "
          "End pressed to: all events in / the end's picture painted / drawn, hooks and panels included "
          "(page marks) / last step on screen")
    for name in ("canvas", "json", "svg", "replay"):
        if not runs[name]:
            continue
        painter = runs[name][0]["painter"]
        print(f"  {name:7s} ({painter} painter): {med(runs[name], 'fetched'):.2f} s / "
              f"{med(runs[name], 'painted'):.2f} s / {med(runs[name], 'drawn'):.2f} s / {med(runs[name], 'total'):.2f} s   "
              f"(drawn, runs: {', '.join(format(x['drawn'] / 1000, '.2f') for x in runs[name])})")
    print(f"  all events in, search / replay: {med(runs['canvas'], 'fetched') / med(runs['replay'], 'fetched'):.2f}x"
          "   (goal <= 1.5x);   canvas: picture painted "
          f"{med(runs['canvas'], 'painted'):.2f} s, drawn {med(runs['canvas'], 'drawn'):.2f} s   (goal <= 1.5 s)")
    print(f"  hook items at rest (aria-busy gone, made in idle time after the end is drawn): canvas "
          f"{med(runs['canvas'], 'hooks'):.2f} s")
    print(f"  drawing the end alone (drawn - all in): canvas {med(runs['canvas'], 'drawn') - med(runs['canvas'], 'fetched'):.2f} s"
          + (f", svg {med(runs['svg'], 'drawn') - med(runs['svg'], 'fetched'):.2f} s" if runs["svg"] else ""))
    print(f"  server-narrated (?stream=json) all events in: {med(runs['json'], 'fetched'):.2f} s, "
          f"drawn {med(runs['json'], 'drawn'):.2f} s; bare pull loop with json: "
          f"{r['pipelined_json']['seconds']:.2f} s")
    print(f"  bare pull loop, no drawing (compact records, narrated in the page): {pipe['seconds']:.2f} s with 3 pulls of 1,000 in flight, "
          f"{one['seconds']:.2f} s one at a time (round trip per pull: median "
          f"{statistics.median(one['trips']):.1f} ms, p90 {percentile(one['trips'], 0.9):.1f} ms)")
    if server:
        parts = ", ".join(f"{kind} {statistics.median(ms):.1f} ms" for kind, ms in server.items())
        pulls = len(server.get("handler", []))
        print(f"  server side per 1,000-event pull, one at a time (median of {pulls}): {parts}")
        print("    (handler = search + narration; packet = python-socketio's scan of the ack for "
              "binary data; json = encoding it; ws-send = deflate + socket write; total = the pull "
              "read off the socket to its ack written)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200, help="Right presses timed")
    parser.add_argument("--opens", type=int, default=3, help="openings of the 10,000-node tree")
    parser.add_argument("--ends", type=int, default=2, help="End runs per painter and on the replay")
    parser.add_argument("--parts", default="steps,open,stream", help="which parts to run (comma-separated)")
    parser.add_argument("--no-svg", dest="svg", action="store_false",
                        help="leave the SVG painter out of End (it takes minutes)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as instance:
        pull_times = Path(instance) / "pull-times.txt"
        pull_times.write_text("")
        ctl = Path(instance) / "replay-ctl.txt"
        ctl.write_text("")
        server = subprocess.Popen([sys.executable, "-c", TIMED_SERVER, "--port", str(port),
                                   "--instance", instance],
                                  cwd=REPO, env={**os.environ, "PULL_TIMES": str(pull_times), "REPLAY_CTL": str(ctl)},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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

                parts = set(args.parts.split(","))
                if "steps" in parts:
                    report_steps(step_latency(browser, page, base, small, args.presses))
                    report_steps(step_latency(browser, page, base, big, args.presses),
                                 "11,111-node tree, canvas painter", "<= 16 ms median, <= 33 ms p95")
                    report_steps(step_latency(browser, page, base, big, args.presses, "draw=svg"),
                                 "11,111-node tree, SVG painter", "<= 16 ms median, <= 33 ms p95")

                if "open" in parts:
                    opens = [open_time(page, base, big) for _ in range(args.opens)]
                    seconds = [t for t, _ in opens]
                    marks = opens[-1][1]
                    print(f"open + draw, 11,111-node tree: median {statistics.median(seconds):.2f} s "
                          f"(runs: {', '.join(f'{t:.2f}' for t in seconds)})   (goal < 2 s)")
                    print("  last run: " + ", ".join(f"{name} {t:.2f} s" for name, t in marks.items()))

                if "stream" in parts:
                    report_stream(stream_time(page, base, huge, pull_times, ctl, args.ends, args.svg))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
