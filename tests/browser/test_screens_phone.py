"""Every library tree reads on a phone (390x844 and 360x640, touch).

A tree that reads whole at the phone's width is shown whole; a wider one
(Wikipedia's, Nim, the horizon tree, ...) as a window at a readable scale
that follows the search, the whole tree one tap away (Fit), panned by a
drag. At the first cut-off and at the end of every library tree this test
reads the type of every label in view: node values at least 11.5 px (a full
size value 14.4 px; a bound or a three-character value is set a size
smaller to stay inside its shape), alpha/beta at least 12 px, names at
least 11 px, tic-tac-toe boards at least 26 px; no two labels meet; the
active node's own labels are whole in the window; shown whole (Fit),
nothing is cut off. On the larger phone every tree is also checked shown
whole (Fit), in normal and in presentation mode, at both steps.
"""
from __future__ import annotations

import pytest
import requests

from .helpers import go_to_step, new_screen, run_to_end, settle, settled, wait_step
from .screens import LABEL_BOXES_JS, problems, problems_in

PHONES = [(390, 844), (360, 640)]

pytestmark = pytest.mark.slow

READ_JS = """() => {
  const svg = document.querySelector('#tree');
  const s = svg.getBoundingClientRect();
  const t = document.querySelector('#transport').getBoundingClientRect();
  const area = {left: Math.max(0, s.left), top: Math.max(0, s.top), right: Math.min(innerWidth, s.right),
                bottom: Math.min(innerHeight, s.bottom, t.top)};
  const k = svg.querySelector('.viewport').getCTM().a;
  const seen = (r) => r.width > 0 && r.right > area.left && r.left < area.right && r.bottom > area.top && r.top < area.bottom;
  const inside = (r) => r.left >= area.left - 1 && r.right <= area.right + 1 && r.top >= area.top - 1 && r.bottom <= area.bottom + 1;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * k;
  const min = (sel, keep = () => true) => {
    const xs = [...svg.querySelectorAll(sel)].filter(e => e.textContent.trim() && keep(e)
      && seen(e.getBoundingClientRect())).map(px);
    return xs.length ? Math.min(...xs) : null;
  };
  const boards = [...svg.querySelectorAll('.pic-tictactoe')].map(e => e.getBoundingClientRect())
    .filter(seen).map(r => Math.min(r.width, r.height));
  const active = svg.querySelector('[data-status=active]');
  const cut = active ? [...active.querySelectorAll('text, .pic')].filter(e => e.textContent.trim() || e.classList.contains('pic'))
    .map(e => [e.textContent.trim().slice(0, 12), e.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && !inside(r))
    .map(([name]) => name) : [];
  return {k, follow: window.visualizer.follow,
          value: min('.v, .static', e => /^[(≤≥]?[−-]?\\d/.test(e.textContent)),
          bounds: min('.bounds'), name: min('.name'),
          board: boards.length ? Math.min(...boards) : null, activeCut: cut};
}"""


# Read at each step in the same round trip: the type sizes above and every label's box.
MEASURE_JS = f"() => ({{read: ({READ_JS})(), boxes: ({LABEL_BOXES_JS})()}})"


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_every_library_tree_reads_on_a_phone(browser, live_server, size, shoot):
    width, height = size
    library = [t["id"] for t in requests.get(f"{live_server}/api/trees", timeout=10).json() if t.get("builtin")]
    ctx, pg = new_screen(browser, live_server, width, height, phone=True)
    found: list[str] = []
    followed = []
    whole = 0
    for tree_id in library:
        pg.goto(f"/t/{tree_id}")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        cut, total = run_to_end(pg)
        for where, step in (("cut", cut), ("end", total)):
            got = go_to_step(pg, step, then=MEASURE_JS)
            m = got["read"]
            at = f"{tree_id} at {width}x{height}, {where} (step {step}, {'following' if m['follow'] else 'whole'})"
            if m["value"] is None or m["value"] < 11.5:
                found.append(f"{at}: values {m['value']} px")
            if m["bounds"] is not None and m["bounds"] < 12:
                found.append(f"{at}: alpha/beta {m['bounds']} px")
            if m["name"] is not None and m["name"] < 11:
                found.append(f"{at}: names {m['name']} px")
            if m["board"] is not None and m["board"] < 26:
                found.append(f"{at}: boards {m['board']} px")
            if m["activeCut"]:
                found.append(f"{at}: the active node's labels are cut off: {m['activeCut']}")
            found += [f"{at}: {p}" for p in problems_in(got["boxes"], fitted=not m["follow"])]
        if m["follow"]:
            followed.append(tree_id)
            shoot(pg, f"screens-phone-follow-{tree_id}-{width}x{height}")
            # One tap shows the whole tree, nothing cut off; another follows again.
            pg.tap("[data-action=fit]")
            pg.wait_for_function("() => !window.visualizer.follow")
            settled(pg)
            found += [f"{tree_id} at {width}x{height}, whole: {p}" for p in problems(pg)]
            pg.tap("[data-action=follow]")
            pg.wait_for_function("() => window.visualizer.follow")
        if width == 390:
            whole += whole_tree_on_the_phone(pg, tree_id, cut, total, found, shoot)
    ctx.close()
    assert not pg.js_errors, pg.js_errors
    # The wide lecture trees are the ones followed; Fig 5.2 reads whole on the larger phone.
    assert {"wikipedia-ab-pruning", "nim-7", "tictactoe-horizon"} <= set(followed), followed
    if width == 390:
        assert "aima-fig-5-2" not in followed
        assert whole == len(library) * 4
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:60])


# The step's sentence is whole (not scrolled, inside the screen) and every
# step control is inside the screen's width.
SENTENCE_AND_CONTROLS_JS = """() => {
  const out = [];
  const n = document.querySelector('.narration');
  const r = n.getBoundingClientRect();
  if (n.scrollHeight > n.clientHeight + 1) out.push(`the sentence is cut (${n.scrollHeight} > ${n.clientHeight} px)`);
  if (r.top < -0.5 || r.bottom > innerHeight + 0.5) out.push('the sentence leaves the screen');
  for (const b of document.querySelectorAll('#transport button')) {
    const q = b.getBoundingClientRect();
    if (q.width > 0 && (q.left < -0.5 || q.right > innerWidth + 0.5)) out.push(`step control "${b.getAttribute('aria-label') || b.textContent.trim()}" cut off`);
  }
  return out;
}"""


def whole_tree_on_the_phone(pg, tree_id, cut, total, found, shoot) -> int:
    """The whole tree (Fit) in normal and in presentation mode, at the first
    cut-off and at the end: no label meets another or is cut off, the
    sentence is whole and the step controls are in the screen. The number of
    views checked."""
    checked = 0
    if pg.evaluate("() => window.visualizer.follow"):
        pg.tap("[data-action=fit]")
        pg.wait_for_function("() => !window.visualizer.follow")
        settled(pg)                       # the stage takes its whole-tree height, refitted
    for mode in ("normal", "present"):
        if mode == "present":
            pg.keyboard.press("p")
            pg.wait_for_function("() => document.documentElement.classList.contains('present')")
            settled(pg)
        for where, step in (("cut", cut), ("end", total)):
            boxes = go_to_step(pg, step, then=LABEL_BOXES_JS)
            at = f"{tree_id} at 390x844, whole, {mode}, {where} (step {step})"
            seen = problems_in(boxes) + pg.evaluate(SENTENCE_AND_CONTROLS_JS)
            found += [f"{at}: {p}" for p in seen]
            checked += 1
            if seen:      # a picture of what failed (the gallery is test_screens_shots.py's)
                shoot(pg, f"screens-{tree_id}-390x844{'-present' if mode == 'present' else ''}-{where}")
        if mode == "present":
            pg.keyboard.press("p")
            pg.wait_for_function("() => !document.documentElement.classList.contains('present')")
    return checked


def test_following_pans_with_the_search_and_a_drag(browser, live_server):
    """The window moves with the active node; a drag pans it; Fit shows it whole."""
    ctx, pg = new_screen(browser, live_server, 390, 844, phone=True)
    pg.goto("/t/wikipedia-ab-pruning")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    assert pg.evaluate("() => window.visualizer.follow")
    assert pg.locator("[data-action=follow]").get_attribute("aria-pressed") == "true"
    where = """() => { const a = document.querySelector('#tree [data-status=active] .shape');
        const s = document.querySelector('#tree').getBoundingClientRect();
        const r = a.getBoundingClientRect();
        return {x: r.left + r.width / 2 - s.left, y: r.top + r.height / 2 - s.top, w: s.width, h: s.height}; }"""
    # Walk the whole search: the active node never leaves the window (read
    # once each step is shown and the window, following it, is at rest).
    total = None
    for k in range(1, 200):
        pg.keyboard.press("ArrowRight")
        wait_step(pg, k)
        settle(pg)
        if pg.evaluate("() => !!document.querySelector('#tree [data-status=active]')"):
            p = pg.evaluate(where)
            assert 0 < p["x"] < p["w"] and 0 < p["y"] < p["h"], (k, p)
        total = pg.locator("[data-step]").get_attribute("data-total")
        if total and str(k) == total:
            break
    assert total and pg.locator("[data-step]").inner_text() == total
    # A drag pans the window (and is no swipe: the step stays).
    before = pg.evaluate("() => window.visualizer.zoom.get()")
    step = pg.locator("[data-step]").inner_text()
    box = pg.locator("#canvas").bounding_box()
    cdp = ctx.new_cdp_session(pg)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    for i in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + 12 * i, "y": y + 3 * i, "id": 1}]})
    # Held still before lifting: a drag that stops, not a fling (a tap during
    # a fling only stops it, as on any phone).
    pg.wait_for_timeout(150)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + 120, "y": y + 30, "id": 1}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    settled(pg)
    after = pg.evaluate("() => window.visualizer.zoom.get()")
    assert after["x"] - before["x"] == pytest.approx(120, abs=2) and after["y"] - before["y"] == pytest.approx(30, abs=2)
    assert after["k"] == before["k"] and pg.locator("[data-step]").inner_text() == step
    pg.tap("[data-action=fit]")
    pg.wait_for_function("() => !window.visualizer.follow")
    assert pg.locator("[data-action=follow]").get_attribute("aria-pressed") == "false"
    settled(pg)
    assert problems(pg) == []
    ctx.close()


def touch(cdp, kind: str, *points) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def test_pinch_zooms_about_its_centre_and_a_flick_steps(browser, live_server):
    """Two fingers through the browser's own touch input (CDP): the scale
    follows the fingers' spread and the point under their midpoint stays
    under it; a pinch steps nothing; a one-finger flick on the tree steps."""
    ctx, pg = new_screen(browser, live_server, 390, 844, phone=True)
    pg.goto("/t/aima-fig-5-2?step=5")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    assert not pg.evaluate("() => window.visualizer.follow")
    cdp = ctx.new_cdp_session(pg)
    svg = pg.locator("#tree").bounding_box()
    # Off the middle, so that zooming about the wrong point would show.
    cx, cy = svg["x"] + svg["width"] * 0.3, svg["y"] + svg["height"] * 0.55
    before = pg.evaluate("() => window.visualizer.zoom.get()")
    # The tree point under the fingers' midpoint.
    ux, uy = (cx - svg["x"] - before["x"]) / before["k"], (cy - svg["y"] - before["y"]) / before["k"]
    touch(cdp, "touchStart", (cx - 40, cy), (cx + 40, cy))
    for i in range(1, 13):
        d = 40 + 5 * i
        touch(cdp, "touchMove", (cx - d, cy), (cx + d, cy))
    pg.wait_for_timeout(150)
    touch(cdp, "touchEnd")
    pg.wait_for_timeout(150)
    after = pg.evaluate("() => window.visualizer.zoom.get()")
    assert after["k"] / before["k"] == pytest.approx(100 / 40, rel=0.03)
    # The same tree point is still under the midpoint.
    assert svg["x"] + after["x"] + ux * after["k"] == pytest.approx(cx, abs=2)
    assert svg["y"] + after["y"] + uy * after["k"] == pytest.approx(cy, abs=2)
    assert pg.locator("[data-step]").inner_text() == "5"
    # Fingers closing: the scale goes back down, still about their midpoint.
    touch(cdp, "touchStart", (cx - 100, cy), (cx + 100, cy))
    for i in range(1, 11):
        d = 100 - 6 * i
        touch(cdp, "touchMove", (cx - d, cy), (cx + d, cy))
    pg.wait_for_timeout(150)
    touch(cdp, "touchEnd")
    pg.wait_for_timeout(150)
    closed = pg.evaluate("() => window.visualizer.zoom.get()")
    assert closed["k"] / after["k"] == pytest.approx(40 / 100, rel=0.03)
    assert svg["x"] + closed["x"] + ux * closed["k"] == pytest.approx(cx, abs=2)
    assert pg.locator("[data-step]").inner_text() == "5"

    # Zoomed by hand, a drag pans; Fit shows the whole tree again, and then
    # a quick one-finger flick to the left steps forward, to the right back.
    pg.tap("[data-action=fit]")
    pg.wait_for_function("() => !window.visualizer.zoom.moved")
    for dx, step in ((-120, "6"), (120, "5")):
        x0, y0 = svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2
        touch(cdp, "touchStart", (x0, y0))
        for i in range(1, 5):
            touch(cdp, "touchMove", (x0 + dx * i / 4, y0))
        touch(cdp, "touchEnd")
        pg.wait_for_function("s => document.querySelector('[data-step]').textContent === s", arg=step)
    ctx.close()
