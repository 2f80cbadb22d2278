"""Every library tree on every screen: no two labels meet, none is cut off.

One browser page walks the whole library at a projector (1920x1080), a
laptop-projector (1280x720) and a phone (390x844), in normal and in
presentation mode, at the first cut-off (the middle of the run where nothing
is cut) and at the end, and reads the boxes of every label drawn in the
tree. Screenshots of each tree at each size land in test-artifacts/.
"""
from __future__ import annotations

import pytest
import requests

from .screens import label_count, problems

SIZES = [(1920, 1080), (1280, 720), (390, 844)]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def library(live_server) -> list[dict]:
    listing = requests.get(f"{live_server}/api/trees", timeout=10).json()
    return [t for t in listing if t.get("builtin")]


@pytest.fixture(scope="module")
def walker(browser, live_server):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=live_server)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.js_errors = errors
    yield pg
    context.close()


def settle(pg) -> None:
    """Two frames: the fit after a resize or a mode switch has been drawn."""
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def to_step(pg, k: int) -> None:
    pg.evaluate("k => window.visualizer.session.goTo(k)", k)
    pg.wait_for_function("k => document.querySelector('[data-step]').textContent === String(k)",
                         arg=k, timeout=15000)
    # Fit again as the page does (the user has not zoomed): the drawing is the same.
    settle(pg)


def test_no_label_meets_another_or_the_edge_on_any_screen(walker, live_server, library, shoot):
    pg = walker
    found: list[str] = []
    checked = 0
    for width, height in SIZES:
        pg.set_viewport_size({"width": width, "height": height})
        for entry in library:
            tree_id = entry["id"]
            pg.goto(f"/t/{tree_id}")
            pg.wait_for_selector("#visualizer.ready", timeout=15000)
            # A phone follows the search on a tree too wide to read whole
            # (test_screens_phone.py); here the whole tree is shown (Fit).
            if pg.evaluate("() => window.visualizer.follow"):
                pg.keyboard.press("f")
                pg.wait_for_function("() => !window.visualizer.follow")
            # The page's own run (the horizon tree opens with a depth limit).
            pg.keyboard.press("End")
            pg.wait_for_function("() => document.querySelector('[data-step]').dataset.total", timeout=15000)
            total = int(pg.locator("[data-step]").get_attribute("data-total"))
            cut = pg.evaluate("""() => {
                const evs = window.visualizer.session.run.events;
                const i = evs.findIndex((e) => e && e.type === 'prune');
                return i >= 0 ? i + 1 : Math.floor(evs.length / 2);
            }""")
            for mode in ("normal", "present"):
                if mode == "present":
                    pg.keyboard.press("p")
                    pg.wait_for_function("() => document.documentElement.classList.contains('present')")
                for where, step in (("cut", cut), ("end", total)):
                    to_step(pg, step)
                    where_ = f"{tree_id} at {width}x{height}, {mode}, {where} (step {step})"
                    found += [f"{where_}: {p}" for p in problems(pg)]
                    checked += 1
                    if where == "end":
                        shoot(pg, f"screens-{tree_id}-{width}x{height}{'-present' if mode == 'present' else ''}")
                if mode == "present":
                    pg.keyboard.press("p")
                    pg.wait_for_function("() => !document.documentElement.classList.contains('present')")
    assert checked == len(SIZES) * len(library) * 4
    assert not pg.js_errors, pg.js_errors
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:60])


def test_the_checker_sees_an_overlap_when_there_is_one(walker, live_server):
    """The measure itself: two labels pushed onto each other are reported."""
    pg = walker
    pg.set_viewport_size({"width": 1280, "height": 720})
    pg.goto("/t/aima-fig-5-2?step=12")
    pg.wait_for_selector("#visualizer.ready", timeout=15000)
    settle(pg)
    assert problems(pg) == [] and label_count(pg) > 15
    pg.evaluate("""() => {
        const [a, b] = document.querySelectorAll('#tree text.name');
        b.setAttribute('x', a.getAttribute('x')); b.setAttribute('y', a.getAttribute('y'));
    }""")
    assert any("overlaps" in p for p in problems(pg))
    pg.evaluate("() => window.visualizer.zoom.zoomBy(4)")
    settle(pg)
    assert any("cut off" in p for p in problems(pg))
