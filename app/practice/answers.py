"""Reading what a student typed, and comparing it with the answer key.

Students write numbers as they would on paper: ``3``, ``−3`` (a typographic
minus), ``2.5``, ``-inf`` / ``−∞`` / ``+∞`` for bounds, and a max^n vector
as ``(1, 2, 6)``, ``1 2 6`` or a JSON list. Anything else is not a guess we
try to repair: it is reported back as unreadable.

>>> parse_entry("−3"), parse_entry("+∞"), parse_entry(" 2.5 "), parse_entry("(1, 2, 6)")
(-3, inf, 2.5, (1, 2, 6))
>>> parse_entry("") is None, parse_entry(None) is None
(True, True)
>>> same(2.9000000000000004, 2.9), same(3, 4), same((1, 2), (1, 2.0))
(True, False, True)
"""
from __future__ import annotations

import math
import re

INF = math.inf
TOLERANCE = 0.005
"""Answers within this of the key count as right: a chance node's weighted
sum written to two decimals (0.333... as 0.33) is what the student meant."""

_MINUS = str.maketrans({"−": "-", "–": "-", "﹣": "-", "－": "-", "＋": "+"})
_INF_WORDS = {"inf", "infinity", "∞", "+inf", "+infinity", "+∞"}
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


class Unreadable(ValueError):
    """The entry is not a number, a bound or a vector."""


def parse_entry(raw):
    """A number, ±inf, a tuple of numbers, or ``None`` for an empty entry.

    Raises :class:`Unreadable` for text that is none of these.
    """
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise Unreadable(f"{raw!r} is not a number")
    if isinstance(raw, (int, float)):
        if isinstance(raw, float) and math.isnan(raw):
            raise Unreadable("NaN is not a value")
        return _sized(raw)
    if isinstance(raw, (list, tuple)):
        return tuple(_scalar(x) for x in raw)
    if not isinstance(raw, str):
        raise Unreadable(f"{raw!r} is not a number")
    text = raw.translate(_MINUS).strip()
    if not text:
        return None
    if text[0] in "([" and text[-1] in ")]":
        text = text[1:-1]
    parts = [p for p in re.split(r"[\s,;]+", text) if p]
    if len(parts) > 1:
        return tuple(_scalar(p) for p in parts)
    if not parts:
        raise Unreadable(f"{raw!r} is not a number")
    return _scalar(parts[0])


def _scalar(x):
    if isinstance(x, bool):
        raise Unreadable(f"{x!r} is not a number")
    if isinstance(x, float) and math.isnan(x):     # [NaN, 1] from a JSON body: no vector
        raise Unreadable("NaN is not a value")
    if isinstance(x, (int, float)):
        return _sized(x)
    if not isinstance(x, str):
        raise Unreadable(f"{x!r} is not a number")
    text = x.translate(_MINUS).strip().lower()
    if text in _INF_WORDS:
        return INF
    if text.startswith("-") and text[1:] in _INF_WORDS:
        return -INF
    if _NUMBER.fullmatch(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text else number
    raise Unreadable(f"{x!r} is not a number")


def _sized(x):
    """A whole number past a float's range (300 digits and more) as ±inf, as its
    text reads (``"1e400"``): compared with the key's floats it overflowed (a 500)."""
    if isinstance(x, int) and x.bit_length() > 1023:
        return INF if x > 0 else -INF
    return x


def key_value(x):
    """A value from an event (JSON form: ``"inf"`` strings, lists) as a number or tuple."""
    if x == "inf":
        return INF
    if x == "-inf":
        return -INF
    if isinstance(x, list):
        return tuple(key_value(i) for i in x)
    return x


def same(given, expected) -> bool:
    """Whether a parsed entry matches a key value (both already numbers/tuples)."""
    if given is None or expected is None:
        return given is expected
    if isinstance(expected, tuple) or isinstance(given, tuple):
        if not (isinstance(expected, tuple) and isinstance(given, tuple)):
            return False
        return len(given) == len(expected) and all(same(g, e) for g, e in zip(given, expected))
    if math.isinf(expected) or math.isinf(given):
        return given == expected
    return abs(given - expected) <= TOLERANCE + 1e-9
