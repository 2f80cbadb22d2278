"""Big trees painted on a canvas (static/js/painters/treecanvas.js): chosen past a few
thousand drawn nodes, with the SVG below; the same hooks (contract §4, kept
on the accessible tree's items), the same hit-testing (a click on a node, a
click on a folded subtree), the same look (pixels read back from the canvas)
and no overlapping text.
"""
from __future__ import annotations

import re

import pytest

from .expect import hooks_at, node_ids, trace
from .screens import _meet

pytestmark = pytest.mark.browser

BIG = "r-b10-d4-e-s1"        # 11,111 nodes with evals: a random tree the server rebuilds from its id
SHAPE = 20                   # labels.js: half-size of a node shape (tree units)

# Where a node is on screen, computed here from the layout and the zoom
# (not by the painter's own helpers, which the test must not trust).
SCREEN_OF_JS = """(id) => {
  const v = window.visualizer, n = v.tree.byId.get(id), z = v.zoom.get();
  const r = document.querySelector('#tree').getBoundingClientRect();
  return { x: r.left + z.x + z.k * n.x, y: r.top + z.y + z.k * n.y, k: z.k };
}"""

# The colour painted on the canvas at a point on screen (client coordinates).
PIXEL_JS = """([x, y]) => {
  const c = document.querySelector('canvas.tree-canvas');
  const r = c.getBoundingClientRect(), s = c.width / r.width;
  const d = c.getContext('2d').getImageData(Math.round((x - r.left) * s), Math.round((y - r.top) * s), 1, 1).data;
  return [d[0], d[1], d[2], d[3]];
}"""


# A pixel counts as ink unless it is transparent or the stage's own paper
# (the canvas is opaque on that paper where the page behind it is opaque).
PAPER_JS = """const paper = getComputedStyle(document.querySelector('#stage')).backgroundColor
    .match(/[\\d.]+/g).slice(0, 3).map(Number);
  const isInk = (d, i) => d[i + 3] > 0 && (d[i] !== paper[0] || d[i + 1] !== paper[1] || d[i + 2] !== paper[2]);"""


def open_big(page, viz, query: str = ""):
    """The 11,111-node tree takes a few seconds to build and lay out on a busy machine."""
    page.goto(f"{viz.base}/t/{BIG}{'?' + query if query else ''}")
    page.wait_for_selector("#visualizer.ready", timeout=60000)
    return page


def painter(page) -> str:
    return page.locator("#tree").get_attribute("data-painter")


def near(rgba, hex_colour: str, tol: int = 12) -> bool:
    want = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return rgba[3] > 200 and all(abs(a - b) <= tol for a, b in zip(rgba, want))


def test_a_big_tree_is_painted_on_a_canvas_and_a_small_one_in_svg(page, viz, fig52):
    asked = []
    page.on("request", lambda r: asked.append(r.url) if f"/api/trees/{BIG}" in r.url else None)
    open_big(page, viz)
    assert painter(page) == "canvas"
    assert page.locator("canvas.tree-canvas").count() == 1
    # Opened with one whole paint (issue 30: it was four, at the zoom before
    # the fit, at the fit, and when the observer first reported the size),
    # and the tree fetched once, while the modules loaded (a preload).
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
    assert page.evaluate("window.visualizer.drawing.paints.whole") == 1
    assert page.locator(f"link[rel=preload][as=fetch][href='/api/trees/{BIG}?form=flat']").count() == 1
    assert len(asked) == 1, asked
    assert page.locator("#tree [data-node]").count() == 0          # no element per shape
    # The hooks live on the accessible tree's items, one element per node.
    assert page.locator("#a11y-tree [data-node]").count() > 0
    assert page.locator("[data-node='A']").count() == 1

    # The same tree cut by a depth limit draws 1,111 nodes: SVG again.
    open_big(page, viz, "depth=3")
    assert painter(page) == "svg"
    assert page.locator("#tree [data-node]").count() == 1111
    assert page.locator("canvas.tree-canvas").count() == 0
    # In chunks of at most 400 nodes, each its own <svg> in a <foreignObject>
    # (a layer of its own: a step repaints the chunks it touches, issue 30).
    chunks = page.eval_on_selector_all(
        "#tree .nodes > foreignObject > svg", "els => els.map(e => e.querySelectorAll('[data-node]').length)")
    assert len(chunks) >= 3 and max(chunks) <= 400 and sum(chunks) == 1111, chunks
    assert page.locator("#a11y-tree [data-node]").count() == 0      # data-a11y-node there

    viz.open(page, fig52)
    assert painter(page) == "svg"
    assert page.locator("canvas.tree-canvas").count() == 0


def test_the_depth_limit_switches_painter_in_place(page, viz):
    open_big(page, viz, "depth=3")
    assert painter(page) == "svg"
    page.evaluate("window.__old = window.visualizer.session.run")
    # The limit cleared as a change of the form (no focus in the input: its blur
    # would send a second change, and restart the run under the test's keys).
    page.evaluate("""() => { const i = document.querySelector('input[name=depth]');
        i.value = ''; i.dispatchEvent(new Event('change', { bubbles: true })); }""")
    # Redrawing 11,111 nodes and starting the new run take a while on a busy machine.
    page.wait_for_function("() => document.querySelector('#tree').dataset.painter === 'canvas'", timeout=60000)
    # The new run has started (keys before that would step the old one).
    page.wait_for_function("() => window.visualizer.session.run !== window.__old", timeout=60000)
    assert page.locator("canvas.tree-canvas").count() == 1
    assert page.locator("#tree [data-node]").count() == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-step]').textContent === '1'", timeout=60000)
    assert page.locator("[data-node='A']").count() == 1
    assert page.locator("[data-node='A']").get_attribute("data-status") == "active"


def test_canvas_hooks_follow_every_step_as_the_svg_ones_do(page, viz, live_server, fig52):
    """Fig. 5.2 forced onto the canvas: the hooks at every step are the server's view."""
    events = trace(live_server, fig52)
    ids = node_ids(live_server, fig52)
    viz.open(page, fig52, "draw=canvas")
    assert painter(page) == "canvas"
    for k in range(1, len(events) + 1):
        page.keyboard.press("ArrowRight")
        viz.wait_step(page, k)
        got = viz.nodes(page)
        want = hooks_at(events, k, ids)
        # Items exist for every node reached (and the siblings beside them).
        assert set(got) <= set(ids)
        assert {i: want[i] for i in got} == got, f"step {k}"
        reached = {i for i, f in want.items() if f["status"] != "unvisited"}
        assert reached <= set(got), f"step {k}: no hooks for {reached - set(got)}"
    pv = page.eval_on_selector_all("[data-node].pv", "els => els.map(e => e.dataset.node)")
    assert pv == events[-1]["pv"]


def test_canvas_hooks_at_the_end_of_a_big_run(page, viz, live_server):
    events = trace(live_server, BIG)
    ids = node_ids(live_server, BIG)
    open_big(page, viz)
    page.keyboard.press("End")
    viz.wait_step(page, len(events))
    got = viz.nodes(page)
    want = hooks_at(events, len(events), ids)
    assert len(got) == len(ids) == 11111        # alpha-beta's cuts reach (prune) every node
    assert got == want
    assert page.locator("[data-node='A']").get_attribute("data-value") == str(events[-1]["value"])


def test_a_click_on_a_painted_node_selects_it(page, viz, fig52):
    viz.open(page, fig52, "draw=canvas")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    viz.wait_step(page, 4)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    # B (MIN, visited at step 4) is painted where the layout puts it: its tint
    # a little inside the triangle, away from the value written in it.
    b = page.evaluate(SCREEN_OF_JS, "B")
    tint = page.evaluate(PIXEL_JS, [b["x"] - 8 * b["k"], b["y"] - 12 * b["k"]])
    assert near(tint, "#f8e3d4"), tint            # --min-tint
    page.mouse.click(b["x"], b["y"] + 4 * b["k"])
    item = page.locator("#a11y-tree [data-node='B']")
    assert item.get_attribute("aria-selected") == "true"
    assert page.locator("#a11y-tree [aria-selected=true]").count() == 1
    # A leaf under it, then empty paper: the selection moves, then stays.
    b1 = page.evaluate(SCREEN_OF_JS, "b1")
    page.mouse.click(b1["x"], b1["y"])
    assert page.locator("#a11y-tree [data-node='b1']").get_attribute("aria-selected") == "true"
    assert item.get_attribute("aria-selected") != "true"
    page.mouse.click(b1["x"], b1["y"] - 2.5 * SHAPE * b1["k"])      # between the rows
    assert page.locator("#a11y-tree [data-node='b1']").get_attribute("aria-selected") == "true"
    # A drag that pans is not a click.
    a = page.evaluate(SCREEN_OF_JS, "A")
    page.mouse.move(a["x"], a["y"])
    page.mouse.down()
    page.mouse.move(a["x"] + 40, a["y"] + 30, steps=4)
    page.mouse.up()
    assert page.locator("#a11y-tree [data-node='A']").get_attribute("aria-selected") != "true"


def test_a_click_on_a_node_of_a_big_canvas_tree(page, viz):
    open_big(page, viz)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    viz.wait_step(page, 3)
    active = page.evaluate("() => window.visualizer.session.active")
    at = page.evaluate(SCREEN_OF_JS, active)
    page.mouse.click(at["x"], at["y"])
    assert page.locator(f"#a11y-tree [data-node='{active}']").get_attribute("aria-selected") == "true"


def test_a_folded_subtree_on_the_canvas_opens_on_click(page, viz):
    viz.open(page, "game:tictactoe", "draw=canvas&algorithm=minimax")
    assert painter(page) == "canvas"
    before = page.evaluate("window.visualizer.tree.nodes.length")
    # A game opens as a window on the search (issue 20): a fold on screen.
    fold = page.evaluate("""() => { const v = window.visualizer, r = document.querySelector('#tree').getBoundingClientRect();
      return v.tree.nodes.filter((n) => n.folded && n.depth === 2).map((n) => [n.id, v.drawing.screenOf(n.id)])
        .find(([, p]) => p && p.x > r.left + 40 && p.x < r.right - 40 && p.y > r.top && p.y + 70 * p.k < r.bottom)[0]; }""")
    at = page.evaluate(SCREEN_OF_JS, fold)
    # The triangle hangs under the node: from 1.1 to 2.7 shapes below its centre.
    page.mouse.click(at["x"], at["y"] + SHAPE * 2.2 * at["k"])
    page.wait_for_function("n => window.visualizer.tree.nodes.length > n", arg=before, timeout=30000)
    opened = page.evaluate("id => window.visualizer.tree.byId.get(id)", fold)
    assert opened is not None
    kids = page.evaluate("id => window.visualizer.tree.byId.get(id).children.map((c) => c.id)", fold)
    assert kids and not page.evaluate("id => window.visualizer.tree.byId.get(id).folded", fold)
    assert painter(page) == "canvas"
    # Still one hook element per node, the new ones included once reached.
    assert page.locator(f"[data-node='{fold}']").count() == 1


def test_no_painted_labels_overlap(page, viz, live_server):
    """Every label the canvas paints (names, bounds), as boxes at the current
    zoom, meets no other: at each step of a run on a tree with names."""
    from tests.browser.test_speed_paths import upload_random

    tree_id = upload_random(live_server, branching=3, depth=4, seed=11)     # 121 nodes, names drawn
    events = trace(live_server, tree_id)
    viz.open(page, tree_id, "draw=canvas")
    assert painter(page) == "canvas"
    checked = 0
    for k in range(1, len(events) + 1):
        page.keyboard.press("ArrowRight")
        viz.wait_step(page, k)
        if k % 7 and k != len(events):
            continue
        boxes = page.evaluate("() => window.visualizer.drawing.labelBoxes()")
        rects = [{"left": b["x0"], "right": b["x1"], "top": b["y0"], "bottom": b["y1"],
                  "name": f"{b['text']!r} of {b['id']}"} for b in boxes]
        assert any(b["text"].startswith("α") for b in boxes) or k < 3
        bad = [f"{a['name']} overlaps {b['name']}" for i, a in enumerate(rects)
               for b in rects[i + 1:] if _meet(a, b)]
        assert not bad, f"step {k}: {bad[:5]}"
        checked += 1
    assert checked >= 3


def test_the_canvas_is_opaque_on_the_stages_paper(page, viz, fig52):
    """Opaque, the canvas is drawn by the compositor without blending it over
    the page under it (issue 30: a step's frame is cheaper to draw); where
    nothing is painted it shows the stage's own paper, in every theme."""
    viz.open(page, fig52, "draw=canvas")
    alpha = page.evaluate("() => document.querySelector('canvas.tree-canvas').getContext('2d')"
                          ".getContextAttributes().alpha")
    assert alpha is False
    corner = """() => { const s = document.querySelector('#stage').getBoundingClientRect();
      const c = document.querySelector('canvas.tree-canvas').getBoundingClientRect();
      return [c.left + 3, c.bottom - 3, getComputedStyle(document.querySelector('#stage')).backgroundColor]; }"""
    frame = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
    for theme in (None, "contrast", "present"):
        if theme:
            page.click(f"[data-action={theme}]")
            page.wait_for_function("c => document.documentElement.classList.contains(c)", arg=theme)
        page.evaluate(frame)
        x, y, paper = page.evaluate(corner)
        want = [int(v) for v in paper[paper.index("(") + 1:paper.index(")")].split(",")[:3]]
        assert page.evaluate(PIXEL_JS, [x, y]) == want + [255], (theme, paper)


def test_the_canvas_follows_the_high_contrast_theme(page, viz, fig52):
    viz.open(page, fig52, "draw=canvas")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    viz.wait_step(page, 4)
    b = page.evaluate(SCREEN_OF_JS, "B")
    spot = [b["x"] - 8 * b["k"], b["y"] - 12 * b["k"]]
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert near(page.evaluate(PIXEL_JS, spot), "#f8e3d4")
    page.click("[data-action=contrast]")
    page.wait_for_function("() => document.documentElement.classList.contains('contrast')")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    b = page.evaluate(SCREEN_OF_JS, "B")
    spot = [b["x"] - 8 * b["k"], b["y"] - 12 * b["k"]]
    assert near(page.evaluate(PIXEL_JS, spot), "#ffd9c2")      # the theme's --min-tint


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1920, 1080)], ids=["phone", "laptop", "projector"])
def test_a_big_canvas_tree_at_every_size(browser, live_server, shoot, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=live_server,
                              has_touch=size[0] < 500)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(f"/t/{BIG}")
        pg.wait_for_selector("#visualizer.ready", timeout=30000)
        assert painter(pg) == "canvas"
        pg.keyboard.press("End")
        pg.wait_for_function("() => { const s = document.querySelector('[data-step]');"
                             " return s.dataset.total && s.textContent === s.dataset.total; }", timeout=60000)
        pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        canvas = pg.locator("canvas.tree-canvas").bounding_box()
        svg = pg.locator("#tree").bounding_box()
        assert canvas == svg                         # the painting covers the drawing area exactly
        # Something is painted: the canvas is not blank.
        painted = pg.evaluate("""() => {
          const c = document.querySelector('canvas.tree-canvas');
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          """ + PAPER_JS + """
          let n = 0; for (let i = 0; i < d.length; i += 4) if (isInk(d, i)) n++;
          return n;
        }""")
        shoot(pg, f"canvas-big-{size[0]}x{size[1]}")
        assert painted > 500
        assert not errors
    finally:
        ctx.close()


# After the step's frame: the canvas as the step left it (only the rectangles
# it changed painted again), then as a whole paint makes it: how many pixels
# differ, and by how much at most (colours weighed by their alpha).
REPAINT_DIFF_JS = """() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
  """ + PAPER_JS + """
  const v = window.visualizer.drawing, c = document.querySelector('canvas.tree-canvas');
  const ctx = c.getContext('2d');
  const a = ctx.getImageData(0, 0, c.width, c.height).data;
  const partial = v.paints.partial;
  v.paint();
  const b = ctx.getImageData(0, 0, c.width, c.height).data;
  let diff = 0, ink = 0, most = 0;
  for (let i = 0; i < a.length; i += 4) {
    let d = Math.abs(a[i + 3] - b[i + 3]);    // colours weighed by their alpha (a faint pixel's hue is noise)
    for (let j = i; j < i + 3; j++) d = Math.max(d, Math.abs(a[j] * a[i + 3] - b[j] * b[i + 3]) / 255);
    if (d > 0) diff++;
    most = Math.max(most, d);
    if (isInk(b, i)) ink++;
  }
  done({ diff, most, ink, partial, k: window.visualizer.zoom.get().k });
}, 0)))"""


@pytest.mark.parametrize("case", ["names", "big"])
def test_a_step_repaints_only_what_changed_with_the_same_pixels(page, viz, live_server, case):
    """A step's frame paints again only the rectangles of what it changed
    (nodes, edges, cut marks, the ring, the best line): the canvas must then
    be pixel for pixel what a whole paint gives, forwards and back, with
    texts (a small tree, zoomed in) and without (the big tree, followed)."""
    from tests.browser.test_speed_paths import upload_random

    if case == "names":
        tree_id = upload_random(live_server, branching=3, depth=4, seed=11)     # 121 nodes
        viz.open(page, tree_id, "draw=canvas")
        # Zoomed in on the left of the tree, where the search starts: texts are painted.
        page.evaluate("() => { const z = window.visualizer.zoom, t = window.visualizer.tree;"
                      " const a = t.byId.get('E'); z.show(a.x, a.y, 1); }")
        presses = ["ArrowRight"] * 40 + ["ArrowLeft"] * 5 + ["End", "ArrowLeft", "ArrowRight"]
    else:
        open_big(page, viz)
        presses = ["ArrowRight"] * 30 + ["ArrowLeft"] * 3
    assert painter(page) == "canvas"
    partial, texts = 0, False
    for k, key in enumerate(presses):
        page.keyboard.press(key)
        got = page.evaluate(REPAINT_DIFF_JS)
        assert got["ink"] > 500, f"press {k} ({key}): nothing painted"
        texts |= got["k"] >= 0.45
        assert got["diff"] == 0, (f"press {k} ({key}): {got['diff']} pixels differ from a whole "
                                  f"paint (by up to {got['most']} of 255)")
        partial = got["partial"]
    # Most steps were painted in part (a pan while following paints all).
    assert partial >= len(presses) // 2
    assert texts == (case == "names")     # (texts are painted from zoom 0.45 on)


# When the page's run 'start' left on its WebSocket (performance.now()).
START_SENT_JS = r"""() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (window.__startSent == null && typeof data === 'string' && /^42\d*\["start"/.test(data)) {
      window.__startSent = performance.now();
    }
    return send.call(this, data);
  };
}"""


# When the page's Socket.IO connection is open (the server's "40" packet).
CONNECTED_JS = r"""() => {
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (window.__connected == null && typeof e.data === 'string' && e.data.startsWith('40')) {
          window.__connected = performance.now();
        }
      });
    }
  };
}"""


@pytest.fixture(scope="module")
def huge(live_server) -> str:
    """111,111 nodes (branching 10, depth 5: past a random id's limit, so uploaded)."""
    import random

    import requests

    rng = random.Random(30)

    def notation(depth: int) -> str:
        if depth == 0:
            return str(rng.randint(-50, 50))
        return "(" + " ".join(notation(depth - 1) for _ in range(10)) + ")"

    res = requests.post(f"{live_server}/api/trees", data=notation(5).encode(),
                        headers={"Content-Type": "text/plain"}, timeout=120)
    assert res.status_code == 201, res.text
    return res.json()["id"]


def test_a_huge_tree_starts_its_run_while_drawn_and_answers_a_key_at_once(page, live_server, huge):
    """Issue 30: the run is asked for while the tree is laid out and drawn
    (not after), and a key pressed as soon as the tree is drawn, before the
    run may have started, is answered with the step."""
    page.add_init_script(f"({START_SENT_JS})()")
    page.add_init_script(f"({CONNECTED_JS})()")
    # The tree's JSON held back until the page's socket is connected (a fixed
    # wait was not enough under the suite's load): then the run can only be
    # asked for late if the page waits for the drawing.
    held: list = []
    page.route(re.compile(rf"/api/trees/{huge}(\?|$)"), lambda route: held.append(route))
    page.goto(f"{live_server}/t/{huge}", wait_until="commit")
    page.wait_for_function("() => window.__connected != null", timeout=60000)
    for _ in range(600):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for the tree"
    for route in held:
        route.continue_()
    page.wait_for_function("() => document.querySelector('#tree').dataset.painter === 'canvas'", timeout=120000)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-step]').textContent === '1'", timeout=60000)
    assert page.evaluate("window.visualizer.session.run.step") == 1
    sent, drawn = page.evaluate("[window.__startSent, performance.getEntriesByName('tree-drawn')[0].startTime]")
    assert sent is not None and sent < drawn, (sent, drawn)
