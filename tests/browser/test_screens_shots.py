"""Screenshots of the visualizer at the four screens, in English and in
Indonesian (?lang=id), in normal and presentation mode, to look at; each
shot is also checked: no label meets another or is cut off (whole trees),
the page never scrolls sideways, the sentence is whole, the header is one row.
"""
from __future__ import annotations

import pytest
import requests

from .screens import problems

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
          follow: window.visualizer.follow};
}"""


@pytest.mark.parametrize("lang", ["en", "id"])
def test_screenshots_at_every_screen(browser, live_server, lang, shoot):
    found = []
    for width, height in SIZES:
        phone = width < 500
        ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone,
                                  is_mobile=phone, base_url=live_server)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        for tree_id in TREES:
            events = requests.get(f"{live_server}/api/trees/{tree_id}/trace", params={"lang": lang},
                                  timeout=10).json()["events"]
            cut = next((e["step"] for e in events if e["type"] == "prune"), len(events) // 2)
            pg.goto(f"/t/{tree_id}?lang={lang}&step={cut}")
            pg.wait_for_selector("#visualizer.ready", timeout=15000)
            for mode in ("normal",) if phone else ("normal", "present"):
                if mode == "present":
                    pg.keyboard.press("p")
                    pg.wait_for_function("() => document.documentElement.classList.contains('present')")
                pg.wait_for_timeout(250)
                name = f"screens-{tree_id}-{width}x{height}-{lang}{'-present' if mode == 'present' else ''}"
                shoot(pg, name)
                m = pg.evaluate(CHECK_JS)
                if m["sideways"] or not m["whole"] or (m["rows"] != 1 and not phone):
                    found.append(f"{name}: {m}")
                found += [f"{name}: {p}" for p in problems(pg, fitted=not m["follow"])]
        ctx.close()
        assert not errors, errors
    assert not found, "\n".join(found[:40])
