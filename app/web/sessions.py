"""Engine.IO sessions of a process, capped per client address and in all.

A Socket.IO connection starts with an Engine.IO handshake (``GET
/socket.io/?EIO=4&transport=polling``, no ``sid``): the server makes a
session (queues, a ping task: about 28 kB) and keeps it until the client
closes it or its ping times out, some 45 s later. Nothing capped them: one
client on one keep-alive connection made 3,000 in 12 s, holding 300 MB.

:class:`SessionCap` sits in front of Engine.IO: a handshake from an address
holding ``per_address`` sessions is answered 429, one past the process's
``total`` 503 (both JSON with ``Retry-After``, in the client's language),
before a session exists. A place is taken by the handshake itself (under one
lock, so simultaneous handshakes cannot overshoot), held by the session
Engine.IO's ``connect`` event names, and given back by its ``disconnect``
(a close, a ping timeout, a WebSocket ending), or at once when the handshake
made no session. Per process, under ``run.py``'s threads and gevent alike.
"""
from __future__ import annotations

import json
import logging
import threading
import urllib.parse
from collections import Counter

from werkzeug.wrappers import Request

from app.i18n import N_, chosen_language, words

from .addresses import address_of
from .fairshare import Throttled

log = logging.getLogger(__name__)

TOO_MANY = N_("Too many Socket.IO connections from your address: close some pages "
              "and try again.")
FULL = N_("The server has as many Socket.IO connections as it can hold: try again "
          "in a few seconds.")
RETRY_AFTER = 10
_PLACE = "advsearch.session_place"


class _Place:
    """One handshake's place: taken, then held by its session (``sid``) or given back."""

    __slots__ = ("address", "sid")

    def __init__(self, address: str):
        self.address, self.sid = address, None


class SessionCap:
    """WSGI middleware in front of Flask-SocketIO's (``wsgi_app``), counting the
    sessions of ``eio`` (a python-engineio server) by client address."""

    def __init__(self, wsgi_app, eio, per_address: int, total: int, path: str = "socket.io",
                 header: str | None = None):
        self.wsgi_app, self.eio = wsgi_app, eio
        self.per_address, self.total, self.header = per_address, total, header
        self.path = "/" + path.strip("/")
        self._open: Counter = Counter()      # address -> places taken
        self._held: dict[str, str] = {}      # sid -> address
        self._lock = threading.Lock()
        self.refused = 0
        self.refusals = Throttled(log, "Socket.IO handshake refused: {key} holds {count} "
                                       "sessions ({limit})")
        self._wrap("connect", self._connected)
        self._wrap("disconnect", self._gone)

    def _wrap(self, event: str, hook) -> None:
        inner = self.eio.handlers.get(event)

        def handler(sid, *args):
            ret = inner(sid, *args) if inner is not None else None
            hook(sid, ret, *args)
            return ret

        self.eio.on(event, handler)

    # -- the count ------------------------------------------------------------------
    def open_sessions(self, address: str | None = None) -> int:
        with self._lock:
            return sum(self._open.values()) if address is None else self._open.get(address, 0)

    def _take(self, address: str) -> tuple[_Place | None, int]:
        """A place for a handshake from ``address``, or the status refusing it."""
        with self._lock:
            if self.per_address and self._open[address] >= self.per_address:
                self._forget_gone(address)
            if self.per_address and self._open[address] >= self.per_address:
                return None, 429
            if self.total and sum(self._open.values()) >= self.total:
                self._forget_gone(None)
                if sum(self._open.values()) >= self.total:
                    return None, 503
            self._open[address] += 1
            return _Place(address), 0

    def _forget_gone(self, address: str | None) -> None:
        """Give back the places of sessions Engine.IO no longer has (a session
        that ended without its ``disconnect``: never seen so far, but a cap
        must not fill up for good). Under the lock."""
        alive = self.eio.sockets
        for sid, owner in list(self._held.items()):
            if (address is None or owner == address) and sid not in alive:
                self._release(self._held.pop(sid))

    def _release(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def _connected(self, sid: str, ret, environ=None, *_) -> None:
        place = environ.get(_PLACE) if isinstance(environ, dict) else None
        if place is None or (ret is not None and ret is not True):
            return   # not counted here (refused by the app: Engine.IO keeps nothing)
        with self._lock:
            place.sid = sid
            self._held[sid] = place.address

    def _gone(self, sid: str, *_) -> None:
        with self._lock:
            address = self._held.pop(sid, None)
            if address is not None:
                self._release(address)

    # -- WSGI -----------------------------------------------------------------------
    def __call__(self, environ, start_response):
        if not self._handshake(environ):
            return self.wsgi_app(environ, start_response)
        address = address_of(environ, self.header)
        place, status = self._take(address)
        if place is None:
            return self._refuse(environ, start_response, address, status)
        environ[_PLACE] = place
        try:
            return self.wsgi_app(environ, start_response)
        finally:
            # A WebSocket handshake returns once the session has ended (its
            # disconnect gave the place back); a polling one, once it is made.
            with self._lock:
                if place.sid is None:
                    self._release(place.address)
                    place.sid = ""   # given back once

    def _handshake(self, environ) -> bool:
        path = environ.get("PATH_INFO", "")
        if not (path == self.path or path.startswith(self.path + "/")):
            return False
        query = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
        return "sid" not in query

    def _refuse(self, environ, start_response, address: str, status: int):
        self.refused += 1
        limit = "sessions_per_address" if status == 429 else "sessions"
        self.refusals.note(address if status == 429 else "(all)", limit=limit,
                           count=self.open_sessions(address if status == 429 else None))
        asked = Request(environ)
        lang = chosen_language(asked.args.get("lang"), asked.cookies.get("lang"),
                               asked.headers.get("Accept-Language"))
        message = words(lang)(TOO_MANY if status == 429 else FULL)
        body = json.dumps({"error": {"message": message, "status": status,
                                     "retry_after": RETRY_AFTER}},
                          ensure_ascii=False).encode()
        start_response("429 Too Many Requests" if status == 429 else "503 Service Unavailable",
                       [("Content-Type", "application/json"), ("Content-Language", lang),
                        ("Retry-After", str(RETRY_AFTER)), ("Content-Length", str(len(body)))])
        return [body]


def install(app, socketio) -> SessionCap:
    """Put the cap in front of ``socketio``'s Engine.IO in ``app``'s WSGI chain."""
    connections = app.extensions["budget"].serving
    cap = SessionCap(app.wsgi_app, socketio.server.eio, connections.sessions_per_address,
                     connections.sessions, path=socketio.server_options.get("path", "socket.io"),
                     header=app.config.get("CLASS_CLIENT_HEADER"))
    app.wsgi_app = cap
    app.extensions["sessions"] = cap
    return cap


__all__ = ["SessionCap", "install", "TOO_MANY", "FULL"]
