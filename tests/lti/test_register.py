"""LTI Dynamic Registration (contract §7b, issue 27 point 1) over HTTP, against
a small platform written in these tests from the IMS specification
(tests/lti/spec_platform.py): the third-party platform of tests/lti/platform.py
does not do Dynamic Registration."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from app.web import create_app
from tests.lti.spec_platform import TOOL_CONFIGURATION, SpecPlatform

pytestmark = pytest.mark.slow       # the platform listens on loopback

KEY = "reg-" + "k" * 28
AGS = ("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
       "https://purl.imsglobal.org/spec/lti-ags/scope/score")


@pytest.fixture
def platform():
    p = SpecPlatform()
    yield p
    p.close()


@pytest.fixture
def tool(make_app):
    return make_app(LTI_REGISTRATION_KEY=KEY)


def _register(client, platform, key=KEY, config=None, token=None):
    return client.get(f"/lti/register/{key}", query_string={
        "openid_configuration": config or platform.config_url,
        "registration_token": token or platform.token})


def _login(client, platform, client_id=None):
    return client.get("/lti/login", query_string={
        "iss": platform.issuer, "client_id": client_id or platform.client_id,
        "login_hint": "u1", "target_link_uri": "http://localhost/lti/launch",
        "lti_message_hint": "m"})


def test_the_key_is_checked_before_anything_is_fetched(make_app, platform, monkeypatch):
    monkeypatch.delenv("LTI_REGISTRATION_KEY", raising=False)
    off = make_app().test_client()
    assert _register(off, platform).status_code == 404
    on = make_app(LTI_REGISTRATION_KEY=KEY).test_client()
    wrong = _register(on, platform, key="not-the-key")
    assert wrong.status_code == 403 and b"data-lti-refused" in wrong.data
    assert platform.requests == []                         # nothing fetched
    monkeypatch.setenv("LTI_REGISTRATION_KEY", "from-the-environment")
    assert _register(on, platform).status_code == 403
    assert platform.requests == []
    # Guessing is slow: past 10 wrong keys an hour from one address, every try waits.
    statuses = [_register(on, platform, key=f"guess-{n}").status_code for n in range(10)]
    assert statuses[-1] == 429 and set(statuses[:8]) == {403}
    refused = _register(on, platform, key="from-the-environment")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert platform.requests == []


def test_one_paste_registers_the_tool_and_a_login_reaches_the_platform(tool, platform):
    client = tool.test_client()
    # Before: the platform is unknown to the tool.
    assert _login(client, platform).status_code == 400
    page = _register(client, platform)
    assert page.status_code == 200, page.data.decode()[:500]
    assert b"lti-close.js" in page.data and platform.issuer.encode() in page.data
    assert "frame-ancestors 'self' " + platform.url in page.headers["Content-Security-Policy"]
    # What the tool asked for (contract §7b), with the registration token.
    (body,) = platform.registrations
    assert body["redirect_uris"] == ["http://localhost/lti/launch"]
    assert body["initiate_login_uri"] == "http://localhost/lti/login"
    assert body["jwks_uri"] == "http://localhost/lti/jwks"
    assert body["token_endpoint_auth_method"] == "private_key_jwt"
    assert set(body["grant_types"]) == {"implicit", "client_credentials"}
    assert body["response_types"] == ["id_token"]
    assert set(AGS) <= set(body["scope"].split())
    conf = body[TOOL_CONFIGURATION]
    assert conf["domain"] == "localhost" and conf["target_link_uri"] == "http://localhost/lti/launch"
    assert {"type": "LtiDeepLinkingRequest", "target_link_uri": "http://localhost/lti/launch",
            "label": "Adversarial search homework"} in conf["messages"]
    # A login initiation from that issuer and client id goes to its authorization endpoint.
    login = _login(client, platform)
    assert login.status_code == 302
    target = urlsplit(login.headers["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == f"{platform.url}/auth"
    assert parse_qs(target.query)["client_id"] == [platform.client_id]
    # The LMS may now frame the assignment pages (as a platform of the config file may).
    framed = client.get("/a/some-assignment").headers["Content-Security-Policy"]
    assert f"frame-ancestors 'self' {platform.url}" in framed
    # Another process on the same database sees it at once (no restart, no config file).
    other = create_app({"TESTING": True}, instance_path=tool.instance_path)
    assert _login(other.test_client(), platform).status_code == 302
    # The administrator's page lists it, and disabling it refuses its logins everywhere.
    admin = client.get(f"/lti/platforms/{KEY}")
    assert admin.status_code == 200 and platform.issuer.encode() in admin.data
    assert client.get("/lti/platforms/wrong").status_code == 403
    row = tool.extensions["lti_platforms"].all()[0]
    assert row["deployment_ids"] == [platform.deployment_id]
    done = client.post(f"/lti/platforms/{KEY}/{row['id']}/disable",
                       headers={"Origin": "http://localhost"})
    assert done.status_code == 303
    assert _login(client, platform).status_code == 400
    assert _login(other.test_client(), platform).status_code == 400
    assert platform.url not in client.get("/a/some-assignment").headers["Content-Security-Policy"]
    assert b'data-status="disabled"' in client.get(f"/lti/platforms/{KEY}").data
    # Registering again enables it again.
    assert _register(client, platform).status_code == 200
    assert _login(other.test_client(), platform).status_code == 302
    other.extensions["results_db"].dispose()


def test_an_issuer_on_another_host_is_refused_and_not_registered(make_app):
    liar = SpecPlatform(issuer_host="localhost")     # config at 127.0.0.1, issuer says localhost
    try:
        client = make_app(LTI_REGISTRATION_KEY=KEY).test_client()
        r = _register(client, liar)
        assert r.status_code == 400 and b"another host" in r.data
        assert liar.registrations == [] and ("POST", "/register") not in liar.requests
    finally:
        liar.close()


@pytest.mark.parametrize("config", ["http://lms.example.edu/.well-known/openid-configuration",
                                    "file:///etc/passwd", "javascript:alert(1)", ""])
def test_the_configuration_must_be_https_except_on_loopback(tool, platform, config):
    r = _register(tool.test_client(), platform, config=config or " ")
    assert r.status_code == 400 and b"data-lti-refused" in r.data
    assert platform.requests == []


def test_a_wrong_registration_token_is_said_not_a_500(tool, platform):
    r = _register(tool.test_client(), platform, token="stale")
    assert r.status_code == 502 and b"401" in r.data
