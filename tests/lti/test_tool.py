"""The tool's own side without a platform (Flask's test client): its keys,
its configuration, refusals, and who may frame its pages; an LMS that does
not answer (a socket on loopback that never replies), the results database
out of reach, an instructor's key from the LMS that expired."""
from __future__ import annotations

import html
import re

import pytest

REGISTRATION = {"issuer": "https://lms.example", "client_id": "c1", "deployment_ids": ["d1"],
                "auth_login_url": "https://lms.example/auth", "auth_token_url": "https://lms.example/token",
                "key_set_url": "https://lms.example/jwks", "frame_origin": "https://course.example"}


def test_jwks_and_config_name_the_tools_urls(make_app):
    app = make_app(LTI_PLATFORMS=[REGISTRATION])
    client = app.test_client()
    keys = client.get("/lti/jwks").json["keys"]
    assert len(keys) == 1 and keys[0]["kty"] == "RSA" and keys[0]["alg"] == "RS256" and keys[0]["kid"]
    assert "d" not in keys[0]                                  # never the private part
    again = make_app(LTI_PLATFORMS=[REGISTRATION]).test_client().get("/lti/jwks").json
    assert again["keys"][0]["kid"] == keys[0]["kid"]             # the key lasts across restarts
    conf = client.get("/lti/config").json
    assert conf["oidc_initiation_url"].endswith("/lti/login")
    assert conf["target_link_uri"].endswith("/lti/launch") and conf["public_jwk_url"].endswith("/lti/jwks")


def test_refusals_are_pages_that_say_why(make_app):
    client = make_app(LTI_PLATFORMS=[REGISTRATION]).test_client()
    r = client.get("/lti/login?iss=https://evil.example&login_hint=x")
    assert r.status_code == 400 and b"data-lti-refused" in r.data and b"evil.example" in r.data
    r = client.post("/lti/launch", data={"id_token": "a.b.c", "state": "made-up"})
    assert r.status_code == 403 and b"State not found" in r.data
    r = client.post("/lti/deep-link/nope", json={"exercises": [{"tree": "random"}]})
    assert r.status_code == 403 and r.json["error"]["message"]


def test_only_registered_lms_may_frame_the_pages(make_app):
    framed = make_app(LTI_PLATFORMS=[REGISTRATION]).test_client()
    made = framed.post("/api/assignments", json={"exercises": [{"tree": "random"}]}).json
    policy = framed.get(made["student"]).headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://course.example" in policy
    assert "frame-ancestors 'self' https://course.example" in framed.get(
        "/lti/login?iss=x&login_hint=y").headers["Content-Security-Policy"]
    plain = make_app().test_client()
    made = plain.post("/api/assignments", json={"exercises": [{"tree": "random"}]}).json
    assert "frame-ancestors 'self';" in plain.get(made["student"]).headers["Content-Security-Policy"] + ";"


def test_a_launch_while_the_results_database_is_down_is_a_page_that_says_so(make_app, tmp_path):
    """The LMS's browser posts the login and the launch as a page: with the results
    database out of reach it gets a page saying so (503, Retry-After), in the
    reader's language, not a JSON text in the course's frame; the tool's own
    requests (the deep-link page's fetch) keep their JSON."""
    from sqlalchemy import create_engine

    app = make_app(LTI_PLATFORMS=[REGISTRATION])
    db = app.extensions["results_db"]
    db.engine.dispose()
    db.engine = create_engine(f"sqlite:///{tmp_path}/no-such-folder/results.sqlite3")
    client = app.test_client()
    page = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    launch = client.post("/lti/launch", data={"id_token": "a.b.c", "state": "s1"}, headers=page)
    login = client.get("/lti/login?iss=https://lms.example&login_hint=x&client_id=c1"
                       "&target_link_uri=http://localhost/lti/launch", headers=page)
    for r in (launch, login):
        assert r.status_code == 503 and r.headers["Retry-After"] == "5"
        assert r.mimetype == "text/html" and b"data-lti-refused" in r.data
        assert b"results database cannot be reached" in r.data
    said = client.post("/lti/launch", data={"id_token": "a.b.c", "state": "s1"},
                       headers={**page, "Accept-Language": "id"})
    assert said.status_code == 503 and b"data-lti-refused" in said.data
    assert b"results database cannot be reached" not in said.data      # said in Indonesian
    fetch = client.post("/lti/deep-link/x", json={"exercises": [{"tree": "random"}]})
    assert fetch.status_code == 503 and fetch.json["error"]["retry"] is True


def test_an_instructor_key_from_the_lms_that_expired_says_so(make_app):
    """The instructor opened the dashboard from the course yesterday and reloads the tab:
    the key that launch minted has expired (12 hours). It was told "This is not the
    instructor's link of this assignment", which they are; now it says the key expired
    and where to get a fresh one, in the reader's language (also after other launches
    minted keys of their own), and a made-up key is still not the instructor's."""
    from app.classes.codes import token_hash

    app = make_app(LTI_PLATFORMS=[REGISTRATION])
    client = app.test_client()
    made = client.post("/api/assignments", json={"exercises": [{"tree": "random"}]}).json
    lti = app.extensions["lti"].store
    lti.mint_instructor(made["id"], token_hash("yesterdays-key-0123456789"), seconds=-60)
    lti.mint_instructor(made["id"], token_hash("todays-key-0123456789abc"))
    url = f"/api/assignments/{made['id']}/results"
    assert client.get(url, headers={"Authorization": "Bearer todays-key-0123456789abc"}
                      ).status_code == 200
    old = {"Authorization": "Bearer yesterdays-key-0123456789"}
    r = client.get(url, headers=old)
    assert r.status_code == 403 and "expired" in r.json["error"]["message"]
    assert "from your course" in r.json["error"]["message"]
    said = client.get(url, headers={**old, "Accept-Language": "id"}).json["error"]["message"]
    assert said != r.json["error"]["message"] and "kedaluwarsa" in said
    wrong = client.get(url, headers={"Authorization": "Bearer made-up-key-0123456789"})
    assert wrong.status_code == 403 and "expired" not in wrong.json["error"]["message"]


SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


def _silent_lms(make_app, monkeypatch, students: int, **spec):
    """An app whose LMS (its token and key set URLs) accepts connections and never
    answers (overloaded, or behind a firewall that drops), each request to it bounded at
    0.3 s; an assignment with ``students`` from that LMS (each with their line item):
    (client, assignment, tokens, the listening socket)."""
    import socket

    from app.classes.codes import token_hash
    from app.web import lti_roster

    monkeypatch.setattr(lti_roster, "SECONDS", 0.3)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    reg = {**REGISTRATION, "auth_token_url": f"{url}/token", "key_set_url": f"{url}/jwks"}
    app = make_app(LTI_PLATFORMS=[reg])
    client = app.test_client()
    made = client.post("/api/assignments", json={
        "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"}], **spec}).json
    lti = app.extensions["lti"]
    tokens = []
    for i in range(students):
        tokens.append(f"student-token-{i:04d}-abcdef")
        lti.store.student(made["id"], f"lti:{i:032x}", f"Siswa {i}", None, None,
                          token_hash(tokens[-1]), reg["issuer"], reg["client_id"], f"sub-{i}",
                          {"scope": [SCORE_SCOPE], "lineitem": "https://lms.example/items/1"},
                          100)
    return client, made, tokens, silent


def _within(seconds: float, call):
    """``call()``'s answer, or None if it has not come within ``seconds``."""
    import threading

    out = []
    t = threading.Thread(target=lambda: out.append(call()), daemon=True)
    t.start()
    t.join(timeout=seconds)
    return out[0] if out else None


@pytest.mark.slow       # a silent LMS listening on loopback
def test_a_passback_to_an_lms_that_does_not_answer_holds_no_submission(make_app, monkeypatch):
    """The student's submission waited for the LMS's answer with no end (PyLTI1p3's
    requests have no timeout), holding a worker of the server: 200 students at the due
    date hold them all. The wait is bounded now: the submission is stored and answered,
    and the score goes at the next change."""
    client, made, tokens, silent = _silent_lms(make_app, monkeypatch, 1, feedback="submit")
    try:
        r = _within(5, lambda: client.post(
            f"/api/assignments/{made['id']}/me/exercises/0",
            headers={"X-Student-Token": tokens[0]}, json={"answers": {"pruned": ["c2"]}}))
    finally:
        silent.close()
    assert r is not None, "the submission waits for the LMS with no end"
    assert r.status_code == 200 and r.json["score"] == {"right": 1, "total": 2}


@pytest.mark.slow       # a silent LMS listening on loopback
def test_the_dashboard_after_the_due_date_does_not_wait_on_a_silent_lms(make_app, monkeypatch):
    """After the due date of a "scores after the due date" assignment the dashboard sends
    every LMS student's score, one after another: with the LMS silent it waited with no end,
    and bounded per request it would still wait 20 × the bound. It stops at the first
    failure (the others go at the next opening) and answers."""
    client, made, _, silent = _silent_lms(make_app, monkeypatch, 20, feedback="due",
                                          due="2001-01-01T00:00:00Z", late="mark")
    try:
        r = _within(4, lambda: client.get(f"/api/assignments/{made['id']}/results",
                                          headers={"Authorization":
                                                   f"Bearer {made['instructor']}"}))
    finally:
        silent.close()
    assert r is not None, "the dashboard waits for the LMS"
    assert r.status_code == 200 and len(r.json["students"]) == 20


@pytest.mark.slow       # a silent LMS listening on loopback
def test_a_launch_whose_lms_key_set_does_not_answer_is_refused_in_time(make_app, monkeypatch):
    """A launch fetches the LMS's key set (its JWKS) to check the signature: with the LMS
    silent, every launch waited with no end (PyLTI1p3's request has no timeout), each
    holding a worker. Bounded now: the launch is refused with its page, in time."""
    import time
    from urllib.parse import parse_qs, urlsplit

    import jwt

    from tests.lti.platform import rsa_pair

    client, _, _, silent = _silent_lms(make_app, monkeypatch, 0)
    reg = REGISTRATION
    r = client.get("/lti/login", query_string={
        "iss": reg["issuer"], "login_hint": "x", "client_id": reg["client_id"],
        "target_link_uri": "http://localhost/lti/launch"})
    q = parse_qs(urlsplit(r.headers["Location"]).query)
    now = int(time.time())
    token = jwt.encode({
        "iss": reg["issuer"], "aud": reg["client_id"], "sub": "s-1", "nonce": q["nonce"][0],
        "iat": now, "exp": now + 300,
        "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "d1"},
        rsa_pair()[0], algorithm="RS256", headers={"kid": "k1"})
    try:
        r = _within(5, lambda: client.post("/lti/launch", data={"id_token": token,
                                                                "state": q["state"][0]}))
    finally:
        silent.close()
    assert r is not None, "the launch waits for the LMS's key set with no end"
    assert r.status_code == 403 and b"data-lti-refused" in r.data


def test_the_tools_own_reasons_are_said_in_the_readers_language(make_app):
    """A refused login or launch says why in the reader's language, the
    reason too when it is the tool's own (an issuer or client id it does not
    know, a state it never issued, a nonce already spent), never a sentence
    half Indonesian, half English."""
    client = make_app(LTI_PLATFORMS=[REGISTRATION]).test_client()
    indonesian = {"Accept-Language": "id"}
    r = client.get("/lti/login?iss=https://evil.example&login_hint=x", headers=indonesian)
    said = html.unescape(re.search(r"data-lti-refused>([^<]*)<", r.get_data(as_text=True)).group(1))
    assert said == ("LMS ini tidak terdaftar pada alat ini: penerbit 'https://evil.example' "
                    "tidak terdaftar"), said
    r = client.post("/lti/launch", data={"id_token": "a.b.c", "state": "made-up"}, headers=indonesian)
    said = html.unescape(re.search(r"data-lti-refused>([^<]*)<", r.get_data(as_text=True)).group(1))
    assert "state tidak ditemukan" in said and "State not found" not in said, said
    r = client.post("/lti/launch", data={"id_token": "a.b.c", "state": "made-up"})
    assert r.status_code == 403 and b"State not found" in r.data            # English as before


@pytest.mark.slow       # a silent LMS listening on loopback
def test_one_dashboard_load_waits_on_a_silent_lms_once(make_app, monkeypatch):
    """A deep-linked assignment past its due date: one dashboard load asked the LMS three
    times in a row (the course's member list, the untried students' zeros, the due scores),
    each waiting the whole bound on a silent LMS, so the instructor saw nothing for three
    bounds (30 s). Now the first request to that LMS that gets no answer skips the others
    of the same load (the scores stay due, sent at the next opening), and the results say
    the LMS did not answer, in the reader's language."""
    import socket
    import threading

    from app.web.lti_roster import remember_course

    client, made, _, silent = _silent_lms(make_app, monkeypatch, 3, feedback="due",
                                          due="2001-01-01T00:00:00Z", late="mark")
    port = silent.getsockname()[1]
    with client.application.app_context():     # the course's member list is on the same LMS
        remember_course(made["id"], {"iss": REGISTRATION["issuer"], NRPS: {
            "context_memberships_url": f"http://127.0.0.1:{port}/members"}}, "c1",
            (REGISTRATION["issuer"], "d1", "course-1"))
    held, stop = [], threading.Event()        # each connection the LMS got, never answered

    def accept():
        silent.settimeout(0.05)
        while not stop.is_set():
            try:
                held.append(silent.accept()[0])
            except socket.timeout:
                continue
    watcher = threading.Thread(target=accept, daemon=True)
    watcher.start()
    url = f"/api/assignments/{made['id']}/results"
    key = {"Authorization": f"Bearer {made['instructor']}"}
    try:
        r = _within(4, lambda: client.get(url, headers=key))
        asked = len(held)
        again = _within(4, lambda: client.get(url, headers={**key, "Accept-Language": "id"}))
    finally:
        stop.set()
        watcher.join()
        for c in held:
            c.close()
        silent.close()
    assert r is not None and r.status_code == 200 and len(r.json["students"]) == 3
    assert asked == 1, f"one dashboard load asked the silent LMS {asked} times"
    said = r.json["lms_silent"]
    assert said["issuers"] == [REGISTRATION["issuer"]]
    assert "did not answer" in said["message"] and "next time" in said["message"]
    assert again is not None and again.json["lms_silent"]["message"] != said["message"]
    assert "tidak menjawab" in again.json["lms_silent"]["message"]
    assert r.json["course"]["error"]           # the member list's own failure, said as before


def test_the_results_say_nothing_of_an_lms_that_was_not_asked(make_app):
    """No LMS asked (none registered, or nothing due): the new field is there, null."""
    client = make_app(LTI_PLATFORMS=[REGISTRATION]).test_client()
    made = client.post("/api/assignments", json={"exercises": [{"tree": "random"}]}).json
    r = client.get(f"/api/assignments/{made['id']}/results",
                   headers={"Authorization": f"Bearer {made['instructor']}"})
    assert r.status_code == 200 and r.json["lms_silent"] is None


NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
