"""LTI 1.3 against a real third-party platform (lti1p3platform) on loopback,
over HTTP as the browser would post it: deep linking, a student's launch,
the score in the platform's gradebook, and every forged launch refused with
a clear page and nothing stored."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from sqlalchemy import func, select

from app.db.schema import lti_nonces, students
from tests.lti.platform import rsa_pair, signed_launch

pytestmark = pytest.mark.slow       # two servers on loopback


def _post_form(session, page: str):
    """Submit the auto-posting form of ``page`` (what its script does)."""
    action = html.unescape(re.search(r'action="([^"]+)"', page).group(1))
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', page)}
    return session.post(action, data=fields, timeout=20)


def _deep_link(lms, session, title="LTI homework", **spec) -> int:
    page = session.get(f"{lms.url}/start", params={"user": "teacher", "role": "instructor",
                                                   "kind": "deeplink"}, timeout=20)
    tool_page = _post_form(session, page.text)
    launch_id = re.search(r'data-deep-link="([^"]+)"', tool_page.text).group(1)
    made = session.post(f"{lms.tool_url}/lti/deep-link/{launch_id}", timeout=20, json={
        "title": title, "attempts": 2, "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"}],
        **spec})
    assert made.status_code == 201, made.text
    back = session.post(made.json()["return_url"], data={"JWT": made.json()["jwt"]}, timeout=20)
    return int(re.search(r'data-linked="(\d+)"', back.text).group(1))


def _launch(lms, session, user, role="student", link=0):
    page = session.get(f"{lms.url}/start", params={"user": user, "role": role,
                                                   "kind": "resource", "link": link}, timeout=20)
    landed = _post_form(session, page.text)
    return re.search(r'name="lti-go" content="([^"]+)"', landed.text).group(1)


def _counts(lms) -> tuple[int, int]:
    db = lms.app.extensions["results_db"]
    with db.read() as c:
        return (c.execute(select(func.count()).select_from(students)).scalar(),
                c.execute(select(func.count()).select_from(lti_nonces)).scalar())


def test_deep_link_launch_solve_and_the_score_arrives_in_the_gradebook(lms):
    s = requests.Session()
    link = _deep_link(lms, s)
    item = lms.links[link]
    assert item["type"] == "ltiResourceLink" and item["lineItem"]["scoreMaximum"] == 100
    target = _launch(lms, s, "stu-1", link=link)
    aid, token = re.fullmatch(r"/a/([^#]+)#s=(.+)", target).groups()
    assert aid == item["custom"]["assignment"]
    me = s.get(f"{lms.tool_url}/api/assignments/{aid}/me", headers={"X-Student-Token": token}).json()
    assert me["student"] == "User stu-1"
    url = f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0"
    r = s.post(url, headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2"]}})
    assert r.json()["score"] == {"right": 1, "total": 2}
    score = lms.gradebook[str(link)]["stu-1"]
    assert score["scoreGiven"] == 50 and score["scoreMaximum"] == 100
    assert score["gradingProgress"] == "FullyGraded" and score["activityProgress"] == "Submitted"
    s.post(url, headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2", "c3"]}})
    assert lms.gradebook[str(link)]["stu-1"]["scoreGiven"] == 100      # again, on change
    # the instructor's launch opens the dashboard with a key of its own
    dash = _launch(lms, s, "teacher", role="instructor", link=link)
    key = dash.split("#")[1]
    results = s.get(f"{lms.tool_url}/api/assignments/{aid}/results",
                    headers={"Authorization": f"Bearer {key}"}).json()
    assert results["students"][0]["percent"] == 100
    # the pages may be framed by the LMS, and by no one else
    page = s.get(f"{lms.tool_url}{target.split('#')[0]}")
    assert f"frame-ancestors 'self' {lms.url}" in page.headers["Content-Security-Policy"]


def test_no_score_reaches_the_lms_before_a_due_date_feedback_allows(lms):
    s = requests.Session()
    link = _deep_link(lms, s, "Due later", feedback="due", due="2999-01-01T00:00:00Z")
    aid, token = re.fullmatch(r"/a/([^#]+)#s=(.+)", _launch(lms, s, "stu-2", link=link)).groups()
    r = s.post(f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0",
               headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2", "c3"]}})
    assert r.json() == {"received": True, "attempt": 1, "attempts_left": 1, "late": False}
    assert str(link) not in lms.gradebook


def test_a_roster_only_assignment_refuses_a_launch_with_its_reason(lms):
    s = requests.Session()
    link = _deep_link(lms, s, "Roster only", identities="roster")
    before = _counts(lms)[0]
    page = s.get(f"{lms.url}/start", params={"user": "stu-3", "role": "student",
                                             "kind": "resource", "link": link}, timeout=20)
    landed = _post_form(s, page.text)
    assert landed.status_code == 403 and 'name="lti-go"' not in landed.text
    assert "personal link your instructor sent you" in html.unescape(landed.text)
    assert _counts(lms)[0] == before       # no student made


def test_a_student_on_two_devices_keeps_working_on_both(lms):
    """A student opens the assignment from the course on the lab's computer, then from the
    LMS's app on their phone, and goes back to the computer's tab to submit: the phone's
    launch had made a new personal token, and the computer's was refused (401 "Give your
    name first, or open your personal link", said to a student of the LMS). Every launch of
    one student gives the same token now: both devices work; another student's differs."""
    s = requests.Session()
    link = _deep_link(lms, s, "Two devices")
    aid, lab = re.fullmatch(r"/a/([^#]+)#s=(.+)", _launch(lms, s, "stu-4", link=link)).groups()
    phone = _launch(lms, requests.Session(), "stu-4", link=link).split("#s=")[1]
    url = f"{lms.tool_url}/api/assignments/{aid}/me/exercises/0"
    for token in (lab, phone):
        r = s.post(url, headers={"X-Student-Token": token}, json={"answers": {"pruned": ["c2"]}})
        assert r.status_code == 200, r.text
    assert _launch(lms, s, "stu-5", link=link).split("#s=")[1] not in (lab, phone)


def _state_and_nonce(lms, session) -> tuple[str, str]:
    """A real OIDC login at the tool: the state and nonce it issued."""
    r = session.get(f"{lms.tool_url}/lti/login", allow_redirects=False, timeout=20, params={
        "iss": lms.url, "login_hint": "mallory", "target_link_uri": f"{lms.tool_url}/lti/launch",
        "lti_message_hint": "resource:student:0", "client_id": "advsearch-tool"})
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    return q["state"][0], q["nonce"][0]


@pytest.mark.parametrize("forgery, reason", [
    ("replayed nonce", "Nonce already used"),
    ("wrong audience", "audience) 'another-tool' is not registered"),
    ("expired token", "Signature has expired"),
    ("forged signature", "Signature verification failed"),
    ("unknown deployment", "Unable to find deployment"),
])
def test_a_forged_launch_is_refused_with_a_clear_page_and_nothing_stored(lms, forgery, reason):
    s = requests.Session()
    if not lms.links:
        _deep_link(lms, s)
    state, nonce = _state_and_nonce(lms, s)
    claims, key, expiration = {}, None, 300
    if forgery == "wrong audience":
        claims = {"aud": "another-tool", "azp": "another-tool"}
    elif forgery == "expired token":
        expiration = -120
    elif forgery == "forged signature":
        key = rsa_pair()[0]                          # same kid, another key
    elif forgery == "unknown deployment":
        claims = {"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "not-registered"}
    token = signed_launch(lms, state, nonce, claims=claims, key=key, expiration=expiration)
    if forgery == "replayed nonce":
        first = s.post(f"{lms.tool_url}/lti/launch", data={"id_token": token, "state": state})
        assert first.status_code == 200 and "lti-go" in first.text
    before = _counts(lms)
    r = s.post(f"{lms.tool_url}/lti/launch", data={"id_token": token, "state": state})
    assert r.status_code == 403
    message = re.search(r"data-lti-refused>([^<]*)<", r.text).group(1)
    assert "refused" in message and reason in html.unescape(message)
    assert _counts(lms) == before


@pytest.mark.parametrize("header, body", [({"alg": "RS256", "kid": "nope"}, [1, 2]),
                                          ({"alg": "RS256", "kid": "nope"}, "text"),
                                          ([], {}), ("x", {"iss": "x"})])
def test_a_token_whose_parts_are_no_json_objects_is_refused_not_a_500(lms, header, body):
    """A student who starts a login (the issuer and client id are no secret) holds
    a state; a token whose body was a JSON list then reached PyLTI1p3's
    ``body.get("nonce")``: an AttributeError, a 500 (w35b)."""
    import base64
    import json

    def part(value) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    s = requests.Session()
    state, _ = _state_and_nonce(lms, s)
    before = _counts(lms)
    r = s.post(f"{lms.tool_url}/lti/launch", timeout=20,
               data={"id_token": f"{part(header)}.{part(body)}.c2ln", "state": state})
    assert r.status_code == 403 and "data-lti-refused" in r.text, (r.status_code, r.text[:200])
    assert _counts(lms) == before
