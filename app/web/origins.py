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


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue."""
    return msgid


STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")
FOREIGN = N_("Changes are accepted from this server's own pages only.")
OWN_MESSAGES = {   # endpoint -> its refusal, where the general one says less
    "api.upload_tree": N_("Uploads are accepted from this server's own pages only."),
}


def cross_site(view):
    """Mark a view that other sites may call (an LTI launch, posted by the
    course platform's page): :func:`install`'s check lets it through; the
    view checks its caller itself (a signed launch, say)."""
    view.cross_site = True
    return view


def install(app) -> None:
    """Refuse, with 403 JSON, every state-changing request (``POST``, ``PUT``,
    ``PATCH``, ``DELETE``) that a browser sent from another origin: an
    ``Origin`` not the server's own (``Origin: null`` too: a sandboxed or
    file page), or without ``Origin`` a ``Sec-Fetch-Site: cross-site``.
    Clients that are not browsers send neither and are not affected; Socket.IO
    checks its own (``cors_allowed_origins``)."""
    from flask import request

    from .errors import api_error

    extra = tuple(app.config["EXTRA_ORIGINS"])

    @app.before_request
    def _same_origin_only():
        if request.method not in STATE_CHANGING:
            return None
        view = app.view_functions.get(request.endpoint or "")
        if getattr(view, "cross_site", False):
            return None
        origin = request.headers.get("Origin")
        if origin is None:
            if request.headers.get("Sec-Fetch-Site", "") != "cross-site":
                return None
        elif same_origin(origin, request.environ, extra):
            return None
        raise api_error(403, OWN_MESSAGES.get(request.endpoint or "", FOREIGN))
