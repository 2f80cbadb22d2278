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


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``allow_nan=False``."""

    def dumps(self, obj, **kwargs) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


class StrictJSON:
    """A ``json``-module look-alike for python-socketio / python-engineio."""

    @staticmethod
    def dumps(obj, **kwargs) -> str:
        kwargs["allow_nan"] = False
        return json.dumps(obj, **kwargs)

    @staticmethod
    def loads(text, **kwargs):
        return json.loads(text, **kwargs)
