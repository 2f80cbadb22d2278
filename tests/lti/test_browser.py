"""LTI 1.3 in the real browser, framed by a third-party platform's course
page (lti1p3platform on loopback, another site than the tool's): the
instructor deep-links a new assignment, a student launches it, solves it,
and the score arrives in the platform's gradebook."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_instructor_deep_links_student_solves_score_in_the_gradebook(browser, lms):
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda m: errors.append(m.text)
          if m.type == "error" and "favicon" not in m.text and "404" not in m.text else None)
    pg.goto(f"{lms.url}/course?user=prof&role=instructor&kind=deeplink")
    tool = pg.frame_locator("#tool")
    tool.locator("[data-form=new-assignment][data-deep-link]").wait_for()
    tool.locator("[name=title]").fill("Week 6 (LMS)")
    tool.locator(".exercise-row [name=tree]").select_option("aima-fig-5-2")
    tool.locator(".exercise-row [name=mode]").select_option("cuts")
    tool.locator("[data-form=new-assignment] button[type=submit]").click()
    linked = tool.locator("[data-linked]")
    linked.wait_for()
    link = linked.get_attribute("data-linked")
    assert lms.links[int(link)]["title"] == "Week 6 (LMS)"

    pg.goto(f"{lms.url}/course?user=stu-b&role=student&kind=resource&link={link}")
    tool.locator("[data-exercise='0'] a").wait_for()
    assert tool.locator("[data-role=student]").text_content() == "User stu-b"
    assert tool.locator("[data-form=student]").is_hidden()       # the LMS said who it is
    tool.locator("[data-exercise='0'] a").click()
    tool.locator("#practice.ready").wait_for()
    for child in ("c2", "c3"):
        tool.locator(f'[data-cut="{child}"]').focus()
        pg.keyboard.press("Enter")
    tool.locator("[data-action=check]").click()
    expect(tool.locator("[data-score]")).to_have_text("2 / 2")
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "lti-framed-exercise.png"))
    assert lms.gradebook[link]["stu-b"]["scoreGiven"] == 100
    # In Bahasa Indonesia, still the same student (the token rides along in the address).
    tool.locator(".lang-switch [data-lang=id]").click()
    expect(tool.locator("[data-role=assignment-status]")).to_contain_text("Sisa percobaan: 2")
    assert not errors, errors
    ctx.close()


def test_an_instructor_links_the_assignment_into_another_course_on_a_phone(browser, lms):
    """Issue 25 (1, 6): the deep-link page's second form links an assignment made in
    one course into another, proven by its dashboard link; in Indonesian, at 390x844."""
    import requests

    from tests.lti.test_launch import _deep_link, _launch

    s = requests.Session()
    first = _deep_link(lms, s, "Made in course 1")
    dashboard = f"{lms.tool_url}{_launch(lms, s, 'prof', role='instructor', link=first)}"
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, locale="id-ID")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(f"{lms.url}/course?user=prof&role=instructor&kind=deeplink&context=course-2")
    tool = pg.frame_locator("#tool")
    form = tool.locator("[data-form=link-existing]")
    expect(form.locator("button")).to_have_text("Tautkan ke mata kuliah ini")
    form.locator("[name=link]").fill("https://elsewhere.example/a/x/dashboard#nope")
    form.locator("button").click()
    expect(tool.locator("#alert")).to_have_text("Ini bukan tautan pengajar sebuah tugas.")
    form.locator("[name=link]").fill(dashboard)
    form.locator("button").click()
    linked = tool.locator("[data-linked]")
    linked.wait_for()
    item = lms.links[int(linked.get_attribute("data-linked"))]
    assert item["context"] == "course-2"
    assert item["custom"]["assignment"] == lms.links[first]["custom"]["assignment"]
    assert not errors, errors
    ctx.close()
