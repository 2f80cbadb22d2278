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
import socket
import sys
import threading
import time

from werkzeug.serving import BaseWSGIServer, ThreadedWSGIServer, WSGIRequestHandler

from .fairshare import AddressSlots, refuse


class Deadlines:
    """One thread that cuts connections whose request line and headers have
    not arrived in time: the socket's own timeout ends a *silent* client,
    this ends one that trickles a byte every few seconds (slowloris)."""

    def __init__(self, tick: float = 0.5):
        self.tick = tick
        self._due: dict[int, tuple[float, socket.socket]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def add(self, sock: socket.socket, seconds: float) -> None:
        with self._lock:
            self._due[id(sock)] = (time.monotonic() + seconds, sock)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="deadlines", daemon=True)
                self._thread.start()

    def remove(self, sock: socket.socket) -> None:
        with self._lock:
            self._due.pop(id(sock), None)

    def _loop(self) -> None:
        while True:
            time.sleep(self.tick)
            now = time.monotonic()
            with self._lock:
                late = [k for k, (due, _) in self._due.items() if due <= now]
                socks = [self._due.pop(k)[1] for k in late]
            for sock in socks:
                try:
                    sock.shutdown(socket.SHUT_RDWR)   # its thread's read ends at once
                except OSError:
                    pass


DEADLINES = Deadlines()


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's handler that closes a connection its application dropped,
    and one whose request headers take longer than :attr:`timeout` seconds."""

    quiet = False
    timeout = 60

    def handle_one_request(self) -> None:
        DEADLINES.add(self.connection, self.timeout)
        try:
            super().handle_one_request()
        finally:
            DEADLINES.remove(self.connection)

    def parse_request(self) -> bool:
        ok = super().parse_request()   # the headers are in: the app may take its time
        DEADLINES.remove(self.connection)
        return ok

    def connection_dropped(self, error, environ=None) -> None:
        self.close_connection = True

    def send_error(self, code, message=None, explain=None) -> None:
        """http.server's own refusals, of requests the app never sees (a request
        line over 64 KiB, 100 headers, a bad version): JSON as every other
        answer, not its HTML page. Its sentence is http.server's (a request
        line's bytes go in the reason phrase, never into the JSON)."""
        short, long = self.responses.get(code, ("???", "???"))
        self.log_error("code %d, message %s", code, message or short)
        self.send_response(code, message or short)
        self.send_header("Connection", "close")
        body = json.dumps({"error": {"message": f"{short}: {explain or long}"}}).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

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
    """Werkzeug's threaded server with a cap on connections served at once,
    and on those of one address (:class:`~app.web.fairshare.AddressSlots`:
    one client cannot take every place)."""

    max_connections = 4000
    per_address = 600
    request_queue_size = 1024
    # The listen queue: a hall's phones connecting at once wait here while
    # threads start; at 128 the rest were dropped into SYN retries (1 s, 3 s...:
    # 1,100 sockets took 8 s to connect). Linux caps it at net.core.somaxconn.

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._slots = threading.BoundedSemaphore(self.max_connections)
        self.addresses = AddressSlots(self.per_address)

    def process_request(self, request, client_address):
        address = client_address[0] if isinstance(client_address, tuple) else ""
        if not self.addresses.enter(address):
            refuse(request)                    # its address's share is taken: 429, closed
            return
        if not self._slots.acquire(blocking=False):
            self.addresses.leave(address)
            refuse(request)                    # full: refuse now, hold nothing
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            self.addresses.leave(address)
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()
            self.addresses.leave(client_address[0] if isinstance(client_address, tuple) else "")


def threaded_server(app, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                    idle: float = 60, max_connections: int = 4000,
                    per_address: int = 600) -> BaseWSGIServer:
    """A bounded threaded server for ``app`` (port 0: a free one, see
    ``server.port``); run it with ``serve_forever()``, stop it with ``shutdown()``.
    ``per_address`` 0: no cap per address (behind a proxy that caps it)."""
    base = QuietRequestHandler if quiet else RequestHandler
    handler = type(base.__name__, (base,), {"timeout": idle})
    server_class = type("Server", (BoundedServer,), {"max_connections": max_connections,
                                                     "per_address": per_address})
    return server_class(host, port, app, handler=handler)


def per_address_cap(app) -> int:
    """The cap of connections per address for ``app``'s server: its budget's,
    or 0 behind a trusted proxy (``CLASS_CLIENT_HEADER``), where every
    connection comes from the proxy and the proxy caps per address."""
    if app.config.get("CLASS_CLIENT_HEADER"):
        return 0
    return app.extensions["budget"].serving.connections_per_address


class BodyDeadline:
    """WSGI middleware: a request body must arrive within ``seconds`` in all
    (a client trickling an upload a byte at a time is cut off with 400),
    under Werkzeug's threads and gunicorn's gevent worker alike."""

    def __init__(self, wsgi_app, seconds: float):
        self.wsgi_app = wsgi_app
        self.seconds = seconds

    def __call__(self, environ, start_response):
        stream = environ.get("wsgi.input")
        if stream is None or environ.get("REQUEST_METHOD") not in ("POST", "PUT", "PATCH"):
            return self.wsgi_app(environ, start_response)
        sock = environ.get("werkzeug.socket")
        if sock is not None:
            # Werkzeug's threads: one read may wait for many trickled bytes, so
            # the deadline thread cuts the connection itself when time is up.
            DEADLINES.add(sock, self.seconds)
            try:
                return self.wsgi_app(environ, start_response)
            finally:
                DEADLINES.remove(sock)
        environ["wsgi.input"] = _TimedInput(stream, time.monotonic() + self.seconds)
        return self.wsgi_app(environ, start_response)


class _TimedInput:
    def __init__(self, stream, deadline: float):
        self._stream = stream
        self._deadline = deadline

    def _call(self, method, *args):
        from werkzeug.exceptions import ClientDisconnected

        left = self._deadline - time.monotonic()
        if left <= 0:
            raise ClientDisconnected("The request body took too long to arrive.")
        timeout = _green_timeout(left)
        if timeout is None:
            return method(*args)
        try:
            with timeout:
                return method(*args)
        except BaseException as exc:   # gevent's Timeout is not an Exception
            if exc is timeout:
                raise ClientDisconnected("The request body took too long to arrive.") from None
            raise

    def read(self, *args):
        return self._call(self._stream.read, *args)

    def readline(self, *args):
        return self._call(self._stream.readline, *args)

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line


def _green_timeout(seconds: float):
    """A gevent timeout where gevent runs the server (a blocked read there has
    no socket timeout of its own), else None (the socket's timeout applies)."""
    try:
        from gevent import Timeout, monkey
    except ImportError:
        return None
    return Timeout(seconds) if monkey.is_module_patched("socket") else None
