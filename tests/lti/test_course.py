"""Issue 25: a course no one can game, against the third-party platform
(lti1p3platform on loopback, tests/lti/platform.py).

- (1) an assignment made by deep linking is bound to its platform, deployment
  and course: a link in another course naming its id reaches nothing, and no
  instructor key is minted there;
- (2) the dashboard needs the course role (membership#Instructor or
  #ContentDeveloper, or the platform's administrator), never an institution
  role alone;
- (6) an assignment its instructor links into a second course has a line item
  there too: each course's gradebook keeps its own scores.
"""
from __future__ import annotations

import re

import pytest
import requests
from sqlalchemy import func, select

from app.db.schema import instructor_tokens
from tests.lti.test_launch import _deep_link, _post_form

pytestmark = pytest.mark.slow       # two servers on loopback


def _landing(lms, session, user, role, link):
    """Where the tool sends the user after a launch: (status, target or None, page)."""
    page = session.get(f"{lms.url}/start", params={"user": user, "role": role,
                                                   "kind": "resource", "link": link}, timeout=20)
    landed = _post_form(session, page.text)
    found = re.search(r'name="lti-go" content="([^"]+)"', landed.text)
    return landed.status_code, found.group(1) if found else None, landed.text


def _keys(lms) -> int:
    with lms.app.extensions["results_db"].read() as c:
        return c.execute(select(func.count()).select_from(instructor_tokens)).scalar()


def test_another_courses_link_to_an_assignment_reaches_nothing(lms):
    s = requests.Session()
    link = _deep_link(lms, s, "Course 1 homework")
    aid = lms.links[link]["custom"]["assignment"]
    # Course 2's instructor types the id (students see it in /a/<id>) into a link.
    lms.links.append({**lms.links[link], "context": "course-2", "title": "Copied"})
    copied = len(lms.links) - 1
    before = _keys(lms)
    status, target, page = _landing(lms, s, "prof-b", "instructor", copied)
    assert target is None and status in (403, 404) and "data-lti-refused" in page
    assert _keys(lms) == before                        # no instructor key minted
    status, target, page = _landing(lms, s, "stu-b", "student", copied)
    assert target is None and status in (403, 404)
    # From its own course the assignment opens, as before.
    _, target, _ = _landing(lms, s, "prof-a", "instructor", link)
    assert target.startswith(f"/a/{aid}/dashboard#")


@pytest.mark.parametrize("roles", ["student+inst-instructor", "student+inst-staff",
                                   "student+inst-faculty", "inst-staff"])
def test_an_institution_role_alone_opens_no_dashboard(lms, roles):
    s = requests.Session()
    link = _deep_link(lms, s, "Roles")
    aid = lms.links[link]["custom"]["assignment"]
    before = _keys(lms)
    status, target, _ = _landing(lms, s, "stu-staff", roles, link)
    assert "dashboard" not in (target or "") and _keys(lms) == before
    if roles.startswith("student"):
        assert target.startswith(f"/a/{aid}#s=")       # a Learner: the student's page
    # Nor may such a user add the tool as an instructor.
    page = s.get(f"{lms.url}/start", params={"user": "stu-staff", "role": roles,
                                             "kind": "deeplink"}, timeout=20)
    tool_page = _post_form(s, page.text)
    assert tool_page.status_code == 403 and "data-deep-link" not in tool_page.text


@pytest.mark.parametrize("roles", ["designer", "admin", "instructor+inst-staff"])
def test_the_course_role_or_the_platforms_administrator_opens_the_dashboard(lms, roles):
    s = requests.Session()
    link = _deep_link(lms, s, "Roles 2")
    aid = lms.links[link]["custom"]["assignment"]
    _, target, _ = _landing(lms, s, "someone", roles, link)
    assert target.startswith(f"/a/{aid}/dashboard#")
    key = target.split("#")[1]
    r = s.get(f"{lms.tool_url}/api/assignments/{aid}/results",
              headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 200


def test_an_assignment_linked_into_two_courses_keeps_each_courses_scores(lms):
    s = requests.Session()
    first = _deep_link(lms, s, "Shared homework")
    aid = lms.links[first]["custom"]["assignment"]
    _, target, _ = _landing(lms, s, "prof-a", "instructor", first)
    dashboard = target
    # Course 2's instructor links the same assignment, proving it with its instructor link.
    page = s.get(f"{lms.url}/start", params={"user": "prof-a", "role": "instructor",
                                             "kind": "deeplink", "context": "course-2"}, timeout=20)
    launch_id = re.search(r'data-deep-link="([^"]+)"',
                          _post_form(s, page.text).text).group(1)
    made = s.post(f"{lms.tool_url}/lti/deep-link/{launch_id}", json={"link": dashboard},
                  timeout=20)
    assert made.status_code == 201, made.text
    back = s.post(made.json()["return_url"], data={"JWT": made.json()["jwt"]}, timeout=20)
    second = int(re.search(r'data-linked="(\d+)"', back.text).group(1))
    assert lms.links[second]["context"] == "course-2"
    assert lms.links[second]["custom"]["assignment"] == aid
    # A forged proof links nothing.
    again = s.post(f"{lms.tool_url}/lti/deep-link/{launch_id}",
                   json={"link": f"/a/{aid}/dashboard#not-the-key"}, timeout=20)
    assert again.status_code == 403
    # One student in both courses: each course's line item gets the score.
    url = f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0"
    _, t1, _ = _landing(lms, s, "stu-x", "student", first)
    s.post(url, headers={"X-Student-Token": t1.split("#s=")[1]},
           json={"answers": {"pruned": ["c2"]}})
    assert lms.gradebook[str(first)]["stu-x"]["scoreGiven"] == 50
    _, t2, _ = _landing(lms, s, "stu-x", "student", second)
    r = s.post(url, headers={"X-Student-Token": t2.split("#s=")[1]},
               json={"answers": {"pruned": ["c2", "c3"]}})
    assert r.json()["attempt"] == 2                     # one student: one set of attempts
    assert lms.gradebook[str(second)]["stu-x"]["scoreGiven"] == 100
    assert lms.gradebook[str(first)]["stu-x"]["scoreGiven"] == 100    # not left behind
    # A student only in course 2 has a score there, and none in course 1.
    _, t3, _ = _landing(lms, s, "stu-y", "student", second)
    s.post(url, headers={"X-Student-Token": t3.split("#s=")[1]},
           json={"answers": {"pruned": ["c2"]}})
    assert lms.gradebook[str(second)]["stu-y"]["scoreGiven"] == 50
    assert "stu-y" not in lms.gradebook[str(first)]
