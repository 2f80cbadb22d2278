"""What LTI 1.3 keeps in the results database (:mod:`app.db`, migration 0002).

- :class:`DbLaunchData`: PyLTI1p3's launch data storage (the OIDC state and
  nonce it issued, the validated launch) in a table instead of the browser's
  cookies, so that a launch inside the LMS's frame needs no third-party cookie;
- nonces used once (:meth:`LtiStore.use_nonce`): PyLTI1p3 checks that a
  nonce was issued, not that it was not used before;
- the courses (platform, deployment, context) each assignment may be launched
  from (migration 0003);
- where each LMS student's score goes back to, one line item per course they
  launched from (the course recorded with it, migration 0006), and the score
  last sent there;
- short-lived instructor keys minted by an instructor's launch.
"""
from __future__ import annotations

import json
import time

from pylti1p3.launch_data_storage.base import LaunchDataStorage
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from app.db import Database
from app.db.schema import (assignment_contexts, instructor_tokens, lti_kv, lti_nonces, lti_scores,
                           students)

LAUNCH_SECONDS = 3600
EXPIRED_KEPT = 30 * 86_400
"""Seconds an expired instructor key is kept (to say it expired, not that it is wrong)."""


class DbLaunchData(LaunchDataStorage):
    """PyLTI1p3's key-value launch storage on the results database."""

    _session_cookie_name = None     # no session cookie: the state travels in the form post

    def __init__(self, db: Database):
        super().__init__()
        self.db = db

    def get_session_cookie_name(self):
        return None

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str):
        key = self._prepare_key(key)
        with self.db.read() as c:
            row = c.execute(select(lti_kv.c.value, lti_kv.c.expires)
                            .where(lti_kv.c.key == key)).first()
        if row is None or row.expires < time.time():
            return None
        return json.loads(row.value)

    def set_value(self, key: str, value, exp: int | None = None) -> None:
        key = self._prepare_key(key)
        now = time.time()
        with self.db.write() as c:
            c.execute(delete(lti_kv).where(lti_kv.c.key == key))
            c.execute(delete(lti_kv).where(lti_kv.c.expires < now))     # keep it small
            c.execute(insert(lti_kv).values(key=key, value=json.dumps(value),
                                            expires=now + (exp or LAUNCH_SECONDS)))

    def check_value(self, key: str) -> bool:
        return self.get_value(key) is not None


def lineitem_of(ags: dict) -> str:
    """The line item a launch's AGS claim names (its container if none)."""
    return str(ags.get("lineitem") or ags.get("lineitems") or "")[:500]


def _target(c, student_id: int, issuer: str, client_id: str, sub: str, ags: dict,
            course: tuple[str, str] | None) -> None:
    """Where a student's score goes: the line item of ``ags`` in ``course``. A line item is
    one course's gradebook column, so a row of it kept before the course was recorded
    (migration 0006 could not tell) learns its course here too."""
    item = lineitem_of(ags)
    deployment_id, context_id = course or (None, None)
    c.execute(delete(lti_scores).where(lti_scores.c.student_id == student_id,
                                       lti_scores.c.lineitem == item))
    c.execute(insert(lti_scores).values(student_id=student_id, lineitem=item, issuer=issuer,
                                        client_id=client_id, user_sub=sub, ags=json.dumps(ags),
                                        sent=None, deployment_id=deployment_id,
                                        context_id=context_id))
    if context_id is not None:
        c.execute(update(lti_scores).where(
            lti_scores.c.issuer == issuer, lti_scores.c.lineitem == item,
            lti_scores.c.context_id.is_(None)).values(deployment_id=deployment_id,
                                                      context_id=context_id))


ID_CHARS = students.c.sis_id.type.length
"""The longest id a student row keeps (``sis_id`` and ``login``: 100)."""


def _fits(value, length: int) -> str | None:
    """``value`` as text if it is an id (text, or a number) that fits ``length``."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return value if isinstance(value, str) and len(value) <= length else None


class LtiStore:
    def __init__(self, db: Database):
        self.db = db

    def use_nonce(self, nonce: str) -> bool:
        """Mark ``nonce`` used; ``False`` if it was (a replayed launch)."""
        try:
            with self.db.write() as c:
                c.execute(delete(lti_nonces).where(lti_nonces.c.used < time.time() - 86_400))
                c.execute(insert(lti_nonces).values(nonce=nonce[:255], used=time.time()))
        except IntegrityError:
            return False
        return True

    def nonces(self) -> int:
        with self.db.read() as c:
            return len(c.execute(select(lti_nonces.c.nonce)).all())

    # -- students from an LMS ----------------------------------------------------
    def student(self, assignment_id: str, key: str, name: str, sis_id: str | None,
                login: str | None, token_hash: str, issuer: str, client_id: str,
                sub: str, ags: dict | None, max_students: int,
                course: tuple[str, str] | None = None) -> int:
        """The student of this launch (made at the first), with a fresh personal token and
        where their score goes: the line item of ``ags``, in ``course`` (the launch's
        deployment and context); their id."""
        from app.assignments.errors import AssignmentError
        from app.treefile.errors import N_

        now = time.time()
        # An id longer than its column is left out, not cut: cut, it would match no one (or
        # the wrong one) in the LMS's import, and PostgreSQL refuses it whole.
        sis_id, login = _fits(sis_id, ID_CHARS), _fits(login, ID_CHARS)
        with self.db.write() as c:
            row = c.execute(select(students.c.id).where(
                students.c.assignment_id == assignment_id, students.c.key == key)).first()
            if row is None:
                have = len(c.execute(select(students.c.id).where(
                    students.c.assignment_id == assignment_id)).all())
                if have >= max_students:
                    raise AssignmentError(N_("This assignment is full: {limit} students at "
                                             "most."), 413, limit=max_students)
                sid = c.execute(insert(students).values(
                    assignment_id=assignment_id, key=key, name=name[:200], sis_id=sis_id,
                    login=login, token_hash=token_hash, created=now,
                    origin="lms")).inserted_primary_key[0]
            else:
                sid = row.id
                # A launch without an id keeps the one known (the course's member list's).
                c.execute(update(students).where(students.c.id == sid).values(
                    token_hash=token_hash, name=name[:200],
                    sis_id=func.coalesce(sis_id, students.c.sis_id),
                    login=func.coalesce(login, students.c.login)))
            if ags is not None:     # this course's line item, kept beside the others
                _target(c, sid, issuer, client_id, sub, ags, course)
            return sid

    def course_target(self, student_id: int, issuer: str, client_id: str, sub: str,
                      ags: dict | None, course: tuple[str, str], alone: bool) -> None:
        """A course member's score target: their course's line item (``ags``; ``None``
        while no launch from it has shown it) beside the ones they launched from; for a
        member who never launched (``alone``), instead of any other (one the member list
        gave before: another course's, or one that could not tell its course)."""
        deployment_id, context_id = course
        mine = (lti_scores.c.deployment_id == deployment_id) & (
            lti_scores.c.context_id == context_id)
        with self.db.write() as c:
            if alone:
                c.execute(delete(lti_scores).where(
                    lti_scores.c.student_id == student_id,
                    lti_scores.c.context_id.is_(None) | ~mine))
            if ags is None or c.execute(select(lti_scores.c.lineitem).where(
                    lti_scores.c.student_id == student_id, mine)).first() is not None:
                return
            _target(c, student_id, issuer, client_id, sub, ags, course)

    def target_courses(self, assignment_id: str) -> dict[int, set[tuple]]:
        """Student id -> the courses (deployment, context) of their score targets."""
        with self.db.read() as c:
            rows = c.execute(select(lti_scores.c.student_id, lti_scores.c.deployment_id,
                                    lti_scores.c.context_id).join(
                students, students.c.id == lti_scores.c.student_id).where(
                students.c.assignment_id == assignment_id)).all()
        out: dict[int, set[tuple]] = {}
        for r in rows:
            out.setdefault(r.student_id, set()).add((r.deployment_id, r.context_id))
        return out

    def grade_targets(self, student_id: int) -> list:
        """Every line item the student launched from (each course's gradebook column)."""
        with self.db.read() as c:
            return c.execute(select(lti_scores).where(lti_scores.c.student_id == student_id)
                             .order_by(lti_scores.c.lineitem)).all()

    def sent(self, student_id: int, lineitem: str, score: float) -> None:
        with self.db.write() as c:
            c.execute(update(lti_scores).where(lti_scores.c.student_id == student_id,
                                               lti_scores.c.lineitem == lineitem)
                      .values(sent=score))

    # -- courses ------------------------------------------------------------------------
    def bind(self, assignment_id: str, issuer: str, deployment_id: str, context_id: str) -> None:
        """The assignment may be launched from this course (made or linked there)."""
        key = dict(assignment_id=assignment_id, issuer=issuer[:255],
                   deployment_id=deployment_id[:255], context_id=context_id[:255])
        with self.db.write() as c:
            c.execute(delete(assignment_contexts).where(
                *(getattr(assignment_contexts.c, k) == v for k, v in key.items())))
            c.execute(insert(assignment_contexts).values(**key))

    def bound(self, assignment_id: str, issuer: str, deployment_id: str, context_id: str) -> bool:
        with self.db.read() as c:
            return c.execute(select(assignment_contexts.c.assignment_id).where(
                assignment_contexts.c.assignment_id == assignment_id,
                assignment_contexts.c.issuer == issuer,
                assignment_contexts.c.deployment_id == deployment_id,
                assignment_contexts.c.context_id == context_id)).first() is not None

    # -- instructors from an LMS ------------------------------------------------------
    def mint_instructor(self, assignment_id: str, token_hash: str, seconds: int = 12 * 3600):
        with self.db.write() as c:
            # An expired key is kept a while, so that its instructor is told it expired.
            c.execute(delete(instructor_tokens).where(
                instructor_tokens.c.expires < time.time() - EXPIRED_KEPT))
            c.execute(insert(instructor_tokens).values(token_hash=token_hash,
                                                       assignment_id=assignment_id,
                                                       expires=time.time() + seconds))

    def instructor_ok(self, assignment_id: str, token_hash: str) -> bool:
        with self.db.read() as c:
            row = c.execute(select(instructor_tokens.c.expires).where(
                instructor_tokens.c.token_hash == token_hash,
                instructor_tokens.c.assignment_id == assignment_id)).first()
        return row is not None and row.expires > time.time()

    def instructor_expired(self, assignment_id: str, token_hash: str) -> bool:
        """Was this a key an instructor's launch minted, now expired?"""
        with self.db.read() as c:
            row = c.execute(select(instructor_tokens.c.expires).where(
                instructor_tokens.c.token_hash == token_hash,
                instructor_tokens.c.assignment_id == assignment_id)).first()
        return row is not None and row.expires <= time.time()
