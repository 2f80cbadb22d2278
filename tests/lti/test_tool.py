"""The tool's own side without a platform (Flask's test client): its keys,
its configuration, refusals, and who may frame its pages."""
from __future__ import annotations

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
