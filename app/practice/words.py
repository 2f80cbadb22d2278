"""The language of the checker's sentences.

The web layer says which language a request reads (``with speaking(say):``,
``say`` from ``app.i18n.words(lang)``); every sentence here goes through
:func:`tell`, whose message ids are English sentences with named fields in
the catalogue. The answer key's run narrates with the same words, so a
quoted narration sentence is in the same language. Default: English.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable

from app.search.words import english

_words: ContextVar[Callable[..., str]] = ContextVar("practice_words", default=english)


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
