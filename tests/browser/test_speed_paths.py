"""The page's fast paths do the same as the plain ones: a step drawn inside
its key handler, a big jump drawn in slices (and taken over by a key press
mid-way), and a tree sized in pixels that still follows the stage.

The timings themselves are measured by bench/browser.py, not here.
"""
from __future__ import annotations

import json

import pytest
import requests

from .expect import hooks_at, node_ids, trace

pytestmark = pytest.mark.browser


def upload_random(live_server, branching: int, depth: int, seed: int) -> str:
    from app.games.random_tree import random_tree
    from app.treefile import dump_yaml

    tree = random_tree(branching=branching, depth=depth, seed=seed)
    res = requests.post(f"{live_server}/api/trees", data=dump_yaml(tree).encode(),
                        headers={"Content-Type": "application/x-yaml"}, timeout=60)
    assert res.status_code == 201, res.text
    return res.json()["id"]


def test_a_step_is_drawn_before_the_key_handlers_return(page, viz, live_server, fig52):
    """No deferral to a later frame: the step shows in the frame after the key."""
    events = trace(live_server, fig52)
    viz.open(page, fig52)
    # A listener on window runs after the page's own (on document).
    page.evaluate("""() => {
      window.__seen = [];
      window.addEventListener('keydown', () => window.__seen.push({
        step: document.querySelector('[data-step]').textContent,
        nodes: Object.fromEntries([...document.querySelectorAll('[data-node]')]
          .map((e) => [e.dataset.node, e.dataset.status])),
      }));
    }""")
    for k in range(1, 6):
        page.keyboard.press("ArrowRight")
        viz.wait_step(page, k)
    seen = page.evaluate("window.__seen")
    assert [s["step"] for s in seen] == ["1", "2", "3", "4", "5"]
    for k, s in enumerate(seen, start=1):
        want = {n: f["status"] for n, f in hooks_at(events, k, node_ids(live_server, fig52)).items()}
        assert s["nodes"] == want, f"step {k}"


def test_end_on_a_big_tree_draws_in_slices_to_the_servers_last_view(page, viz, live_server):
    tree_id = upload_random(live_server, branching=4, depth=6, seed=5)    # 5,461 nodes
    events = trace(live_server, tree_id, algorithm="minimax")
    ids = node_ids(live_server, tree_id)
    viz.open(page, tree_id, "algorithm=minimax")
    # Slices as short as can be, and a record of what the status line says.
    page.evaluate("""() => {
      window.visualizer.session.sliceMs = 0;
      window.__said = [];
      const busy = document.querySelector('[data-role=busy]');
      new MutationObserver(() => window.__said.push(busy.textContent))
        .observe(busy, { childList: true, characterData: true, subtree: true });
    }""")
    page.keyboard.press("End")
    viz.wait_step(page, len(events))
    said = page.evaluate("window.__said")
    assert any(s.startswith("Streaming to the end") for s in said)
    drawing = [s for s in said if s.startswith("Drawing the last step")]
    assert len(drawing) >= 2, said                 # it did yield, more than once
    assert viz.nodes(page) == hooks_at(events, len(events), ids)
    assert not page.locator("[data-role=busy]").is_visible()
    pv = page.eval_on_selector_all("[data-node].pv", "els => els.map(e => e.dataset.node)")
    assert pv == events[-1]["pv"]


def test_a_key_during_the_sliced_drawing_takes_over(page, viz, live_server):
    tree_id = upload_random(live_server, branching=4, depth=6, seed=6)
    events = trace(live_server, tree_id, algorithm="minimax")
    ids = node_ids(live_server, tree_id)
    viz.open(page, tree_id, "algorithm=minimax")
    # Left as soon as the drawing of the last step has begun.
    page.evaluate("""() => {
      window.visualizer.session.sliceMs = 0;
      const busy = document.querySelector('[data-role=busy]');
      const seen = new MutationObserver(() => {
        if (!busy.textContent.startsWith('Drawing the last step')) return;
        seen.disconnect();
        window.__drawn = document.querySelectorAll('[data-node]:not([data-status=unvisited])').length;
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      });
      seen.observe(busy, { childList: true, characterData: true, subtree: true });
    }""")
    page.keyboard.press("End")
    viz.wait_step(page, len(events) - 1)
    page.wait_for_timeout(300)                      # a stale slice would land now
    assert 0 < page.evaluate("window.__drawn") < len(ids)    # it was taken over mid-way
    assert viz.step(page) == len(events) - 1
    assert viz.nodes(page) == hooks_at(events, len(events) - 1, ids)
    assert not page.locator("[data-role=busy]").is_visible()


def test_the_tree_is_sized_in_pixels_and_follows_the_stage(page, viz, fig52):
    viz.open(page, fig52)
    size = """() => {
      const svg = document.querySelector('#tree').getBoundingClientRect();
      // The drawing area: the stage below its bar (legend, zoom buttons).
      const stage = document.querySelector('#canvas').getBoundingClientRect();
      return [svg.width, svg.height, stage.width, stage.height,
              document.querySelector('#tree').style.width];
    }"""
    w, h, sw, sh, styled = page.evaluate(size)
    assert styled.endswith("px")
    assert (round(w), round(h)) == (round(sw), round(sh))
    page.click("[data-action=toggle-panels]")       # the stage widens
    page.wait_for_function("w => document.querySelector('#tree').getBoundingClientRect().width > w + 100",
                           arg=w)
    w2, h2, sw2, sh2, _ = page.evaluate(size)
    assert (round(w2), round(h2)) == (round(sw2), round(sh2))
    page.set_viewport_size({"width": 1000, "height": 700})
    page.wait_for_function("w => document.querySelector('#tree').getBoundingClientRect().width < w - 100",
                           arg=w2)
    w3, h3, sw3, sh3, _ = page.evaluate(size)
    assert (round(w3), round(h3)) == (round(sw3), round(sh3))


# A style or layout pass a script forced carries the script's stack in a trace.
FORCED_CATS = ["devtools.timeline", "disabled-by-default-devtools.timeline",
               "disabled-by-default-devtools.timeline.stack"]


def forced_passes(trace: bytes) -> list[str]:
    """The style and layout passes a script forced, each named by its stack."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    out = []
    for e in events:
        if e.get("name") in ("Layout", "UpdateLayoutTree") and e.get("ph") == "X":
            stack = ((e.get("args") or {}).get("beginData") or {}).get("stackTrace") or []
            if stack:
                out.append(e["name"] + " <- " + " < ".join(
                    f"{f.get('functionName')}@{f.get('url', '').rsplit('/', 1)[-1]}:{f.get('lineNumber')}"
                    for f in stack[:3]))
    return out


@pytest.mark.parametrize("draw", ["svg", "canvas"])
def test_a_step_forces_no_style_or_layout(page, viz, fig52, draw):
    """A step's sentence is fitted, and its pseudocode line revealed, once
    the step's frame has laid the page out (issue 30): no script reads a size
    while the page is dirty, so the frame lays the page out once, in its own
    time. (On a wide screen, where every sentence fits its box: shrinking
    one that does not is measured, a pass per size tried.)"""
    page.set_viewport_size({"width": 1920, "height": 1080})
    viz.open(page, fig52, f"draw={draw}")
    browser = page.context.browser
    browser.start_tracing(page=page, categories=FORCED_CATS)
    try:
        for k in range(1, 16):
            page.keyboard.press("ArrowRight")
            viz.wait_step(page, k)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
    finally:
        trace = browser.stop_tracing()
    # The steps were fitted all the same: every sentence whole in its box.
    assert page.evaluate("() => { const n = document.querySelector('#narration');"
                         " return n.textContent.length > 20 && n.scrollHeight <= n.clientHeight + 1; }")
    assert forced_passes(trace) == []


def test_a_step_rewrites_only_what_it_changes(page, viz, fig52):
    """What a step shows is written where it changes (issue 30 point 1):
    no attribute is written with the value it has (Chromium restyles the
    element all the same: the hidden panels and cells, five a step), the
    words go into the text nodes shown (a new node is a new layout object
    and style each), and the pseudocode listing, which a step scrolls to
    its running line (3 steps in 4), scrolls on the compositor: its
    contents are a layer of their own (without one, each scroll
    re-rasterised the whole listing)."""
    page.set_viewport_size({"width": 1440, "height": 900})
    viz.open(page, fig52)
    page.evaluate("""() => {
      window.__same = []; window.__replaced = [];
      const scope = ['#narration', '#transport', '.panels'].map((q) => document.querySelector(q));
      const name = (e) => e.nodeName + (e.id ? '#' + e.id : '') + (e.dataset?.stat ? `[${e.dataset.stat}]` : '');
      new MutationObserver((records) => {
        // An attribute's value after each record: the next record's old value, else the current one.
        const after = new Map();
        for (let i = records.length - 1; i >= 0; i--) {
          const r = records[i];
          if (!scope.some((s) => s.contains(r.target))) continue;
          if (r.type === 'attributes') {
            const key = r.target;
            const seen = after.get(key) || {};
            const now = r.attributeName in seen ? seen[r.attributeName] : r.target.getAttribute(r.attributeName);
            if (now === r.oldValue) window.__same.push(`${name(r.target)} ${r.attributeName}=${now}`);
            seen[r.attributeName] = r.oldValue;
            after.set(key, seen);
          } else if (r.type === 'childList' && [...r.removedNodes].some((n) => n.nodeType === 3)
                     && [...r.addedNodes].some((n) => n.nodeType === 3)) {
            window.__replaced.push(name(r.target));
          }
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, childList: true });
    }""")
    for k in range(1, 11):
        page.keyboard.press("ArrowRight")
        viz.wait_step(page, k)
    assert page.evaluate("window.__same") == []
    assert page.evaluate("window.__replaced") == []
    # The listing's scroller, composited: a layer drawing its contents, tied to its element.
    cdp = page.context.new_cdp_session(page)
    trees: list = []
    cdp.on("LayerTree.layerTreeDidChange", lambda e: trees.append(e.get("layers")))
    cdp.send("DOM.enable")
    cdp.send("LayerTree.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    listing = cdp.send("DOM.describeNode", {"nodeId": cdp.send(
        "DOM.querySelector", {"nodeId": root, "selector": ".code-scroll"})["nodeId"]})["node"]["backendNodeId"]
    assert page.evaluate("() => { const s = document.querySelector('.code-scroll'); return s.scrollHeight > s.clientHeight; }")
    page.keyboard.press("ArrowRight")      # a frame, for the layer tree to be reported
    viz.wait_step(page, 11)
    page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 0)))")
    for _ in range(50):
        if any(trees):
            break
        page.wait_for_timeout(50)
    layers = [t for t in trees if t][-1]
    assert any(layer.get("backendNodeId") == listing and layer.get("drawsContent") for layer in layers)
