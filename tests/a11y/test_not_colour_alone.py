"""Colour is never the only signal: with the page in greyscale, pruned,
active and best-line nodes still differ by pattern, dash, ring or width
(checked on the computed style; the greyscale screenshots are kept in
test-artifacts/ to look at)."""
from __future__ import annotations

import pytest

from tests.browser.expect import trace

pytestmark = pytest.mark.browser

GREY = "() => { document.documentElement.style.filter = 'grayscale(1)'; }"


def style(pg, selector: str, prop: str) -> str:
    return pg.evaluate("([s, p]) => getComputedStyle(document.querySelector(s)).getPropertyValue(p)",
                       [selector, prop])


def test_pruned_active_and_best_line_without_colour(page, viz, live_server, fig52, shoot):
    events = trace(live_server, fig52, algorithm="alphabeta")
    cut = next(e for e in events if e["type"] == "prune")
    viz.open(page, fig52, f"algorithm=alphabeta&step={cut['step']}")   # the cut at C
    page.evaluate(GREY)
    shoot(page, "greyscale-cut")
    pruned = "#tree [data-node=c2] .shape"
    assert style(page, pruned, "fill").startswith("url(")              # hatched
    assert style(page, pruned, "stroke-dasharray") not in ("none", "")   # dashed outline
    assert style(page, "#tree [data-edge=c2]", "stroke-dasharray") not in ("none", "")
    assert page.locator("#tree .cut-mark.shown").count() == 2            # a double slash per cut edge
    # the active node has a ring of its own, a shape and not a hue
    assert page.locator("#tree .ring").get_attribute("visibility") == "visible"
    page.keyboard.press("End")
    viz.wait_step(page, events[-1]["step"])
    shoot(page, "greyscale-end")
    plain = float(style(page, "#tree [data-edge=c1]", "stroke-width").rstrip("px"))
    best = float(style(page, "#tree [data-edge=B]", "stroke-width").rstrip("px"))
    assert best >= 2 * plain                                             # the best line is thick
    # the legend says the same in words
    legend = page.locator(".legend").inner_text()
    assert "cut off" in legend and "active" in legend
