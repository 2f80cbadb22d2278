"""Werkzeug's threaded server, fixed for WebSockets (used by run.py and tests).

When a WebSocket ends, python-engineio leaves Werkzeug's request with a
``ConnectionError``; Werkzeug then keeps the connection open and reads the
client's closing WebSocket frames as a new HTTP request, answering them with
a ``400 Bad request syntax`` written into the socket. A client that waits for
the closing handshake (python-socketio waits 3 s) stalls. Closing the
connection there ends the exchange cleanly.
"""
from __future__ import annotations

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's handler that closes a connection its application dropped."""

    quiet = False

    def connection_dropped(self, error, environ=None) -> None:
        self.close_connection = True

    def log_request(self, *args, **kwargs) -> None:
        if not self.quiet:
            super().log_request(*args, **kwargs)


class QuietRequestHandler(RequestHandler):
    """The same, without a log line per request (tests, benchmarks)."""

    quiet = True


def threaded_server(app, host: str = "127.0.0.1", port: int = 0, quiet: bool = True) -> BaseWSGIServer:
    """A threaded server for ``app`` (port 0: a free one, see ``server.port``);
    run it with ``serve_forever()`` and stop it with ``shutdown()``."""
    handler = QuietRequestHandler if quiet else RequestHandler
    return make_server(host, port, app, threaded=True, request_handler=handler)
