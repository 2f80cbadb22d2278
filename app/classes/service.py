"""What a class does, whatever carries the messages and wherever state lives.

:class:`Classes` is the one place that decides: who may drive (the
instructor's token, checked on every driving call), what a question's
answer is, whether an answer counts, when a class ends. The web layer only
validates payloads, calls in here, and broadcasts what comes back.
"""
from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
import statistics
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from app.practice import answer_key
from app.search import SearchError, SearchOptions, run
from app.search.words import Said

from . import codes
from .misconceptions import answers_at, label as label_misconceptions, wrong_sheets
from .questions import AnswerError, QuestionError, grade, make_question
from .store import ClassStore
from app.search.descriptors import get

ENDED_KEPT = 24 * 3600.0
"""An ended class's record stays this long, so its page can say it ended (and
its instructor can still download the report)."""
ROUNDS = 5
"""Votes on one question at most ("discuss and vote again")."""
KEY_WAIT = 60.0
"""Seconds an ask waits for the answer key another ask is computing (it is
bounded by ``key_max_events``: seconds at most; this only rules out a hang)."""
SECONDS = (5, 900)
"""The shortest and longest countdown a question may have."""
REPORT_COLUMNS = ("question", "step", "node", "kind", "round", "answer", "right", "count",
                  "answers", "share_right", "median_seconds", "right_answer", "prompt",
                  "misconception")
"""The class report's columns (contract §5: the first eight); no student identifiers."""


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
                 clock: Callable[[], float] = time.time, keys_cached: int = 16,
                 heavy: Callable | None = None, ready: Callable | None = None):
        self.store = store
        self.tree_of = tree_of
        self.max_students = max_students
        self.idle = idle_seconds
        self.key_max_events = key_max_events
        self.clock = clock
        self.heavy = heavy or (lambda fn, *args: fn(*args))
        """Runs the answer key's computation: app.web.offload's ``offload`` in
        the web app (off gevent's loop, admitted per client, refused when the
        queue is full)."""
        self.ready = ready
        """``ready(tree_id)``: the tree if it is at hand, else None (then it is built
        as heavy work); None: ``tree_of`` is cheap."""
        self._keys: OrderedDict = OrderedDict()   # (tree, options) -> (key, sheets)
        self._keys_cached = keys_cached
        # Only the requests' greenlets or threads take this lock and wait on the
        # events below, never the pool's threads (the hazard of library._os_lock):
        # the computation itself holds no lock and shares nothing until it is done.
        self._keys_lock = threading.Lock()
        self._computing: dict = {}   # (tree, options) -> _Computing, while computed

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
                  "created": now, "active": now, "ended": None, "question": None, "qn": 0,
                  "asked": [], "salt": secrets.token_hex(16)}
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
    def check(self, code: str, token, *, ended: bool = False) -> dict:
        """The live record (or, with ``ended``, a finished one too) if ``token``
        is the instructor's; else ClassError(403)."""
        record = self.get(code) if ended else self.live(code)
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

    def ask(self, code: str, token, kind: str, node: str | None,
            seconds: int | None = None) -> dict:
        """Open a question (``seconds``: a countdown, after which answers close)."""
        record = self.check(code, token)
        key, sheets = self._prepared(record)
        try:
            q = make_question(key, record["step"], kind, node)
        except QuestionError as exc:
            raise ClassError.because(400, exc) from None
        asked_at = record["step"]
        # the answers the misconceptions give here, for the chart after the reveal (§8)
        wrong_rules = answers_at(key, q.kind, q.node, q.choices, sheets)

        def fn(r):
            r["qn"] += 1
            now = self.clock()
            r["question"] = {"id": f"q{r['qn']}", "asked_step": asked_at, "revealed": False,
                             "round": 1, "opened": now, "seconds": seconds,
                             "closes": now + seconds if seconds else None, **q.to_dict(),
                             "misconceptions": wrong_rules}
            r["step"] = asked_at
            r.setdefault("asked", []).append(
                {"id": r["question"]["id"], "n": r["qn"], "kind": kind, "node": q.node,
                 "step": asked_at, "say": q.say, "answer_text": q.answer_text, "rounds": 1,
                 "misconceptions": wrong_rules})
        return self._drive(code, token, fn)

    def revote(self, code: str, token) -> dict:
        """Peer instruction: the open question again, a new round of answers
        (the rounds before are kept for the chart and the report)."""
        def fn(r):
            q = r["question"]
            if not q or q["revealed"]:
                raise ClassError(409, "there is no open question to vote on again")
            if q["round"] >= ROUNDS:
                raise ClassError(409, "at most {most} rounds of votes on one question",
                                 most=ROUNDS)
            q["round"] += 1
            q["opened"] = self.clock()
            q["closes"] = q["opened"] + q["seconds"] if q.get("seconds") else None
            for h in r.get("asked", []):
                if h["id"] == q["id"]:
                    h["rounds"] = q["round"]
        return self._drive(code, token, fn)

    def reveal(self, code: str, token) -> dict:
        def fn(r):
            if not r["question"]:
                raise ClassError(409, "there is no question to reveal")
            r["question"]["revealed"] = True
            r["question"]["closes"] = None
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
    @staticmethod
    def new_student(record: dict) -> str:
        """A student id for this class, signed with the class's own secret so
        that a made-up id is not a new voter (:meth:`known_student`)."""
        nonce = secrets.token_urlsafe(9)
        return nonce + _sign(record, nonce)

    @staticmethod
    def known_student(record: dict, student) -> bool:
        """Whether ``student`` is an id :meth:`new_student` gave in this class."""
        if not codes.valid_student(student) or len(student) != 28 or "salt" not in record:
            return False
        return hmac.compare_digest(student[12:], _sign(record, student[:12]))

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
        now = self.clock()
        if q.get("closes") and now > q["closes"] + 1.0:     # a second's grace for the network
            raise ClassError(409, "time is up: answers to this question are closed")
        book = _book(q)
        mine = self.store.answer_of(code, book, student)
        if mine is not None:
            return {"accepted": False, "label": mine[0]}
        try:
            label, right = grade(q, self._tree(record["tree"]), raw)
        except AnswerError as exc:
            raise ClassError.because(400, exc) from None
        seconds = max(0.0, now - q.get("opened", now))
        accepted = self.store.answer(code, book, student, label, right, self.ttl, seconds)
        if not accepted:
            label = (self.store.answer_of(code, book, student) or (label,))[0]
        return {"accepted": accepted, "label": label}

    def verdict(self, record: dict, student: str) -> dict | None:
        """A student's own answer to the current question, and once revealed, if right."""
        q = record["question"]
        if not q:
            return None
        mine = self.store.answer_of(record["code"], _book(q), student)
        if mine is None:
            return {"question": q["id"], "round": q.get("round", 1), "answered": False}
        out = {"question": q["id"], "round": q.get("round", 1), "answered": True,
               "label": mine[0]}
        if q["revealed"]:
            out["right"] = mine[1]
        return out

    def tally(self, record: dict, live: bool = False) -> dict | None:
        """How many have answered the open round. The projector gets only that
        until the reveal (a fair question); ``live`` (the instructor's second
        device) and a revealed question add right, the wrong answers and the
        chart of every round."""
        q = record["question"]
        if not q:
            return None
        tally = self.store.tally(record["code"], _book(q))
        out = {"question": q["id"], "round": q.get("round", 1), "answers": tally["answers"],
               "students": self.store.students(record["code"])}
        if live or q["revealed"]:
            wrong = sorted(tally["wrong"].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
            out.update(right=tally["right"], wrong=[{"label": k, "count": v} for k, v in wrong],
                       chart=self.chart(record["code"], q, tally))
        return out

    def chart(self, code: str, q: dict, last: dict | None = None) -> dict:
        """Every distinct answer of every round of ``q`` with its counts per
        round (``bars``, the right one marked; the right answer is there even
        if nobody gave it), most given first."""
        rounds = q.get("round", 1)
        tallies = [self.store.tally(code, _book(q, k)) for k in range(1, rounds)]
        tallies.append(last or self.store.tally(code, _book(q)))
        bars: dict[str, dict] = {}
        for k, t in enumerate(tallies):
            for label, (count, right) in t["labels"].items():
                bar = bars.setdefault(label, {"label": label, "right": bool(right),
                                              "counts": [0] * rounds})
                bar["counts"][k] = count
        if q["answer_text"] not in bars:
            bars[q["answer_text"]] = {"label": q["answer_text"], "right": True,
                                      "counts": [0] * rounds}
        ordered = sorted(bars.values(), key=lambda b: (-sum(b["counts"]), not b["right"],
                                                       b["label"]))
        out = {"rounds": rounds, "answers": [t["answers"] for t in tallies],
               "right": [t["right"] for t in tallies], "bars": ordered}
        label_misconceptions(q, out)   # each wrong answer a misconception gives, named (§8)
        return out

    def report(self, record: dict) -> list[dict]:
        """The class report: one row per question, round and distinct answer
        (:data:`REPORT_COLUMNS`); counts and times only, never who."""
        rows = []
        code = record["code"]
        for h in record.get("asked", []):
            q = {"id": h["id"], "round": h["rounds"], "answer_text": h["answer_text"],
                 "kind": h["kind"], "misconceptions": h.get("misconceptions")}
            chart = self.chart(code, q)
            for k in range(1, h["rounds"] + 1):
                n, right = chart["answers"][k - 1], chart["right"][k - 1]
                times = self.store.times(code, _book(q, k))
                median = round(statistics.median(times), 1) if times else None
                for bar in chart["bars"]:
                    rows.append({
                        "question": h["n"], "step": h["step"], "node": h["node"] or "",
                        "kind": h["kind"], "round": k, "answer": bar["label"],
                        "right": int(bar["right"]), "count": bar["counts"][k - 1],
                        "answers": n, "share_right": round(right / n, 3) if n else None,
                        "median_seconds": median, "right_answer": h["answer_text"],
                        "say": h["say"],
                        "misconception": bar.get("misconception", {}).get("id", ""),
                        "misconception_name": bar.get("misconception", {}).get("name")})
        return rows

    # -- what each side sees ---------------------------------------------------
    @staticmethod
    def public(record: dict, now: float | None = None) -> dict:
        """The class as a student sees it: never the token, never the answer
        before it is revealed. A countdown travels as the seconds left
        (``remaining``), so phones with wrong clocks count down right."""
        out = {k: record[k] for k in ("code", "tree", "options", "step", "seq", "ended")}
        q = record["question"]
        if q:
            shown = {k: q[k] for k in ("id", "kind", "node", "prompt", "entry", "choices",
                                       "asked_step", "revealed")}
            shown["say"] = q.get("say")
            shown["round"] = q.get("round", 1)
            if q.get("givens"):   # [mcts] the numbers UCB1 needs (no answer in them)
                shown["givens"] = q["givens"]
            if q.get("closes"):
                now = time.time() if now is None else now
                shown["remaining"] = round(max(0.0, q["closes"] - now), 1)
            if q["revealed"]:
                shown.update(answer=q["answer"], answer_text=q["answer_text"],
                             reveal_step=q["reveal_step"])
                if q.get("table"):   # [mcts] the selection's UCB1 table
                    shown["table"] = q["table"]
            else:
                shown["mask"] = q["mask"]
            out["question"] = shown
        else:
            out["question"] = None
        return out

    def instructor(self, record: dict, live: bool = False) -> dict:
        """What the instructor's pages get: the projector (the answer only
        once revealed, the tally as a count), or with ``live`` the second
        device (the answer and the live distribution)."""
        out = self.public(record, self.clock())
        q = record["question"]
        if q:
            out["question"]["mask"] = q["mask"]
            out["question"]["reveal_step"] = q["reveal_step"]
            if live or q["revealed"]:
                out["question"].update(answer=q["answer"], answer_text=q["answer_text"])
        out["tally"] = self.tally(record, live)
        out["students"] = self.store.students(record["code"])
        out["questions"] = len(record.get("asked", []))
        return out

    def instructor_views(self, record: dict) -> tuple[dict, dict]:
        """``(projector, second device)`` views of :meth:`instructor`, the
        store read once for both (a reveal's broadcast)."""
        live = self.instructor(record, live=True)
        q = record["question"]
        if not q or q["revealed"]:
            return live, live
        shown = {**live, "question": dict(live["question"]),
                 "tally": {k: live["tally"][k] for k in ("question", "round", "answers",
                                                          "students")}}
        for k in ("answer", "answer_text"):
            shown["question"].pop(k, None)
        return shown, live

    def _tree(self, tree_id: str):
        """The class's tree, to grade with. Never built on the loop: the library
        forgets a parse unused for a while (a question's discussion), and building
        a big one again takes a second: the copy its answer key holds serves then,
        else it is built as heavy work (a process that asked no question: Redis)."""
        if self.ready is None:
            return self.tree_of(tree_id)
        tree = self.ready(tree_id)
        if tree is None:
            with self._keys_lock:
                tree = next((key.tree for (tid, _), (key, _) in self._keys.items()
                             if tid == tree_id), None)
        return tree if tree is not None else self.heavy(self.tree_of, tree_id)

    # -- the answer key ----------------------------------------------------------
    def key(self, record: dict):
        """The practice answer key of the class's run (cached; refused when
        the run is too long or is iterative deepening)."""
        return self._prepared(record)[0]

    def _prepared(self, record: dict) -> tuple:
        """``(answer key, the misconceptions' sheets)`` of the class's run, computed
        once (:attr:`heavy`) however many asks arrive meanwhile (a double tap, two
        instructor tabs): the first computes, the others wait for its result."""
        opts = record["options"]
        cache_key = (record["tree"], tuple(sorted(opts.items())))
        while True:
            with self._keys_lock:
                if cache_key in self._keys:
                    self._keys.move_to_end(cache_key)
                    return self._keys[cache_key]
                computing = self._computing.get(cache_key)
                mine = computing is None
                if mine:
                    computing = self._computing[cache_key] = _Computing()
            if mine:
                break
            made = computing.result()
            if made is not None:
                return made          # else the one computing was stopped: compute here
        options = SearchOptions(**opts)
        try:
            if options.algorithm and not (record_of := get(options.algorithm)).one_search:
                raise ClassError(400, record_of.reason("questions")
                                 or "questions need one search (run the class with alpha-beta)")
            made = self.heavy(_compute_key, self.tree_of, record["tree"], options,
                              self.key_max_events)
        except BaseException as exc:
            with self._keys_lock:
                self._computing.pop(cache_key, None)
            computing.failed(exc)
            raise
        with self._keys_lock:        # published with the one computing gone, at once
            self._computing.pop(cache_key, None)
            self._keys[cache_key] = made
            while len(self._keys) > self._keys_cached:
                self._keys.popitem(last=False)
        computing.done(made)
        return made


class _Computing:
    """One answer key being computed: the asks that came meanwhile wait on it.
    An event of the caller's kind (gevent's where gevent patched ``threading``):
    only requests wait on it and set it, never the pool's threads."""

    def __init__(self):
        self._event = threading.Event()
        self._value = self._error = None

    def done(self, value) -> None:
        self._value = value
        self._event.set()

    def failed(self, error: BaseException) -> None:
        """The asks waiting get the same refusal (a run too long, a full queue);
        a greenlet killed (not an Exception) leaves them to compute it themselves."""
        if isinstance(error, Exception):
            self._error = error
        self._event.set()

    def result(self):
        """The key and sheets, or None where the one computing was stopped."""
        if not self._event.wait(KEY_WAIT):
            raise ClassError(503, "the answer key is still being computed: ask again in a "
                                  "moment")
        if self._error is not None:
            raise self._error
        return self._value


def _compute_key(tree_of: Callable, tree_id: str, options: SearchOptions,
                 most: int) -> tuple:
    """``(answer key, the misconceptions' sheets)`` of a run, or ClassError(400):
    heavy work (a search of the tree, twice), so it touches nothing shared."""
    tree = tree_of(tree_id)
    try:
        length = sum(1 for _ in itertools.islice(run(tree, options), most + 1))
    except SearchError as exc:
        raise ClassError.because(400, exc) from None
    if length > most:
        raise ClassError(400, "this run is longer than {most:,} steps: questions work on "
                              "smaller trees", most=most)
    key = answer_key(tree, options)
    return key, wrong_sheets(key)


def _book(q: dict, round_: int | None = None) -> str:
    """Where a round's answers are kept: ``q1.1``, ``q1.2``..."""
    return f"{q['id']}.{round_ or q.get('round', 1)}"


def _sign(record: dict, nonce: str) -> str:
    return hmac.new(record["salt"].encode(), f"{record['code']}:{nonce}".encode(),
                    hashlib.sha256).hexdigest()[:16]


def _options_json(options: SearchOptions) -> dict:
    out = {k: getattr(options, k) for k in ("algorithm", "depth", "order", "seed", "strict",
                                             "style")}
    for k in ("iterations", "exploration"):   # [mcts] only when set (old records lack them)
        if getattr(options, k) is not None:
            out[k] = getattr(options, k)
    return out

