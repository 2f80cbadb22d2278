"""Who is asking, for the limits per client (classes' joins, homework's guesses,
uploads, the fair shares of work, LTI registration)."""
from __future__ import annotations

from flask import current_app, request


def client_address(environ: dict | None = None) -> str:
    """Who is asking, for rate limits: the peer, or the header a trusted proxy
    sets (``CLASS_CLIENT_HEADER``, e.g. ``X-Real-IP`` behind our nginx)."""
    environ = environ if environ is not None else request.environ
    return address_of(environ, current_app.config.get("CLASS_CLIENT_HEADER"))


def address_of(environ: dict, header: str | None) -> str:
    """:func:`client_address` without an app (a WSGI middleware's)."""
    if header:
        value = environ.get("HTTP_" + header.upper().replace("-", "_"), "")
        if value:
            return value.split(",")[-1].strip()[:100]
    return environ.get("REMOTE_ADDR") or "?"
