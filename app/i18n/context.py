"""The language of sentences made deep inside a request or a job.

The checker (app.practice) and the pictures and worksheets (app.render)
build sentences far from the request that says which language to use; the
caller sets it once (``with speaking(words(lang)):``) and every sentence
goes through :func:`tell` (message ids: English with named fields). The
answer key's and the snapshots' runs narrate with :func:`current`, so a
quoted narration sentence is in the same language. Default: English.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable

from app.search.words import english

_words: ContextVar[Callable[..., str]] = ContextVar("words", default=english)


def tell(msgid: str, **fields) -> str:
    """The message ``msgid`` in the current language, fields filled in."""
    return _words.get()(msgid, **fields)


def current() -> Callable[..., str]:
    """The current ``words`` callable (for the core's narrator)."""
    return _words.get()


@contextmanager
def speaking(say: Callable[..., str] | None):
    """Say the sentences made inside this block with ``say``."""
    token = _words.set(say or english)
    try:
        yield
    finally:
        _words.reset(token)
