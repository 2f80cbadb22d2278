"""Lecture details the page shows without being asked (issue: teach the details)."""
from __future__ import annotations

import requests


def test_the_horizon_tree_opens_with_its_lectures_depth_limit(page, viz, live_server):
    info = requests.get(f"{live_server}/api/trees/tictactoe-horizon", timeout=10).json()
    assert info["depth"] == 2
    viz.open(page, "tictactoe-horizon")
    assert page.locator("input[name=depth]").input_value() == "2"
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-step]').dataset.total")
    # Beyond the horizon nothing is searched: depth-3 nodes stay unvisited.
    deep = page.locator("[data-node='X1-O3-X5']")
    assert deep.count() == 0 or deep.get_attribute("data-status") == "unvisited"
    # E(n) two plies deep prefers the corner X9: the win by X1 lies beyond the horizon.
    assert "the best move is X in the bottom-right corner" in page.locator("#narration").inner_text()

    # Clearing the limit is kept in the address, so the link reopens without it.
    page.fill("input[name=depth]", "")
    page.dispatch_event("input[name=depth]", "change")
    page.wait_for_function("() => new URLSearchParams(location.search).get('depth') === 'none'")
    viz.open(page, "tictactoe-horizon", "depth=none")
    assert page.locator("input[name=depth]").input_value() == ""
