"""The roster from the course (issue 27 point 3): an assignment made by deep
linking knows its course's member list (LTI Names and Role Provisioning
Services, the deep-link launch's ``namesroleservice`` claim); the dashboard
reads it (PyLTI1p3's :class:`NamesRolesProvisioningService`) and lists every
learner of the course, those who never opened the assignment too: each is a
student row with the identity their first launch will have
(:func:`app.assignments.platforms.lms_key`), so that launch finds them, and
no personal link until then. After the due date, the scores of those who
never tried go back to the LMS (0; a late submission the late policy
accepts then replaces it, as any changed score does).

An assignment may be linked into other courses of the same LMS, each with
its own line item (gradebook column). A member's score target is the line
item of the member list's own course (issuer, deployment, context), as a
launch from that course showed it (a student's or an instructor's); until
one has, a member who never launched has none: never another course's. The
dashboard says so (:func:`waiting`): how many members wait, and that a launch
from their course (anyone's) lets their scores flow.

The list is read at most once a minute per assignment (:data:`EVERY`), each
request to the LMS bounded in time; a read that fails is said on the
dashboard, and the students already known stay.
"""
from __future__ import annotations

import json
import logging
import secrets
import time

import requests
from flask import current_app, g, has_app_context
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from app.assignments.platforms import PLACEHOLDER, Courses, lms_key
from app.treefile.errors import N_

from .errors import said

log = logging.getLogger(__name__)

NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
CONTEXT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/context"
LEARNER = "membership#Learner"
EVERY = 60
"""Seconds between two reads of one course's member list."""
SECONDS = 10
"""How long one request to the LMS may take."""
PAGES = 50
"""Pages of members read at most (each as long as the LMS makes it)."""


class TimedSession(requests.Session):
    """PyLTI1p3's requests, each with a timeout (it sets none): the member list, the
    launch's key set and the grade passback (app/web/lti.py). Given the LMS's issuer, a
    request to it that timed out or could not connect marks it silent for the rest of
    the request being served (:func:`silent`)."""

    def __init__(self, issuer: str | None = None):
        super().__init__()
        self.issuer = issuer

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", SECONDS)
        try:
            return super().request(*args, **kwargs)
        except (requests.ConnectionError, requests.Timeout):
            if self.issuer is not None and has_app_context():
                g.setdefault("lms_silent", set()).add(self.issuer)
            raise


def silent(issuer: str) -> bool:
    """Whether a request to this LMS got no answer earlier in the request being served:
    its other calls are skipped (one dashboard load waits on a silent LMS once, not once
    per call), their scores sent at the next opening."""
    return has_app_context() and issuer in g.get("lms_silent", ())


def silent_said() -> dict | None:
    """The dashboard's word on the LMSs that did not answer during this request."""
    issuers = sorted(g.get("lms_silent", ())) if has_app_context() else []
    if not issuers:
        return None
    return {"issuers": issuers,
            "message": said(N_("The LMS did not answer: the scores waiting for it will be "
                               "sent the next time you open this dashboard."))}


def _courses() -> Courses:
    found = current_app.extensions.get("lti_courses")
    if found is None:
        found = current_app.extensions["lti_courses"] = Courses(
            current_app.extensions["results_db"])
    return found


def remember_course(assignment_id: str, data: dict, client_id: str,
                    course: tuple[str, str, str]) -> None:
    """At a deep link: where the new assignment's course (``course``: issuer, deployment,
    context) lists its members (if the LMS offers Names and Role Provisioning Services)."""
    claim = data.get(NRPS_CLAIM)
    if isinstance(claim, dict) and isinstance(claim.get("context_memberships_url"), str):
        _courses().remember(assignment_id, data["iss"], client_id, claim, *course[1:],
                            title=_title(data.get(CONTEXT_CLAIM)))


def saw_line_item(assignment_id: str, data: dict, course: tuple[str, str, str]) -> None:
    """At a launch of the assignment (a student's or an instructor's) from ``course``:
    its line item, if that course is the one whose members the dashboard lists."""
    ags = data.get(AGS_CLAIM)
    if isinstance(ags, dict) and isinstance(ags.get("lineitem"), str) and ags["lineitem"]:
        _courses().saw(assignment_id, *course, ags)


def _learner(member: dict) -> bool:
    roles = member.get("roles") or []
    return (isinstance(member.get("user_id"), str) and member.get("status", "Active") == "Active"
            and any(isinstance(r, str) and (r.endswith(LEARNER) or r == "Learner")
                    for r in roles))


def _title(context) -> str | None:
    """A course's title (else its short label) from a context claim or the list's ``context``."""
    if not isinstance(context, dict):
        return None
    return next((x for x in (context.get("title"), context.get("label"))
                 if isinstance(x, str) and x.strip()), None)


def _members(lti, row) -> tuple[list[dict], str | None, str | None]:
    """The course's members, and the course's id and title as the list names them (its
    ``context``)."""
    registration = lti.conf.find_registration_by_params(row.issuer, row.client_id)
    claim = json.loads(row.nrps)
    nrps = NamesRolesProvisioningService(ServiceConnector(registration,
                                                          TimedSession(row.issuer)), claim)
    out: list[dict] = []
    context = title = None
    url = claim["context_memberships_url"]
    for _ in range(PAGES):
        data = nrps.get_nrps_data(url)
        body = data.get("body") if isinstance(data.get("body"), dict) else {}
        out.extend(m for m in body.get("members") or [] if isinstance(m, dict))
        if context is None and isinstance(body.get("context"), dict):
            context, title = body["context"].get("id"), _title(body["context"])
        url = data.get("next_page_url")
        if not url:
            break
    return out, str(context) if isinstance(context, (str, int)) and context != "" else None, \
        title


def sync_course(a) -> dict | None:
    """The course's members added to the assignment's students (at most every
    :data:`EVERY` s), and after the due date the never-tried ones' 0 sent; what
    the dashboard says about it (``None``: not made by deep linking)."""
    lti = current_app.extensions.get("lti")
    courses = _courses()
    row = courses.get(a.id)
    if lti is None or row is None:
        return None
    if row.fetched is None or time.time() - row.fetched >= EVERY:
        try:
            members, context, title = _members(lti, row)
            if row.context_id is None and context is not None:
                courses.named(a.id, context)    # a row kept before 0006 recorded its course
                row = courses.get(a.id)
            learners = [m for m in members if _learner(m)]
            _add(lti, a, row, learners)
            courses.fetched(a.id, len(learners), None, title)
        except Exception as exc:  # noqa: BLE001 (the LMS down, refused, or odd: said, kept)
            log.warning("the course members of %s could not be read from %s: %s", a.id,
                        row.issuer, exc)
            courses.fetched(a.id, row.members, f"{exc.__class__.__name__}: {str(exc)[:200]}")
        row = courses.get(a.id)
    if a.spec.past_due(time.time()):
        _send_untried(lti, a)
    return {"issuer": row.issuer, "members": row.members, "fetched": row.fetched,
            "error": said(N_("The course's member list could not be read from the LMS: "
                             "{reason}"), reason=row.error) if row.error else None,
            "waiting": waiting(row)}


def waiting(row) -> list[dict]:
    """The courses whose members' scores wait for a launch from them: the member list's
    course while its line item is not known (no one has launched the assignment from it
    yet), with how many members and what to do, in the reader's language. Only this
    assignment's own course, of its own issuer (``row``); empty once a launch from it
    showed its line item, or while its course itself is not known (a row kept before
    migration 0006: the next read of the list names it)."""
    if row.context_id is None or Courses.grade_service(row) is not None or not row.members:
        return []
    # The LMS's title, isolated (FSI ... PDI): its direction cannot turn the sentence
    # around, and the page sets what is between the marks as text in a <bdi>.
    course = f"\u2068{row.title or row.context_id}\u2069"
    message = (N_("1 member of {course} will get their score in that course's gradebook once "
                  "you (or anyone in it) open this assignment from that course.")
               if row.members == 1 else
               N_("{count} members of {course} will get their scores in that course's "
                  "gradebook once you (or anyone in it) open this assignment from that course."))
    return [{"context_id": row.context_id, "title": row.title, "members": row.members,
             "message": said(message, count=row.members, course=course)}]


def _add(lti, a, row, learners: list[dict]) -> None:
    store = current_app.extensions["assignments"]
    budget = current_app.extensions["assignment_budget"]
    known = {st.key: st for st in store.students(a.id)}
    # The course's own line item (none until a launch from it shows it, nor while the
    # course of a row kept before migration 0006 is not known): never another course's.
    course = None if row.context_id is None else (row.deployment_id, row.context_id)
    ags = _courses().grade_service(row)
    have = lti.store.target_courses(a.id)
    placeholders = _placeholders(store, a.id)
    for m in learners:
        key = lms_key(row.issuer, m["user_id"])
        st = known.get(key)
        if st is None:
            # A member who never launched: a row with the course's line item (if known).
            if len(known) >= budget.students_per_assignment:
                break
            name = m.get("name") or " ".join(
                x for x in (m.get("given_name"), m.get("family_name")) if x) or m["user_id"]
            sis = m.get("lis_person_sourcedid")
            lti.store.student(a.id, key, str(name)[:200], sis if isinstance(sis, str) else None,
                              m.get("email") if isinstance(m.get("email"), str) else None,
                              PLACEHOLDER + secrets.token_hex(24), row.issuer, row.client_id,
                              m["user_id"], ags, budget.students_per_assignment, course=course)
            known[key] = True
            continue
        if course is None:
            continue
        # One known: their score goes to this course's line item too (they launched from
        # another course, or never: then to this one only, whatever was given before).
        mine = have.get(st.id, set())
        alone = st.id in placeholders
        if (alone and mine - {course}) or (ags is not None and course not in mine):
            lti.store.course_target(st.id, row.issuer, row.client_id, m["user_id"], ags,
                                    course, alone)


def _placeholders(store, assignment_id: str) -> set[int]:
    """The assignment's students made from the member list who never launched."""
    from sqlalchemy import select

    from app.db.schema import students

    with store.db.read() as c:
        return set(c.execute(select(students.c.id).where(
            students.c.assignment_id == assignment_id,
            students.c.token_hash.startswith(PLACEHOLDER, autoescape=True))).scalars())


def _send_untried(lti, a) -> None:
    """Past the due date: a 0 to the LMS for each LMS student who never submitted
    (once: a score already sent is not sent again unless it changes)."""
    store = current_app.extensions["assignments"]
    tried = {s.student_id for s in store.all_submissions(a.id)}
    for st in store.students(a.id):
        if not st.key.startswith("lti:") or st.id in tried:
            continue
        # Each line item (course) the student's score goes to that has had none yet; an
        # LMS not answering, the rest wait for the next opening of the dashboard.
        if any(t.sent is None for t in lti.store.grade_targets(st.id)) \
                and not lti.send_score(a, st):
            return
