"""The ``/class`` Socket.IO namespace: the instructor drives, students follow.

Client to server, each with an acknowledgement ``{ok: true, ...}`` or
``{ok: false, error: {message, status}}``:

- ``join {code, student?}`` (a student; ``student`` is the id an earlier
  join gave, so a reconnect is the same student) -> ``{student, state, mine}``.
  One connection is one student: joining again on it (with or without an
  id) keeps the student it is; an id the class did not give is not a new
  voter; connections of one address in one class are capped
  (``CLASS_JOINS_PER_ADDRESS``, generous: a lecture hall behind one NAT)
- ``present {code, token, live?}`` (an instructor's page) -> ``{state}``: the
  projector gets how many answered until the reveal; ``live`` (the
  instructor's second device) also gets the answer and the live distribution
- ``step {code, token, step}`` (acknowledged with ``{step, seq}`` only),
  ``ask {code, token, kind, node, seconds?}``, ``revote {code, token}``
  (peer instruction: the open question again, a new round),
  ``reveal {code, token}``, ``dismiss {code, token}``, ``end {code, token}``:
  driving; each checked against the instructor token, a forged one refused
  and logged. The first ``ask`` of a run computes its answer key as heavy work
  (app.web.offload, off the loop): a full work queue refuses it (503, ``retry_after``)
- ``answer {code, question, answer}`` (a joined student) -> ``{accepted, label}``
- ``mine {code}`` -> the student's own answer, and once revealed, if right

Server to client: ``state`` (the class as students see it, to everyone in
it, after every change), ``instructor`` (tally and students, to the
projectors' room ``i:``; with the answer and live distribution to the second
devices' room ``d:``; after every change but a step), ``tally`` (to both,
each its own kind, at most 20 a second while answers arrive), ``students``
(the count, to both).
"""
from __future__ import annotations

import functools
import json
import logging
import threading

from flask import current_app, request
from flask_socketio import Namespace, join_room, leave_room

from app.budget import OverBudget
from app.classes import KINDS, ClassError, StoreUnavailable
from app.classes.service import SECONDS
from app.classes.codes import TOKEN_MAX, normal_code, valid_student

from .errors import budget_message, said
from .addresses import client_address
from .classes import MAX_STEP, TooManyJoins, find_class, hold_tree
from .sockets import client_sent

log = logging.getLogger(__name__)

DRIVING = ("step", "ask", "revote", "reveal", "dismiss", "end")
TALLY_EVERY = 0.05
"""Seconds between tallies sent to the instructors while answers arrive."""


def _rooms(code: str) -> tuple[str, str]:
    """The instructors' rooms of a class: projectors, second devices."""
    return f"i:{code}", f"d:{code}"


def _error(message: str, status: int = 400, **fields) -> dict:
    return {"ok": False, "error": {"message": message, "status": status, **fields}}


class Refused(Exception):
    """A class event refused: the catalogue message ``msgid`` (English,
    ``{named}`` fields) said in the language of the page's connection."""

    def __init__(self, msgid: str, status: int = 400, **fields):
        super().__init__(msgid.format(**fields) if fields else msgid)
        self.message, self.status = said(msgid, **fields), status


def _handler(*keys: str, required: tuple[str, ...] = ("code",)):
    """Check the payload (one object, only ``keys``, ``required`` present, a
    well-formed code) and turn every refusal into an error acknowledgement."""

    def wrap(fn):
        @functools.wraps(fn)
        def wrapper(self, *args):
            name = fn.__name__[3:]
            try:
                if len(args) != 1 or not isinstance(args[0], dict):
                    raise Refused("{name} takes one JSON object", name=name)
                data = args[0]
                unknown = [k for k in data if k not in keys]
                if unknown:
                    raise Refused("unknown field {field} in {name}: expected {fields}",
                                  field=repr(str(unknown[0])[:40]), name=name,
                                  fields=", ".join(keys))
                missing = [k for k in required if k not in data]
                if missing:
                    raise Refused("{name} needs {fields}", name=name, fields=", ".join(missing))
                if "token" in data and not (isinstance(data["token"], str)
                                            and len(data["token"]) <= TOKEN_MAX):
                    raise Refused("token must be a short string", 403)
                return fn(self, data)
            except Refused as exc:
                if name in DRIVING or name == "present":
                    log.warning("class: refused %s from %s (%s): %s", name, request.sid,
                                client_address(request.environ), exc.message)
                return _error(exc.message, exc.status)
            except TooManyJoins as exc:
                return _error(exc.message, 429, retry_after=exc.retry_after)
            except OverBudget as exc:   # the work queue full (an ask's answer key)
                extra = {"retry_after": exc.retry_after} if exc.retry_after is not None else {}
                return _error(budget_message(exc), exc.status, **extra)
            except ClassError as exc:
                if exc.status == 403:
                    log.warning("class: refused %s from %s (%s): %s", name, request.sid,
                                client_address(request.environ), exc.message)
                return _error(said(exc.msgid, **exc.fields), exc.status)
            except StoreUnavailable as exc:
                log.error("class store unavailable in %s: %s", name, exc)
                return _error(said("The class server cannot reach its store (Redis): "
                                   "reconnecting…"), 503, retry=True)
            except Exception:
                log.exception("error in class handler %s", name)
                return _error(said("Internal server error: the problem has been logged."), 500)

        return wrapper

    return wrap


def _code(data: dict) -> str:
    code = normal_code(data.get("code"))
    if code is None:
        raise Refused("code must be a class code (6 letters and digits)", 404)
    return code


class ClassNamespace(Namespace):
    """Handlers of ``/class``; who each connection is, kept per process."""

    def __init__(self, namespace: str = "/class"):
        super().__init__(namespace)
        self.members: dict[str, dict] = {}
        """sid -> {"code", "role": "student"|"instructor", "student", "address"}:
        this process's connections (the sweeper looks at their classes). nginx's
        ip_hash keeps an address on one process, so counting an address's
        connections here counts them all."""
        self._per_address: dict[tuple[str, str], int] = {}
        self._address_lock = threading.Lock()
        self._sweeper = None
        self._tally_due: set[str] = set()
        self._tally_lock = threading.Lock()

    @property
    def classes(self):
        return current_app.extensions["classes"]

    def trigger_event(self, event, *args):
        if (event not in ("connect", "disconnect") and not hasattr(self, f"on_{event or ''}")
                or client_sent(self, event, args)):    # (a student leaving while connected)
            return _error(said("unknown event {event}", event=repr(str(event)[:40])))
        return super().trigger_event(event, *args)

    # -- connections -------------------------------------------------------------
    def on_connect(self, auth=None):
        if self._sweeper is None:
            app = current_app._get_current_object()
            self._sweeper = self.socketio.start_background_task(self._sweep, app)

    def on_disconnect(self, reason=None):
        self._leave(request.sid)

    def _leave(self, sid: str) -> None:
        me = self.members.pop(sid, None)
        if not me:
            return
        leave_room(f"c:{me['code']}", sid=sid)
        for room in _rooms(me["code"]):
            leave_room(room, sid=sid)
        if me["role"] == "student":
            with self._address_lock:
                self._count_address(me["code"], me["address"], -1)
            try:
                n = self.classes.leave(me["code"], me["student"])
            except StoreUnavailable:
                return
            self._to_instructors(me["code"], "students", {"code": me["code"], "students": n})

    def _count_address(self, code: str, address: str, change: int) -> int:
        key = (code, address)
        n = self._per_address.get(key, 0) + change
        if n > 0:
            self._per_address[key] = n
        else:
            self._per_address.pop(key, None)
        return n

    def _to_instructors(self, code: str, event: str, data: dict) -> None:
        for room in _rooms(code):
            self.emit(event, data, room=room)

    # -- students ----------------------------------------------------------------
    @_handler("code", "student")
    def on_join(self, data):
        student = data.get("student")
        if student is not None and not valid_student(student):
            raise Refused("student must be the id an earlier join gave")
        address = client_address(request.environ)
        try:
            record = find_class(str(data["code"])[:20], address)
        except ClassError as exc:
            if exc.status == 404 and student is not None:
                # This phone was in a class that is gone: the server restarted
                # (the embedded one keeps classes in memory) or it expired.
                raise ClassError(410, "This class is over: the server was restarted or the "
                                      "class was closed. Thank you!") from None
            raise
        if record["ended"]:
            raise ClassError(410, "this class has ended")
        code = record["code"]
        me = self.members.get(request.sid)
        if me and me["role"] == "student" and me["code"] == code:
            # One connection is one student: joining again (with no id, or
            # another's) on it changes nothing and casts no second vote.
            return {"ok": True, "student": me["student"], "state": self.classes.public(record),
                    "mine": self.classes.verdict(record, me["student"])}
        if not self.classes.known_student(record, student):
            student = self.classes.new_student(record)
        cap = current_app.config["CLASS_JOINS_PER_ADDRESS"]
        self._leave(request.sid)
        with self._address_lock:                 # a place is taken before the next looks
            if self._per_address.get((code, address), 0) >= cap:
                raise ClassError(429, "too many connections to this class from one network "
                                      "address ({most}): ask the instructor", most=cap)
            self._count_address(code, address, 1)
        try:
            n = self.classes.join(code, student)
        except Exception:
            with self._address_lock:
                self._count_address(code, address, -1)
            raise
        self.members[request.sid] = {"code": code, "role": "student", "student": student,
                                     "address": address}
        join_room(f"c:{code}")
        self._to_instructors(code, "students", {"code": code, "students": n})
        return {"ok": True, "student": student, "state": self.classes.public(record),
                "mine": self.classes.verdict(record, student)}

    @_handler("code", "question", "answer", required=("code", "question", "answer"))
    def on_answer(self, data):
        code = _code(data)
        me = self.members.get(request.sid)
        if not me or me["role"] != "student" or me["code"] != code:
            raise Refused("join the class before answering", 403)
        qid, answer = data["question"], data["answer"]
        if not isinstance(qid, str) or len(qid) > 20:
            raise Refused("question must be the id of the question asked")
        cap = current_app.extensions["budget"].classes.answer_bytes
        try:
            size = len(json.dumps(answer))
        except (TypeError, ValueError):   # bytes (a binary attachment) are no answer
            raise Refused("answer must be a number, text or yes/no") from None
        if size > cap:
            raise Refused("an answer is at most {cap} bytes", 413, cap=cap)
        out = self.classes.answer(code, me["student"], qid, answer)
        if out["accepted"]:
            self._tally_soon(code)
        return {"ok": True, **out}

    def _tally_soon(self, code: str) -> None:
        """Send the tally to the instructors in a moment: a hundred answers in a
        second make a few tallies, not a hundred broadcasts, and the last one
        always follows the last answer."""
        with self._tally_lock:
            if code in self._tally_due:
                return
            self._tally_due.add(code)
        app = current_app._get_current_object()
        self.socketio.start_background_task(self._send_tally, app, code)

    def _send_tally(self, app, code: str) -> None:
        self.socketio.sleep(TALLY_EVERY)
        with self._tally_lock:       # before reading: a later answer schedules another
            self._tally_due.discard(code)
        try:
            with app.app_context():
                service = app.extensions["classes"]
                record = service.get(code)
                live = service.tally(record, live=True)
            projector, device = _rooms(code)
            if live is not None:
                shown = {k: live[k] for k in ("question", "round", "answers", "students")}
                if record["question"]["revealed"]:
                    shown = live
                self.socketio.emit("tally", shown, to=projector, namespace=self.namespace)
                self.socketio.emit("tally", live, to=device, namespace=self.namespace)
        except Exception:  # the store gone: the next answer tries again
            log.exception("class %s: the tally could not be sent", code)

    @_handler("code")
    def on_mine(self, data):
        code = _code(data)
        me = self.members.get(request.sid)
        if not me or me["role"] != "student" or me["code"] != code:
            raise Refused("join the class first", 403)
        return {"ok": True, "mine": self.classes.verdict(self.classes.get(code), me["student"])}

    # -- the instructor ----------------------------------------------------------
    @_handler("code", "token", "live", required=("code", "token"))
    def on_present(self, data):
        code = _code(data)
        live = data.get("live", False)
        if not isinstance(live, bool):
            raise Refused("live must be true or false")
        record = self.classes.check(code, data["token"])
        self._leave(request.sid)
        self.members[request.sid] = {"code": code, "role": "instructor", "student": None,
                                     "live": live}
        join_room(f"c:{code}")
        join_room(_rooms(code)[1 if live else 0])
        self.classes.touch(code)
        hold_tree(record)
        return {"ok": True, "state": self.classes.instructor(record, live)}

    @_handler("code", "token", "step", required=("code", "token", "step"))
    def on_step(self, data):
        step = data["step"]
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
            raise Refused("step must be a whole number between 0 and {most}", most=MAX_STEP)
        record = self.classes.step(_code(data), data["token"], step)
        # The hot path: one broadcast, which the instructors' pages get too
        # (they are in the class's room); their own view has not changed.
        state = self.classes.public(record)
        self.emit("state", state, room=f"c:{record['code']}")
        return {"ok": True, "state": {k: state[k] for k in ("step", "seq", "ended")}}

    @_handler("code", "token", "kind", "node", "seconds", required=("code", "token", "kind"))
    def on_ask(self, data):
        kind, node, seconds = data["kind"], data.get("node"), data.get("seconds")
        if kind not in KINDS:
            raise Refused("kind must be one of {kinds}", kinds=", ".join(KINDS))
        if node is not None and (not isinstance(node, str) or len(node) > 200):
            raise Refused("node must be a node id")
        low, high = SECONDS
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)
                                    or not low <= seconds <= high):
            raise Refused("seconds must be a whole number between {low} and {high}",
                          low=low, high=high)
        return self._broadcast(self.classes.ask(_code(data), data["token"], kind, node,
                                                seconds))

    @_handler("code", "token", required=("code", "token"))
    def on_revote(self, data):
        return self._broadcast(self.classes.revote(_code(data), data["token"]))

    @_handler("code", "token", required=("code", "token"))
    def on_reveal(self, data):
        return self._broadcast(self.classes.reveal(_code(data), data["token"]))

    @_handler("code", "token", required=("code", "token"))
    def on_dismiss(self, data):
        return self._broadcast(self.classes.dismiss(_code(data), data["token"]))

    @_handler("code", "token", required=("code", "token"))
    def on_end(self, data):
        record = self.classes.end(_code(data), data["token"])
        if record:
            hold_tree(record, release=True)
        return self._broadcast(record or self.classes.get(_code(data)))

    def _broadcast(self, record: dict) -> dict:
        """Send the changed class to everyone in it (every process, through
        the message queue when there is one); the instructors get their view."""
        code = record["code"]
        self.emit("state", self.classes.public(record), room=f"c:{code}")
        projector, device = _rooms(code)
        view, live = self.classes.instructor_views(record)
        self.emit("instructor", view, room=projector)
        self.emit("instructor", live, room=device)
        me = self.members.get(request.sid)
        return {"ok": True, "state": live if me and me.get("live") else view}

    # -- classes left idle ---------------------------------------------------------
    def _sweep(self, app) -> None:
        """End the classes of this process's connections after the idle limit."""
        every = app.config["CLASS_SWEEP_SECONDS"]
        while True:
            self.socketio.sleep(every)
            try:
                with app.app_context():
                    service = app.extensions["classes"]
                    codes = {m["code"] for m in list(self.members.values())}
                    codes.update(service.store.codes())
                    for record in service.sweep(sorted(codes)):
                        self.socketio.emit("state", service.public(record),
                                           to=f"c:{record['code']}", namespace=self.namespace)
            except Exception:  # a sweep must never kill the sweeper
                log.exception("class sweep failed")
