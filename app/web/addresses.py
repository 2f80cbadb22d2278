"""Who is asking, for the limits per client (classes' joins, homework's guesses,
uploads, the fair shares of work, LTI registration)."""
from __future__ import annotations

from flask import current_app, request


def client_address(environ: dict | None = None) -> str:
    """Who is asking, for rate limits: the peer, or the header a trusted proxy
    sets (``CLASS_CLIENT_HEADER``, e.g. ``X-Real-IP`` behind our nginx)."""
    environ = environ if environ is not None else request.environ
    header = current_app.config.get("CLASS_CLIENT_HEADER")
    if header:
        value = environ.get("HTTP_" + header.upper().replace("-", "_"), "")
        if value:
            return value.split(",")[-1].strip()[:100]
    return environ.get("REMOTE_ADDR") or "?"
