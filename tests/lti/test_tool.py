"""The tool's own side without a platform (Flask's test client): its keys,
its configuration, refusals, and who may frame its pages."""
from __future__ import annotations

import html
import re

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
