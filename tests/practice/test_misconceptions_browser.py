"""The practice page names the wrong rule under the score, in English and Indonesian
(contract §8), with a link to that step in the visualizer."""
from __future__ import annotations

import pytest

from tests.practice.test_browser import desktop, fig52, phone, shoot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def mark(pg, *children):
    for child in children:
        pg.locator(f'[data-cut="{child}"]').focus()
        pg.keyboard.press("Enter")


def test_the_rule_behind_the_answer_in_both_languages(desktop, phone, fig52):  # noqa: F811
    pg = desktop
    pg.goto(f"/practice/{fig52}?mode=cuts")
    pg.wait_for_selector("#practice.ready")
    mark(pg, "c1", "c2", "c3")    # the cut-off's own child marked too
    pg.click("[data-action=check]")
    box = pg.locator("[data-role=misconception]")
    box.wait_for(state="visible")
    assert box.get_attribute("data-misconception") == "cutter"
    assert box.get_attribute("data-node") == "C"
    text = pg.locator("[data-role=misconception-text]").inner_text()
    assert text.startswith("At a cut-off you also marked the child whose value caused it.")
    link = pg.locator("[data-role=misconception-link]")
    assert "/t/" in link.get_attribute("href") and "step=" in link.get_attribute("href")
    assert "step" in link.inner_text()
    # under the score: after the summary, before the first mistake
    assert pg.locator("[data-score]").bounding_box()["y"] < box.bounding_box()["y"]
    shoot(pg, "misconception-en")
    # fixed: the rule is gone
    mark(pg, "c1")
    pg.click("[data-action=check]")
    box.wait_for(state="hidden")
    # Indonesian, on a phone
    ph = phone
    ph.goto(f"/practice/{fig52}?mode=cuts&lang=id")
    ph.wait_for_selector("#practice.ready")
    mark(ph, "c1", "c2", "c3")
    ph.locator("[data-action=check]").tap()
    box = ph.locator("[data-role=misconception]")
    box.wait_for(state="visible")
    said = ph.locator("[data-role=misconception-text]").inner_text()
    assert box.get_attribute("data-misconception") == "cutter"
    assert said.startswith("Saat pemangkasan, Anda juga menandai anak")
    assert ph.locator("[data-role=misconception] h3").inner_text() == "Aturan di balik jawaban Anda"
    assert "langkah" in ph.locator("[data-role=misconception-link]").inner_text()
    width = ph.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width   # nothing sticks out at 390 px
    shoot(ph, "misconception-id-phone")
