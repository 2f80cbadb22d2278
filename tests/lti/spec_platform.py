"""A small LTI platform written here from the IMS specifications, for what the
third-party platform of tests/lti/platform.py (lti1p3platform) does not do:
Dynamic Registration and Names and Role Provisioning Services as a platform
serves them to a tool registered that way.

From IMS LTI Dynamic Registration 1.0 (https://www.imsglobal.org/spec/lti-dr/v1p0):
- the registration is initiated by opening the tool's URL with
  ``openid_configuration`` and ``registration_token`` (§3.3);
- the platform's OpenID configuration (§3.4) names ``issuer``,
  ``authorization_endpoint``, ``token_endpoint``, ``jwks_uri``,
  ``registration_endpoint`` and the ``lti-platform-configuration`` claim
  (``product_family_code``, ``messages_supported``); here it is served only
  with the registration token as a Bearer token (as Canvas does);
- the tool POSTs its client registration (§3.5, OpenID Connect Dynamic Client
  Registration with the ``lti-tool-configuration`` claim) with the token as a
  Bearer token; the platform answers with ``client_id`` and the
  ``deployment_id`` in the tool configuration claim (§3.6); this platform
  checks the request's required fields as §3.5.2 lists them and refuses
  (400) a request without them.
From IMS Names and Role Provisioning Services 2.0: the membership container
(``context``, ``members`` with ``user_id``, ``roles``, ``name``, ``email``,
``lis_person_sourcedid``, ``status``), asked with an access token of scope
``contextmembership.readonly``, paged by a ``Link: <...>; rel="next"`` header.
"""
from __future__ import annotations

import json
import secrets
import threading
import time

import jwt
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

from tests.lti.platform import rsa_pair

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
REQUIRED = ("application_type", "response_types", "grant_types", "initiate_login_uri",
            "redirect_uris", "client_name", "jwks_uri", "token_endpoint_auth_method")


class SpecPlatform:
    """The LMS on loopback. ``host`` is how it names itself (its issuer's host);
    ``issuer_host`` lets a test make it lie (an issuer on another host)."""

    def __init__(self, product: str = "moodle", issuer_host: str | None = None,
                 members: list[dict] | None = None, page_size: int = 2):
        self.server = make_server("127.0.0.1", 0, self._app(), threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.issuer = f"http://{issuer_host or '127.0.0.1'}:{self.port}"
        self.product = product
        self.token = secrets.token_urlsafe(16)
        self.requests: list[tuple[str, str]] = []      # (method, path) of every request
        self.registrations: list[dict] = []            # the tool's registration requests
        self.client_id = "client-" + secrets.token_hex(4)
        self.deployment_id = "deploy-1"
        self.private_key, self.public_key = rsa_pair()
        self.members = members or []
        self.page_size = page_size
        self.tokens_issued: list[str] = []
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def config_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)

    def _app(self) -> Flask:
        app = Flask("spec-platform")

        @app.before_request
        def _log():
            self.requests.append((request.method, request.path))

        def bearer_ok() -> bool:
            return request.headers.get("Authorization") == f"Bearer {self.token}"

        @app.get("/.well-known/openid-configuration")
        def configuration():
            if not bearer_ok():
                return jsonify({"error": "invalid_token"}), 401
            return jsonify({
                "issuer": self.issuer,
                "authorization_endpoint": f"{self.url}/auth",
                "token_endpoint": f"{self.url}/token",
                "jwks_uri": f"{self.url}/jwks",
                "registration_endpoint": f"{self.url}/register",
                "token_endpoint_auth_methods_supported": ["private_key_jwt"],
                "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
                "scopes_supported": ["openid", NRPS_SCOPE],
                "response_types_supported": ["id_token"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "claims_supported": ["sub", "iss", "name", "email"],
                "subject_types_supported": ["public", "pairwise"],
                "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                    "product_family_code": self.product, "version": "4.3",
                    "messages_supported": [{"type": "LtiResourceLinkRequest"},
                                           {"type": "LtiDeepLinkingRequest"}]},
            })

        @app.post("/register")
        def register():
            if not bearer_ok():
                return jsonify({"error": "invalid_token"}), 401
            body = request.get_json(silent=True) or {}
            self.registrations.append(body)
            tool = body.get(TOOL_CONFIGURATION)
            missing = [k for k in REQUIRED if k not in body]
            if missing or not isinstance(tool, dict) or not tool.get("domain") or \
                    not tool.get("target_link_uri"):
                return jsonify({"error": "invalid_client_metadata", "missing": missing}), 400
            return jsonify({**body, "client_id": self.client_id,
                            TOOL_CONFIGURATION: {**tool, "deployment_id": self.deployment_id}})

        @app.get("/add-tool")
        def add_tool():
            # The administrator pasted the tool's registration link: the platform opens it in
            # a dialog's frame with its configuration's address and a token (§3.3), and
            # closes the dialog when the tool posts org.imsglobal.lti.close (§3.7).
            from urllib.parse import urlencode
            link = request.args["link"] + "?" + urlencode(
                {"openid_configuration": self.config_url, "registration_token": self.token})
            return ('<!doctype html><title>Add a tool</title><body data-closed="">'
                    f'<iframe id="dialog" src="{link}" style="width:600px;height:400px"></iframe>'
                    '<script>addEventListener("message", (e) => {'
                    ' if (e.data && e.data.subject === "org.imsglobal.lti.close") {'
                    '  document.body.dataset.closed = JSON.stringify(e.data);'
                    '  document.getElementById("dialog").remove(); } });</script>')

        @app.get("/favicon.ico")
        def favicon():
            return "", 204

        @app.get("/jwks")
        def jwks():
            from jwcrypto.jwk import JWK
            key = json.loads(JWK.from_pem(self.public_key.encode()).export_public())
            key.update(alg="RS256", use="sig", kid="platform-key")
            return jsonify({"keys": [key]})

        @app.post("/token")
        def token():
            # The tool's client-credentials grant, signed with its private key (private_key_jwt).
            assertion = request.form.get("client_assertion", "")
            claims = jwt.decode(assertion, options={"verify_signature": False})
            assert claims["iss"] == self.client_id, claims
            issued = secrets.token_urlsafe(16)
            self.tokens_issued.append(request.form.get("scope", ""))
            self._access = getattr(self, "_access", set()) | {issued}
            return jsonify({"access_token": issued, "token_type": "bearer", "expires_in": 3600,
                            "scope": request.form.get("scope", "")})

        @app.get("/memberships/<context>")
        def memberships(context):
            header = request.headers.get("Authorization", "")
            if header[7:] not in getattr(self, "_access", set()):
                return jsonify({"error": "unauthorized"}), 401
            start = int(request.args.get("from", 0))
            page = self.members[start:start + self.page_size]
            body = {"id": request.url, "context": {"id": context, "title": "Game search"},
                    "members": page}
            response = jsonify(body)
            response.headers["Content-Type"] = \
                "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
            if start + self.page_size < len(self.members):
                response.headers["Link"] = \
                    f'<{self.url}/memberships/{context}?from={start + self.page_size}>; rel="next"'
            return response

        return app

    def id_token(self, claims: dict, nonce: str) -> str:
        """A launch's id_token from this platform, signed with its key."""
        now = int(time.time())
        body = {"iss": self.issuer, "aud": self.client_id, "iat": now, "exp": now + 300,
                "nonce": nonce,
                "https://purl.imsglobal.org/spec/lti/claim/deployment_id": self.deployment_id,
                "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0", **claims}
        return jwt.encode(body, self.private_key, algorithm="RS256",
                          headers={"kid": "platform-key"})
