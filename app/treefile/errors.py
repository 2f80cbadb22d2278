"""Errors of a tree file: what is wrong, and where.

Every problem in a file becomes a :class:`TreeFileError` that names it in a
sentence a student can act on, with the 1-based line and column where one
is known:

>>> err = TreeFileError("unknown key 'vaule' (did you mean 'value'?)", 7, 5)
>>> str(err)
"line 7, column 5: unknown key 'vaule' (did you mean 'value'?)"
>>> err.to_dict()["line"]
7
"""
from __future__ import annotations

import difflib


class TreeFileError(ValueError):
    """A tree file that cannot be loaded; nothing of it was kept.

    An error made by :func:`file_error` also keeps its catalogue message
    (``msgid``, English with named ``fields``), so that the web app and the
    command line can say it in the reader's language (``app.i18n``).
    """

    def __init__(self, message: str, line: int | None = None,
                 column: int | None = None, *, msgid: str | None = None,
                 fields: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column if line is not None else None
        self.msgid = msgid
        self.fields = fields or {}

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        if self.column is None:
            return f"line {self.line}: {self.message}"
        return f"line {self.line}, column {self.column}: {self.message}"

    def to_dict(self) -> dict:
        """The JSON form the HTTP API sends back."""
        return {"message": self.message, "line": self.line, "column": self.column}


class TreeTooLarge(TreeFileError):
    """The file, or the tree it describes, is beyond the configured limits."""


def file_error(msgid: str, line: int | None = None, column: int | None = None, *,
               cls: type = TreeFileError, **fields) -> TreeFileError:
    """An error whose sentence is the catalogue message ``msgid`` (English,
    with ``{named}`` fields filled from ``fields``; ``{line}`` is ``line``).

    >>> err = file_error("A colon is missing after “{key}”.", 2, 5, key="root")
    >>> str(err), err.msgid
    ('line 2, column 5: A colon is missing after “root”.', 'A colon is missing after “{key}”.')
    """
    fields = {"line": line, **fields}       # a sentence may name its own line
    return cls(msgid.format(**fields), line, column, msgid=msgid, fields=fields)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue where it is only chosen, not said yet."""
    return msgid


class Phrase(str):
    """A part of a sentence that is itself a catalogue message (a key's name,
    "a list", "the number 3"): English as a string, and kept as ``msgid``
    with its ``fields`` so that :func:`app.i18n.error_message` says it in
    the reader's language inside the sentence that quotes it."""

    msgid: str
    fields: dict

    def __new__(cls, msgid: str, **fields):
        self = super().__new__(cls, msgid.format(**fields) if fields else msgid)
        self.msgid, self.fields = msgid, fields
        return self


_PHRASES: dict[str, Phrase] = {}
"""Phrases without fields, made once: the loader names a key for every field
of every node it reads (in case it is wrong), and the editor loads a tree
after every edit."""


def phrase(msgid: str, **fields) -> Phrase:
    """The part of a sentence ``msgid`` (marked for the catalogue).

    >>> phrase("the number {text}", text="3"), phrase("a list").msgid
    ('the number 3', 'a list')
    """
    if fields:
        return Phrase(msgid, **fields)
    found = _PHRASES.get(msgid)
    if found is None:
        found = _PHRASES[msgid] = Phrase(msgid)
    return found


def key_name(key) -> Phrase:
    """A file's key named in a sentence: as written in English (``value must
    be a number``), in quotes where a language needs them (``'value' harus``)."""
    if isinstance(key, Phrase):
        return key
    found = _KEY_NAMES.get(key) if type(key) is str else None
    if found is None:
        # Translators: the name of a key of the file (value, eval, title) inside a
        # sentence; Indonesian puts it in quotes.
        found = phrase("{key}", key=str(key))
        if type(key) is str and len(_KEY_NAMES) < 256:
            _KEY_NAMES[key] = found
    return found


_KEY_NAMES: dict[str, Phrase] = {}
"""Key names said (a handful: value, eval, label...), made once each."""


def suggestion(word: str, choices) -> str:
    """`` (did you mean 'x'?)`` when ``word`` looks like a typo of a choice.

    >>> suggestion("vaule", ["value", "label"])
    " (did you mean 'value'?)"
    >>> suggestion("colour", ["value", "label"])
    ''
    """
    close = closest(word, choices)
    return f" (did you mean {close!r}?)" if close else ""


def closest(word: str, choices) -> str | None:
    """The choice ``word`` looks like a typo of, or None."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close and len(word) > 1:  # case slips such as 'Value' or 'TITLE'
        close = [c for c in choices if c.lower() == word.lower()][:1]
    return close[0] if close else None


def shorten(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters for quoting in a message."""
    if len(text) <= width:
        return text
    return f"{text[:width - 1]}… ({len(text)} characters)"
