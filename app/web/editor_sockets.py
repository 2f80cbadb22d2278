"""The tree editor's what-if runs over Socket.IO (namespace ``/edit``).

The same run as ``POST /api/edit/run`` (app.web.editor), sent over the
page's open WebSocket: an edit then pays no HTTP request (headers, a
handler thread, a connection taken from the pool), which was most of its
time to the screen.

Client to server, with an acknowledgement:

- ``run {tree, options?, previous_state? | previous?, edit?, text?}`` ->
  ``{ok: true, answer_json}``: the HTTP answer as one JSON text (python-socketio
  would otherwise walk every value of it looking for binary data, which
  cost more than encoding it); a tree or options refused by the loader
  or the core: ``{ok: false, error: {message, key}}`` (``key`` names the
  node); past a budget: ``{ok: false, error: {message, status, retry_after?}}``
  (413 a search too long or a tree too big, 429 this connection asks faster
  than ``editor_runs_per_second``, 503 the server's what-if runs all busy).

A message is capped by ``socket_message_bytes`` like every Socket.IO
message: the page sends a bigger tree over HTTP.
"""
from __future__ import annotations

import json
import math
import threading
import time

from flask import request
from flask_socketio import Namespace

from app.budget import refusal

from .editor import RUN_FIELDS, _whatif, what_if
from .errors import ApiError, api_error, said
from .sockets import _acked, _error, client_sent


_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode


class Bucket:
    """A token bucket: ``rate`` runs a second on average, ``burst`` at once.

    >>> b = Bucket(rate=2, burst=2, clock=iter([0.0, 0.0, 0.0, 0.5]).__next__)
    >>> b.take(), b.take(), b.take(), b.take()
    (0.0, 0.0, 0.5, 0.0)
    """

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, None

    def take(self) -> float:
        """Take one token: 0.0, or (none left) the seconds until one is there."""
        now = self.clock()
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class EditNamespace(Namespace):
    """The ``run`` event, rate-limited per connection."""

    def __init__(self, namespace: str = "/edit"):
        super().__init__(namespace)
        self._buckets: dict[str, Bucket] = {}
        self._lock = threading.Lock()

    def trigger_event(self, event, *args):
        if (event not in ("connect", "disconnect") and not hasattr(self, f"on_{event or ''}")
                or client_sent(self, event, args)):    # a fresh bucket for the asking
            return _error(said("unknown event {event}: expected {events}", event=repr(event),
                               events="run"))
        return super().trigger_event(event, *args)

    def on_connect(self, auth=None):
        rate = _whatif().budget.editor.editor_runs_per_second
        with self._lock:
            self._buckets[request.sid] = Bucket(rate, 2 * rate)

    def on_disconnect(self, reason=None):
        with self._lock:
            self._buckets.pop(request.sid, None)

    @_acked
    def on_run(self, data: dict) -> dict:
        with self._lock:
            bucket = self._buckets.get(request.sid)
        wait = bucket.take() if bucket else 0.0
        if wait:
            raise refusal("Too many what-if runs from this page (at most {rate:g} a second): "
                          "wait a moment.", 429, max(1, math.ceil(wait)),
                          say={"rate": bucket.rate})
        if "tree" not in data:
            raise api_error(400, "missing field {name}", name="'tree'")
        for key in data:
            if key != "tree" and key not in RUN_FIELDS:
                raise api_error(400, "unknown field {name}: expected {fields}",
                                name=repr(str(key)[:40]), fields=", ".join(("tree",) + RUN_FIELDS))
        answer, status = what_if(data)
        if status != 200:
            return {"ok": False, **answer}
        return {"ok": True, "answer_json": _encode(answer)}
