"""Where a step's extra work goes, by taking parts of the page away (issue 30 point 1).

The 11,111-node tree (as ``browser.py``), one page per variant: a part of
the page hidden by a style sheet (the panels, the narration, the transport,
the accessible tree, one panel...), a module patched as it is served (no
``fitText``, another SVG chunk size, an opaque canvas), or nothing (``base``).
In each, ArrowRight presses (a step) and ArrowUp presses (the one-character
floor) traced: the EventLatency medians and, what the machine's load changes
least, each thread's CPU per press, the step's minus the floor's, and the
main thread's by kind of work. Variants interleaved, rounds alternating
their order. A scratch tool: what it hides is not a page anyone sees.

    .venv/bin/python bench/step_ablate.py [--rounds 2] [--presses 30] [--painters canvas,svg] [--variants base,no-panels,bare]
"""
from __future__ import annotations
import argparse, os, random, statistics, sys, tempfile, threading
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent)); sys.path.insert(0, str(HERE))
import browser as B
import step_trace as T
CATS = ["toplevel", "input", "disabled-by-default-devtools.timeline", "devtools.timeline", "blink", "cc"]
import collections
def mainnames(ev, presses):
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    tot = collections.Counter()
    for e in ev:
        if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main and "dur" in e:
            tot[e["name"]] += e.get("tdur", e["dur"])
    return {k: v / 1000 / presses for k, v in tot.items()}

def traced(br, page, key, presses, rng):
    import time
    page.evaluate(B.LATENCY_JS, key)
    br.start_tracing(page=page, categories=CATS)
    for i in range(presses):
        page.keyboard.press(key)
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1)
        time.sleep(rng.uniform(0, 2 / 60))
    tr = br.stop_tracing()
    ev = T.events(tr)
    cpu = {n: c for n, w, c in T.threads(ev, presses, top=30)}
    global NAMES; NAMES = sorted(cpu)
    cpu["names"] = mainnames(ev, presses)
    return B.key_latencies(tr), cpu

VARIANTS = {
    "base": ("", None),
    "still-below": ("#stats,#take-away,.panel.about{display:none!important}", None),
    "stack-min": ("#stack{min-height:13rem} #prune-test{min-height:4.5em}", None),
    "no-fit": ("", "fit"),
    "no-panels": (".panels{display:none!important}", None),
    "no-narr": ("#narration{display:none!important}", "fit"),
    "no-transport": ("#transport{display:none!important}", None),
    "no-a11y": ("#a11y-tree{display:none!important}", None),
    "bare": (".panels,#narration,#transport,#a11y-tree,.topbar{display:none!important}", "fit"),
    "no-code": ("#pseudocode{display:none!important}", None),
    "no-stack": ("#stack{display:none!important}", None),
    "no-stats": ("#stats{display:none!important}", None),
    "no-prune": ("#prune-test{display:none!important}", None),
    "c-panel": (".panel{contain:content}", None),
    "c-layer": (".panels{will-change:transform}", None),
    "c-both": (".panel{contain:content} .panels{will-change:transform}", None),
    "c-all": (".panel{contain:content} .panels,#narration,#transport{will-change:transform}", None),
    "fixed-stack": (".stack{table-layout:fixed}", None),
    "code-nobold": (".code li.running{font-weight:inherit!important}", None),
    "code-li": (".code li{contain:layout paint}", None),
    "code-both": (".code li.running{font-weight:inherit!important} .code li{contain:layout paint}", None),
    "code-iso": (".code li{isolation:isolate}", None),
    "panels-iso": (".code li,.panel{isolation:isolate}", None),
    "code-scroll": (".code-scroll{will-change:transform}", None),
    # issue 30 point 1, fourth round: the listing as a composited scroller (opaque, as its panel)
    "code-bg": (".code-scroll{background:var(--panel)}", None),
    "narr-contain": ("#narration{contain:strict}", None),
    "code-nohl": (".code li.running{background:none!important;box-shadow:none!important;font-weight:inherit!important;color:inherit!important}", None),
    "code-noreveal": ("", ("visualizer/panels.js", "  function reveal() {\n    if (!lit) return;", "  function reveal() {\n    return;")),
    "code-bg-narr": (".code-scroll{background:var(--panel)} #narration{contain:strict}", None),
    # the canvas as it was before issue 30's third round: transparent, blended over the page
    "transparent": ("", ("painters/canvasframes.js", "let paper = backdropOf(canvas.parentElement);", "let paper = null;")),
    "chunk100": ("", ("painters/treeview.js", "const CHUNK = 400;", "const CHUNK = 100;")),
    "chunk200": ("", ("painters/treeview.js", "const CHUNK = 400;", "const CHUNK = 200;")),
    "chunk800": ("", ("painters/treeview.js", "const CHUNK = 400;", "const CHUNK = 800;")),
}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--presses", type=int, default=40)
    ap.add_argument("--painters", default="canvas")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--static", default=None)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from app.web import create_app
    from app.web.serving import threaded_server
    app = create_app({"RATELIMIT_ENABLED": False}, instance_path=tempfile.mkdtemp() + "/i")
    if a.static: app.static_folder = a.static
    server = threaded_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.port}"
    tid = B.upload(base, 10, 4, seed=2)
    got = {}
    loads = [os.getloadavg()[0]]
    with sync_playwright() as p:
        br = p.chromium.launch(executable_path=B.CHROMIUM, args=B.ARGS)
        for r in range(a.rounds):
            vs = a.variants.split(",")
            if r % 2: vs = vs[::-1]
            for painter in a.painters.split(","):
                for v in vs:
                    css, js = VARIANTS[v]
                    page = br.new_page(viewport={"width": 1440, "height": 900}, bypass_csp=True)
                    if js == "fit":
                        page.route("**/painters/fittext.js", lambda rt: rt.fulfill(
                            body="export function fitText() {}\nexport function afterLayout() { return () => {}; }",
                            content_type="application/javascript"))
                    if isinstance(js, tuple):
                        def make(js):
                          def patch(rt):
                            body = rt.fetch().text()
                            pairs = js[1:] if isinstance(js[1], tuple) else [js[1:]]
                            for old, new in pairs:
                                assert old in body, old
                                body = body.replace(old, new)
                            rt.fulfill(body=body, content_type="application/javascript")
                          return patch
                        page.route("**/" + js[0], make(js))
                    B.open_tree(page, base, tid, "draw=svg" if painter == "svg" else "")
                    if css:
                        page.add_style_tag(content=css)
                        page.evaluate(B.AFTER_PAINT_JS)
                    rng = random.Random(7 + r)
                    step, cs = traced(br, page, "ArrowRight", a.presses, rng)
                    floor, cf = traced(br, page, "ArrowUp", a.presses, rng)
                    page.close()
                    g = got.setdefault((painter, v), {"step": [], "floor": [], "cpu": []})
                    g["step"] += step; g["floor"] += floor
                    ns, nf = cs.pop("names"), cf.pop("names")
                    g["cpu"].append({k: cs.get(k, 0) - cf.get(k, 0) for k in set(cs) | set(cf)})
                    g.setdefault("names", []).append({k: ns.get(k, 0) - nf.get(k, 0) for k in set(ns) | set(nf)})
                    print(f"r{r+1} {painter} {v:12s} step {statistics.median(step):5.1f} floor {statistics.median(floor):5.1f} "
                          f"ratio {statistics.median(step)/statistics.median(floor):.2f}", flush=True)
            loads.append(os.getloadavg()[0])
        br.close()
    print(f"load {min(loads):.1f}-{max(loads):.1f}")
    print("| painter | variant | step | floor | ratio | extra CPU ms/press: main | compositor | pool (raster) | viz | gpu main | browser |")
    for (painter, v), g in got.items():
        s, f = statistics.median(g["step"]), statistics.median(g["floor"])
        keys = ["CrRendererMain", "Compositor", "ThreadPoolForegroundWorker", "VizCompositorThread", "CrGpuMain", "CrBrowserMain"]
        c = {k: statistics.median(x.get(k, 0) for x in g["cpu"]) for k in keys}
        print(f"| {painter} | {v} | {s:.1f} | {f:.1f} | {s/f:.2f} | " + " | ".join(f"{c[k]:.2f}" for k in keys) + " |")
        allk = set().union(*g["names"])
        med = {k: statistics.median(x.get(k, 0) for x in g["names"]) for k in allk}
        want = ["FunctionCall", "Layout", "UpdateLayoutTree", "Paint", "PrePaint", "Layerize", "PaintArtifactCompositor::Update", "ProxyMain::BeginMainFrame::commit", "Blink.ForcedStyleAndLayout.UpdateTime", "FireAnimationFrame", "EventDispatch"]
        print("   ", ", ".join(f"{k} {med.get(k, 0):.2f}" for k in want))

main()
