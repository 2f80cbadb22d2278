"""Phones (issue 20): Connect Four's rack whole on the first screen of a
360 x 640 phone, every column a 44 px target; practice shows the tree first,
its instructions folded to one line that a tap opens."""
from __future__ import annotations

import pytest

from tests.browser.helpers import new_screen, settled

pytestmark = pytest.mark.browser


def test_connect_four_and_practice_on_a_small_phone(browser, live_server):
    ctx, pg = new_screen(browser, live_server, 360, 640, phone=True)
    pg.goto("/play/connect4")
    pg.wait_for_selector('[data-move="X4"]')
    rack = pg.locator(".board.connect4").bounding_box()
    assert rack["x"] >= 0 and rack["x"] + rack["width"] <= 360 and rack["y"] + rack["height"] <= 640, rack
    drops = [pg.locator(f'[data-move="X{c}"]').bounding_box() for c in range(1, 8)]
    assert all(b["width"] >= 44 and b["height"] >= 44 and b["x"] + b["width"] <= 360 for b in drops), drops
    assert pg.locator("[data-role=turn]").bounding_box()["y"] < 640        # whose move it is, too
    assert pg.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    pg.click('[data-move="X4"]')
    pg.wait_for_selector("[data-action=why]")
    assert "X in column 4" in pg.locator("[data-role=history] li").first.inner_text()

    pg.goto("/practice/random?mode=full")
    pg.wait_for_selector("#tree .node")
    settled(pg)
    assert pg.evaluate("() => document.querySelector('#instructions').open") is False
    stage = pg.locator("#stage").bounding_box()
    summary = pg.locator("#instructions > summary").bounding_box()
    assert summary["height"] <= 64 and stage["y"] < 320, (summary, stage)    # the tree on the first screen
    assert pg.locator("[data-for-mode=full]").is_hidden()
    pg.locator("#instructions > summary").click()
    assert pg.locator("[data-for-mode=full]").is_visible()
    assert pg.js_errors == []
    ctx.close()
