"""The standalone flow in the real browser (Debian's Chromium): a student
opens the assignment's link, gives a name once, solves their exercise on
practice's page (graded on the server), comes back to their score; the
instructor's dashboard shows it and the phone layout holds."""
from __future__ import annotations

from pathlib import Path

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RIGHT = {"A": ("3", "3", "+inf"), "B": ("3", "-inf", "3"), "C": ("2", "3", "inf"),
         "D": ("2", "3", "5")}


_axe = Axe()


def serious(pg) -> list[str]:
    """axe-core's serious and critical violations on the page now."""
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in _axe.run(pg).response["violations"] if v["impact"] in ("serious", "critical")]


def _page(browser, live_server, **ctx):
    pg = browser.new_context(base_url=live_server, **ctx).new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    pg.on("console", lambda m: errors.append(m.text)
          if m.type == "error" and "409" not in m.text else None)
    pg.errors = errors
    return pg


def test_a_student_solves_an_assignment_and_the_instructor_sees_it(browser, live_server):
    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Alpha-beta homework", "attempts": 2, "feedback": "submit",
        "exercises": [{"tree": "aima-fig-5-2", "mode": "full"},
                      {"tree": "random", "mode": "cuts", "branching": 2, "depth": 3}]}).json()
    pg = _page(browser, live_server, viewport={"width": 390, "height": 844}, is_mobile=True,
               has_touch=True, device_scale_factor=2)
    pg.goto(made["student"])
    pg.fill("#student", "Ana Lee")
    pg.click("[data-form=student] button[type=submit]")
    pg.wait_for_selector("[data-exercise='1']")
    assert pg.text_content("[data-role=student]") == "Ana Lee"
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390      # no sideways scroll
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "assignment-student-phone.png"), full_page=True)
    assert not serious(pg)

    pg.click("[data-exercise='0'] a")
    pg.wait_for_selector("#practice.ready")
    assert pg.text_content("#title") == "Alpha-beta homework"
    assert pg.is_hidden(".modes") and pg.is_hidden("[data-action=another]")
    for node, (v, a, b) in RIGHT.items():
        pg.fill(f'input[data-for="{node}"][data-field="value"]', v)
        pg.fill(f'input[data-for="{node}"][data-field="alpha"]', a)
        pg.fill(f'input[data-for="{node}"][data-field="beta"]', b)
    pg.click("[data-action=check]")              # the cuts left out: not all right
    pg.wait_for_selector("[data-role=feedback]:not([hidden])")
    assert pg.text_content("[data-score]") == "12 / 14"
    assert "1" in pg.text_content("[data-role=assignment-status]")          # attempts left: 1
    assert pg.is_hidden("[data-action=reveal]")                              # the key is locked
    for child in ("c2", "c3"):                   # mark the two pruned branches (keyboard)
        pg.locator(f'[data-cut="{child}"]').focus()
        pg.keyboard.press("Enter")
        assert pg.locator(f'[data-cut="{child}"]').get_attribute("aria-pressed") == "true"
    pg.click("[data-action=check]")
    expect(pg.locator("[data-score]")).to_have_text("14 / 14")
    pg.screenshot(path=str(ARTIFACTS / "assignment-exercise-phone.png"), full_page=True)

    pg.goto(made["student"])                     # remembered: no name asked again
    pg.wait_for_selector("[data-exercise='0'][data-score='1.0'], [data-exercise='0'][data-score='1']")
    assert pg.text_content("[data-percent]") == "50"
    assert pg.is_hidden("[data-form=student]")
    assert not pg.errors, pg.errors
    pg.context.close()

    dash = _page(browser, live_server, viewport={"width": 1280, "height": 720})
    dash.goto(made["dashboard"])
    dash.wait_for_selector("#dashboard.ready")
    assert dash.text_content("[data-students]") == "1"
    row = dash.text_content("[data-role=students] tbody tr")
    assert "Ana Lee" in row and "50" in row
    assert "100 %" in dash.text_content("[data-role=exercises] tr[data-exercise='0']")
    dash.click("[data-role=students] summary")                 # the student's own trees and attempts
    work = dash.locator(".student-work li")
    expect(work).to_have_count(2)
    assert work.first.get_attribute("data-tree") == "aima-fig-5-2"
    assert "12/14, 14/14" in work.first.text_content()
    assert work.nth(1).get_attribute("data-tree").startswith("r-b2-d3-s")
    with dash.expect_download() as dl:
        dash.click("[data-export=canvas]")
    lines = Path(dl.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines == ["Student,ID,SIS User ID,SIS Login ID,Section,Alpha-beta homework"]
    # Ana typed her name: no id an LMS knows, so both files leave her out, and say so.
    left = dash.locator("[data-role=left-out]")
    expect(left.locator("details")).to_have_count(2)
    left.locator("details[data-format=moodle] summary").click()
    expect(left.locator("details[data-format=moodle] li[data-student='Ana Lee']")).to_contain_text(
        "typing a name")
    assert dash.is_hidden("[data-role=course-roster]")        # not made from an LMS
    dash.screenshot(path=str(ARTIFACTS / "assignment-dashboard.png"), full_page=True)
    assert not serious(dash)
    assert not dash.errors, dash.errors
    dash.context.close()


def test_an_instructor_makes_an_assignment_from_the_practice_page(browser, live_server):
    pg = _page(browser, live_server, viewport={"width": 360, "height": 640}, is_mobile=True,
               has_touch=True)
    pg.goto("/practice/aima-fig-5-2?mode=cuts")
    pg.wait_for_selector("#practice.ready")
    pg.click("[data-action=make-assignment]")
    pg.wait_for_selector("body.ready")
    row = pg.locator(".exercise-row").first
    assert row.locator("[name=tree]").input_value() == "aima-fig-5-2"
    assert row.locator("[name=mode]").input_value() == "cuts"
    assert row.locator("[name=depth]").is_hidden()            # fixed tree: no random options
    pg.click("[data-action=add-exercise]")
    second = pg.locator(".exercise-row").nth(1)
    assert second.locator("[name=tree]").input_value() == "random"
    second.locator("[name=branching]").fill("5")               # too big to solve by hand:
    second.locator("[name=depth]").fill("5")                   # refused by the server, named
    pg.click("[data-form=new-assignment] button[type=submit]")
    expect(pg.locator("#alert")).to_contain_text("exercises[1]")
    second.locator("[name=depth]").fill("2")
    pg.fill("[name=title]", "Week 5")
    made = []                     # a double tap makes one assignment, not two (w35c)
    pg.on("request", lambda r: made.append(r) if r.method == "POST" and r.url.endswith(
        "/api/assignments") else None)
    pg.dblclick("[data-form=new-assignment] button[type=submit]")
    pg.wait_for_selector("[data-role=made]:not([hidden])")
    pg.wait_for_load_state("networkidle")
    assert len(made) == 1, [r.url for r in made]
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "assignment-new-phone.png"), full_page=True)
    assert not serious(pg)
    dashboard = pg.get_attribute("[data-dashboard-link]", "href")
    student = pg.get_attribute("[data-student-link]", "href")
    pg.goto(dashboard)
    pg.wait_for_selector("#dashboard.ready")
    assert pg.text_content("[data-role=title]") == "Week 5"
    assert pg.text_content("[data-students]") == "0"
    assert pg.text_content("[data-role=student-link]") == student
    assert not [e for e in pg.errors if "400" not in e], pg.errors
    pg.context.close()


def test_a_double_tap_on_check_is_one_attempt(browser, live_server):
    """On the hall's slow network a student taps Check twice before the first answer
    is back: each tap was a submission, and the second used up an attempt (of 2)."""
    import time

    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Cuts", "attempts": 2, "feedback": "submit",
        "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"}]}).json()
    aid = made["id"]
    token = requests.post(f"{live_server}/api/assignments/{aid}/students", timeout=10,
                          json={"student": "Budi Santoso"}).json()["token"]
    pg = _page(browser, live_server, viewport={"width": 390, "height": 844}, is_mobile=True,
               has_touch=True)
    sent = []

    def late(route):                  # each submission answered 300 ms late
        sent.append(route.request.url)
        time.sleep(0.3)
        route.continue_()

    pg.route(f"**/api/assignments/{aid}/me/exercises/0", late)
    pg.goto(f"/a/{aid}/0#s={token}")
    pg.wait_for_selector("#practice.ready")
    pg.locator("[data-cut='c2']").focus()
    pg.keyboard.press("Enter")
    pg.dblclick("[data-action=check]")
    expect(pg.locator("[data-score]")).to_have_text("1 / 2")
    pg.wait_for_load_state("networkidle")
    tried = requests.get(f"{live_server}/api/assignments/{aid}/students/Budi Santoso/attempts",
                         headers={"Authorization": f"Bearer {made['instructor']}"},
                         timeout=10).json()["attempts"]
    assert len(tried) == 1 and len(sent) == 1, (tried, sent)
    expect(pg.locator("[data-role=assignment-status]")).to_contain_text("1")
    assert not pg.errors, pg.errors
    pg.context.close()


@pytest.mark.parametrize("lang", ["id"])
def test_the_next_student_at_a_shared_computer_is_not_the_last_one(browser, live_server, lang):
    """A computer lab: Ana typed her name and left; Budi opens the same link at the same
    computer and was "Signed in as Ana Lee", with no way to be himself but to clear the
    browser's data: he would work, and use attempts, as Ana. "Not you?" forgets her in
    this browser (she comes back with her personal link) and asks Budi's name."""
    made = requests.post(f"{live_server}/api/assignments", timeout=10, json={
        "title": "Lab", "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"}]}).json()
    pg = _page(browser, live_server, viewport={"width": 360, "height": 640}, is_mobile=True,
               has_touch=True)
    pg.goto(f"{made['student']}?lang={lang}")
    pg.fill("#student", "Ana Lee")
    pg.click("[data-form=student] button[type=submit]")
    expect(pg.locator("[data-role=student]")).to_have_text("Ana Lee")
    pg.goto(f"{made['student']}?lang={lang}")                  # the next student, same browser
    expect(pg.locator("[data-role=student]")).to_have_text("Ana Lee")
    asked = []
    pg.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    pg.click("[data-action=not-me]")
    expect(pg.locator("[data-form=student]")).to_be_visible()
    assert pg.is_hidden("[data-role=work]") and pg.input_value("#student") == ""
    assert asked == ["Peramban ini akan melupakan Ana Lee. Ana Lee dapat kembali dengan "
                     "tautan pribadinya."], asked
    assert "#s=" not in pg.get_attribute(".lang-switch a", "href")
    # Budi's phone loses the answer after the server stored his name (w35d): Start again
    # got 409 (name taken), and he was locked out. Now the same device gets him back.
    handled = []

    def lost(route):
        if handled:
            route.continue_()
            return
        handled.append(route.fetch().status)       # the server stores Budi ...
        route.abort()                              # ... and the answer never arrives

    pg.route(f"**/api/assignments/{made['id']}/students", lost)
    pg.fill("#student", "Budi Santoso")
    pg.click("[data-form=student] button[type=submit]")
    expect(pg.locator("#alert")).to_have_text(
        "Tidak ada jawaban dari server: periksa koneksi Anda, lalu tekan Mulai lagi.")
    assert handled == [201] and pg.is_visible("[data-form=student]")
    pg.click("[data-form=student] button[type=submit]")
    expect(pg.locator("[data-role=student]")).to_have_text("Budi Santoso")
    assert pg.is_hidden("#alert")
    pg.errors[:] = [e for e in pg.errors if "ERR_FAILED" not in e]   # the abort we made
    results = requests.get(f"{live_server}/api/assignments/{made['id']}/results", timeout=10,
                           headers={"Authorization": f"Bearer {made['instructor']}"}).json()
    assert sorted(s["student"] for s in results["students"]) == ["Ana Lee", "Budi Santoso"]
    box = pg.locator("[data-action=not-me]").bounding_box()
    assert box["height"] >= 36 and box["x"] + box["width"] <= 360        # a finger's target
    assert not serious(pg)
    assert not pg.errors, pg.errors
    pg.context.close()
