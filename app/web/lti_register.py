"""LTI Dynamic Registration 1.0 (contract §7b): an LMS registers the tool in one paste.

- ``GET /lti/register/<key>?openid_configuration=<url>&registration_token=<token>``:
  the LMS (Moodle 4.x, Canvas, Brightspace) opens this with its own
  configuration's address. ``<key>`` is ``LTI_REGISTRATION_KEY`` (environment
  variable or instance config): unset, 404; wrong, 403 (and nothing is
  fetched; wrong keys are rate-limited per address). The tool fetches the
  configuration (https, or http on a loopback host only), refuses an issuer on
  another host than the configuration's address, POSTs its registration to the
  ``registration_endpoint`` with ``Authorization: Bearer <token>``, keeps the
  platform the LMS answers with in the results database
  (:class:`app.assignments.platforms.Platforms`), and answers a page that posts
  ``{"subject": "org.imsglobal.lti.close"}`` to its opener or parent (the LMS
  closes its dialog).
- ``GET /lti/platforms/<key>``: the administrator's page: the registered
  platforms; ``POST /lti/platforms/<key>/<id>/disable`` disables one (every
  process refuses its logins and launches from the next request on).

The platforms registered here are read by the tool's PyLTI1p3 configuration
beside the config file's (``LTI_PLATFORMS``), and their origins may frame the
assignment pages as a registered platform's may.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import math
import os
import time
from urllib.parse import urlsplit

import limits
import requests
from flask import (Blueprint, current_app, redirect, render_template, request, url_for)
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.assignments.platforms import Platforms, origin
from app.treefile.errors import N_

from .addresses import client_address
from .errors import said
from .security import content_security_policy, with_sources

log = logging.getLogger(__name__)
bp = Blueprint("lti_register", __name__)

CONFIG_BYTES = 256 * 1024
"""The most an LMS's configuration or registration answer may weigh."""
FETCH_SECONDS = 10
WRONG_KEYS = "10/hour"
"""Wrong registration keys from one address before it must wait."""
ORIGINS_SECONDS = 10
"""How long a process keeps the registered platforms' origins (frame-ancestors)."""
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
SCOPES = ("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
          "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/score",
          "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly")


class Refused(Exception):
    """A registration that cannot go on: its status and sentence (a catalogue message)."""

    def __init__(self, status: int, msgid: str, **fields):
        super().__init__(msgid)
        self.status, self.msgid, self.fields = status, msgid, fields


@bp.record_once
def _setup(state) -> None:
    app = state.app
    lti = app.extensions["lti"]
    store = Platforms(app.extensions["results_db"])
    app.extensions["lti_platforms"] = store
    lti.conf.registered = store            # the tool's configuration reads them (lti.ToolConf)
    lti.conf.tool_keys = lti.keys
    queue = app.config.get("MESSAGE_QUEUE")
    app.extensions["lti_register_guard"] = (
        MovingWindowRateLimiter(storage_from_string(queue or "memory://")),
        limits.parse(WRONG_KEYS))
    app.extensions["lti_origins"] = [0.0, []]
    app.after_request(_frame_registered)


def _key() -> str | None:
    return os.environ.get("LTI_REGISTRATION_KEY") or current_app.config.get("LTI_REGISTRATION_KEY")


def _check_key(given: str) -> None:
    """404 when registration is off, 403 (counted per address) for a wrong key."""
    expected = _key()
    if not expected:
        raise Refused(404, N_("Registration by link is not set up on this server "
                              "(LTI_REGISTRATION_KEY)."))
    limiter, item = current_app.extensions["lti_register_guard"]
    address = client_address()
    if not limiter.test(item, "lti-register", address):
        stats = limiter.get_window_stats(item, "lti-register", address)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        raise Refused(429, N_("Too many wrong links from this device: try again in "
                              "{seconds} s."), seconds=wait)
    if not hmac.compare_digest(given.encode(), expected.encode()):
        limiter.hit(item, "lti-register", address)
        raise Refused(403, N_("This is not the registration link of this server."))


def _page(exc: Refused):
    response = current_app.make_response(
        (render_template("lti_register_refused.html", message=said(exc.msgid, **exc.fields)),
         exc.status))
    if exc.status == 429:
        response.headers["Retry-After"] = str(exc.fields.get("seconds", 60))
    return response


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _url(value, what: str) -> str:
    """``value`` as an https URL (http only on a loopback host), else refused naming ``what``."""
    if not isinstance(value, str) or not 0 < len(value) <= 1000:
        raise Refused(400, N_("The LMS's {what} is missing or too long."), what=what)
    parts = urlsplit(value)
    host = (parts.hostname or "").lower()
    if not host or parts.scheme not in ("https", "http") or (
            parts.scheme == "http" and not _loopback(host)):
        raise Refused(400, N_("The LMS's {what} must be an https address: {url}"), what=what,
                      url=value[:200])
    return value


def _fetch(method: str, url: str, token: str | None, body: dict | None = None) -> dict:
    """One JSON request to the LMS, its answer bounded in time and size."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with requests.request(method, url, json=body, headers=headers, timeout=FETCH_SECONDS,
                              allow_redirects=False, stream=True) as r:
            data = r.raw.read(CONFIG_BYTES + 1, decode_content=True)
            status = r.status_code
    except requests.RequestException as exc:
        raise Refused(502, N_("The LMS could not be reached at {url}: {reason}"), url=url[:200],
                      reason=exc.__class__.__name__) from None
    if len(data) > CONFIG_BYTES or not 200 <= status < 300:
        raise Refused(502, N_("The LMS answered {code} at {url}."), code=status, url=url[:200])
    try:
        found = json.loads(data)
    except ValueError:
        found = None
    if not isinstance(found, dict):
        raise Refused(502, N_("The LMS's answer at {url} is not a JSON object."), url=url[:200])
    return found


def tool_configuration(product: str | None) -> dict:
    """The registration request: the tool's URLs, keys, grants, scopes and messages."""
    launch = url_for("lti.launch", _external=True)
    custom = {"canvas_user_id": "$Canvas.user.id"} if product == "canvas" else {}
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": url_for("lti.login", _external=True),
        "redirect_uris": [launch],
        "client_name": "Adversarial search",
        "jwks_uri": url_for("lti.jwks", _external=True),
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(SCOPES),
        TOOL_CONFIGURATION: {
            "domain": urlsplit(launch).netloc,
            "description": "Minimax and alpha-beta homework that grades itself.",
            "target_link_uri": launch,
            "custom_parameters": custom,
            "claims": ["iss", "sub", "name", "given_name", "family_name", "email"],
            "messages": [{"type": "LtiDeepLinkingRequest", "target_link_uri": launch,
                          "label": "Adversarial search homework"}],
        },
    }


@bp.get("/lti/register/<key>")
def register(key: str):
    try:
        _check_key(key)
        config_url = _url(request.args.get("openid_configuration"), "openid_configuration")
        token = request.args.get("registration_token") or None
        if token is not None and len(token) > 4096:
            raise Refused(400, N_("The LMS's {what} is missing or too long."),
                          what="registration_token")
        config = _fetch("GET", config_url, token)
        issuer = _url(config.get("issuer"), "issuer")
        if urlsplit(issuer).hostname.lower() != urlsplit(config_url).hostname.lower():
            raise Refused(400, N_("The LMS's issuer {issuer} is on another host than its "
                                  "configuration {url}: refused."), issuer=issuer[:200],
                          url=config_url[:200])
        endpoints = {name: _url(config.get(name), name) for name in (
            "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")}
        platform = config.get(PLATFORM_CONFIGURATION)
        product = platform.get("product_family_code") if isinstance(platform, dict) else None
        product = product if isinstance(product, str) else None
        answer = _fetch("POST", endpoints["registration_endpoint"], token,
                        tool_configuration(product))
        client_id = answer.get("client_id")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= 255:
            raise Refused(502, N_("The LMS's answer at {url} is not a JSON object."),
                          url=endpoints["registration_endpoint"][:200])
        tool = answer.get(TOOL_CONFIGURATION) or {}
        deployment = tool.get("deployment_id") if isinstance(tool, dict) else None
        audience = config.get("authorization_server")
        current_app.extensions["lti_platforms"].add(
            issuer=issuer, client_id=client_id,
            deployment_ids=[deployment] if isinstance(deployment, str) and deployment else [],
            auth_login_url=endpoints["authorization_endpoint"],
            auth_token_url=endpoints["token_endpoint"], key_set_url=endpoints["jwks_uri"],
            auth_audience=audience if isinstance(audience, str) else None, product=product)
        current_app.extensions["lti_origins"][0] = 0.0       # this process sees it at once
        log.info("LTI platform registered: %s (client id %s)", issuer, client_id)
    except Refused as exc:
        return _page(exc)
    response = current_app.make_response(render_template(
        "lti_registered.html", issuer=issuer, product=product or ""))
    # Framed by the LMS (Moodle and Canvas open this in a dialog's frame) or opened in a
    # window of its own: the LMS may frame it, and the opener stays reachable.
    response.headers["Content-Security-Policy"] = _policy_with(
        _base_policy(), [origin(config_url)], form=False)
    response.headers["Cross-Origin-Opener-Policy"] = "unsafe-none"
    return response


# -- the administrator's page ---------------------------------------------------------

@bp.get("/lti/platforms/<key>")
def platforms(key: str):
    try:
        _check_key(key)
    except Refused as exc:
        return _page(exc)
    return render_template("lti_platforms.html", key=key,
                           platforms=current_app.extensions["lti_platforms"].all())


@bp.post("/lti/platforms/<key>/<int:platform_id>/disable")
def disable(key: str, platform_id: int):
    try:
        _check_key(key)
    except Refused as exc:
        return _page(exc)
    current_app.extensions["lti_platforms"].disable(platform_id)
    current_app.extensions["lti_origins"][0] = 0.0
    return redirect(url_for("lti_register.platforms", key=key), 303)


# -- registered platforms may frame the pages -------------------------------------------

def registered_origins() -> list[str]:
    """The enabled platforms' origins, read again every :data:`ORIGINS_SECONDS` s."""
    cached = current_app.extensions["lti_origins"]
    if time.monotonic() - cached[0] > ORIGINS_SECONDS or cached[0] == 0.0:
        try:
            cached[1] = current_app.extensions["lti_platforms"].origins()
        except Exception:  # noqa: BLE001 (the database down: keep the last known)
            log.warning("the registered LMS origins could not be read", exc_info=True)
        cached[0] = time.monotonic()
    return cached[1]


def _base_policy() -> str:
    return content_security_policy(current_app.config.get("FRAME_ANCESTORS") or "'self'")


def _policy_with(policy: str, origins: list[str], form: bool) -> str:
    """``policy`` with ``origins`` added to frame-ancestors (and form-action)."""
    policy = with_sources(policy, "frame-ancestors", origins)
    return with_sources(policy, "form-action", origins) if form else policy


def _frame_registered(response):
    """The pages an LMS frames (its launches, the assignments) may be framed by a
    platform registered here, as by one in the config file (:mod:`app.web.lti`)."""
    if request.blueprint not in ("lti", "assignments"):
        return response
    found = registered_origins()
    if found:
        policy = response.headers.get("Content-Security-Policy") or _base_policy()
        response.headers["Content-Security-Policy"] = _policy_with(
            policy, found, form=request.blueprint == "lti")
        response.headers.pop("X-Frame-Options", None)
    return response
