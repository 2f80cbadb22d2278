"""Principal variation search in the page (issue 29): its JSON events drawn
step by step, the test's null window on the node, the re-search's sentence, the
statistics' re-search count, the listing's line; then guided practice on it."""
from __future__ import annotations

import pytest

from .helpers import notes_shot

pytestmark = pytest.mark.browser


def test_pvs_steps_tests_and_searches_again(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto("/t/aima-fig-5-2?algorithm=pvs&order=worst&step=16")
    page.wait_for_selector("#visualizer.ready")   # started, and at the asked step
    assert page.locator("select[name=algorithm]").first.input_value() == "pvs"
    assert page.locator("[data-step]").text_content().strip() == "16"
    # D is entered under its null-window test: alpha = beta = 2
    assert page.locator("[data-node=D]").get_attribute("data-alpha") == "2"
    assert page.locator("[data-node=D]").get_attribute("data-beta") == "2"
    page.goto("/t/aima-fig-5-2?algorithm=pvs&order=worst&step=33")
    page.wait_for_selector("#visualizer.ready")   # started, and at the asked step
    sentence = page.locator("#narration, .narration").first.text_content()
    assert "the test fails high (3 > α = 2)" in sentence and "re-search 1" in sentence
    assert page.locator("[data-node=b1]").get_attribute("data-status") == "unvisited"
    assert page.locator("[data-stat=researches]").text_content().strip() == "1"
    assert page.locator("[data-stat=researches]").is_visible()
    # no worksheet link where the record makes none (the server would refuse it)
    assert page.evaluate("document.querySelector('[data-worksheet]').closest('li').hidden")
    notes_shot(page, "pvs-research-1280x720")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-node=\"A\"]')"
                           ".getAttribute('data-value') === '3'")
    # Guided practice walks PVS's own run; its link opens the visualizer with pvs.
    page.goto("/practice/aima-fig-5-2?mode=guided&algorithm=pvs")
    page.wait_for_selector("#practice.ready")   # the link is the page's once its script ran
    assert "algorithm=pvs" in page.locator("[data-action=visualize]").get_attribute("href")
