"""A real third-party LTI 1.3 platform on loopback, for the tests.

The platform's logic is the library's: PyPI ``lti1p3platform`` 0.1.8 (its
registration, OIDC login initiation, the signed launch with Deep Linking and
Assignment and Grade Services claims, the access token endpoint, the Deep
Linking response check and the score service's token check). This module
is only its web glue (a small Flask app, as the library's own Django and
FastAPI adapters are) and a gradebook dictionary the tests read.
"""
from __future__ import annotations

import threading
import typing as t
from html import escape

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import Flask, jsonify, redirect, request
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.membership import Context
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService
from werkzeug.serving import make_server

LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
ROLES = {"instructor": LIS + "membership#Instructor",
         "student": LIS + "membership#Learner",
         "designer": LIS + "membership#ContentDeveloper",
         "admin": LIS + "system/person#Administrator",
         # Institution roles: who the person is in the university, not in this course
         # (Canvas sends them in every launch, whatever the course role).
         "inst-instructor": LIS + "institution/person#Instructor",
         "inst-staff": LIS + "institution/person#Staff",
         "inst-faculty": LIS + "institution/person#Faculty"}
COURSE = "course-1"
CLIENT_ID = "advsearch-tool"
DEPLOYMENT = "deployment-1"


def rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class FlaskRequestMeta(Request):
    def build_metadata(self, req) -> dict:
        return {"method": req.method, "form_data": req.form.to_dict(),
                "get_data": req.args.to_dict(), "headers": req.headers,
                "content_type": req.content_type, "path": req.path,
                "json": req.get_json(force=True, silent=True)}


class Conf(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs):
        self.registration_ = kwargs["registration"]

    def get_registration_by_params(self, **kwargs):
        return self.registration_


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs):
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url):
        return redirect(url)


class Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data, **kwargs):
        # What every platform sends: a form posted to the tool by the browser.
        return (f'<!doctype html><form method="post" action="{escape(launch_data["launch_url"])}" '
                f'id="f"><input type="hidden" name="id_token" value="{escape(launch_data["id_token"])}">'
                f'<input type="hidden" name="state" value="{escape(launch_data["state"])}"></form>'
                '<script>document.getElementById("f").submit()</script>')


class Grades(AssignmentsGradesService):
    def __init__(self, platform, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.platform = platform

    def update_score(self, line_item_id, score):
        self.platform.gradebook.setdefault(line_item_id, {})[score["userId"]] = score
        return UpdateScoreStatus.SUCCESS

    def find_lineitems(self, *a, **k):
        return {"content": [], "has_next": False, "next": None}

    def find_lineitem(self, line_item_id):
        return {"id": line_item_id, "scoreMaximum": 100, "label": "item"}

    def create_lineitem(self, *a, **k):
        raise NotImplementedError

    def update_lineitem(self, *a, **k):
        raise NotImplementedError

    def delete_lineitem(self, *a, **k):
        raise NotImplementedError

    def get_results(self, *a, **k):
        return {"content": [], "has_next": False, "next": None}


class Members(NamesRoleProvisioningService):
    """The course's member list (Names and Role Provisioning Services), the library's."""

    def __init__(self, platform, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.platform = platform

    def get_member_data_page(self, page=1, limit=None, role=None, since=None, **_):
        return {"content": [dict(m) for m in self.platform.members], "has_next": False}

    def get_context_by_id(self):
        return Context(id=COURSE, label="GS", title=self.platform.title(COURSE))


class Platform:
    """The LMS: ``start(user, role, kind, link, context)`` is a user clicking in a course
    (``role``: keys of :data:`ROLES` joined by ``+``; ``context``: the course, for a
    deep link; a resource link lives in the course it was linked into)."""

    def __init__(self):
        self.server = make_server("127.0.0.1", 0, self._app(), threaded=True)
        self.url = f"http://localhost:{self.server.server_port}"    # another site than the tool's
        self.private_key, self.public_key = rsa_pair()
        self.links: list[dict] = []           # content items deep-linked into the course
        self.gradebook: dict[str, dict] = {}  # line item -> user -> score
        self.members: list[dict] = []         # the course's members (NRPS), as the LMS lists them
        self.titles: dict[str, str] = {}      # course -> its title, where a test names one
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def connect(self, tool_url: str) -> None:
        """Register the tool (the administrator's side of the LMS)."""
        self.tool = tool_url.rstrip("/")
        self.registration = (
            Registration().set_iss(self.url).set_client_id(CLIENT_ID)
            .set_deployment_id(DEPLOYMENT).set_oidc_login_url(f"{self.tool}/lti/login")
            .set_launch_url(f"{self.tool}/lti/launch").set_deeplink_launch_url(f"{self.tool}/lti/launch")
            .set_platform_public_key(self.public_key).set_platform_private_key(self.private_key)
            .set_tool_key_set_url(f"{self.tool}/lti/jwks"))

    def tool_registration(self) -> dict:
        """What the LMS administrator enters in the tool (LTI_PLATFORMS)."""
        return {"issuer": self.url, "client_id": CLIENT_ID, "deployment_ids": [DEPLOYMENT],
                "auth_login_url": f"{self.url}/authorize", "auth_token_url": f"{self.url}/token",
                "key_set_url": f"{self.url}/jwks"}

    def conf(self) -> Conf:
        conf = Conf(registration=self.registration)
        conf.get_registration()
        return conf

    def title(self, context: str) -> str:
        """The course's title, as its launches and its member list give it."""
        return self.titles.get(context, f"Game search ({context})")

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)

    def _app(self) -> Flask:
        app = Flask("platform")

        @app.get("/start")
        def start():
            a = request.args
            login = Login(FlaskRequestMeta(request), self.conf())
            login.set_lti_message_hint(hint=f"{a['kind']}:{a['role']}:{a.get('link', '0')}:"
                                            f"{a.get('context', COURSE)}")
            if a["kind"] == "deeplink":
                login.set_deeplinking_launch_url()
            return login.initiate_login(a["user"])

        @app.get("/course")
        def course():
            # The course page frames the tool, as an LMS does.
            return (f'<!doctype html><h1>Course</h1><iframe id="tool" name="tool" '
                    f'style="width:1000px;height:800px" src="/start?{request.query_string.decode()}">'
                    '</iframe>')

        @app.get("/authorize")
        def authorize():
            kind, role, link, context = request.args.get("lti_message_hint",
                                                         f"::0:{COURSE}").split(":")
            launch = Launch(FlaskRequestMeta(request), self.conf())
            user = request.args.get("login_hint", "")
            launch.set_user_data(user, [ROLES[r] for r in role.split("+")],
                                 full_name=f"User {user}", email_address=f"{user}@course.example")
            if kind != "deeplink":
                context = self.links[int(link)].get("context", COURSE)
            launch.set_launch_context_claim(context, context_title=self.title(context))
            launch.set_nrps(f"{self.url}/memberships")
            if kind == "deeplink":
                launch.set_resource_link_claim("dl-1")
                launch.set_dl(f"{self.url}/deep_link_return?context={context}", title="Add a tool")
            else:
                item = self.links[int(link)]
                launch.set_resource_link_claim(f"link-{link}", title=item.get("title"))
                launch.set_custom_parameters_claim(item.get("custom") or {})
                launch.set_ags(f"{self.url}/lineitems", f"{self.url}/lineitems/{link}",
                               allow_creating_lineitems=True)
            return launch.lti_launch()

        @app.post("/deep_link_return")
        def deep_link_return():
            items = self.conf().validate_deeplinking_resp(request.form.to_dict())
            for item in items:      # linked into the course the instructor added it from
                item["context"] = request.args.get("context", COURSE)
            self.links.extend(items)
            return f'<!doctype html><p data-linked="{len(self.links) - 1}">Linked: {escape(items[0]["title"])}</p>'

        @app.post("/token")
        def token():
            return jsonify(self.conf().get_access_token(request.form.to_dict()))

        @app.get("/jwks")
        def jwks():
            return jsonify(self.conf().get_jwks())

        @app.get("/memberships")
        def memberships():
            service = Members(self, FlaskRequestMeta(request), self.conf(), f"{self.url}/memberships")
            resp = service.handle_resp(service.handle_get_members)
            return (jsonify(resp.result) if resp.result is not None
                    else jsonify({"message": resp.message})), resp.code

        @app.post("/lineitems/<item>/scores")
        def scores(item):
            service = Grades(self, FlaskRequestMeta(request), self.conf(), f"{self.url}/lineitems",
                             f"{self.url}/lineitems/{item}")
            resp = service.handle_resp(service.handle_update_score, line_item_id=item)
            return jsonify({"message": resp.message}), resp.code

        return app


def signed_launch(platform: Platform, state: str, nonce: str, *, claims: dict | None = None,
                  key: str | None = None, expiration: int = 300, kid: str | None = None,
                  link: int = 0) -> str:
    """An id_token as the platform's library makes it for a resource launch,
    with ``claims`` changed, signed by ``key`` (default: the platform's)."""
    class Meta(Request):
        def build_metadata(self, _):
            return {"method": "GET", "form_data": {}, "get_data": {"nonce": nonce, "state": state},
                    "headers": {}, "content_type": None, "path": "/", "json": None}

    launch = Launch(Meta(None), platform.conf())
    launch._registration = platform.registration
    launch.set_user_data("mallory", [ROLES["student"]], full_name="Mallory")
    launch.set_resource_link_claim(f"link-{link}")
    if platform.links:
        launch.set_custom_parameters_claim(platform.links[link].get("custom") or {})
        launch.set_launch_context_claim(platform.links[link].get("context", COURSE))
    message, _ = launch.get_launch_data()
    message.update(claims or {})
    headers = {"kid": kid or platform.registration.get_kid()}
    return Registration.encode_and_sign(message, key or platform.private_key, headers,
                                        expiration=expiration)
