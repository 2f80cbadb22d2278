"""The roster from the course (issue 27 point 3) against the third-party
platform (tests/lti/platform.py: lti1p3platform's Names and Role Provisioning
Services, its access token check included): an assignment made by deep
linking lists every learner of the course on its dashboard, those who never
opened it too; after the due date each of them gets 0 in the LMS gradebook,
and a later launch is the same student, not a second one."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import requests
from sqlalchemy import func, select

from app.db.schema import students
from tests.lti.platform import ROLES
from tests.lti.test_launch import _deep_link, _launch, _post_form

pytestmark = pytest.mark.slow       # two servers on loopback
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

MEMBERS = [
    {"user_id": "teacher", "roles": [ROLES["instructor"]], "name": "User teacher"},
    {"user_id": "stu-a", "roles": [ROLES["student"]], "name": "Ana Lee",
     "email": "ana@course.example", "lis_person_sourcedid": "S-A"},
    {"user_id": "stu-b", "roles": [ROLES["student"]], "name": "Budi Santoso",
     "email": "budi@course.example", "lis_person_sourcedid": "S-B"},
    {"user_id": "stu-c", "roles": [ROLES["student"]], "given_name": "Citra", "family_name": "Dewi"},
    {"user_id": "stu-gone", "roles": [ROLES["student"]], "name": "Dropped", "status": "Inactive"},
]


def _count(lms) -> int:
    with lms.app.extensions["results_db"].read() as c:
        return c.execute(select(func.count()).select_from(students)).scalar()


def _dashboard(lms, s, link):
    key = _launch(lms, s, "teacher", role="instructor", link=link).split("#")[1]
    aid = lms.links[link]["custom"]["assignment"]
    return aid, key, s.get(f"{lms.tool_url}/api/assignments/{aid}/results",
                           headers={"Authorization": f"Bearer {key}"}, timeout=30).json()


def _iso(seconds_from_now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + seconds_from_now))


def test_the_course_members_are_listed_and_the_untried_get_0_after_the_due_date(lms):
    lms.members[:] = MEMBERS
    s = requests.Session()
    link = _deep_link(lms, s, title="Past due", due=_iso(-60), late="mark")
    target = _launch(lms, s, "stu-a", link=link)       # one learner opens it (and tries)
    aid, token = re.fullmatch(r"/a/([^#]+)#s=(.+)", target).groups()
    s.post(f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0",
           headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2"]}}, timeout=30)
    before = _count(lms)
    aid, key, results = _dashboard(lms, s, link)
    names = sorted(r["student"] for r in results["students"])
    # Ana as her launch named her; no teacher, no one inactive.
    assert names == ["Budi Santoso", "Citra Dewi", "User stu-a"]
    assert results["course"]["members"] == 3 and results["course"]["error"] is None
    assert _count(lms) == before + 2
    budi = next(r for r in results["students"] if r["student"] == "Budi Santoso")
    assert budi["sis_id"] == "S-B" and budi["exercises"][0]["attempts"] == 0
    # Past the due date: the ones who never tried have 0 in the LMS; Ana her own score.
    book = lms.gradebook[str(link)]
    assert book["stu-b"]["scoreGiven"] == 0 and book["stu-c"]["scoreGiven"] == 0
    assert book["stu-a"]["scoreGiven"] == 50
    # Budi's ID number came with the member list: his grade file row is there. Citra's
    # LMS gives none, nor did Ana's launch: left out, and said.
    gone = results["exports"]["moodle"]["left_out"]
    assert sorted(g["student"] for g in gone) == ["Citra Dewi", "User stu-a"]
    # Budi opens it at last: the same student (no second row), with a link of his own,
    # and his late work (the late policy marks it) replaces the 0.
    late = _launch(lms, s, "stu-b", link=link)
    assert _count(lms) == before + 2
    aid_b, token_b = re.fullmatch(r"/a/([^#]+)#s=(.+)", late).groups()
    r = s.post(f"{lms.tool_url}/api/assignments/{aid_b}/me/exercises/0",
               headers={"X-Student-Token": token_b},
               json={"answers": {"pruned": ["c2", "c3"]}}, timeout=30)
    assert r.json()["late"] is True
    assert lms.gradebook[str(link)]["stu-b"]["scoreGiven"] == 100
    _, _, after = _dashboard(lms, s, link)      # his launch kept the ID number the list gave
    assert next(r for r in after["students"] if r["student"] == "User stu-b")["sis_id"] == "S-B"


def test_before_the_due_date_members_are_listed_and_nothing_is_sent(lms):
    lms.members[:] = MEMBERS
    s = requests.Session()
    link = _deep_link(lms, s, title="Due later", due=_iso(3600))
    _launch(lms, s, "stu-a", link=link)
    _, _, results = _dashboard(lms, s, link)
    assert len(results["students"]) == 3
    assert str(link) not in lms.gradebook or "stu-b" not in lms.gradebook[str(link)]
    # The LMS's member list down: said on the dashboard, the students already known kept.
    lms.members[:] = [{"roles": ["Learner"]}]            # no user_id: the platform answers 400
    lms.app.extensions["lti_courses"].fetched(
        lms.links[link]["custom"]["assignment"], 3, None)
    with lms.app.extensions["results_db"].write() as c:
        from app.db.schema import lti_courses
        c.execute(lti_courses.update().values(fetched=0.0))
    _, _, again = _dashboard(lms, s, link)
    assert len(again["students"]) == 3 and again["course"]["error"]


def _second_course(lms, s, dashboard: str, context: str = "course-2") -> int:
    """The instructor links the assignment into another course of the same LMS (its
    dashboard link the proof, as test_course.py does); the new link's index."""
    page = s.get(f"{lms.url}/start", params={"user": "teacher", "role": "instructor",
                                             "kind": "deeplink", "context": context}, timeout=20)
    launch_id = re.search(r'data-deep-link="([^"]+)"', _post_form(s, page.text).text).group(1)
    made = s.post(f"{lms.tool_url}/lti/deep-link/{launch_id}", json={"link": dashboard},
                  timeout=20)
    assert made.status_code == 201, made.text
    back = s.post(made.json()["return_url"], data={"JWT": made.json()["jwt"]}, timeout=20)
    return int(re.search(r'data-linked="(\d+)"', back.text).group(1))


HOSTILE = '<img src=x onerror="document.title=1">Game & "search" </b>\u202e1'
"""A course title as an LMS may give it (any text: markup, a direction override)."""
WAITING = ("2 members of {course} will get their scores in that course's gradebook once you "
           "(or anyone in it) open this assignment from that course.")


@pytest.mark.browser
def test_the_untried_of_one_course_get_their_0_in_their_own_courses_gradebook_only(
        lms, browser, monkeypatch):
    """Issue 25/27: an assignment deep-linked in course 1 (whose member list the dashboard
    reads) and linked into course 2 of the same LMS: each course has its own line item,
    and a member of course 1 who never launched gets course 1's, never course 2's, even
    when only course 2 has shown one yet. Until a launch from course 1 shows its line
    item, the dashboard says how many of its members wait for one (issue 30's round):
    course 1 named by its title, shown as text; never course 2 (its launches gave it its
    line item), nor a course of another assignment."""
    monkeypatch.setitem(lms.titles, "course-1", HOSTILE)
    lms.members[:] = [MEMBERS[0],
                      {"user_id": "stu-1", "roles": [ROLES["student"]], "name": "Never Came"},
                      {"user_id": "stu-12", "roles": [ROLES["student"]], "name": "Both Courses"}]
    s = requests.Session()
    page = s.get(f"{lms.url}/start", params={"user": "teacher", "role": "instructor",
                                             "kind": "deeplink"}, timeout=20)
    launch_id = re.search(r'data-deep-link="([^"]+)"', _post_form(s, page.text).text).group(1)
    made = s.post(f"{lms.tool_url}/lti/deep-link/{launch_id}", timeout=20, json={
        "title": "Two courses", "attempts": 2, "due": _iso(-60), "late": "mark",
        "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"}]}).json()
    first = int(re.search(r'data-linked="(\d+)"', s.post(
        made["return_url"], data={"JWT": made["jwt"]}, timeout=20).text).group(1))
    aid, key = re.fullmatch(r"/a/([^/]+)/dashboard#(.+)", made["dashboard"]).groups()
    second = _second_course(lms, s, made["dashboard"])
    assert lms.links[first]["context"] == "course-1" and lms.links[second]["context"] == "course-2"
    # Course 2 shows its line item first: someone of course 2 only, and a member of
    # course 1 who opens it from course 2.
    _launch(lms, s, "stu-2", link=second)
    _launch(lms, s, "stu-12", link=second)

    def results(lang="en"):
        r = s.get(f"{lms.tool_url}/api/assignments/{aid}/results",
                  headers={"Authorization": f"Bearer {key}", "X-Page-Lang": lang}, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    books = lms.gradebook
    # Past the due date, course 1's line item not known yet: Never Came is listed, and gets
    # no score anywhere (course 2's gradebook is not theirs).
    listed = results()
    assert "Never Came" in {r["student"] for r in listed["students"]}
    assert "stu-1" not in books.get(str(second), {}) and "stu-1" not in books.get(str(first), {})
    # Course 2's own untried get their 0 there, and nowhere else.
    assert books[str(second)]["stu-2"]["scoreGiven"] == 0
    assert books[str(second)]["stu-12"]["scoreGiven"] == 0
    assert not books.get(str(first))
    # The dashboard says so: course 1's two members wait for a launch from course 1.
    assert listed["course"]["waiting"] == [{"context_id": "course-1", "title": HOSTILE,
                                            "members": 2,
                                            "message": WAITING.format(course=f"\u2068{HOSTILE}\u2069")}]
    said = results("id")["course"]["waiting"][0]["message"]
    assert said.startswith(f"2 anggota \u2068{HOSTILE}\u2069 akan mendapat nilai mereka di buku nilai")
    _waiting_on_a_phone(browser, f"{lms.tool_url}/a/{aid}/dashboard?lang=id#{key}")
    # The instructor opens the dashboard from course 1: its line item is known now, and
    # the next read of the members gives it to course 1's members.
    _dashboard(lms, s, first)
    assert results()["course"]["waiting"] == []         # nothing waits any more
    assert books[str(first)]["stu-1"]["scoreGiven"] == 0
    assert books[str(first)]["stu-12"]["scoreGiven"] == 0     # a member of course 1 too
    assert "stu-1" not in books[str(second)]
    assert "stu-2" not in books[str(first)]                     # not a member of course 1
    # Never Came's late work later (from course 1) replaces the 0 there, only there.
    target = _launch(lms, s, "stu-1", link=first)
    token = target.split("#s=")[1]
    r = s.post(f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0",
               headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2", "c3"]}},
               timeout=30)
    assert r.json()["late"] is True
    assert books[str(first)]["stu-1"]["scoreGiven"] == 100
    assert "stu-1" not in books[str(second)]
    # Both Courses' work reaches both gradebooks.
    token = _launch(lms, s, "stu-12", link=second).split("#s=")[1]
    s.post(f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0",
           headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2"]}}, timeout=30)
    assert books[str(first)]["stu-12"]["scoreGiven"] == 50
    assert books[str(second)]["stu-12"]["scoreGiven"] == 50


def _waiting_on_a_phone(browser, dashboard: str) -> None:
    """The dashboard at 360x640 in Indonesian: the notice names the course as text (no
    markup of the LMS's made into elements), and nothing runs past the screen."""
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                              has_touch=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(dashboard)
    pg.wait_for_selector("#dashboard.ready")
    notice = pg.locator("[data-role=course-waiting] p")
    expect(notice).to_have_count(1)
    assert notice.get_attribute("data-course") == "course-1"
    assert notice.locator("bdi").text_content() == HOSTILE
    assert notice.text_content().startswith(f"2 anggota {HOSTILE} akan mendapat nilai mereka")
    assert pg.locator("[data-role=course-waiting] :is(img, b)").count() == 0
    assert pg.title() != "1"                            # the title's onerror never ran
    box = notice.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    ARTIFACTS.mkdir(exist_ok=True)
    notice.screenshot(path=str(ARTIFACTS / "lti-course-waiting-phone.png"))
    assert not errors, errors
    ctx.close()
