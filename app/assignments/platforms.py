"""LMS platforms registered by LTI Dynamic Registration, kept in the results
database (table ``lti_platforms``, migration 0004) rather than the config
file: every process sees a registration, or an administrator disabling one,
at its next lookup, and it survives restarts.

:class:`Platforms` is the store; :class:`RegisteredPlatforms` is the part of
the tool's PyLTI1p3 configuration (:class:`app.web.lti.ToolConf`) that
finds an issuer and client id here when the config file does not name them.
No Flask here.
"""
from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import hashlib

from sqlalchemy import delete, insert, select, update

from app.db import Database
from app.db.schema import assignment_contexts, lti_courses, lti_platforms, lti_scores, students


class Platforms:
    def __init__(self, db: Database):
        self.db = db

    def add(self, *, issuer: str, client_id: str, deployment_ids: list[str],
            auth_login_url: str, auth_token_url: str, key_set_url: str,
            auth_audience: str | None, product: str | None) -> int:
        """Keep a registration (a second one of the same issuer and client id
        replaces the first and is enabled again); its id."""
        values = dict(deployment_ids=json.dumps(deployment_ids), auth_login_url=auth_login_url,
                      auth_token_url=auth_token_url, key_set_url=key_set_url,
                      auth_audience=auth_audience, product=(product or "")[:200] or None,
                      registered=time.time(), disabled=None)
        with self.db.write() as c:
            row = c.execute(select(lti_platforms.c.id).where(
                lti_platforms.c.issuer == issuer, lti_platforms.c.client_id == client_id)
                .with_for_update()).first()
            if row is not None:
                c.execute(update(lti_platforms).where(lti_platforms.c.id == row.id)
                          .values(**values))
                return row.id
            return c.execute(insert(lti_platforms).values(
                issuer=issuer, client_id=client_id, **values)).inserted_primary_key[0]

    def find(self, issuer: str, client_id: str | None = None) -> dict | None:
        """The enabled registration of ``issuer`` (and ``client_id``; without one,
        the newest of the issuer's), as PyLTI1p3's tool configuration holds one."""
        q = select(lti_platforms).where(lti_platforms.c.issuer == issuer,
                                        lti_platforms.c.disabled.is_(None))
        if client_id is not None:
            q = q.where(lti_platforms.c.client_id == client_id)
        with self.db.read() as c:
            row = c.execute(q.order_by(lti_platforms.c.registered.desc()).limit(1)).first()
        return None if row is None else _conf(row)

    def all(self) -> list[dict]:
        with self.db.read() as c:
            rows = c.execute(select(lti_platforms).order_by(lti_platforms.c.id)).all()
        return [{"id": r.id, "issuer": r.issuer, "client_id": r.client_id,
                 "deployment_ids": json.loads(r.deployment_ids), "product": r.product,
                 "registered": r.registered, "disabled": r.disabled} for r in rows]

    def disable(self, platform_id: int) -> bool:
        with self.db.write() as c:
            done = c.execute(update(lti_platforms).where(
                lti_platforms.c.id == platform_id, lti_platforms.c.disabled.is_(None))
                .values(disabled=time.time()))
            return done.rowcount > 0

    def origins(self) -> list[str]:
        """The enabled platforms' origins (they frame the pages and receive deep links)."""
        with self.db.read() as c:
            rows = c.execute(select(lti_platforms.c.auth_login_url).where(
                lti_platforms.c.disabled.is_(None))).all()
        return sorted({origin(r.auth_login_url) for r in rows})

    def remember_lms_id(self, assignment_id: str, key: str, lms_id) -> None:
        """A student's own id in the LMS (Canvas's user id, which its gradebook import
        matches in the ``ID`` column), from a launch's custom claim."""
        if not isinstance(lms_id, (str, int)) or not str(lms_id).isdigit():
            return       # absent, or the variable unsubstituted ("$Canvas.user.id")
        with self.db.write() as c:
            c.execute(update(students).where(students.c.assignment_id == assignment_id,
                                             students.c.key == key)
                      .values(lms_id=str(lms_id)[:100]))


def lms_key(issuer: str, sub: str) -> str:
    """A student's identity from their LMS (seeds their trees): the one a launch gives
    (:mod:`app.web.lti`) and the course's member list gives the same student."""
    return "lti:" + hashlib.sha256(f"{issuer}\x00{sub}".encode()).hexdigest()[:32]


PLACEHOLDER = "nrps:"
"""The start of the token hash of a student made from the course's member list: no
personal link yet (their first launch gives them one)."""


class Courses:
    """The course each deep-linked assignment belongs to (platform, deployment, context):
    where its members are read (Names and Role Provisioning Services), how the last read
    went, and its own line item, the score target of its members who never launched."""

    def __init__(self, db: Database):
        self.db = db

    def remember(self, assignment_id: str, issuer: str, client_id: str, nrps: dict,
                 deployment_id: str, context_id: str, title: str | None = None) -> None:
        with self.db.write() as c:
            c.execute(delete(lti_courses).where(lti_courses.c.assignment_id == assignment_id))
            c.execute(insert(lti_courses).values(
                assignment_id=assignment_id, issuer=issuer, client_id=client_id,
                nrps=json.dumps(nrps), deployment_id=deployment_id[:255],
                context_id=context_id[:255], title=course_title(title)))

    def get(self, assignment_id: str):
        with self.db.read() as c:
            return c.execute(select(lti_courses).where(
                lti_courses.c.assignment_id == assignment_id)).first()

    def fetched(self, assignment_id: str, members: int | None, error: str | None,
                title: str | None = None) -> None:
        """How the read of the member list went (and the course's title, if it gave one)."""
        values = dict(fetched=time.time(), members=members, error=error)
        title = course_title(title)
        if title:
            values["title"] = title
        with self.db.write() as c:
            c.execute(update(lti_courses).where(lti_courses.c.assignment_id == assignment_id)
                      .values(**values))

    def saw(self, assignment_id: str, issuer: str, deployment_id: str, context_id: str,
            ags: dict) -> None:
        """A launch of the assignment from this course showed its line item (``ags``, the
        launch's AGS claim): if it is the member list's course, its members' score target.
        A line item newly known has the members read again at the next dashboard (they
        get it then)."""
        course = (lti_courses.c.assignment_id == assignment_id) & (
            lti_courses.c.issuer == issuer) & (lti_courses.c.deployment_id == deployment_id) \
            & (lti_courses.c.context_id == context_id)
        with self.db.read() as c:
            row = c.execute(select(lti_courses.c.ags).where(course)).first()
        if row is None or (row.ags and json.loads(row.ags).get("lineitem") == ags["lineitem"]):
            return
        with self.db.write() as c:
            c.execute(update(lti_courses).where(course).values(ags=json.dumps(ags),
                                                               fetched=None))

    def named(self, assignment_id: str, context_id: str) -> None:
        """The member list named its course (its ``context``): an assignment's row kept
        before the course was recorded (migration 0006 could not tell, the assignment being
        in several courses of the LMS) takes it, if the assignment is bound there, with
        the line item its launches from there showed."""
        row = self.get(assignment_id)
        if row is None or row.context_id is not None:
            return
        with self.db.read() as c:
            found = c.execute(select(assignment_contexts.c.deployment_id).where(
                assignment_contexts.c.assignment_id == assignment_id,
                assignment_contexts.c.issuer == row.issuer,
                assignment_contexts.c.context_id == context_id)).all()
            if len(found) != 1:
                return
            deployment_id = found[0].deployment_id
            claims = c.execute(select(lti_scores.c.ags).join(
                students, students.c.id == lti_scores.c.student_id).where(
                students.c.assignment_id == assignment_id, lti_scores.c.issuer == row.issuer,
                lti_scores.c.deployment_id == deployment_id,
                lti_scores.c.context_id == context_id).order_by(lti_scores.c.lineitem)).all()
        ags = next((r.ags for r in claims if json.loads(r.ags).get("lineitem")), None)
        with self.db.write() as c:
            c.execute(update(lti_courses).where(lti_courses.c.assignment_id == assignment_id,
                                                lti_courses.c.context_id.is_(None))
                      .values(deployment_id=deployment_id, context_id=context_id, ags=ags))

    @staticmethod
    def grade_service(row) -> dict | None:
        """The Assignment and Grade Services claim the members of the course of ``row``
        (:meth:`get`) share: its own line item, once a launch from that course showed
        it; ``None`` until then, or while the course itself is not known (never another
        course's line item: one link per course, each its own gradebook column)."""
        if row is None or row.context_id is None or not row.ags:
            return None
        return json.loads(row.ags)


def course_title(title) -> str | None:
    """A course's title as the LMS gives it (a launch's context claim, the member list's
    ``context``): any text, kept on one line and cut short; shown escaped.

    >>> course_title("  Game\\n search "), course_title(7), course_title("")
    ('Game search', None, None)
    """
    if not isinstance(title, str):
        return None
    return " ".join(title.split())[:255] or None


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _conf(row) -> dict:
    return {"default": True, "client_id": row.client_id, "auth_login_url": row.auth_login_url,
            "auth_token_url": row.auth_token_url, "key_set_url": row.key_set_url,
            "key_set": None, "auth_audience": row.auth_audience,
            "deployment_ids": json.loads(row.deployment_ids)}


class RegisteredPlatforms:
    """Mixed into PyLTI1p3's dictionary configuration: an issuer (and client id)
    the dictionary does not hold is looked up in the database, every time (a
    platform disabled in one process is refused by all at once), and signed
    for with the tool's one key pair. ``registered`` (a :class:`Platforms`) and
    ``tool_keys`` (a function giving the (private, public) PEM pair) are set
    once the app is made; until then only the dictionary counts."""

    registered: Platforms | None = None
    tool_keys = None

    def get_iss_config(self, iss, client_id=None):
        try:
            return super().get_iss_config(iss, client_id)
        except Exception:
            found = self.registered.find(iss, client_id) if self.registered else None
            if found is None:
                raise
            return found

    def _from_database(self, iss: str) -> bool:
        return self.registered is not None and not self.check_iss_has_one_client(iss) \
            and not self.check_iss_has_many_clients(iss)

    def get_private_key(self, iss, client_id=None):
        if self._from_database(iss):
            return self.tool_keys()[0]
        return super().get_private_key(iss, client_id)

    def get_public_key(self, iss, client_id=None):
        if self._from_database(iss):
            return self.tool_keys()[1]
        return super().get_public_key(iss, client_id)
