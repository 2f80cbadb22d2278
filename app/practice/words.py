"""The language of the checker's sentences: see :mod:`app.i18n.context`
(the web layer wraps a check in ``speaking(words(lang))``)."""
from app.i18n.context import current, speaking, tell

__all__ = ["current", "speaking", "tell"]
