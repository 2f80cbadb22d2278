"""The whole of tic-tac-toe searched by minimax in the page: 1,394,670 events,
more than the page holds (model.js `keep`, session.js KEEP). End streams
them all, moving the run's view along and letting go of old events; the
page then shows the counts of the core's summary and its own running counts
agree with them; stepping back and going home still work.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENTERED, EVALUATED, EVENTS = 549_946, 255_168, 1_394_670


def stat(page, name: str) -> int:
    return int(page.locator(f"#stats [data-stat={name}]").inner_text().replace(",", ""))


def test_minimax_on_the_whole_of_tictactoe_in_the_page(page, viz):
    viz.open(page, "game:tictactoe", "algorithm=minimax")
    page.keyboard.press("End")
    page.wait_for_function("""(n) => { const s = document.querySelector('[data-step]');
        return s.dataset.total === String(n) && s.textContent === String(n); }""",
                           arg=EVENTS, timeout=900_000, polling=1000)
    assert stat(page, "entered") == ENTERED
    assert stat(page, "evaluated") == EVALUATED
    # The page did not keep every event: what it holds is bounded.
    held = page.evaluate("""() => { const r = window.visualizer.session.run;
        let n = 0; for (const e of r.events) if (e) n++; return { held: n, low: r.low }; }""")
    assert held["held"] <= 100_000 and held["low"] > 1_000_000
    # One step back: the page's own running counts (not the summary's) agree.
    page.keyboard.press("ArrowLeft")
    viz.wait_step(page, EVENTS - 1)
    assert stat(page, "entered") == ENTERED
    assert stat(page, "evaluated") == EVALUATED
    assert page.locator("[data-node=start]").get_attribute("data-status") in ("active", "visited")
    # Home is before what the run holds: it starts again, at step 0 then 1.
    page.keyboard.press("Home")
    viz.wait_step(page, 0)
    page.keyboard.press("ArrowRight")
    viz.wait_step(page, 1)
    assert page.locator("[data-node=start]").get_attribute("data-status") == "active"
    assert stat(page, "entered") == 1
