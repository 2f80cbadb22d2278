"""Checking single values of a tree file: numbers, vectors, text, ids.

Each function takes a located document and returns a clean Python value or
raises :class:`TreeFileError` at that value's line and column. ``what``
names the field in the sentence (``"value"``, ``"eval"``, ``"title"``).
"""
from __future__ import annotations

import math
import re

from .doc import Scalar, Seq, kind
from .errors import N_, TreeFileError, file_error, key_name, phrase, shorten
from .limits import MAX_ID, MAX_NUMBER

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Bidirectional controls: an override shows ``txt.exe`` as ``exe.txt``
(CVE-2021-42574's "Trojan Source"); no tree needs them."""
_NOT_IN_ID = re.compile(r"[^\S ]|[\"\\<>`]|^ | $")   # inner spaces are fine
_FRACTION = re.compile(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*")


def at(doc) -> tuple[int, int]:
    """Where ``doc`` is, for ``file_error(msgid, *at(doc), **fields)``: the
    catalogue message then reads in the reader's language."""
    return doc.line, doc.col


def _not_a(doc, msgid_list: str, msgid_map: str, **fields) -> TreeFileError | None:
    """The catalogue error for a list or mapping given where a plain value
    belongs (``kind`` is English, so each has its own message)."""
    if isinstance(doc, Seq):
        return file_error(msgid_list, *at(doc), **fields)
    if type(doc) is not Scalar:
        return file_error(msgid_map, *at(doc), **fields)
    return None


def number(doc, what: str):
    """A finite int or float of magnitude at most 1e15 (never a boolean)."""
    what = key_name(what)
    if type(doc) is not Scalar:
        raise _not_a(doc, N_("{what} must be a number, not a list"),
                     N_("{what} must be a number, not a mapping"), what=what)
    value = doc.value
    if type(value) is int:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
    elif type(value) is float:
        if math.isfinite(value) and abs(value) <= MAX_NUMBER:
            return value
        if "inf" in doc.text.lower() or "nan" in doc.text.lower():
            raise file_error("{what} must be a finite number, not {text}", *at(doc),
                             what=what, text=doc.text)
    elif isinstance(value, bool):
        raise file_error("{what} must be a number, not the boolean {text} "
                         "(yes, no, true and false are not numbers)", *at(doc),
                         what=what, text=repr(doc.text))
    elif value is None:
        raise file_error("{what} is empty: it must be a number", *at(doc), what=what)
    else:
        raise file_error("{what} must be a number, not the text {text}", *at(doc),
                         what=what, text=repr(shorten(value)))
    raise file_error("{what} {text} is out of range: numbers must lie between -1e15 and 1e15",
                     *at(doc), what=what, text=shorten(doc.text))


def text(doc, what: str, limit: int, *, multiline: bool = False) -> str | None:
    """A string (numbers are taken as written); ``None`` for an empty value."""
    what = key_name(what)
    if type(doc) is not Scalar:
        raise file_error("{what} must be text, not {kind}", *at(doc), what=what, kind=kind(doc))
    value = doc.value
    if value is None:
        return None
    if isinstance(value, bool):
        raise file_error("{what} must be text, not the boolean {text} "
                         "(put it in quotes: \"{word}\")", *at(doc),
                         what=what, text=repr(doc.text), word=doc.text)
    result = value if isinstance(value, str) else doc.text
    if len(result) > limit:
        raise file_error("{what} is too long: {count} characters, at most {most}", *at(doc),
                         what=what, count=len(result), most=limit)
    if not multiline and ("\n" in result or "\r" in result):
        raise file_error("{what} must be a single line", *at(doc), what=what)
    bad = _CONTROL.search(result.replace("\t", " ") if multiline else result)
    if bad:
        raise file_error("{what} contains the control character U+{code}", *at(doc),
                         what=what, code=f"{ord(bad.group()):04X}")
    _check_bidi(doc, what, result)
    return result


def _check_bidi(doc, what: str, result: str) -> None:
    bad = _BIDI.search(result)
    if bad:
        raise file_error("{what} contains the bidirectional control character U+{code}, "
                         "which can show text in a misleading order", *at(doc),
                         what=what, code=f"{ord(bad.group()):04X}")


def node_id(doc) -> str:
    """An id: a string, or a whole number taken as written."""
    if type(doc) is not Scalar or isinstance(doc.value, bool) \
            or not isinstance(doc.value, (str, int)):
        raise file_error("an id must be text or a whole number, not {kind}", *at(doc),
                         kind=kind(doc))
    result = doc.value if isinstance(doc.value, str) else doc.text
    if not result:
        raise file_error("an id must not be empty", *at(doc))
    if len(result) > MAX_ID:
        raise file_error("the id {id} is too long: {count} characters, at most {most}",
                         *at(doc), id=repr(shorten(result)), count=len(result), most=MAX_ID)
    bad = _NOT_IN_ID.search(result) or _CONTROL.search(result)
    if bad:
        char = bad.group()
        shown = phrase("a space") if char == " " else repr(char)
        raise file_error("the id {id} contains {char}, which ids may not contain", *at(doc),
                         id=repr(shorten(result)), char=shown)
    _check_bidi(doc, phrase("the id"), result)
    return result


def vector(doc: Seq, what: str, players: tuple[str, ...]) -> tuple:
    """One number per player."""
    what = key_name(what)
    if len(doc.items) != len(players):
        raise file_error("{what} has {count} numbers, but the tree has {n} players ({players})",
                         *at(doc), what=what, count=len(doc.items), n=len(players),
                         players=", ".join(players))
    each = phrase("each number of {what}", what=what)
    return tuple(number(item, each) for item in doc.items)


def probability(doc) -> float:
    """A number in [0, 1]; a fraction such as ``1/6`` is allowed too."""
    if type(doc) is Scalar and isinstance(doc.value, str):
        match = _FRACTION.fullmatch(doc.value)
        if match and len(doc.value) < 40:
            top, bottom = int(match.group(1)), int(match.group(2))
            if bottom == 0:
                raise file_error("probability {text} divides by zero", *at(doc),
                                 text=doc.value)
            value = top / bottom
        else:
            value = number(doc, "probability")
    else:
        value = number(doc, "probability")
    if value < 0:
        raise file_error("probability {text} is negative", *at(doc), text=doc.text)
    if value > 1:
        raise file_error("probability {text} is more than 1", *at(doc), text=doc.text)
    return float(value)
