"""Live classes: an instructor drives a run, students' phones follow and answer.

Pure logic and state stores, no Flask: :mod:`.codes` (join codes, tokens),
:mod:`.questions` (questions graded by practice mode's own key and
comparisons), :mod:`.store` (the interface and the in-memory store),
:mod:`.redis_store` (the same in Redis, for several processes) and
:mod:`.service` (what a class does). The web layer is
:mod:`app.web.classes` (pages, ``POST /api/classes``) and
:mod:`app.web.class_sockets` (the ``/class`` Socket.IO namespace).
"""
from __future__ import annotations

from .questions import KINDS, AnswerError, QuestionError
from .service import ClassError, Classes
from .store import ClassStore, MemoryStore, StoreUnavailable


def make_store(url: str | None):
    """The store for a message-queue URL: Redis for ``redis://``/``rediss://``,
    else this process's memory."""
    if not url:
        return MemoryStore()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore
        return RedisStore(url)
    raise ValueError(f"unsupported message queue {url!r}: use redis://host:port")


__all__ = ["Classes", "ClassError", "ClassStore", "MemoryStore", "StoreUnavailable",
           "make_store", "KINDS", "AnswerError", "QuestionError"]
