"""Where class state lives: a small interface, kept in this process's memory.

:class:`MemoryStore` is the embedded default (one process, nothing else to
start); :class:`app.classes.redis_store.RedisStore` keeps the same state in
Redis so that several processes behind nginx share it. Both keep, per class:

- the **record**: one JSON-ready dict (tree, options, step, question, ...),
  changed only through :meth:`change`, an atomic read-modify-write;
- the **answers** to each question's round (a *book*: ``q1.1``, ``q1.2``), one
  per student, the first one counts, with the seconds it took;
- the **tally** of each book: answers in, right, and each distinct label
  with its count (and whether it is right);
- the **students** connected: a count of connections per student id, so a
  student on two tabs or reconnecting is one student.

Records expire ``ttl`` seconds after their last change (an ended class is
kept a day so that its page can say it ended, then its code is free).
"""
from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from typing import Protocol


class StoreUnavailable(RuntimeError):
    """The shared store cannot be reached (Redis down): say so, never hang."""


class ClassStore(Protocol):
    def add(self, code: str, record: dict, ttl: float) -> bool:
        """Keep a new class; False if the code is taken."""

    def get(self, code: str) -> dict | None: ...

    def change(self, code: str, fn: Callable[[dict], dict | None], ttl: float) -> dict | None:
        """Atomically replace the record by ``fn(copy)`` (``None``: leave it);
        returns the record as it now is, ``None`` if there is no such class.
        ``fn`` may raise to refuse the change."""

    def answer(self, code: str, qid: str, student: str, label: str, right: bool,
               ttl: float, seconds: float = 0.0) -> bool:
        """Record a student's answer (``seconds`` after the question opened);
        False if they had answered already."""

    def answer_of(self, code: str, qid: str, student: str) -> tuple[str, bool] | None: ...

    def tally(self, code: str, qid: str) -> dict:
        """``{"answers": n, "right": r, "wrong": {label: count},
        "labels": {label: [count, right]}}``."""

    def times(self, code: str, qid: str) -> list[float]:
        """The seconds each answer of ``qid`` took (no student ids)."""

    def join(self, code: str, student: str, cap: int, ttl: float) -> int | None:
        """One more connection of ``student``; the number of students, or
        ``None`` if the class is full (``cap`` students) and they are new."""

    def leave(self, code: str, student: str) -> int:
        """One connection of ``student`` gone; the number of students left."""

    def students(self, code: str) -> int: ...

    def codes(self) -> list[str]:
        """Classes this store can list cheaply (the memory store: all)."""


def _tally(answers: int, right: int, labels: dict[str, list]) -> dict:
    return {"answers": answers, "right": right, "labels": labels,
            "wrong": {k: n for k, (n, r) in labels.items() if not r}}


class MemoryStore:
    """Everything in this process, under one lock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._records: dict[str, tuple[dict, float]] = {}
        self._answers: dict[tuple[str, str], dict[str, tuple[str, bool, float]]] = {}
        self._students: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _live(self, code: str) -> dict | None:
        item = self._records.get(code)
        if item is None:
            return None
        if item[1] <= self._clock():
            self._drop(code)
            return None
        return item[0]

    def _drop(self, code: str) -> None:
        self._records.pop(code, None)
        self._students.pop(code, None)
        for key in [k for k in self._answers if k[0] == code]:
            del self._answers[key]

    def add(self, code, record, ttl):
        with self._lock:
            if self._live(code) is not None:
                return False
            self._records[code] = (copy.deepcopy(record), self._clock() + ttl)
            return True

    def get(self, code):
        with self._lock:
            record = self._live(code)
            return copy.deepcopy(record) if record is not None else None

    def change(self, code, fn, ttl):
        with self._lock:
            record = self._live(code)
            if record is None:
                return None
            new = fn(copy.deepcopy(record))
            if new is None:
                return copy.deepcopy(record)
            self._records[code] = (copy.deepcopy(new), self._clock() + ttl)
            return new

    def answer(self, code, qid, student, label, right, ttl, seconds=0.0):
        with self._lock:
            if self._live(code) is None:
                return False
            book = self._answers.setdefault((code, qid), {})
            if student in book:
                return False
            book[student] = (label, right, float(seconds))
            return True

    def answer_of(self, code, qid, student):
        with self._lock:
            mine = self._answers.get((code, qid), {}).get(student)
        return mine[:2] if mine else None

    def tally(self, code, qid):
        with self._lock:
            book = list(self._answers.get((code, qid), {}).values())
        labels: dict[str, list] = {}
        for label, right, _ in book:
            labels.setdefault(label, [0, right])[0] += 1
        return _tally(len(book), sum(1 for a in book if a[1]), labels)

    def times(self, code, qid):
        with self._lock:
            return [a[2] for a in self._answers.get((code, qid), {}).values()]

    def join(self, code, student, cap, ttl):
        with self._lock:
            if self._live(code) is None:
                return None
            people = self._students.setdefault(code, {})
            if student not in people and len(people) >= cap:
                return None
            people[student] = people.get(student, 0) + 1
            return len(people)

    def leave(self, code, student):
        with self._lock:
            people = self._students.get(code, {})
            if student in people:
                people[student] -= 1
                if people[student] <= 0:
                    del people[student]
            return len(people)

    def students(self, code):
        with self._lock:
            return len(self._students.get(code, {}))

    def codes(self):
        with self._lock:
            for code in [c for c in self._records if self._live(c) is None]:
                self._drop(code)
            return list(self._records)

    def ping(self) -> None:
        """Nothing to reach."""
