"""LTI 1.3 Advantage, as a tool (PyLTI1p3's Flask adapter).

- ``GET|POST /lti/login``: OIDC login initiation from the platform;
- ``POST /lti/launch``: the launch. The id_token is checked by PyLTI1p3
  (signature against the platform's JWKS, issuer and audience against the
  registration, deployment, expiry, message) and here its nonce is used once.
  A Deep Linking request (an instructor adding the tool) opens the page that
  makes an assignment and links it; a resource launch opens the assignment:
  a student's own page (the identity from the launch), or an instructor's
  dashboard (a key minted for this launch);
- ``POST /lti/deep-link/<launch id>``: make the assignment and answer the
  platform with a signed Deep Linking response;
- ``GET /lti/jwks``: the tool's public keys; ``GET /lti/config``: its URLs.

Scores go back through Assignment and Grade Services after each submission
of a student who came from the LMS, and again whenever their score changes
(:meth:`Lti.send_score`).

Nothing here needs a cookie: PyLTI1p3's state and nonce live in the results
database (:class:`app.assignments.lti_store.DbLaunchData`), and the student's
personal token travels in the address's fragment, so the pages work inside
the LMS's frame when the browser blocks third-party cookies. The platforms
are registered in the ``LTI_PLATFORMS`` setting (docs/lti.md); their origins
are added to ``frame-ancestors``.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit

import requests
from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from pylti1p3.contrib.flask import FlaskMessageLaunch, FlaskOIDCLogin, FlaskRequest
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.tool_config import ToolConfDict

from app.assignments.access import ways_in
from app.assignments.errors import AssignmentError
from app.assignments.gradebook import exercise_scores, percent
from app.assignments.lti_store import DbLaunchData, LtiStore
from app.assignments.making import linked_assignment
from app.assignments.platforms import RegisteredPlatforms
from app.classes.codes import token_hash
from app.i18n import N_
from app.search.words import Said

from .assignment_maker import maker_page, new_assignment
from .lti_roles import teaches
from .lti_roster import TimedSession, remember_course, saw_line_item, silent
from .origins import cross_site
from .errors import said
from .security import content_security_policy

log = logging.getLogger(__name__)
bp = Blueprint("lti", __name__)

LTI_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"


class ToolRefusal(Said, LtiException):
    """A launch the tool itself refuses (an issuer or client id it does not
    know, a state it never issued, a nonce spent): PyLTI1p3's exception, its
    reason a catalogue message, so the page says all of it in the reader's
    language (PyLTI1p3's own reasons stay its English words)."""


def _reason(exc: Exception):
    return exc if isinstance(exc, Said) else str(exc)


class ToolConf(RegisteredPlatforms, ToolConfDict):
    """PyLTI1p3's dictionary of registrations (the config file's, then those of
    Dynamic Registration in the database: :mod:`app.web.lti_register`), with an
    unknown issuer or client id (the token's audience) refused as a launch error
    (it raises a bare ``Exception``)."""

    def get_iss_config(self, iss, client_id=None):
        try:
            return super().get_iss_config(iss, client_id)
        except Exception:
            if client_id is None:
                raise ToolRefusal(N_("the issuer {iss} is not registered"), iss=repr(iss)) from None
            raise ToolRefusal(N_("the client id (the token's audience) {client_id} is not "
                                 "registered for the issuer {iss}"),
                              client_id=repr(client_id), iss=repr(iss)) from None

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        try:
            return super().find_deployment_by_params(iss, deployment_id, client_id,
                                                     *args, **kwargs)
        except LtiException:
            return None


class Lti:
    """The tool's registrations, keys and stores (one per app)."""

    def __init__(self, app):
        platforms = app.config.get("LTI_PLATFORMS") or []
        self._app_keys = lambda: _tool_keys(app)
        self._keys: tuple[str, str] | None = None
        config: dict = {}
        for p in platforms:
            config.setdefault(p["issuer"], []).append({
                "default": len(config.get(p["issuer"], [])) == 0,
                "client_id": p["client_id"], "auth_login_url": p["auth_login_url"],
                "auth_token_url": p["auth_token_url"], "key_set_url": p["key_set_url"],
                "key_set": None, "auth_audience": p.get("auth_audience"),
                "deployment_ids": list(p["deployment_ids"])})
        self.conf = ToolConf(config)
        if platforms:
            self.keys()
        for p in platforms:
            self.conf.set_private_key(p["issuer"], self.private_key, client_id=p["client_id"])
            self.conf.set_public_key(p["issuer"], self.public_key, client_id=p["client_id"])
        self.platforms = platforms
        db = app.extensions["results_db"]
        self.db = db
        self.store = LtiStore(db)

    def keys(self) -> tuple[str, str]:
        """The tool's (private, public) PEM keys, read or made at first need (a server
        without LMS registrations makes none)."""
        if self._keys is None:
            self._keys = self._app_keys()
        return self._keys

    @property
    def private_key(self) -> str:
        return self.keys()[0]

    @property
    def public_key(self) -> str:
        return self.keys()[1]

    def storage(self) -> DbLaunchData:
        return DbLaunchData(self.db)

    def send_score(self, a, st) -> bool:
        """The student's percent to each line item they launched from (one per course
        linking the assignment), where it changed since last sent (else at the next
        change); False if an LMS did not answer (unreachable, or past the time bound)."""
        if a.spec.feedback == "due" and not a.spec.past_due(time.time()):
            return True     # no score before the due date, in the LMS either (sent after it)
        targets = self.store.grade_targets(st.id)
        if not targets:
            return True
        answered = True
        store = current_app.extensions["assignments"]
        scores = exercise_scores(store.submissions(st.id), [e.mode for e in a.spec.exercises])
        score = percent(scores)
        done = all(x >= 1.0 for x in scores)
        for target in targets:
            if target.sent is not None and abs(target.sent - score) < 1e-9:
                continue
            if silent(target.issuer):       # no answer earlier in this request: not asked again
                answered = False
                continue
            try:
                registration = self.conf.find_registration_by_params(target.issuer,
                                                                     target.client_id)
                # Each request bounded in time: a silent LMS holds no student's submission.
                ags = AssignmentsGradesService(ServiceConnector(registration,
                                                                TimedSession(target.issuer)),
                                               json.loads(target.ags))
                grade = (Grade().set_score_given(score).set_score_maximum(100)
                         .set_timestamp(datetime.now(timezone.utc).isoformat())
                         .set_activity_progress("Completed" if done else "Submitted")
                         .set_grading_progress("FullyGraded").set_user_id(target.user_sub))
                ags.put_grade(grade)
            except Exception as exc:   # the LMS may be down: the score is kept, sent next time
                log.exception("LTI score passback to %s failed", target.issuer)
                # (A refusal of this one score is the LMS's answer; no answer is not.)
                answered = answered and not isinstance(exc, requests.RequestException)
                continue
            self.store.sent(st.id, target.lineitem, score)
        return answered

    def send_due_scores(self, a, students) -> None:
        """After the due date of a "feedback after the due date" assignment: every LMS
        student's score not sent yet (the instructor's dashboard asks)."""
        if a.spec.feedback != "due" or not a.spec.past_due(time.time()):
            return
        for st in students:
            # An LMS not answering: the rest wait for the next opening, not this page.
            if st.key.startswith("lti:") and not self.send_score(a, st):
                return


def _tool_keys(app) -> tuple[str, str]:
    """The tool's RSA key pair: ``LTI_PRIVATE_KEY`` (PEM text or a file), else
    ``instance/lti-private.pem``, made at the first start."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    given = app.config.get("LTI_PRIVATE_KEY")
    path = os.path.join(app.instance_path, "lti-private.pem")
    if given and "BEGIN" in given:
        pem = given.encode()
    elif given:
        with open(given, "rb") as f:
            pem = f.read()
    elif os.path.exists(path):
        with open(path, "rb") as f:
            pem = f.read()
    else:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
    key = serialization.load_pem_private_key(pem, password=None)
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return pem.decode(), public.decode()


@bp.record_once
def _setup(state) -> None:
    app = state.app
    lti = app.extensions["lti"] = Lti(app)
    origins = sorted({_origin(p.get("frame_origin") or p["auth_login_url"])
                      for p in app.config.get("LTI_PLATFORMS") or []})
    lti.origins = origins
    # The LMS may frame the assignment pages (frame-ancestors), and the deep-link
    # page posts its answer to the LMS (form-action).
    ancestors = " ".join([app.config.get("FRAME_ANCESTORS") or "'self'", *origins])
    lti.frame_policy = content_security_policy(ancestors)
    lti.page_policy = lti.frame_policy.replace(
        "form-action 'self'", " ".join(["form-action 'self'", *origins]))


@bp.after_request
def _policy(response):
    lti = current_app.extensions["lti"]
    if lti.origins:
        response.headers["Content-Security-Policy"] = lti.page_policy
    return response


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _lti() -> Lti:
    return current_app.extensions["lti"]


class Launch(FlaskMessageLaunch):
    """PyLTI1p3's launch, with its state kept server-side and its nonce used once."""

    def validate_state(self):
        state = self._get_request_param("state")
        if not state or not self._session_service.get_state_params(state):
            raise ToolRefusal(N_("State not found"))
        return self

    def validate_jwt_format(self):
        # PyLTI1p3 reads the token's header and body with .get(): a JSON list there
        # (anyone holding a login's state can send one) was an AttributeError, a 500.
        super().validate_jwt_format()
        if not all(isinstance(self._jwt.get(part), dict) for part in ("header", "body")):
            raise LtiException("Invalid JWT format, its header and body must be JSON objects")
        return self

    def save_launch_data(self):
        # Every check has passed: the nonce is spent now, so a replay is refused.
        if not _lti().store.use_nonce(self._get_jwt_body().get("nonce", "")):
            raise ToolRefusal(N_("Nonce already used"))
        return super().save_launch_data()


def _refused(message: str, status: int = 403):
    return render_template("lti_refused.html", message=message), status


@bp.route("/lti/login", methods=["GET", "POST"])
@cross_site      # posted by the course platform's page; the launch is signed
def login():
    lti = _lti()
    target = request.values.get("target_link_uri") or ""
    ours = url_for("lti.launch", _external=True)
    if _origin(target) != _origin(ours):
        target = ours
    try:
        oidc = FlaskOIDCLogin(FlaskRequest(), lti.conf, launch_data_storage=lti.storage())
        return oidc.pass_params_to_launch({"at": int(time.time())}).redirect(target)
    except (OIDCException, LtiException) as exc:
        return _refused(said("This LMS is not registered with the tool: {reason}",
                             reason=_reason(exc)), 400)


@bp.post("/lti/launch")
@cross_site
def launch():
    lti = _lti()
    # (Its fetch of the LMS's key set bounded in time: a silent LMS holds no worker.)
    message = Launch(FlaskRequest(), lti.conf, launch_data_storage=lti.storage(),
                     requests_session=TimedSession())
    try:
        data = message.get_launch_data()
    except LtiException as exc:
        log.warning("LTI launch refused: %s", exc)
        return _refused(said("The launch from the LMS was refused: {reason}. Start again "
                             "from the course page.", reason=_reason(exc)))
    if message.is_deep_link_launch():
        if not teaches(data):
            return _refused(said("Only an instructor can add an assignment."))
        return maker_page(deep_link=message.get_launch_id())
    custom = data.get(LTI_CLAIM + "custom") or {}
    assignment_id = custom.get("assignment") or ""
    store = current_app.extensions["assignments"]
    a = store.get(assignment_id) if isinstance(assignment_id, str) else None
    if a is None:
        return _refused(said("This link of the LMS names no assignment of the tool."), 404)
    # Only from a course the assignment was made in or linked into by its instructor:
    # a link elsewhere naming its id (seen by any student in /a/<id>) reaches nothing.
    if not lti.store.bound(a.id, *_course(data)):
        return _refused(said("This assignment belongs to another course: its instructor can "
                             "link it into this one from the LMS (add the tool, then \"link "
                             "an assignment you made\")."), 403)
    saw_line_item(a.id, data, _course(data))     # the member list's course's line item
    token = secrets.token_urlsafe(24)
    if teaches(data):
        lti.store.mint_instructor(a.id, token_hash(token))
        return _go(f"/a/{a.id}/dashboard#{token}")
    try:
        ways_in(a, "any", "lms")
    except AssignmentError as exc:
        return _refused(said(exc.msgid, **exc.fields), exc.status)
    iss, sub = data["iss"], data.get("sub") or ""
    person = data.get("https://purl.imsglobal.org/spec/lti/claim/lis") or {}
    key = "lti:" + hashlib.sha256(f"{iss}\x00{sub}".encode()).hexdigest()[:32]
    token = _personal_token(a, key)
    try:
        lti.store.student(a.id, key, data.get("name") or data.get("given_name") or sub,
                          person.get("person_sourcedid"),
                          data.get("email") or data.get("preferred_username"),
                          token_hash(token), iss, message.get_client_id(), sub,
                          data.get(AGS_CLAIM) if message.has_ags() else None,
                          current_app.extensions["assignment_budget"].students_per_assignment,
                          course=_course(data)[1:])
    except AssignmentError as exc:
        return _refused(said(exc.msgid, **exc.fields), exc.status)
    if lti.conf.registered is not None:     # Canvas's user id, asked for at registration
        lti.conf.registered.remember_lms_id(a.id, key, custom.get("canvas_user_id"))
    return _go(f"/a/{a.id}#s={token}")


def _personal_token(a, key: str) -> str:
    """An LMS student's personal token: the same at every launch (made from the
    assignment's secret), so that a launch on another device (the phone's LMS app) leaves
    the one open on the first working; shown only to a launch the LMS signed."""
    mac = hmac.new(a.secret.encode(), f"lti-token\x00{key}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def _course(data: dict) -> tuple[str, str, str]:
    """(issuer, deployment, context) of a launch; a launch outside a course has no
    context and reaches no assignment."""
    context = data.get(LTI_CLAIM + "context") or {}
    return (data.get("iss") or "", data.get(LTI_CLAIM + "deployment_id") or "",
            str(context.get("id") or "") if isinstance(context, dict) else "")


def _go(url: str):
    """A page that opens ``url`` (a redirect would do, but a fragment in a
    Location header after a cross-site POST is not kept by every browser)."""
    return render_template("lti_go.html", url=url)


@bp.post("/lti/deep-link/<launch_id>")
def deep_link(launch_id: str):
    lti = _lti()
    try:
        message = Launch.from_cache(launch_id, FlaskRequest(), lti.conf,
                                    launch_data_storage=lti.storage(),
                                    requests_session=TimedSession())
    except LtiException:
        message = None
    if message is None or not message.is_deep_link_launch() or not teaches(
            message.get_launch_data()):
        raise AssignmentError("This page has expired: add the tool again from the LMS.", 403)
    course = _course(message.get_launch_data())
    if not course[2]:
        raise AssignmentError("Add the tool from a course of the LMS.", 403)
    body = request.get_json(silent=True)
    if isinstance(body, dict) and "link" in body:
        made = linked_assignment(body, current_app.extensions["assignments"], lti.store)
    else:
        made = new_assignment(body)
        # The course's member list (NRPS) comes with the course that made it.
        remember_course(made["id"], message.get_launch_data(), message.get_client_id(), course)
    lti.store.bind(made["id"], *course)
    title = (body if isinstance(body, dict) else {}).get("title") or made.get("title") \
        or "Assignment"
    resource = (DeepLinkResource().set_url(url_for("lti.launch", _external=True))
                .set_title(title).set_custom_params({"assignment": made["id"]})
                .set_lineitem(LineItem().set_score_maximum(100).set_label(title)))
    deep = message.get_deep_link()
    settings = message.get_launch_data().get(
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings") or {}
    return jsonify({"jwt": deep.get_response_jwt([resource]),
                    "return_url": settings.get("deep_link_return_url"),
                    "dashboard": made["dashboard"], "student": made["student"]}), 201


@bp.get("/lti/jwks")
def jwks():
    lti = _lti()
    keys = []
    for p in lti.platforms[:1] or [None]:
        if p is None:
            from jwcrypto.jwk import JWK
            jwk = json.loads(JWK.from_pem(lti.public_key.encode()).export_public())
            jwk.update(alg="RS256", use="sig", kid=jwk.get("kid") or _kid(lti.public_key))
            keys.append(jwk)
        else:
            keys.extend(lti.conf.get_jwks(p["issuer"], p["client_id"])["keys"])
    return jsonify({"keys": keys})


def _kid(public_pem: str) -> str:
    return hashlib.sha256(public_pem.encode()).hexdigest()[:16]


@bp.get("/lti/config")
def config():
    """The tool's side of the registration, for an LMS administrator (docs/lti.md)."""
    return jsonify({"title": "Adversarial search", "oidc_initiation_url":
                    url_for("lti.login", _external=True),
                    "target_link_uri": url_for("lti.launch", _external=True),
                    "redirect_uris": [url_for("lti.launch", _external=True)],
                    "public_jwk_url": url_for("lti.jwks", _external=True),
                    "deep_linking_url": url_for("lti.launch", _external=True),
                    "scopes": ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                               "https://purl.imsglobal.org/spec/lti-ags/scope/score"]})
