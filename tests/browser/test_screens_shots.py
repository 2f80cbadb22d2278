"""Screenshots of the visualizer at the four screens, in English and in
Indonesian (?lang=id), in normal and presentation mode, to look at; each
shot is also checked: no label meets another or is cut off (whole trees),
the page never scrolls sideways, the sentence is whole, the header is one row.

A tree is opened once on the phone and once for the three wider screens,
shown at each of them by resizing the window (none of them is narrow, so
the page draws the same tree as opened there, refitted); each shot waits
for the drawing to come to rest, not a fixed time.
"""
from __future__ import annotations

import pytest
import requests

from .helpers import new_screen, settled
from .screens import LABEL_BOXES_JS, problems_in

SIZES = [(390, 844), (1366, 768), (1280, 720), (1920, 1080)]
TREES = ["aima-fig-5-2", "tictactoe-horizon", "wikipedia-ab-pruning"]

pytestmark = pytest.mark.slow

CHECK_JS = """() => {
  const n = document.querySelector('#narration');
  const bar = document.querySelector('.topbar');
  const boxes = [...bar.children].filter(c => c.offsetParent !== null).map(c => c.getBoundingClientRect());
  return {sideways: document.documentElement.scrollWidth > innerWidth + 1,
          whole: n.scrollHeight <= n.clientHeight + 1,
          rows: boxes.some(a => boxes.some(b => b.top >= a.bottom - 1)) ? 2 : 1,
          follow: window.visualizer.following};   // a phone, or presentation mode following a tree too wide to read whole (issue 20)
}"""
# The checks and the label boxes in one round trip.
MEASURE_JS = f"() => ({{check: ({CHECK_JS})(), boxes: ({LABEL_BOXES_JS})()}})"


@pytest.mark.parametrize("lang", ["en", "id"])
def test_screenshots_at_every_screen(browser, live_server, lang, shoot):
    found = []
    cuts = {}
    for tree_id in TREES:
        events = requests.get(f"{live_server}/api/trees/{tree_id}/trace", params={"lang": lang},
                              timeout=10).json()["events"]
        cuts[tree_id] = next((e["step"] for e in events if e["type"] == "prune"), len(events) // 2)
    shots = 0
    for screens in (SIZES[:1], SIZES[1:]):
        width, height = screens[0]
        phone = width < 500
        ctx, pg = new_screen(browser, live_server, width, height, phone=phone)
        for tree_id in TREES:
            pg.set_viewport_size({"width": width, "height": height})
            pg.goto(f"/t/{tree_id}?lang={lang}&step={cuts[tree_id]}")
            pg.wait_for_selector("#visualizer.ready", timeout=15000)
            for size in screens:
                pg.set_viewport_size({"width": size[0], "height": size[1]})
                for mode in ("normal",) if phone else ("normal", "present"):
                    if mode == "present":
                        pg.keyboard.press("p")
                        pg.wait_for_function("() => document.documentElement.classList.contains('present')")
                    settled(pg)
                    name = f"screens-{tree_id}-{size[0]}x{size[1]}-{lang}{'-present' if mode == 'present' else ''}"
                    shoot(pg, name)
                    shots += 1
                    got = pg.evaluate(MEASURE_JS)
                    m = got["check"]
                    if m["sideways"] or not m["whole"] or (m["rows"] != 1 and not phone):
                        found.append(f"{name}: {m}")
                    found += [f"{name}: {p}" for p in problems_in(got["boxes"], fitted=not m["follow"])]
                if not phone:
                    pg.keyboard.press("p")
                    pg.wait_for_function("() => !document.documentElement.classList.contains('present')")
        ctx.close()
        assert not pg.js_errors, pg.js_errors
    assert shots == len(TREES) * (1 + 2 * (len(SIZES) - 1))
    assert not found, "\n".join(found[:40])
