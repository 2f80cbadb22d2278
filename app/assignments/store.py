"""Assignments, students and submissions in the database (:mod:`app.db`).

Every change is one transaction: a submission's attempt number, its limit,
the student's rate and the insert are decided together, so two submissions
at once never share an attempt or pass a limit, and a crash leaves either
the whole submission or none of it.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

from sqlalchemy import func, insert, select, update

from app.db import Database
from app.db.schema import assignment_trees, assignments, students, submissions
from app.treefile.errors import N_

from .errors import AssignmentError
from .exercises import student_key
from .spec import AssignmentSpec


@dataclass(frozen=True)
class Assignment:
    id: str
    title: str
    spec: AssignmentSpec
    token_hash: str
    secret: str
    created: float


@dataclass(frozen=True)
class Student:
    id: int
    assignment_id: str
    key: str
    name: str
    sis_id: str | None = None
    login: str | None = None
    section: str | None = None
    origin: str | None = None
    """``name`` (typed in the form), ``roster`` or ``lms`` (:mod:`app.db.schema`)."""

    @property
    def known(self) -> bool:
        """An identity someone vouches for (the roster, the LMS), not a typed name."""
        return self.origin in ("roster", "lms") or self.key.startswith("lti:")
    lms_id: str | None = None


@dataclass(frozen=True)
class Submission:
    student_id: int
    exercise: int
    attempt: int
    right: int
    total: int
    late: bool
    created: float
    answers: str = "{}"
    result: str = "{}"
    misconception: str | None = None
    """The misconception that explains the attempt (contract §8), if one does."""


KNOWN = 1000
"""Assignments kept in memory once read."""


class AssignmentStore:
    def __init__(self, db: Database):
        self.db = db
        self._known: dict[str, Assignment] = {}

    # -- assignments -----------------------------------------------------------
    def create(self, assignment_id: str, spec: AssignmentSpec, token_hash: str, secret: str,
               creator: str, trees: dict[str, tuple[str | None, str]],
               max_per_creator: int, window: float) -> None:
        """Store a new assignment with its own copies of uploaded ``trees``
        (id -> (format, text)); refused (413) past ``max_per_creator`` in ``window`` s."""
        now = time.time()
        with self.db.write() as c:
            made = c.execute(select(func.count()).select_from(assignments).where(
                assignments.c.creator == creator, assignments.c.created > now - window)).scalar()
            if made >= max_per_creator:
                raise AssignmentError(N_("Too many assignments made from here: {count}, the "
                                         "limit is {limit} a day."), 429, count=made,
                                      limit=max_per_creator, retry_after=3600)
            c.execute(insert(assignments).values(
                id=assignment_id, title=spec.title, spec=spec.to_json(), token_hash=token_hash,
                secret=secret, creator=creator[:100], created=now))
            for tree_id, (fmt, text) in trees.items():
                c.execute(insert(assignment_trees).values(
                    assignment_id=assignment_id, tree_id=tree_id, format=fmt, text=text))

    def get(self, assignment_id: str) -> Assignment | None:
        """The assignment (kept in memory once read: an assignment never changes)."""
        found = self._known.get(assignment_id)
        if found is not None:
            return found
        with self.db.read() as c:
            row = c.execute(select(assignments).where(assignments.c.id == assignment_id)).first()
        if row is None:
            return None
        found = Assignment(row.id, row.title, AssignmentSpec.from_json(row.spec), row.token_hash,
                           row.secret, row.created)
        if len(self._known) >= KNOWN:
            self._known.pop(next(iter(self._known)))
        self._known[assignment_id] = found
        return found

    def tree_copy(self, assignment_id: str, tree_id: str) -> tuple[str | None, str] | None:
        with self.db.read() as c:
            row = c.execute(select(assignment_trees.c.format, assignment_trees.c.text).where(
                assignment_trees.c.assignment_id == assignment_id,
                assignment_trees.c.tree_id == tree_id)).first()
        return None if row is None else (row.format, row.text)

    # -- students --------------------------------------------------------------
    def add_students(self, assignment_id: str, rows: list[dict], max_students: int,
                     fills: list[dict] = ()) -> list[int]:
        """Add students (``key``, ``name``, ``token_hash``, optional ``sis_id``,
        ``login``, ``section``, ``origin``), all or none: 409 when one is there already,
        413 past ``max_students``. In the same transaction, ``fills`` (``id``, ``sis_id``,
        ``login``, ``section``) give id-less roster students their id (their key, link and
        work stay): 409 when one has one meanwhile."""
        now = time.time()
        with self.db.write() as c:
            for f in fills:
                if c.execute(update(students).where(
                        students.c.id == f["id"], students.c.assignment_id == assignment_id,
                        students.c.origin == "roster", students.c.sis_id.is_(None)).values(
                        sis_id=f["sis_id"],
                        login=func.coalesce(f.get("login"), students.c.login),
                        section=func.coalesce(f.get("section"), students.c.section))
                        ).rowcount != 1:
                    raise AssignmentError(N_("The roster changed meanwhile: upload the list "
                                             "again."), 409)
            have = c.execute(select(func.count()).select_from(students).where(
                students.c.assignment_id == assignment_id)).scalar()
            if have + len(rows) > max_students:
                raise AssignmentError(N_("This assignment is full: {limit} students at most."),
                                      413, limit=max_students)
            keys = [r["key"] for r in rows]
            taken = c.execute(select(students.c.name).where(
                students.c.assignment_id == assignment_id, students.c.key.in_(keys))).first()
            if taken is not None:
                raise AssignmentError(N_("{name} has already started this assignment: use "
                                         "your personal link, or ask your instructor for it."),
                                      409, argument="student", name=taken.name)
            ids = []
            for r in rows:
                ids.append(c.execute(insert(students).values(
                    assignment_id=assignment_id, key=r["key"], name=r["name"],
                    sis_id=r.get("sis_id"), login=r.get("login"), section=r.get("section"),
                    token_hash=r["token_hash"], created=now, origin=r.get("origin"),
                    join_hash=r.get("join_hash"))).inserted_primary_key[0])
            return ids

    def rejoin(self, assignment_id: str, key: str, join_hash: str,
               token_hash: str) -> Student | None:
        """The typed name's student whose name form sent this request key (``join_hash``)
        before, now with the token ``token_hash`` (the one they never got replaced);
        ``None`` when no such student (another person, a roster's or LMS's identity)."""
        mine = (students.c.assignment_id == assignment_id, students.c.key == key,
                students.c.origin == "name", students.c.join_hash == join_hash)
        return self._new_token(mine, token_hash)

    def new_link(self, assignment_id: str, key: str, token_hash: str,
                 origins: tuple[str, ...]) -> Student | None:
        """The student ``key`` (of one of ``origins``) with the token ``token_hash``
        instead of theirs (their old link stops working, and the name form's request key
        too: the new link is the only way in); ``None`` when no such student."""
        mine = (students.c.assignment_id == assignment_id, students.c.key == key,
                students.c.origin.in_(origins))
        return self._new_token(mine, token_hash, join_hash=None)

    def _new_token(self, where: tuple, token_hash: str, **more) -> Student | None:
        with self.db.write() as c:
            if c.execute(update(students).where(*where)
                         .values(token_hash=token_hash, **more)).rowcount != 1:
                return None
            return _student(c.execute(select(students).where(*where)).first())

    def student_by_token(self, assignment_id: str, token_hash: str) -> Student | None:
        with self.db.read() as c:
            row = c.execute(select(students).where(students.c.assignment_id == assignment_id,
                                                   students.c.token_hash == token_hash)).first()
        return _student(row)

    def student_by_key(self, assignment_id: str, key: str) -> Student | None:
        with self.db.read() as c:
            row = c.execute(select(students).where(students.c.assignment_id == assignment_id,
                                                   students.c.key == key)).first()
        return _student(row)

    def student_by_identity(self, assignment_id: str, key: str) -> Student | None:
        """The student of ``key``, else the roster student whose id it is (normalised as
        keys are): one keyed by their name, given their id by the official list later."""
        found = self.student_by_key(assignment_id, key)
        if found is not None:
            return found
        with self.db.read() as c:
            rows = c.execute(select(students).where(
                students.c.assignment_id == assignment_id, students.c.origin == "roster",
                students.c.sis_id.is_not(None)).order_by(students.c.id)).all()
        # normalised in Python, as the keys were (a roster's ids are few)
        return next((_student(r) for r in rows if student_key(r.sis_id) == key), None)

    def students(self, assignment_id: str) -> list[Student]:
        with self.db.read() as c:
            rows = c.execute(select(students).where(students.c.assignment_id == assignment_id)
                             .order_by(students.c.name, students.c.id)).all()
        return [_student(r) for r in rows]

    # -- submissions -----------------------------------------------------------
    def submit(self, student_id: int, exercise: int, answers: dict, right: int, total: int,
               result: dict, late: bool, attempts: int | None, per_minute: int,
               attempt: int | None = None, misconception: str | None = None) -> int | None:
        """Record one graded submission; its attempt number.

        ``attempt`` fixed (a guided question's): recorded only the first time
        (``None`` after). Refused: 409 past ``attempts``, 429 past
        ``per_minute`` submissions in the last minute."""
        now = time.time()
        with self.db.write() as c:
            # One submission of a student at a time (SQLite's BEGIN IMMEDIATE does it for all).
            c.execute(select(students.c.id).where(students.c.id == student_id).with_for_update())
            recent = c.execute(select(func.count()).select_from(submissions).where(
                submissions.c.student_id == student_id,
                submissions.c.created > now - 60)).scalar()
            if recent >= per_minute:
                raise AssignmentError(N_("Too many submissions: at most {limit} a minute. Try "
                                         "again in a minute."), 429, limit=per_minute,
                                      retry_after=60)
            mine = submissions.c.student_id == student_id
            if attempt is None:
                used = c.execute(select(func.coalesce(func.max(submissions.c.attempt), 0)).where(
                    mine, submissions.c.exercise == exercise)).scalar()
                if attempts is not None and used >= attempts:
                    raise AssignmentError(N_("No attempts left: this exercise allows {n}."),
                                          409, n=attempts)
                attempt = used + 1
            elif c.execute(select(submissions.c.id).where(
                    mine, submissions.c.exercise == exercise,
                    submissions.c.attempt == attempt)).first() is not None:
                return None
            c.execute(insert(submissions).values(
                student_id=student_id, exercise=exercise, attempt=attempt,
                answers=dumps(answers), right=right, total=total, result=dumps(result),
                late=late, created=now, misconception=misconception))
            return attempt

    def submissions(self, student_id: int, exercise: int | None = None,
                    full: bool = False) -> list[Submission]:
        cols = _columns(full)
        q = select(*cols).where(submissions.c.student_id == student_id)
        if exercise is not None:
            q = q.where(submissions.c.exercise == exercise)
        with self.db.read() as c:
            rows = c.execute(q.order_by(submissions.c.exercise, submissions.c.attempt)).all()
        return [Submission(**r._mapping) for r in rows]

    def all_submissions(self, assignment_id: str, full: bool = False) -> list[Submission]:
        """Every submission of the assignment (one query: the dashboard's)."""
        q = (select(*_columns(full)).join(students, students.c.id == submissions.c.student_id)
             .where(students.c.assignment_id == assignment_id)
             .order_by(submissions.c.student_id, submissions.c.exercise, submissions.c.attempt))
        with self.db.read() as c:
            return [Submission(**r._mapping) for r in c.execute(q).all()]


def dumps(value) -> str:
    """Strict JSON of what a student sent (``Infinity`` or ``1e400`` in a JSON body
    arrives as a float no strict JSON holds: kept as the text ``"inf"``)."""
    return json.dumps(_plain(value), allow_nan=False)


PLAIN_DEPTH = 16
"""Levels of a student's answers kept (an entry sits 4 deep): deeper is kept as "…",
never walked (a body 800 levels deep passed the recursion limit: a 500)."""


def _plain(value, depth: int = 0):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, (dict, list, tuple)) and depth >= PLAIN_DEPTH:
        return "…"
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return value


def _columns(full: bool):
    cols = [submissions.c.student_id, submissions.c.exercise, submissions.c.attempt,
            submissions.c.right, submissions.c.total, submissions.c.late, submissions.c.created,
            submissions.c.misconception]
    if full:
        cols += [submissions.c.answers, submissions.c.result]
    return cols


def _student(row) -> Student | None:
    if row is None:
        return None
    return Student(row.id, row.assignment_id, row.key, row.name, row.sis_id, row.login,
                   row.section, row.origin, row.lms_id)
