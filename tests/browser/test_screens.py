"""Every library tree on every screen: no two labels meet, none is cut off.

One browser page walks the whole library at a projector (1920x1080) and a
laptop-projector (1280x720), in normal and in presentation mode, at the
first cut-off (the middle of the run where nothing is cut) and at the end,
and reads the boxes of every label drawn in the tree. Each tree is opened
once and shown at both sizes by resizing the window (the page refits on a
resize; neither size is narrow, so the drawing is the same as opened
there). The phone (390x844, touch) walks the library in
test_screens_phone.py, shown whole there too. Screenshots of each tree at
each size land in test-artifacts/.
"""
from __future__ import annotations

import pytest
import requests

from .helpers import go_to_step, run_to_end, settle, settled
from .screens import LABEL_BOXES_JS, label_count, problems, problems_in

SIZES = [(1920, 1080), (1280, 720)]

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


def test_no_label_meets_another_or_the_edge_on_any_screen(walker, live_server, library, shoot):
    pg = walker
    found: list[str] = []
    checked = 0
    for entry in library:
        tree_id = entry["id"]
        pg.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        pg.goto(f"/t/{tree_id}")
        pg.wait_for_selector("#visualizer.ready", timeout=15000)
        # Only a narrow screen follows the search (test_screens_phone.py).
        assert not pg.evaluate("() => window.visualizer.follow"), tree_id
        # The page's own run (the horizon tree opens with a depth limit).
        cut, total = run_to_end(pg)
        for width, height in SIZES:
            pg.set_viewport_size({"width": width, "height": height})
            settled(pg)
            for mode in ("normal", "present"):
                if mode == "present":
                    pg.keyboard.press("p")
                    pg.wait_for_function("() => document.documentElement.classList.contains('present')")
                    settled(pg)                   # refitted to the presentation's stage
                for where, step in (("cut", cut), ("end", total)):
                    boxes = go_to_step(pg, step, then=LABEL_BOXES_JS)
                    where_ = f"{tree_id} at {width}x{height}, {mode}, {where} (step {step})"
                    # Presentation mode follows a tree too wide to read whole from the back row
                    # (test_present_floor.py): a window, whose edges may cut labels, as on a phone.
                    window = pg.evaluate("() => window.visualizer.following")
                    assert mode == "present" or not window, where_
                    seen = problems_in(boxes, fitted=not window)
                    found += [f"{where_}: {p}" for p in seen]
                    checked += 1
                    # A picture of what failed (72 shots of passing screens were a
                    # quarter of the test; the gallery is test_screens_shots.py's).
                    if seen:
                        shoot(pg, f"screens-{tree_id}-{width}x{height}{'-present' if mode == 'present' else ''}-{where}")
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
