"""Search options from a query string or a Socket.IO payload, checked.

Both sources name the same fields as :class:`~app.search.SearchOptions`
(``algorithm``, ``depth``, ``order``, ``seed``, ``strict``, ``style``). A
field that is unknown, of the wrong type or out of range is refused with a
:class:`~app.web.errors.BadArgument` naming it, before any search starts.

>>> options_from_query({"algorithm": "minimax", "depth": "2", "strict": "1"})
SearchOptions(algorithm='minimax', depth=2, order='given', seed=None, strict=True, style='aima', reorder=True, bounds=None, iterations=None, exploration=None)
>>> options_from_query({"depht": "2"})
Traceback (most recent call last):
app.web.errors.BadArgument: unknown argument 'depht': expected algorithm, depth, order, seed, strict, style, iterations, exploration
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from app.i18n import DEFAULT, words
from app.search.options import ALGORITHMS, ORDERS, STYLES, SearchOptions
from app.search.states import N_

from .errors import BadArgument

OPTION_FIELDS = ("algorithm", "depth", "order", "seed", "strict", "style",
                 "iterations", "exploration")   # (the last two: Monte Carlo tree search's)
MAX_DEPTH = 10_000
MAX_ITERATIONS = 10_000_000
"""[mcts] The most iterations a request may name (the budget's own cap, lower, says more)."""
MAX_EXPLORATION = 100
MAX_SEED = 2**63 - 1
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")
_CHOICES = {"algorithm": ALGORITHMS, "order": ORDERS, "style": STYLES}
_INTEGER = re.compile(r"[-+]?[0-9]+")


def check_keys(data: Mapping, allowed: tuple[str, ...]) -> None:
    """Refuse any key not in ``allowed``."""
    for key in data:
        if key not in allowed:   # (named cut short: a key may be 60 KB)
            raise argument_error(str(key)[:40], "unknown argument {name}: expected {allowed}",
                                 name=_shown(str(key)), allowed=", ".join(allowed))


def options_from_query(args: Mapping[str, str]) -> SearchOptions:
    """Options from URL query arguments (all strings; empty means default)."""
    check_keys(args, OPTION_FIELDS)
    values = {}
    for name in ("algorithm", "order", "style"):
        if args.get(name):
            values[name] = _choice(name, args[name])
    for name, low, high in (("depth", 0, MAX_DEPTH), ("seed", -MAX_SEED, MAX_SEED)):
        text = args.get(name, "").strip()
        if text:
            if not _INTEGER.fullmatch(text):
                raise _not_whole(name, text)
            if len(text.lstrip("+-0")) > 30:   # int() refuses 4,300+ digits; all are out of range
                raise argument_error(name, "{name} must be between {low} and {high}, not {value}",
                                     name=name, low=low, high=high, value=_shown(text))
            values[name] = _in_range(name, int(text, 10), low, high)
    strict = args.get("strict", "").strip().lower()
    if strict not in _TRUE + _FALSE:
        raise argument_error("strict", "strict must be 1 or 0, not {value}",
                             value=_shown(args["strict"]))
    values["strict"] = strict in _TRUE
    _mcts_from_query(args, values)   # [mcts]
    return SearchOptions(**values)


def _mcts_from_query(args: Mapping[str, str], values: dict) -> None:
    """[mcts] ``iterations`` (a whole number) and ``exploration`` (a number) from the query."""
    text = args.get("iterations", "").strip()
    if text:
        if not _INTEGER.fullmatch(text) or len(text) > 30:
            raise _not_whole("iterations", text)
        values["iterations"] = _in_range("iterations", int(text, 10), 1, MAX_ITERATIONS)
    text = args.get("exploration", "").strip()
    if text:
        try:
            c = float(text) if len(text) <= 30 else None
        except ValueError:
            c = None
        if c is None or not 0 <= c <= MAX_EXPLORATION:
            raise argument_error("exploration", "exploration must be a number from 0 to {high}, "
                                 "not {value}", high=MAX_EXPLORATION, value=_shown(text))
        values["exploration"] = c


def _mcts_from_payload(data: Mapping, values: dict) -> None:
    """[mcts] ``iterations`` and ``exploration`` from a JSON object."""
    if data.get("iterations") is not None:
        values["iterations"] = _in_range("iterations", whole_number("iterations",
                                                                    data["iterations"]),
                                         1, MAX_ITERATIONS)
    c = data.get("exploration")
    if c is not None:
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c <= MAX_EXPLORATION:
            raise argument_error("exploration", "exploration must be a number from 0 to {high}, "
                                 "not {value}", high=MAX_EXPLORATION, value=_shown(c))
        values["exploration"] = float(c)


def options_from_payload(data: Mapping, extra: tuple[str, ...] = ()) -> SearchOptions:
    """Options from a JSON object; ``null`` or absent means default.

    ``extra`` names other keys the caller reads itself (``tree``).
    """
    check_keys(data, OPTION_FIELDS + extra)
    values = {}
    for name in ("algorithm", "order", "style"):
        value = data.get(name)
        if value is not None:
            if not isinstance(value, str):
                raise argument_error(name, "{name} must be a string", name=name)
            values[name] = _choice(name, value)
    for name, low, high in (("depth", 0, MAX_DEPTH), ("seed", -MAX_SEED, MAX_SEED)):
        value = data.get(name)
        if value is not None:
            values[name] = _in_range(name, whole_number(name, value), low, high)
    strict = data.get("strict")
    if strict is not None and not isinstance(strict, bool):
        raise argument_error("strict", "strict must be true or false")
    values["strict"] = bool(strict)
    _mcts_from_payload(data, values)   # [mcts]
    return SearchOptions(**values)


def whole_number(name: str, value) -> int:
    """``value`` if it is a JSON integer (``true`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _not_whole(name, value)
    return value


def argument_error(argument: str, msgid: str, **fields) -> BadArgument:
    """The refusal of ``argument``: the catalogue message ``msgid`` (English,
    ``{named}`` fields) in the request's language (English outside a request);
    ``msgid`` and ``fields`` stay on the error for tests and logs."""
    from flask import has_request_context

    from .i18n import page_language

    lang = page_language() if has_request_context() else DEFAULT
    err = BadArgument(argument, words(lang)(msgid, **fields))
    err.msgid, err.msg_fields = msgid, fields
    return err


def refused_by_record(argument: str, record, layer: str) -> BadArgument:
    """``layer``'s refusal of the algorithm ``record``: the reason its record gives
    (a catalogue message, tests/search/test_descriptors.py checks each is translated)."""
    from flask import has_request_context

    from .i18n import page_language

    msgid = record.reason(layer) or N_("{algorithm} does not work here")
    lang = page_language() if has_request_context() else DEFAULT
    err = BadArgument(argument, words(lang)(msgid, algorithm=record.id))
    err.msgid, err.msg_fields = msgid, {"algorithm": record.id}
    return err


def _not_whole(name: str, value) -> BadArgument:
    return argument_error(name, "{name} must be a whole number, not {value}", name=name,
                          value=_shown(value))


def _in_range(name: str, number: int, low: int, high: int) -> int:
    if not low <= number <= high:
        if abs(number) >= 10**30:
            raise argument_error(name, "{name} must be between {low} and {high}, not a number "
                                 "of about {digits} digits", name=name, low=low, high=high,
                                 digits=number.bit_length() * 3 // 10)
        raise argument_error(name, "{name} must be between {low} and {high}, not {value}",
                             name=name, low=low, high=high, value=number)
    return number


def _choice(name: str, value: str) -> str:
    if value not in _CHOICES[name]:
        raise argument_error(name, "unknown {name} {value}: choose one of {choices}", name=name,
                             value=_shown(value), choices=", ".join(_CHOICES[name]))
    return value


def _shown(value, width: int = 40) -> str:
    """``repr(value)``, cut short: arguments are echoed in messages, and a
    client may send megabytes."""
    text = repr(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= width else f"{text[:width - 1]}…"


def options_dict(options: SearchOptions) -> dict:
    """The options as JSON, in the names the API takes ([mcts]'s two only when set)."""
    return {name: getattr(options, name) for name in OPTION_FIELDS
            if name in OPTION_FIELDS[:6] or getattr(options, name) is not None}
