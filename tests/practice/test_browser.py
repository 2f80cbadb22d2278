"""One full practice attempt in the real browser (Debian's Chromium).

A student opens AIMA Fig. 5.2 in "alpha-beta full", fills the sheet with one
mistake, taps the two pruned branches, checks, reads the explanation, follows
the link to the visualizer at that step, fixes the entry and checks again.
Screenshots go to test-artifacts/ (desktop and phone).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import requests

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# AIMA formulation, ties cut: a node meeting the cut test returns before its own bound moves.
RIGHT = {"A": ("3", "3", "+inf"), "B": ("3", "-inf", "3"), "C": ("2", "3", "inf"),
         "D": ("2", "3", "5")}


def open_page(browser, live_server, **context):
    ctx = browser.new_context(base_url=live_server, **context)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.errors = errors
    return pg


@pytest.fixture
def desktop(browser, live_server):
    pg = open_page(browser, live_server, viewport={"width": 1400, "height": 900})
    yield pg
    pg.context.close()
    assert not pg.errors, pg.errors


@pytest.fixture
def phone(browser, live_server):
    pg = open_page(browser, live_server, viewport={"width": 390, "height": 844},
                   device_scale_factor=2, is_mobile=True, has_touch=True)
    yield pg
    pg.context.close()
    assert not pg.errors, pg.errors


@pytest.fixture(scope="module")
def fig52(live_server, fig52_yaml) -> str:
    listing = requests.get(f"{live_server}/api/trees", timeout=10).json()
    if any(t["id"] == "aima-fig-5-2" for t in listing):
        return "aima-fig-5-2"
    res = requests.post(f"{live_server}/api/trees", data=fig52_yaml.encode(),
                        headers={"Content-Type": "application/x-yaml"}, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()["id"]


def shoot(pg, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"practice-{name}.png"), full_page=True)


def branch_point(pg, child: str) -> tuple[float, float]:
    """The middle of the branch into ``child`` on screen."""
    return tuple(pg.evaluate("""id => {
        const r = document.querySelector(`[data-cut="${id}"]`).getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; }""", child))


def entry(pg, node: str, field: str):
    return pg.locator(f'input[data-for="{node}"][data-field="{field}"]')


def fill_sheet(pg, answers: dict) -> None:
    for node, (v, a, b) in answers.items():
        entry(pg, node, "value").fill(v)
        entry(pg, node, "alpha").fill(a)
        entry(pg, node, "beta").fill(b)


def test_full_attempt_with_a_mistake_then_fixed(desktop, fig52):
    pg = desktop
    pg.goto(f"/practice/{fig52}?mode=full")
    pg.wait_for_selector("#practice.ready")
    fill_sheet(pg, {**RIGHT, "C": ("4", "3", "inf")})            # C's value is wrong
    for child in ("c2", "c3"):                                  # tap the two pruned branches
        pg.mouse.click(*branch_point(pg, child))
    assert pg.locator('[data-cut="c2"]').get_attribute("aria-pressed") == "true"
    assert pg.locator('[data-node="c3"]').get_attribute("data-status") == "pruned"
    # The drawing shows what the student wrote.
    assert pg.locator('[data-node="C"]').get_attribute("data-value") == "4"
    shoot(pg, "desktop-filled")

    pg.click("[data-action=check]")
    feedback = pg.locator("[data-role=feedback]")
    feedback.wait_for(state="visible")
    assert pg.locator("[data-score]").inner_text() == "13 / 14"
    mistake = pg.locator("[data-role=mistake-text]").inner_text()
    assert mistake.startswith("C is a MIN node") and "You wrote 4" in mistake
    assert entry(pg, "C", "value").get_attribute("data-status") == "wrong"
    assert entry(pg, "B", "value").get_attribute("data-status") == "right"
    assert pg.locator('[data-node="C"] .badge').text_content() == "✗"
    link = pg.locator("[data-role=mistake-link]").get_attribute("href")
    assert link.startswith(f"/t/{fig52}?algorithm=alphabeta&step=")
    shoot(pg, "desktop-checked")

    # The link opens the visualizer at exactly the step where C returns its value.
    step = int(link.rsplit("step=", 1)[1])
    viz = pg.context.new_page()
    viz.goto(link)
    viz.wait_for_function("k => document.querySelector('[data-step]')?.textContent === String(k)",
                          arg=step, timeout=15000)
    c = viz.locator('[data-node="C"]')
    assert c.get_attribute("data-value") == "2" and c.get_attribute("data-status") != "unvisited"
    viz.close()

    entry(pg, "C", "value").fill("2")
    assert "stale" in (feedback.get_attribute("class") or "")
    pg.click("[data-action=check]")
    pg.wait_for_function("() => document.querySelector('[data-score]').textContent === '14 / 14'")
    assert "solved" in feedback.get_attribute("class")
    assert pg.locator("[data-role=summary]").inner_text() == "All 14 right. Well done!"
    assert pg.locator("[data-role=mistake]").is_hidden()
    progress = pg.evaluate("() => JSON.parse(localStorage.getItem('practice-progress-v1'))")
    assert progress["attempts"][f"{fig52}|full"]["solved"] is True
    assert progress["attempts"][f"{fig52}|full"]["checks"] == 2
    shoot(pg, "desktop-solved")


def test_on_a_phone_taps_and_layout(phone, fig52):
    pg = phone
    pg.goto(f"/practice/{fig52}?mode=cuts")
    pg.wait_for_selector("#practice.ready")
    # A tap on a branch marks it, a second tap unmarks it.
    pg.touchscreen.tap(*branch_point(pg, "d3"))
    assert pg.locator('[data-cut="d3"]').get_attribute("aria-pressed") == "true"
    pg.touchscreen.tap(*branch_point(pg, "d3"))
    assert pg.locator('[data-cut="d3"]').get_attribute("aria-pressed") == "false"
    pg.touchscreen.tap(*branch_point(pg, "c2"))
    shoot(pg, "phone-marked")
    # The sheet sits below the tree, and its controls are big enough to tap.
    stage = pg.locator("#stage").bounding_box()
    sheet = pg.locator("#sheet").bounding_box()
    assert sheet["y"] >= stage["y"] + stage["height"] - 1 and sheet["width"] > 300
    for sel in ("[data-action=check]", 'input[data-for="B"][data-field="value"]', ".cut-list .chip"):
        assert pg.locator(sel).first.bounding_box()["height"] >= 44, sel
    pg.locator("[data-action=check]").tap()
    pg.locator("[data-role=feedback]").wait_for(state="visible")
    assert pg.locator("[data-score]").inner_text() == "1 / 2"       # c3 missed
    assert "c3" in pg.locator("[data-role=mistake-text]").inner_text()
    shoot(pg, "phone-checked")
    # Work survives a reload (a draft in localStorage).
    pg.reload()
    pg.wait_for_selector("#practice.ready")
    assert pg.locator('[data-cut="c2"]').get_attribute("aria-pressed") == "true"


def test_keyboard_marks_a_branch(desktop, fig52):
    pg = desktop
    pg.goto(f"/practice/{fig52}?mode=cuts")
    pg.wait_for_selector("#practice.ready")
    pg.locator('[data-cut="c2"]').focus()
    pg.keyboard.press("Enter")
    assert pg.locator('[data-cut="c2"]').get_attribute("aria-pressed") == "true"
    pg.keyboard.press(" ")
    assert pg.locator('[data-cut="c2"]').get_attribute("aria-pressed") == "false"


def test_guided_and_ordering_modes(desktop, fig52):
    pg = desktop
    pg.goto(f"/practice/{fig52}?mode=guided")
    pg.wait_for_selector("#q-prompt:not(:empty)")
    assert pg.locator("#q-prompt").inner_text() == "b1 returned 3 to B. What is v at B now?"
    pg.fill("#q-answer", "12")
    pg.press("#q-answer", "Enter")
    pg.wait_for_selector(".q-feedback.wrong")
    assert "at a MIN node, v = min" in pg.locator("#q-feedback").inner_text()
    pg.fill("#q-answer", "3")
    pg.press("#q-answer", "Enter")
    pg.wait_for_selector(".q-feedback.right")
    assert pg.locator('[data-node="B"]').get_attribute("data-value") == "3"
    pg.click("[data-action=next]")
    pg.wait_for_selector("[data-choice=no]:visible")
    shoot(pg, "guided")

    pg.goto(f"/practice/{fig52}?mode=order")
    pg.wait_for_selector("#practice.ready")
    for _ in range(2):
        pg.click('[data-order-node="D"] [data-child="d3"] button[aria-label="Move d3 earlier"]')
    xs = [pg.locator(f'[data-node="{n}"]').bounding_box()["x"] for n in ("d3", "d1", "d2")]
    assert xs == sorted(xs)                                     # the tree follows the order
    pg.click("[data-action=check-order]")
    pg.wait_for_selector(".feedback.solved")
    assert pg.locator("[data-score]").inner_text() == "5 of 9 leaves evaluated"
    shoot(pg, "order")


def test_the_random_forms_refusal_is_said_on_the_form(browser, live_server):
    """The chooser's random-tree form with fields the server refuses (too
    big to solve by hand, an empty value range) comes back as the chooser
    with the reason over the form, in the page's language and in view on a
    small phone, its switcher working; never a page of JSON. The API's
    callers still get JSON (tests/practice/test_api.py)."""
    pg = open_page(browser, live_server, viewport={"width": 360, "height": 640},
                   is_mobile=True, has_touch=True, locale="id-ID")
    try:
        pg.goto("/practice?lang=id")
        for fields, said in (({"branching": "5", "depth": "5"}, "terlalu banyak untuk dikerjakan"),
                             ({"branching": "2", "values": "5:1"}, "Rentang nilai 5..1 kosong")):
            for name, value in fields.items():
                pg.fill(f".random-form [name={name}]", value)
            pg.click(".random-form button[type=submit]")
            alert = pg.locator("[data-role=form-error]")
            alert.wait_for()
            assert said in alert.inner_text(), alert.inner_text()
            box = alert.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 640, box          # in view
            assert pg.evaluate("document.documentElement.scrollWidth") <= 360
            assert pg.locator(".random-form [name=branching]").input_value() == fields["branching"]
        pg.click(".lang-switch [data-lang=en]")                  # the switcher keeps the page
        pg.wait_for_function("document.documentElement.lang === 'en'")
        assert "Value range 5..1 is empty" in pg.locator("[data-role=form-error]").inner_text()
        pg.fill(".random-form [name=values]", "-10:10")            # then a tree that fits
        pg.click(".random-form button[type=submit]")
        pg.wait_for_selector("#practice.ready")
        assert not [e for e in pg.errors if "status of 400" not in e], pg.errors
    finally:
        pg.context.close()
