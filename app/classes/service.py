"""What a class does, whatever carries the messages and wherever state lives.

:class:`Classes` is the one place that decides: who may drive (the
instructor's token, checked on every driving call), what a question's
answer is, whether an answer counts, when a class ends. The web layer only
validates payloads, calls in here, and broadcasts what comes back.
"""
from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from app.practice import answer_key
from app.search import SearchError, SearchOptions, run
from app.search.words import Said

from . import codes
from .questions import AnswerError, QuestionError, grade, make_question
from .store import ClassStore
from app.search.descriptors import get

ENDED_KEPT = 24 * 3600.0
"""An ended class's record stays this long, so its page can say it ended."""


class ClassError(Said, ValueError):
    """A call refused; ``status`` is the HTTP-like reason (404, 403, 409, 400, 429).

    Its sentence is a catalogue message, ``msgid`` (English with ``{named}``
    fields) and ``fields``, so the web app says it in the reader's language."""

    def __init__(self, status: int, msgid: str, **fields):
        self.status = status
        super().__init__(msgid, **fields)

    @classmethod
    def because(cls, status: int, exc: Said) -> "ClassError":
        """Refuse with the catalogue message of ``exc`` (a question, answer or search error)."""
        return cls(status, exc.msgid, **exc.fields)


class Classes:
    """The classes of one app, over a :class:`~app.classes.store.ClassStore`.

    ``tree_of(tree_id)`` gives a tree (raising ``LookupError``/any error for
    an unknown one); ``clock`` is the wall clock (records are shared across
    processes, so not a monotonic one).
    """

    def __init__(self, store: ClassStore, tree_of: Callable, *, max_students: int = 500,
                 idle_seconds: float = 3 * 3600.0, key_max_events: int = 50_000,
                 clock: Callable[[], float] = time.time, keys_cached: int = 16):
        self.store = store
        self.tree_of = tree_of
        self.max_students = max_students
        self.idle = idle_seconds
        self.key_max_events = key_max_events
        self.clock = clock
        self._keys: OrderedDict = OrderedDict()
        self._keys_cached = keys_cached
        self._keys_lock = threading.Lock()

    @property
    def ttl(self) -> float:
        return self.idle + ENDED_KEPT

    # -- creating and reading --------------------------------------------------
    def create(self, tree_id: str, options: SearchOptions, step: int = 0) -> tuple[dict, str]:
        """A new class on ``tree_id``; ``(record, instructor token)``.
        ``options`` must already fit the tree (resolved)."""
        token, digest = codes.new_token()
        now = self.clock()
        record = {"code": None, "token": digest, "tree": tree_id,
                  "options": _options_json(options), "step": step, "seq": 1,
                  "created": now, "active": now, "ended": None, "question": None, "qn": 0}
        for _ in range(20):
            record["code"] = codes.new_code()
            if self.store.add(record["code"], record, self.ttl):
                return record, token
        raise ClassError(503, "no free join code: try again")

    def get(self, code: str) -> dict:
        """The record of a live or ended class; ``ClassError(404)`` if none."""
        record = self.store.get(code)
        if record is None:
            raise ClassError(404, "there is no class {code}: check the code", code=code)
        if record["ended"] is None and self.clock() - record["active"] > self.idle:
            record = self._end(code, "idle") or record
        return record

    def live(self, code: str) -> dict:
        record = self.get(code)
        if record["ended"]:
            raise ClassError(410, "this class has ended")
        return record

    # -- the instructor --------------------------------------------------------
    def check(self, code: str, token) -> dict:
        """The live record if ``token`` is the instructor's; else ClassError(403)."""
        record = self.live(code)
        if not codes.check_token(record["token"], token):
            raise ClassError(403, "only the instructor can do that (wrong or missing token)")
        return record

    def _drive(self, code: str, token, change: Callable[[dict], None]) -> dict:
        record = self.check(code, token)

        def fn(r: dict) -> dict:
            if r["ended"] or r["token"] != record["token"]:
                raise ClassError(410, "this class has ended")
            change(r)
            r["seq"] += 1
            r["active"] = self.clock()
            return r

        out = self.store.change(code, fn, self.ttl)
        if out is None:
            raise ClassError(404, "there is no class {code}", code=code)
        return out

    def step(self, code: str, token, step: int) -> dict:
        def fn(r):
            r["step"] = step
        return self._drive(code, token, fn)

    def ask(self, code: str, token, kind: str, node: str | None) -> dict:
        record = self.check(code, token)
        key = self.key(record)
        try:
            q = make_question(key, record["step"], kind, node)
        except QuestionError as exc:
            raise ClassError.because(400, exc) from None
        asked_at = record["step"]

        def fn(r):
            r["qn"] += 1
            r["question"] = {"id": f"q{r['qn']}", "asked_step": asked_at, "revealed": False,
                             **q.to_dict()}
            r["step"] = asked_at
        return self._drive(code, token, fn)

    def reveal(self, code: str, token) -> dict:
        def fn(r):
            if not r["question"]:
                raise ClassError(409, "there is no question to reveal")
            r["question"]["revealed"] = True
            r["step"] = r["question"]["reveal_step"]
        return self._drive(code, token, fn)

    def dismiss(self, code: str, token) -> dict:
        def fn(r):
            r["question"] = None
        return self._drive(code, token, fn)

    def end(self, code: str, token) -> dict:
        self.check(code, token)
        return self._end(code, "instructor")

    def _end(self, code: str, reason: str) -> dict | None:
        def fn(r):
            if r["ended"]:
                return None
            r["ended"] = reason
            r["seq"] += 1
            return r
        return self.store.change(code, fn, ENDED_KEPT)

    def touch(self, code: str) -> None:
        """Activity that changes nothing students see (the instructor's page opened)."""
        def fn(r):
            if r["ended"]:
                return None
            r["active"] = self.clock()
            return r
        self.store.change(code, fn, self.ttl)

    def sweep(self, codes_: list[str]) -> list[dict]:
        """End the idle ones among ``codes_``; the records of those ended now."""
        ended = []
        for code in codes_:
            record = self.store.get(code)
            if record and not record["ended"] and self.clock() - record["active"] > self.idle:
                out = self._end(code, "idle")
                if out:
                    ended.append(out)
        return ended

    # -- students --------------------------------------------------------------
    def join(self, code: str, student: str) -> int:
        """Count a student's connection in; ClassError(409) if the class is full."""
        self.live(code)
        n = self.store.join(code, student, self.max_students, self.ttl)
        if n is None:
            raise ClassError(409, "this class is full ({most} students): ask the instructor",
                             most=self.max_students)
        return n

    def leave(self, code: str, student: str) -> int:
        return self.store.leave(code, student)

    def answer(self, code: str, student: str, qid: str, raw) -> dict:
        """Grade and keep a student's first answer to the open question.

        ``{"accepted": bool, "label"}``; an entry that cannot be read is
        refused (ClassError 400) and does not use up the student's answer."""
        record = self.live(code)
        q = record["question"]
        if not q or q["id"] != qid:
            raise ClassError(409, "that question is closed")
        if q["revealed"]:
            raise ClassError(409, "the answer has been revealed: answers are closed")
        mine = self.store.answer_of(code, qid, student)
        if mine is not None:
            return {"accepted": False, "label": mine[0]}
        try:
            label, right = grade(q, self.tree_of(record["tree"]), raw)
        except AnswerError as exc:
            raise ClassError.because(400, exc) from None
        accepted = self.store.answer(code, qid, student, label, right, self.ttl)
        if not accepted:
            label = (self.store.answer_of(code, qid, student) or (label,))[0]
        return {"accepted": accepted, "label": label}

    def verdict(self, record: dict, student: str) -> dict | None:
        """A student's own answer to the current question, and once revealed, if right."""
        q = record["question"]
        if not q:
            return None
        mine = self.store.answer_of(record["code"], q["id"], student)
        if mine is None:
            return {"question": q["id"], "answered": False}
        out = {"question": q["id"], "answered": True, "label": mine[0]}
        if q["revealed"]:
            out["right"] = mine[1]
        return out

    def tally(self, record: dict) -> dict | None:
        q = record["question"]
        if not q:
            return None
        tally = self.store.tally(record["code"], q["id"])
        wrong = sorted(tally["wrong"].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        return {"question": q["id"], "answers": tally["answers"], "right": tally["right"],
                "wrong": [{"label": k, "count": v} for k, v in wrong],
                "students": self.store.students(record["code"])}

    # -- what each side sees ---------------------------------------------------
    @staticmethod
    def public(record: dict) -> dict:
        """The class as a student sees it: never the token, never the answer
        before it is revealed."""
        out = {k: record[k] for k in ("code", "tree", "options", "step", "seq", "ended")}
        q = record["question"]
        if q:
            shown = {k: q[k] for k in ("id", "kind", "node", "prompt", "entry", "choices",
                                       "asked_step", "revealed")}
            if q["revealed"]:
                shown.update(answer=q["answer"], answer_text=q["answer_text"],
                             reveal_step=q["reveal_step"])
            else:
                shown["mask"] = q["mask"]
            out["question"] = shown
        else:
            out["question"] = None
        return out

    def instructor(self, record: dict) -> dict:
        out = self.public(record)
        q = record["question"]
        if q:
            out["question"].update(answer=q["answer"], answer_text=q["answer_text"],
                                   reveal_step=q["reveal_step"], mask=q["mask"])
        out["tally"] = self.tally(record)
        out["students"] = self.store.students(record["code"])
        return out

    # -- the answer key ----------------------------------------------------------
    def key(self, record: dict):
        """The practice answer key of the class's run (cached; refused when
        the run is too long or is iterative deepening)."""
        opts = record["options"]
        cache_key = (record["tree"], tuple(sorted(opts.items())))
        with self._keys_lock:
            if cache_key in self._keys:
                self._keys.move_to_end(cache_key)
                return self._keys[cache_key]
        tree = self.tree_of(record["tree"])
        options = SearchOptions(**opts)
        if options.algorithm and not get(options.algorithm).one_search:
            raise ClassError(400, "questions need one search: iterative deepening searches "
                                  "several times (run the class with alpha-beta)")
        try:
            length = sum(1 for _ in itertools.islice(run(tree, options), self.key_max_events + 1))
        except SearchError as exc:
            raise ClassError.because(400, exc) from None
        if length > self.key_max_events:
            raise ClassError(400, "this run is longer than {most:,} steps: questions work on "
                                  "smaller trees", most=self.key_max_events)
        key = answer_key(tree, options)
        with self._keys_lock:
            self._keys[cache_key] = key
            while len(self._keys) > self._keys_cached:
                self._keys.popitem(last=False)
        return key


def _options_json(options: SearchOptions) -> dict:
    out = {k: getattr(options, k) for k in ("algorithm", "depth", "order", "seed", "strict",
                                             "style")}
    for k in ("iterations", "exploration"):   # [mcts] only when set (old records lack them)
        if getattr(options, k) is not None:
            out[k] = getattr(options, k)
    return out

