"""Fair shares of a server process: connections per client address, and
refusals logged as one line per client, not one per refusal.

A process holds thousands of idle connections (a thread each under
``run.py``, a greenlet under gevent), but one client opening 800 WebSockets
used to fill its cap and shut every other visitor out. :class:`AddressSlots`
caps the connections of one address well below the process's own cap
(``app.budget.Connections``); it is generous, because a whole lecture hall
often reaches the server through one NAT address. A connection over the cap
is answered at once with a short ``429`` and closed, before a byte of its
request is read. Behind a trusted proxy (``CLASS_CLIENT_HEADER`` set) every
connection comes from the proxy: the proxy caps per address there
(deploy/nginx.conf ``limit_conn``), and this cap is off.

>>> slots = AddressSlots(2)
>>> slots.enter("10.0.0.1"), slots.enter("10.0.0.1"), slots.enter("10.0.0.1")
(True, True, False)
>>> slots.leave("10.0.0.1"); slots.enter("10.0.0.1"), slots.enter("10.0.0.2")
(True, True)
"""
from __future__ import annotations

import functools
import json
import logging
import re
import socket
import threading
import time
from collections import Counter

from app.i18n import N_, chosen_language, words

log = logging.getLogger(__name__)

REFUSED = N_("Too many connections from your address: close some and try again.")


@functools.lru_cache(maxsize=4)
def refusal(lang: str) -> bytes:
    """The 429 a connection over its share gets, in ``lang``."""
    body = json.dumps({"error": {"message": words(lang)(REFUSED), "status": 429}},
                      ensure_ascii=False).encode()
    return (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            b"Content-Language: " + lang.encode() + b"\r\n"
            b"Retry-After: 10\r\nConnection: close\r\nContent-Length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body)


_ASKED = re.compile(rb"^[A-Z]+ [^ ?]*\?(?:[^ ]*&)?lang=([a-z]{2})\b")
_COOKIE = re.compile(rb"^cookie:[^\r\n]*\blang=([a-z]{2})\b", re.I | re.M)
_ACCEPT = re.compile(rb"^accept-language:([^\r\n]*)", re.I | re.M)


def request_language(head: bytes) -> str:
    """The language of what a refused client sent so far (its request line
    and headers, or nothing yet), chosen as a page's is: ``?lang=``, then
    the ``lang`` cookie, then ``Accept-Language``; English when it says none."""
    asked, cookie, accept = (pattern.search(head) for pattern in (_ASKED, _COOKIE, _ACCEPT))
    return chosen_language(asked and asked.group(1).decode(), cookie and cookie.group(1).decode(),
                           accept and accept.group(1).decode("latin-1"))


class AddressSlots:
    """At most ``per_address`` open connections from one address (0: no cap)."""

    def __init__(self, per_address: int):
        self.per_address = per_address
        self._open: Counter = Counter()
        self._lock = threading.Lock()
        self.refusals = Throttled(log, "connection refused: {key} has {limit} open connections "
                                       "already (connections_per_address)")

    def enter(self, address: str) -> bool:
        with self._lock:
            if self.per_address and self._open[address] >= self.per_address:
                refused = True
            else:
                self._open[address] += 1
                refused = False
        if refused:
            self.refusals.note(address, limit=self.per_address)
        return not refused

    def leave(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    def count(self, address: str) -> int:
        with self._lock:
            return self._open.get(address, 0)


def refuse(sock: socket.socket) -> None:
    """Answer a connection over its address's share with 429 and close it,
    without waiting for the client (what it sent so far is drained first, so
    the close does not reset the answer away, and read for its language)."""
    try:
        sock.setblocking(False)
        head = b""
        try:
            head = sock.recv(65536)
        except OSError:
            pass
        sock.send(refusal(request_language(head[:8192])))
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    finally:
        try:
            sock.close()
        except OSError:
            pass


class Once:
    """Once per ``key`` per ``interval`` seconds: :meth:`admit` says whether
    this one is to be logged and how many were held back since the last
    (bounded to ``keys`` keys, the oldest forgotten first)."""

    def __init__(self, interval: float = 60.0, keys: int = 10_000):
        self.interval, self.keys = interval, keys
        self._seen: dict[str, tuple[float, int]] = {}   # key -> (logged at, held back since)
        self._lock = threading.Lock()

    def admit(self, key: str) -> tuple[bool, int]:
        now = time.monotonic()
        with self._lock:
            logged_at, since = self._seen.get(key, (None, 0))
            if logged_at is not None and now - logged_at < self.interval:
                self._seen[key] = (logged_at, since + 1)
                return False, since + 1
            if key not in self._seen and len(self._seen) >= self.keys:
                self._seen.pop(next(iter(self._seen)))
            self._seen[key] = (now, 0)
            return True, since


class Throttled:
    """A warning logged once per ``key`` per ``interval`` seconds: the first
    as it comes, the rest counted and said in the next line logged (a client
    sending 790 forged messages a second makes one line a minute, not 790)."""

    def __init__(self, logger: logging.Logger, template: str, interval: float = 60.0):
        self.logger, self.template, self.once = logger, template, Once(interval)

    def note(self, key: str, **fields) -> bool:
        """Count one refusal of ``key``; whether a line was logged for it."""
        logged, since = self.once.admit(key)
        if logged:
            more = f" ({since:,} more in the last {self.once.interval:g} s)" if since else ""
            self.logger.warning(self.template.format(key=key, **fields) + more)
        return logged


class ThrottleFilter(logging.Filter):
    """A logging filter: of the records whose format string starts with
    ``prefix``, the first per client (the record's argument ``key_arg``)
    and interval goes through, the rest are counted and said in the next.

    >>> f = ThrottleFilter("refused %s", 0)
    >>> rec = lambda: logging.LogRecord("x", 30, "", 0, "refused %s", ("sid1",), None)
    >>> [f.filter(rec()) for _ in range(3)]
    [True, False, False]
    """

    def __init__(self, prefix: str, key_arg: int, interval: float = 60.0):
        super().__init__()
        self.prefix, self.key_arg, self.once = prefix, key_arg, Once(interval)

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith(self.prefix)):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        key = str(args[self.key_arg]) if len(args) > self.key_arg else ""
        logged, since = self.once.admit(key)
        if logged and since:
            record.msg = record.msg + " (%d more refused in the last %g s)"
            record.args = (*args, since, self.once.interval)
        return logged


class UndecodableFilter(logging.Filter):
    """python-engineio logs a traceback (ERROR) for every message python-socketio
    cannot decode: JSON that is broken, or nested past the parser's depth
    (app.web.jsonio). That is a client's doing, not a fault of the server, and
    a few thousand a second filled the log: one warning line per ``interval``
    instead, saying how many more, without the traceback.

    >>> f = UndecodableFilter(60)
    >>> def rec():
    ...     try:
    ...         from socketio.packet import Packet
    ...         Packet(encoded_packet='2[')
    ...     except ValueError:
    ...         import sys
    ...         return logging.LogRecord("engineio.server", 40, "", 0, "message handler error",
    ...                                  (), sys.exc_info())
    >>> first, second = rec(), rec()
    >>> f.filter(first), first.levelname, first.exc_info, f.filter(second)
    (True, 'WARNING', None, False)
    """

    def __init__(self, interval: float = 60.0):
        super().__init__()
        self.once = Once(interval)

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not (isinstance(exc, ValueError) and record.msg == "message handler error"
                and _in_decode(record.exc_info[2])):
            return True
        logged, since = self.once.admit("undecodable")
        if logged:
            record.msg = "refused a Socket.IO message that is not JSON (%s)%s"
            record.args = (str(exc)[:100], f" ({since:,} more in the last "
                                           f"{self.once.interval:g} s)" if since else "")
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return logged


def _in_decode(tb) -> bool:
    """Whether a traceback passes through python-socketio's packet decoding."""
    import traceback

    return any(frame.f_code.co_name == "decode" and "socketio" in frame.f_code.co_filename
               for frame, _ in traceback.walk_tb(tb))


__all__ = ["AddressSlots", "refuse", "refusal", "request_language", "Once", "Throttled",
           "ThrottleFilter", "UndecodableFilter"]
