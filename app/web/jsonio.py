"""Strict JSON for HTTP and Socket.IO: ``NaN`` and ``Infinity`` are refused.

Browsers' ``JSON.parse`` rejects the bare ``Infinity`` that Python's
``json`` writes by default, so a non-finite float reaching an answer is a
bug to catch on the server, not a page that silently fails to load. (The
search core spells infinite bounds as the strings ``"inf"`` / ``"-inf"``.)

>>> StrictJSON.dumps({"alpha": "-inf"})
'{"alpha": "-inf"}'
>>> StrictJSON.dumps(float("inf"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: Out of range float values are not JSON compliant...
"""
from __future__ import annotations

import json

from flask.json.provider import DefaultJSONProvider


def loads_bounded(text, **kwargs):
    """``json.loads``, but a document nested past Python's recursion limit is
    a ``ValueError`` like any bad JSON (a client's 400), not a RecursionError
    (a server's 500).

    >>> loads_bounded("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ValueError: the JSON is nested too deeply
    """
    try:
        return json.loads(text, **kwargs)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``allow_nan=False``, and deep nesting a ``ValueError``."""

    def dumps(self, obj, **kwargs) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)

    def loads(self, s, **kwargs):
        return loads_bounded(s, **kwargs)


class StrictJSON:
    """A ``json``-module look-alike for python-socketio / python-engineio."""

    @staticmethod
    def dumps(obj, **kwargs) -> str:
        kwargs["allow_nan"] = False
        return json.dumps(obj, **kwargs)

    @staticmethod
    def loads(text, **kwargs):
        return loads_bounded(text, **kwargs)
