"""Homework that grades itself over HTTP (contract §7), and its pages.

- ``POST /api/assignments`` -> ``201 {"id", "student": "/a/<id>", "instructor", "dashboard"}``
- Students (their personal token in ``X-Student-Token``, from ``/a/<id>``'s
  name form or a roster's personal link ``/a/<id>#s=<token>``):
  ``GET /api/assignments/<id>`` (title, due, feedback), ``POST .../students``
  ``{"student": name, "request": the page's random key}`` (once; again with the same
  key after a lost answer), ``GET .../me``, ``POST .../me/exercises/<i>``.
- The instructor (``Authorization: Bearer <token>``, checked on every request;
  401 without, 403 wrong): ``GET .../students/<student>/exercises``,
  ``.../students/<student>/attempts``, ``.../results`` (JSON),
  ``.../grades.csv?format=canvas|moodle``, ``POST .../roster`` (CSV),
  ``POST .../students/<student>/link`` (a new personal link; the old one stops working).
- Pages: ``/a/<id>`` (the student's), ``/a/<id>/<i>`` (an exercise, on
  practice's page), ``/a/<id>/dashboard`` (the instructor's; token in the fragment).

Unknown ids, wrong personal tokens and wrong instructor tokens count as
guesses per client address; past the limit they, and requests with no token,
get 429 + ``Retry-After``; a request carrying a valid token never does. The logic is in
:mod:`app.assignments`; the database in :mod:`app.db`.
"""
from __future__ import annotations

import json
import math
import os
import re
import secrets
import time
import unicodedata

import limits
from flask import Blueprint, Response, current_app, jsonify, render_template, request
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.assignments.errors import AssignmentError
from app.assignments.exercises import exercises_for, student_key, typed_key
from app.assignments.gradebook import (canvas_csv, exercise_stats, moodle_csv, percent, table,
                                       exercise_scores, left_out)
from app.assignments.grading import grade, guided_total, shown
from app.assignments.access import key_allowed, ways_in
from app.assignments.making import is_instructor
from app.assignments.roster import match_roster, read_roster
from app.assignments.store import Assignment, AssignmentStore, Student
from app.budget import AssignmentBudget
from app.classes.codes import token_hash
from app.db import open_database, schema, sqlite_url
from app.i18n import words
from app.practice.misconceptions import LIBRARY
from app.practice.words import speaking

from .addresses import client_address
from .assignment_maker import maker_page, new_assignment
from .errors import ApiError, said
from .i18n import page_language
from .lti_roster import silent_said, sync_course
from .results_db import UNREACHABLE
from .practice import MODES

bp = Blueprint("assignments", __name__)

NAME_CHARS = schema.students.c.name.type.length
"""The longest name a student row keeps (200)."""
SUBMIT_KEYS = {"answers", "ordering", "index", "answer", "reveal",
               # practice's page sends its options too; the exercise's own are used
               "tree", "mode", "strict", "style", "depth", "algorithm"}


@bp.record_once
def _setup(state) -> None:
    """The results database (migrated now) and the guess limiter."""
    app = state.app
    url = (app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
           or sqlite_url(os.path.join(app.instance_path, "results.sqlite3")))
    db = open_database(url)
    app.extensions["results_db"] = db
    app.extensions["assignments"] = AssignmentStore(db)
    budget = AssignmentBudget.from_mapping(app.config.get("ASSIGNMENT_BUDGET"))
    app.extensions["assignment_budget"] = budget
    queue = app.config.get("MESSAGE_QUEUE")
    app.extensions["assignment_guesses"] = (
        MovingWindowRateLimiter(storage_from_string(queue or "memory://")),
        limits.parse(budget.guesses_per_minute))


def _store() -> AssignmentStore:
    return current_app.extensions["assignments"]


def _budget() -> AssignmentBudget:
    return current_app.extensions["assignment_budget"]


@bp.after_request
def _framed(response):
    """When LMSs are registered, they may frame the assignment pages (the policy
    :mod:`app.web.lti` makes at start-up)."""
    lti = current_app.extensions.get("lti")
    if lti is not None and lti.origins:
        response.headers["Content-Security-Policy"] = lti.frame_policy
    return response


# -- errors ------------------------------------------------------------------

@bp.app_errorhandler(AssignmentError)   # the LTI blueprint raises them too
def _refused(exc: AssignmentError):
    body = {"message": said(exc.msgid, **exc.fields)}
    if exc.argument:
        body["argument"] = exc.argument
    response = jsonify({"error": body})
    response.status_code = exc.status
    if exc.retry_after:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _guard() -> None:
    """429 if this address has missed too often: asked only of a request that carries
    no valid token (an unknown id, a wrong token, or none), never of one that does, so
    one guesser behind the hall's shared address locks no student or instructor out."""
    limiter, item = current_app.extensions["assignment_guesses"]
    client = client_address()
    if not limiter.test(item, "assignment-guess", client):
        stats = limiter.get_window_stats(item, "assignment-guess", client)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        raise AssignmentError("Too many wrong links from this device: try again in {seconds} s.",
                              429, retry_after=wait, seconds=wait)


def _missed() -> None:
    """Count a miss of this address; past the limit, refuse it (guessing stays slow)."""
    _guard()
    limiter, item = current_app.extensions["assignment_guesses"]
    limiter.hit(item, "assignment-guess", client_address())


def _assignment(assignment_id: str) -> Assignment:
    found = _store().get(assignment_id) if len(assignment_id) <= 32 else None
    if found is None:
        _missed()
        raise AssignmentError("There is no assignment {id}: check the link.", 404,
                              id=repr(assignment_id[:40]))
    return found


def _open(assignment_id: str) -> Assignment:
    """An assignment asked for without a token (its title, a registration): a locked
    address gets the same 429 whether the id exists or not."""
    _guard()
    return _assignment(assignment_id)


def _instructor(assignment_id: str) -> Assignment:
    """The assignment, if the request carries its instructor token (401/403 otherwise)."""
    a = _assignment(assignment_id)
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        _guard()
        raise AssignmentError("This needs the instructor's link (Authorization: Bearer).", 401)
    token = header[7:].strip()
    lti = current_app.extensions.get("lti")     # keys minted by an instructor's LMS launch
    if not is_instructor(a, token, lti.store if lti else None):
        if lti is not None and len(token) <= 100 and lti.store.instructor_expired(
                a.id, token_hash(token)):     # theirs, from a launch yesterday: not a guess
            raise AssignmentError("This instructor link from the LMS has expired: open the "
                                  "assignment from your course page again.", 403)
        _missed()
        raise AssignmentError("This is not the instructor's link of this assignment.", 403)
    return a


def _student(a: Assignment) -> Student:
    token = request.headers.get("X-Student-Token", "")
    found = _store().student_by_token(a.id, token_hash(token)) if 0 < len(token) <= 100 else None
    if found is None:
        _missed()
        raise AssignmentError("Give your name first, or open your personal link.", 401)
    return found


# -- creating ------------------------------------------------------------------

@bp.post("/api/assignments")
def create():
    return jsonify(new_assignment(request.get_json(silent=True))), 201


def _tree(a: Assignment, tree_id: str):
    """The exercise's tree; an upload evicted from the upload store comes back
    from the assignment's own copy (same content, same id)."""
    library = current_app.extensions["trees"]
    try:
        return library.get(tree_id)
    except ApiError:
        copy = _store().tree_copy(a.id, tree_id)
        if copy is None:
            raise
        library.upload(copy[1], None, copy[0])
        return library.get(tree_id)


def _exercise_list(a: Assignment, key: str) -> list[dict]:
    out = exercises_for(a.spec, a.secret, key)
    for ex in out:
        _tree(a, ex["tree"])      # an evicted upload is restored before its id is handed out
    return out


# -- the instructor --------------------------------------------------------------

@bp.get("/api/assignments/<assignment_id>/students/<path:student>/exercises")
def student_exercises(assignment_id: str, student: str):
    a = _instructor(assignment_id)
    key = student_key(student)
    st = _store().student_by_identity(a.id, key)     # by their id too: their own trees
    return jsonify(_exercise_list(a, key if st is None else st.key))


@bp.get("/api/assignments/<assignment_id>/students/<path:student>/attempts")
def student_attempts(assignment_id: str, student: str):
    a = _instructor(assignment_id)
    st = _store().student_by_identity(a.id, student_key(student))
    if st is None:
        raise AssignmentError("No student {name} has started this assignment.", 404,
                              name=repr(student[:100]))
    subs = _store().submissions(st.id, full=True)
    return jsonify({"student": st.name, "exercises": _exercise_list(a, st.key),
                    "attempts": [{"exercise": s.exercise, "attempt": s.attempt, "right": s.right,
                                  "total": s.total, "late": s.late, "created": s.created,
                                  "answers": json.loads(s.answers),
                                  "misconception": s.misconception} for s in subs],
                    "misconception_names": {m.id: m.name for m in LIBRARY}})


def _results(a: Assignment) -> dict:
    store = _store()
    modes = [e.mode for e in a.spec.exercises]
    course = sync_course(a)      # deep-linked: the course's members join the students
    subs = store.all_submissions(a.id, full=True)
    students = store.students(a.id)
    lti = current_app.extensions.get("lti")
    if lti is not None and lti.platforms:
        lti.send_due_scores(a, students)
    rows = table(students, subs, modes)
    return {"id": a.id, "title": a.title, "due": a.spec.due_iso(), "feedback": a.spec.feedback,
            "attempts": a.spec.attempts,
            "exercises": exercise_stats(subs, modes),
            "students": rows, "exports": _exports(rows), "course": course,
            "lms_silent": silent_said(),    # an LMS that did not answer this load, or None
            # each misconception's few words (catalogue messages: the page says them)
            "misconception_names": {m.id: m.name for m in LIBRARY}}


def _exports(rows: list[dict]) -> dict:
    """Per gradebook file, the students it leaves out and why (contract §7b)."""
    out = {}
    for fmt in ("canvas", "moodle"):
        gone = left_out(rows, fmt)
        out[fmt] = {"rows": len(rows) - len(gone),
                    "left_out": [_said_left_out(g) for g in gone]}
    return out


def _said_left_out(gone: dict) -> dict:
    why = gone["reason"]          # a catalogue message id (app.assignments.gradebook)
    return {"student": gone["student"], "key": gone["key"], "reason": said(why)}


@bp.get("/api/assignments/<assignment_id>/results")
def results(assignment_id: str):
    return jsonify(_results(_instructor(assignment_id)))


@bp.get("/api/assignments/<assignment_id>/grades.csv")
def grades_csv(assignment_id: str):
    a = _instructor(assignment_id)
    fmt = request.args.get("format", "canvas")
    if fmt not in ("canvas", "moodle"):
        raise AssignmentError("{field} must be one of {choices}.", argument="format",
                              field="format", choices="canvas, moodle")
    store = _store()
    modes = [e.mode for e in a.spec.exercises]
    rows = table(store.students(a.id), store.all_submissions(a.id), modes)
    text = (canvas_csv if fmt == "canvas" else moodle_csv)(a.title, rows,
                                                           a.spec.past_due(time.time()))
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="grades-{a.id}-{fmt}.csv"'})


@bp.post("/api/assignments/<assignment_id>/roster")
def roster(assignment_id: str):
    a = _instructor(assignment_id)
    ways_in(a, "any", "roster")
    budget = _budget()
    upload = request.files.get("file")
    data = upload.read(budget.roster_bytes + 1) if upload else request.get_data()
    if len(data) > budget.roster_bytes:
        raise AssignmentError("The roster is larger than {size} KiB.", 413,
                              size=budget.roster_bytes // 1024)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise AssignmentError("The roster is not UTF-8 text: save it as CSV UTF-8.") from None
    rows = read_roster(text, budget.students_per_assignment)
    # The class list again (a late enrolee added, or the official list with the ids of a
    # names-only one): those on the roster already keep their link and their work (given
    # their id if they had none); the others are added.
    rows, fills, kept = match_roster(rows, _store().students(a.id))
    tokens = [secrets.token_urlsafe(18) for _ in rows]
    for r, t in zip(rows, tokens):
        r["token_hash"] = token_hash(t)
        r["origin"] = "roster"
    _store().add_students(a.id, rows, budget.students_per_assignment, fills)
    return jsonify({"students": [{"name": r["name"], "id": r["sis_id"],
                                  "link": f"/a/{a.id}#s={t}"}
                                 for r, t in zip(rows, tokens)], "kept": kept}), 201


@bp.post("/api/assignments/<assignment_id>/students/<path:student>/link")
def new_link(assignment_id: str, student: str):
    """A new personal link for a student who lost theirs (the instructor's only): links
    are kept as hashes, so a lost one is never shown again; the old one stops working."""
    a = _instructor(assignment_id)
    st = _store().student_by_identity(a.id, student_key(student))
    if st is None:
        raise AssignmentError("No student {name} has started this assignment.", 404,
                              name=repr(student[:100]))
    if st.origin not in ("roster", "name"):
        raise AssignmentError("{name} comes from the LMS: they open the assignment from "
                              "their course page, with no personal link.", 409, name=st.name)
    token = secrets.token_urlsafe(18)
    st = _store().new_link(a.id, st.key, token_hash(token), ("roster", "name"))
    if st is None:     # gone meanwhile (the assignment deleted)
        raise AssignmentError("No student {name} has started this assignment.", 404,
                              name=repr(student[:100]))
    return jsonify({"student": st.name, "id": st.sis_id, "key": st.key,
                    "link": f"/a/{a.id}#s={token}"})


# -- the student ------------------------------------------------------------------

@bp.get("/api/assignments/<assignment_id>")
def about(assignment_id: str):
    a = _open(assignment_id)
    return jsonify(_public(a))


def _public(a: Assignment) -> dict:
    return {"id": a.id, "title": a.title, "due": a.spec.due_iso(), "feedback": a.spec.feedback,
            "attempts": a.spec.attempts, "late": a.spec.late, "identities": a.spec.identities,
            "exercises": [{"index": i, "mode": e.mode} for i, e in enumerate(a.spec.exercises)]}


REQUEST_KEY = re.compile(r"[A-Za-z0-9_-]{16,100}")
"""The name form's request key: the page's own random text (18 bytes, base64url), bounded."""


@bp.post("/api/assignments/<assignment_id>/students")
def register(assignment_id: str):
    """A typed name; with ``"request"``, the page's random key kept before sending, the same
    name and key again (its answer lost on the way) get the student back, with a fresh token
    (only hashes are kept, so the lost one cannot be sent again; and it stops working)."""
    a = _open(assignment_id)
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or set(data) - {"student", "request"}:
        raise AssignmentError("Send a JSON object: {fields}.", fields="{student, request}")
    ways_in(a, "any")
    name = data.get("student")
    key = typed_key(name)
    join = None
    if "request" in data:       # used for nothing else: it only finds its own retry
        if not isinstance(data["request"], str) or not REQUEST_KEY.fullmatch(data["request"]):
            raise AssignmentError("{field} must be 16 to 100 letters, digits, - or _.",
                                  argument="request", field="request")
        join = token_hash(data["request"])
    # As it reads (NFC): its key is at most 100 characters, but not the text as sent (Hangul
    # as conjoining jamo is three characters a syllable), and the column keeps 200.
    name = " ".join(unicodedata.normalize("NFC", name).split())[:NAME_CHARS]
    token = secrets.token_urlsafe(18)
    try:
        _store().add_students(a.id, [{"key": key, "name": name, "token_hash": token_hash(token),
                                      "origin": "name", "join_hash": join}],
                              _budget().students_per_assignment)
    except AssignmentError as exc:
        # taken (409), or full (413) by this very student: theirs again with their key
        again = (_store().rejoin(a.id, key, join, token_hash(token))
                 if exc.status in (409, 413) and join else None)
        if again is None:
            raise                 # another person's name (or no key): still taken
        return jsonify({"token": token, "student": again.name,
                        "link": f"/a/{a.id}#s={token}"}), 200
    return jsonify({"token": token, "student": name,
                    "link": f"/a/{a.id}#s={token}"}), 201


@bp.get("/api/assignments/<assignment_id>/me")
def me(assignment_id: str):
    a = _assignment(assignment_id)
    st = _student(a)
    now = time.time()
    subs = _store().submissions(st.id)
    modes = [e.mode for e in a.spec.exercises]
    scores = exercise_scores(subs, modes)
    show_scores = a.spec.feedback != "due" or a.spec.past_due(now)
    exercises = []
    for ex in _exercise_list(a, st.key):
        used = sum(1 for s in subs if s.exercise == ex["index"])
        item = {**ex, "used": used, "key_allowed": key_allowed(a, used, now, st, ex["index"])}
        if modes[ex["index"]] != "guided":
            item["attempts_left"] = (None if a.spec.attempts is None
                                     else max(0, a.spec.attempts - used))
        if show_scores and used:
            item["score"] = round(scores[ex["index"]], 4)
        exercises.append(item)
    out = {**_public(a), "student": st.name, "exercises": exercises,
           "past_due": a.spec.past_due(now)}
    if show_scores:
        out["percent"] = percent(scores)
    return jsonify(out)


@bp.post("/api/assignments/<assignment_id>/me/exercises/<int:index>")
def submit(assignment_id: str, index: int):
    a = _assignment(assignment_id)
    st = _student(a)
    if not 0 <= index < len(a.spec.exercises):
        raise AssignmentError("There is no exercise {n} here.", 404, n=index + 1)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise AssignmentError("Send a JSON object: {fields}.", fields="{answers, ...}")
    unknown = set(body) - SUBMIT_KEYS
    if unknown:
        field = sorted(unknown)[0]
        raise AssignmentError("Unknown field {field}: expected {allowed}.", argument=field,
                              field=field, allowed=", ".join(sorted(SUBMIT_KEYS)))
    reveal = body.get("reveal", False)
    if not isinstance(reveal, bool):
        raise AssignmentError("{field} must be true or false.", argument="reveal", field="reveal")
    exercise = a.spec.exercises[index]
    tree_id = exercises_for(a.spec, a.secret, st.key)[index]["tree"]
    tree = _tree(a, tree_id)
    store = _store()
    now = time.time()
    past = a.spec.past_due(now)
    with speaking(words(page_language())):
        if exercise.mode == "guided":
            return jsonify(_guided(a, st, index, exercise, tree, tree_id, body, reveal, past))
        if reveal:     # the key, without a new attempt
            if not key_allowed(a, len(store.submissions(st.id, index)), now, st, index):
                if not st.known and not exercise.random:
                    raise AssignmentError("Every student shares this tree: its solution is "
                                          "shown after the due date.", 403)
                raise AssignmentError("The solution is shown once your attempts are used up "
                                      "or after the due date.", 403)
            graded = grade(tree, tree_id, exercise, body, reveal=True)
            return jsonify(shown(graded, exercise.mode, a.spec.feedback, True))
        if past and a.spec.late == "refuse":
            raise AssignmentError("The due date has passed: submissions are closed.", 410)
        graded = grade(tree, tree_id, exercise, body)
        attempt = store.submit(st.id, index, _answers(body), graded.right, graded.total,
                               graded.result, past, a.spec.attempts,
                               _budget().submissions_per_minute,
                               misconception=graded.misconception)
        out = shown(graded, exercise.mode, a.spec.feedback,
                    key_allowed(a, attempt, now, st, index))
    _passback(a, st)
    out.update(attempt=attempt, late=past,
               attempts_left=None if a.spec.attempts is None else a.spec.attempts - attempt)
    return jsonify(out)


def _passback(a: Assignment, st: Student) -> None:
    """A student from an LMS: their score to its gradebook (when it changed)."""
    lti = current_app.extensions.get("lti")
    if lti is not None and st.key.startswith("lti:"):
        try:
            lti.send_score(a, st)
        except UNREACHABLE:     # the submission is committed: not a 503 (sent at the next change)
            current_app.logger.warning("passback of %s deferred: the results database is "
                                       "unreachable", a.id)


def _answers(body: dict) -> dict:
    return {k: body[k] for k in ("answers", "ordering", "index", "answer") if k in body}


def _guided(a, st, index, exercise, tree, tree_id, body, reveal, past) -> dict:
    """A guided walk: the first answer to each question is the one scored;
    its answer is shown once answered (feedback is per step by nature)."""
    store = _store()
    q = body.get("index", 0)
    if reveal:
        answered = {s.attempt for s in store.submissions(st.id, index)}
        if not (isinstance(q, int) and q + 1 in answered) and not a.spec.past_due(time.time()):
            raise AssignmentError("Answer the question first; then its answer is shown.", 403)
        return grade(tree, tree_id, exercise, body, reveal=True).result
    if past and a.spec.late == "refuse":
        raise AssignmentError("The due date has passed: submissions are closed.", 410)
    graded = grade(tree, tree_id, exercise, body)
    out = dict(graded.result)
    out.pop("link", None)
    if body.get("answer") not in (None, ""):
        total = guided_total(tree, exercise)
        if store.submit(st.id, index, _answers(body), graded.right, total, {}, past, None,
                        _budget().submissions_per_minute, attempt=q + 1):
            _passback(a, st)
    return out


# -- pages ----------------------------------------------------------------------

@bp.get("/a/new")
def new_page():
    """Make an assignment (linked from the practice pages)."""
    return maker_page()


@bp.get("/a/<assignment_id>")
def student_page(assignment_id: str):
    return render_template("assignment.html", assignment_id=assignment_id)


@bp.get("/a/<assignment_id>/<int:index>")
def exercise_page(assignment_id: str, index: int):
    return render_template("practice.html", tree_id="", title="", source="", mode="full",
                           modes=MODES, random=None, has_evals=False, alphabeta=True, height=3,
                           assignment={"id": assignment_id, "index": index})


@bp.get("/a/<assignment_id>/dashboard")
def dashboard_page(assignment_id: str):
    return render_template("assignment_dashboard.html", assignment_id=assignment_id)
