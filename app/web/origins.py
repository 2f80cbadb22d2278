"""Same-origin checks for Socket.IO connections and state-changing requests.

A page on another site must not drive this server through a visitor's
browser: Socket.IO refuses foreign origins, and so does ``POST``. Clients
that are not browsers send no ``Origin`` and are not affected.
"""
from __future__ import annotations


def own_origin(environ: dict) -> str:
    """``scheme://Host`` of a request, as a browser would write its origin."""
    return f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}"


def same_origin(origin: str | None, environ: dict | None, extra: tuple = ()) -> bool:
    """Whether ``origin`` is the server's own (or one of ``extra``), never ``*``.

    Unlike python-engineio's default, forwarded-host headers are not trusted.

    >>> env = {"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:5000"}
    >>> same_origin("http://127.0.0.1:5000", env)
    True
    >>> same_origin("http://evil.example", {**env, "HTTP_X_FORWARDED_HOST": "evil.example"})
    False
    """
    if not origin or environ is None:
        return False
    return origin == own_origin(environ) or origin in extra
