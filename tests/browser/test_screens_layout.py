"""Phones, the projector and practice: the layouts the lecture hall needs.

Phones (portrait and landscape): the tree first at full width, the panels as
tabs under it, the step controls fixed at the bottom with 44 x 44 px
targets, the sentence always whole, swipe to step. The projector: one header
row, a 36 px sentence, a lecture tree past 2x with 48 px values, the legend
beside (never over) the tree, a high-contrast theme. Practice: one screen on
a laptop (checking never scrolls the tree away), a tapped node's input and
the guided question in view on a phone, long labels shortened.
"""
from __future__ import annotations

import pytest
import requests

from .floor import FLOOR_JS
from .helpers import new_screen, settled
from .screens import problems

PHONES = [(390, 844), (360, 640), (844, 390), (640, 360)]


def first_cut(live_server, tree_id="aima-fig-5-2") -> int:
    events = requests.get(f"{live_server}/api/trees/{tree_id}/trace", timeout=10).json()["events"]
    return next(e["step"] for e in events if e["type"] == "prune")


@pytest.fixture
def phone(browser, live_server):
    contexts = []

    def open_(width, height, path):
        ctx, pg = new_screen(browser, live_server, width, height, phone=True)
        contexts.append(ctx)
        pg.goto(path)
        return pg

    yield open_
    errors = [e for ctx in contexts for pg in ctx.pages for e in pg.js_errors]
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def rect(pg, selector):
    return pg.evaluate("s => document.querySelector(s).getBoundingClientRect().toJSON()", selector)


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_phone_tree_first_panels_below_controls_fixed(phone, live_server, size, shoot):
    width, height = size
    cut = first_cut(live_server)
    pg = phone(width, height, f"/t/aima-fig-5-2?step={cut}")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)", arg=cut)
    settled(pg)
    canvas, transport = rect(pg, "#canvas"), rect(pg, "#transport")
    # The tree first, at the full width (landscape keeps a column for the zoom buttons).
    assert canvas["left"] <= 1 and canvas["width"] >= width - (60 if height < 500 else 1)
    # Panels under the tree, never squeezed beside it; shown as tabs.
    panels = rect(pg, ".panels")
    assert panels["top"] >= canvas["bottom"] - 1
    assert pg.locator(".panels .tabs").is_visible()
    # The controls stay at the bottom of the screen and the tree ends above them.
    assert abs(transport["bottom"] - height) <= 1
    assert pg.evaluate("() => getComputedStyle(document.querySelector('#transport')).position") == "fixed"
    assert canvas["bottom"] <= transport["top"] + 1
    small = pg.evaluate("""() => [...document.querySelectorAll(
        '#transport button, .view-buttons button, .options-toggle, .zoom-buttons button')]
        .filter(b => b.offsetParent !== null)
        .map(b => [b.dataset.action || b.textContent.trim(), b.getBoundingClientRect().width,
                   b.getBoundingClientRect().height]).filter(([, w, h]) => w < 44 || h < 44)""")
    assert small == []
    # The sentence is whole (the cut-off's is the longest of the run).
    assert pg.evaluate("() => { const n = document.querySelector('#narration'); "
                       "return n.scrollHeight <= n.clientHeight + 1; }")
    # A phone too small to read the tree whole follows the search (Fit shows it whole).
    following = pg.evaluate("() => window.visualizer.follow")
    assert problems(pg, fitted=not following) == []
    if following:
        pg.tap("[data-action=fit]")
        pg.wait_for_function("() => !window.visualizer.follow")
        settled(pg)
        assert problems(pg) == []
        pg.tap("[data-action=follow]")
    if height > width:
        # Readable values at full width: a leaf's value at least 11 px high.
        assert pg.evaluate("() => Math.min(...[...document.querySelectorAll('#tree .static')]"
                           ".map(t => t.getBoundingClientRect().height))") >= 11
    shoot(pg, f"screens-phone-fig52-{width}x{height}")

    # Tabs: one panel at a time.
    pg.locator(".tabs [role=tab]", has_text="Call stack").click()
    assert pg.locator("#stack").is_visible() and not pg.locator("#pseudocode").is_visible()

    # Swipe left on the sentence: one step forward; right: back.
    swipe = """([dx]) => {
        const el = document.querySelector('#narration'), r = el.getBoundingClientRect();
        const y = r.top + r.height / 2, x = r.left + r.width / 2;
        const ev = (type, cx) => el.dispatchEvent(new PointerEvent(type, {pointerId: 7, pointerType: 'touch',
            isPrimary: true, clientX: cx, clientY: y, bubbles: true}));
        ev('pointerdown', x); ev('pointermove', x + dx / 2); ev('pointerup', x + dx);
    }"""
    pg.evaluate(swipe, [-120])
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)", arg=cut + 1)
    pg.evaluate(swipe, [120])
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)", arg=cut)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1920x1080", "1280x720"])
def test_projector_reads_from_the_back_row(browser, live_server, size, shoot):
    width, height = size
    cut = first_cut(live_server)
    ctx, pg = new_screen(browser, live_server, width, height)
    pg.goto(f"/t/aima-fig-5-2?step={cut}")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    pg.keyboard.press("p")
    pg.wait_for_function("() => document.documentElement.classList.contains('present')")
    settled(pg)
    m = pg.evaluate("""() => {
      const h = (sel) => Math.min(...[...document.querySelectorAll(sel)]
        .map(e => e.getBoundingClientRect().height).filter(x => x > 0));
      const bar = document.querySelector('.topbar');
      const boxes = [...bar.children].filter(c => c.offsetParent !== null)
        .map(c => c.getBoundingClientRect());
      // One row: no item starts below another one's bottom.
      const rows = boxes.some(a => boxes.some(b => b.top >= a.bottom - 1)) ? 2 : 1;
      // Values at the mode's full size (one too wide for its shape is set smaller: floor.py).
      const tt = parseFloat(getComputedStyle(document.querySelector('#visualizer')).getPropertyValue('--tree-text'));
      const full = (sel) => [...document.querySelectorAll(sel)].filter(e => !(parseFloat(e.style.getPropertyValue('--fit')) < tt))
        .map(e => e.getBoundingClientRect().height).filter(x => x > 0);
      return {value: Math.min(...full('#tree .node .v')), leaf: Math.min(...full('#tree .static')), bounds: h('#tree .bounds') / 2,
              narration: parseFloat(getComputedStyle(document.querySelector('#narration')).fontSize),
              k: window.visualizer.zoom.get().k, barHeight: bar.getBoundingClientRect().height,
              rows,
              // A label broken over two lines: its text's line boxes start at two heights.
              wrapped: [...bar.querySelectorAll('button, h1, a.home, label')].filter(e => e.offsetParent !== null)
                .filter(e => [...e.childNodes].some((c) => {
                  if (c.nodeType !== 3 || !c.textContent.trim()) return false;
                  const r = document.createRange();
                  r.selectNodeContents(c);
                  return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1;
                })).map(e => e.textContent.trim())};
    }""")
    assert m["narration"] >= 36
    assert m["rows"] == 1 and m["wrapped"] == [], m        # the header never wraps
    legend, canvas = rect(pg, ".legend"), rect(pg, "#canvas")
    # Beside the tree (a column at its right in presentation mode), never over it.
    assert legend["right"] <= canvas["left"] + 1 or legend["left"] >= canvas["right"] - 1 \
        or legend["bottom"] <= canvas["top"] + 1, (legend, canvas)
    assert problems(pg) == []
    assert m["k"] > 2                                       # a lecture tree fills the stage
    assert m["value"] >= 48 and m["leaf"] >= 48 and m["bounds"] >= 28, m
    sizes = type_sizes(pg)
    assert sizes["value"] >= 48 and sizes["bounds"] >= 28 and sizes["narration"] >= 36, sizes
    floor = pg.evaluate(FLOOR_JS)                           # the rest: above the floor, inside their shapes
    assert floor["smallest"] == [] and floor["outside"] == [] and floor["hidden"] == [], floor
    shoot(pg, f"screens-projector-fig52-{width}x{height}")

    # High contrast for a bright room: C toggles it, the browser remembers it.
    pg.keyboard.press("c")
    assert pg.evaluate("() => document.documentElement.classList.contains('contrast')")
    shoot(pg, f"screens-projector-fig52-{width}x{height}-contrast")
    pg.reload()
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    assert pg.evaluate("() => document.documentElement.classList.contains('contrast')")
    pg.keyboard.press("c")
    assert not pg.evaluate("() => document.documentElement.classList.contains('contrast')")
    ctx.close()


# The type as drawn: each text's CSS font size times the tree's scale (a
# stricter measure than the height of its box, which adds the line gap).
TYPE_SIZES_JS = """() => {
  const k = document.querySelector('#tree .viewport').getCTM().a;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * k;
  // Node values that are numbers or bounds (an initial ±∞ is drawn a size
  // smaller, to stay inside its triangle).
  // A value too wide for its shape at the mode's size is set smaller to stay
  // inside it (valuefit.js: --fit); those are held to the floor of
  // tests/browser/floor.py instead (2.5 % of the screen's height, inside).
  const full = (e) => !(parseFloat(e.style.getPropertyValue('--fit')) < parseFloat(
    getComputedStyle(document.querySelector('#visualizer')).getPropertyValue('--tree-text')));
  const values = [...document.querySelectorAll('#tree .v, #tree .static')]
    .filter(e => /^[≤≥]?[−-]?\\d/.test(e.textContent) && full(e));
  const bounds = [...document.querySelectorAll('#tree .bounds')].filter(e => e.textContent.trim());
  const n = document.querySelector('#narration');
  return {k, values: values.length, value: Math.min(...values.map(px)),
          bounds: bounds.length ? Math.min(...bounds.map(px)) : null,
          narration: parseFloat(getComputedStyle(n).fontSize),
          whole: n.scrollHeight <= n.clientHeight + 1};
}"""


def type_sizes(pg) -> dict:
    return pg.evaluate(TYPE_SIZES_JS)


# Presentation mode's goals, per screen, on the lecture trees that can meet
# them at "fit": small trees whose width and height leave a scale of about
# 2x (two plies, or three at 1920 x 1080). A wider or deeper tree is drawn at
# the largest scale that shows all of it (measured in the report).
LECTURE = {
    (1920, 1080): ["aima-fig-5-2", "natsheh-minimax-example", "itb-3-ply-lr", "tictactoe-two-ply",
                   "latombe-tictactoe-alphabeta", "aima-fig-5-12"],
    (1280, 720): ["aima-fig-5-2", "natsheh-minimax-example"],
}


@pytest.mark.parametrize("size,tree_id", [(s, t) for s, ts in LECTURE.items() for t in ts],
                         ids=[f"{w}x{h}-{t}" for (w, h), ts in LECTURE.items() for t in ts])
def test_presentation_type_reads_from_the_back_row(browser, live_server, size, tree_id):
    """Values >= 48 px, alpha/beta >= 28 px, the sentence >= 36 px and whole,
    at every step that matters: the first cut-off (the longest sentence) and
    the end (every value shown); nothing overlapping or cut off."""
    width, height = size
    events = requests.get(f"{live_server}/api/trees/{tree_id}/trace", timeout=10).json()["events"]
    longest = max(events, key=lambda e: len(e.get("text", "")))["step"]
    ctx, pg = new_screen(browser, live_server, width, height)
    pg.goto(f"/t/{tree_id}")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    pg.keyboard.press("p")
    pg.wait_for_function("() => document.documentElement.classList.contains('present')")
    for step in (longest, len(events)):
        pg.evaluate("k => window.visualizer.session.goTo(k)", step)
        pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)", arg=step)
        settled(pg)
        m = type_sizes(pg)
        assert m["values"] > 0 and m["value"] >= 48, (step, m)
        floor = pg.evaluate(FLOOR_JS)
        assert floor["smallest"] == [] and floor["outside"] == [] and floor["hidden"] == [], (step, floor)
        if m["bounds"] is not None:
            assert m["bounds"] >= 28, (step, m)
        assert m["narration"] >= 36 and m["whole"], (step, m)
        # A tree too wide to read whole follows the search and says so (a game's
        # board takes its own column beside the tree): labels at the window's
        # edge are then not cut-off ones, as in test_screens_shots.
        follows = pg.evaluate("() => window.visualizer.following")
        if follows:
            assert pg.locator("[data-follow-note]").is_visible(), step
        assert problems(pg, fitted=not follows) == [], step
    ctx.close()


def test_practice_on_a_laptop_keeps_the_tree_in_view(browser, live_server, shoot):
    ctx, pg = new_screen(browser, live_server, 1366, 768)
    pg.goto("/practice/aima-fig-5-2?mode=full")
    pg.wait_for_selector("#tree .node")
    settled(pg)
    stage = rect(pg, "#stage")
    # One screen: the tree takes the room the sheet leaves, nothing scrolls the page.
    assert pg.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")
    assert stage["width"] >= 0.6 * 1366 and stage["bottom"] >= 768 - 2
    pg.click("[data-action=check]")
    pg.wait_for_selector("#feedback:not([hidden])")
    settled(pg)                                 # a scroll it started has ended
    assert pg.evaluate("() => scrollY") == 0
    assert rect(pg, "#stage") == stage
    assert pg.locator("#feedback").is_visible()
    shoot(pg, "screens-practice-1366x768-checked")
    ctx.close()


def test_practice_on_a_phone_taps_and_questions_in_view(phone, shoot):
    pg = phone(390, 844, "/practice/aima-fig-5-2?mode=values")
    pg.wait_for_selector("#tree .node")
    settled(pg)
    pg.tap("[data-node='B'] .shape")
    pg.wait_for_function("() => document.activeElement?.dataset?.for === 'B'")
    box = pg.evaluate("() => document.activeElement.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= 844
    assert pg.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shoot(pg, "screens-practice-390x844-tapped")

    guided = phone(390, 844, "/practice/aima-fig-5-2?mode=guided")
    guided.wait_for_selector("#q-prompt:not(:empty)")
    prompt = guided.evaluate("() => document.querySelector('#q-prompt').getBoundingClientRect().toJSON()")
    answer = guided.evaluate("() => document.querySelector('#q-answer').getBoundingClientRect().toJSON()")
    assert prompt["top"] >= 0 and answer["bottom"] <= 844        # question and answer above the fold
    shoot(guided, "screens-practice-390x844-guided")


def test_a_long_label_is_shortened_with_its_full_text_on_hover(browser, live_server):
    label = "A very long node label that a lecturer typed in full, " * 2
    tree = ("title: long labels\nroot:\n  id: A\n  children:\n"
            f"    - id: B\n      label: \"{label.strip()}\"\n      children: [3, 5]\n"
            f"    - {{id: c, label: \"{label.strip()}\", value: 4}}\n")
    res = requests.post(f"{live_server}/api/trees", data=tree.encode(),
                        headers={"Content-Type": "application/x-yaml"}, timeout=10)
    assert res.status_code == 201, res.text
    tree_id = res.json()["id"]
    ctx, pg = new_screen(browser, live_server, 1280, 800)
    for path in (f"/practice/{tree_id}", f"/t/{tree_id}"):
        pg.goto(path)
        pg.wait_for_selector("#tree .node")
        settled(pg)
        assert pg.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), path
        names = pg.evaluate("""() => [...document.querySelectorAll('#tree .name')]
            .map(t => [t.firstChild.textContent, t.querySelector('title')?.textContent || ''])""")
        long = [n for n in names if n[1]]
        assert len(long) == 2 and all(len(shown) <= 12 and shown.endswith("…") and full == label.strip()
                            for shown, full in long), names
    ctx.close()
