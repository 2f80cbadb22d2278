"""The visualizer's "Take it with you" links follow the step and options on screen."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
import requests

pytestmark = pytest.mark.browser


def test_export_link_pictures_the_step_on_screen(page, viz, fig52, live_server):
    events = requests.get(f"{live_server}/api/trees/{fig52}/trace", timeout=10).json()["events"]
    cut = next(e["step"] for e in events if e["type"] == "prune")    # C cuts c2, c3
    viz.open(page, fig52, f"algorithm=alphabeta&step={cut}")
    viz.wait_step(page, cut)
    link = page.locator('[data-export="svg"]')
    link.dispatch_event("pointerdown")
    href = link.get_attribute("href")
    assert f"/api/trees/{fig52}/export.svg?" in href and f"step={cut}" in href
    assert "algorithm=alphabeta" in href
    svg = requests.get(live_server + href, timeout=30)
    assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
    ids = {g.get("id"): g.get("class", "") for g in ET.fromstring(svg.content).iter()
           if g.get("id")}
    # The cut at C: c2 and c3 are pruned in the picture as on screen.
    assert "pruned" in ids["c2"] and "pruned" in ids["c3"]
    assert page.locator('[data-node="c2"]').get_attribute("data-status") == "pruned"


def test_worksheet_and_practice_links_carry_the_options(page, viz, fig52, live_server):
    viz.open(page, fig52, "algorithm=minimax&strict=1")
    for selector in ("[data-worksheet]", "[data-practice]"):
        page.locator(selector).dispatch_event("pointerdown")
    sheet = page.locator("[data-worksheet]").get_attribute("href")
    practice = page.locator("[data-practice]").get_attribute("href")
    assert "algorithm=minimax" in sheet and "strict=1" in sheet
    assert practice == f"/practice/{fig52}?strict=1"
    pdf = requests.get(live_server + sheet, timeout=60)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert requests.get(live_server + practice, timeout=30).status_code == 200


def test_library_links_to_practice(page, live_server):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Practise it yourself").click()
    page.wait_for_url("**/practice**")
