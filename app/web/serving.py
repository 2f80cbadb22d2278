"""Werkzeug's threaded server, fixed for WebSockets and bounded (run.py, tests).

Bounded, because a laptop in a lecture hall is as exposed as a server: a
connection silent for ``idle`` seconds is closed (a read times out; a live
Socket.IO connection pings every 25 s), and at most ``max_connections``
are served at once, each in its own thread: one more is closed at once
rather than costing a thread and a file descriptor.

When a WebSocket ends, python-engineio leaves Werkzeug's request with a
``ConnectionError``; Werkzeug then keeps the connection open and reads the
client's closing WebSocket frames as a new HTTP request, answering them with
a ``400 Bad request syntax`` written into the socket. A client that waits for
the closing handshake (python-socketio waits 3 s) stalls. Closing the
connection there ends the exchange cleanly.
"""
from __future__ import annotations

import json
import sys
import threading
import time

from werkzeug.serving import BaseWSGIServer, ThreadedWSGIServer, WSGIRequestHandler


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's handler that closes a connection its application dropped."""

    quiet = False

    def connection_dropped(self, error, environ=None) -> None:
        self.close_connection = True

    def log_request(self, code="-", size="-") -> None:
        """One JSON line per request (the access log), on standard error."""
        if self.quiet:
            return
        env = getattr(self, "environ", None) or {}
        sys.stderr.write(json.dumps({
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "remote": self.client_address[0],
            "method": env.get("REQUEST_METHOD", self.command),
            "path": env.get("PATH_INFO", self.path), "status": int(getattr(code, "value", code))
            if str(getattr(code, "value", code)).isdigit() else str(code),
            "bytes": size if isinstance(size, int) else None,
            "agent": env.get("HTTP_USER_AGENT")}) + "\n")


class QuietRequestHandler(RequestHandler):
    """The same, without a log line per request (tests, benchmarks)."""

    quiet = True


class BoundedServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with a cap on connections served at once."""

    max_connections = 800
    request_queue_size = 128

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._slots = threading.BoundedSemaphore(self.max_connections)

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)     # full: refuse now, hold nothing
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def threaded_server(app, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                    idle: float = 60, max_connections: int = 800) -> BaseWSGIServer:
    """A bounded threaded server for ``app`` (port 0: a free one, see
    ``server.port``); run it with ``serve_forever()``, stop it with ``shutdown()``."""
    base = QuietRequestHandler if quiet else RequestHandler
    handler = type(base.__name__, (base,), {"timeout": idle})
    server_class = type("Server", (BoundedServer,), {"max_connections": max_connections})
    return server_class(host, port, app, handler=handler)
