"""Per-client rate limits (Flask-Limiter), keyed by the client's address
(the peer's, or a trusted proxy's ``CLASS_CLIENT_HEADER``).

Each app has its own :class:`~flask_limiter.Limiter` (a test's app beside a
live server must not share counters), applied to the views named in
:data:`LIMITED` with limits from :mod:`app.budget`. Counters live in memory
by default, or where ``RATELIMIT_STORAGE_URI`` says (``redis://...``: shared
by every server process). A client over its limit gets 429 with
``Retry-After`` and a JSON error. ``RATELIMIT_ENABLED`` (default: on, off
under ``TESTING``) switches them.
"""
from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter

from .addresses import client_address
from .errors import said

LIMITED = {
    "api.upload_tree": ("store", "uploads_per_client"),   # endpoint -> (budget record, field)
    "classes.create": ("classes", "classes_per_client"),  # POST /api/classes (app/web/classes.py)
}


def _client() -> str:
    # The peer, or behind a trusted proxy the header it sets (the setting the
    # live classes' limits use too: CLASS_CLIENT_HEADER, e.g. X-Real-IP).
    return client_address()


def init(app: Flask) -> Limiter:
    """Make the app's limiter and wrap the limited views (after the blueprints)."""
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter = Limiter(_client, app=app, default_limits=[])
    budget = app.extensions["budget"]
    for endpoint, (record, field) in LIMITED.items():
        view = app.view_functions.get(endpoint)
        if view is None:   # a feature not registered in this app
            continue
        app.view_functions[endpoint] = limiter.limit(getattr(getattr(budget, record), field))(view)
    app.extensions["rate_limiter"] = limiter
    # Always, whatever the rate limits: a flood of forged messages must not flood the log
    # (tied to RATELIMIT_ENABLED, the filter came only if some app before had limits on).
    _throttle_refusal_logs(budget.classes.refusals_logged)

    @app.errorhandler(429)
    def _too_many(exc):
        response = exc.get_response()
        limit = getattr(getattr(exc, "limit", None), "limit", None)
        response.data = app.json.dumps({"error": {
            "message": said("Too many requests from your address ({limit}): wait a little "
                            "and try again.", limit=limit or exc.description)}})
        response.content_type = "application/json"
        return response

    return limiter


def _throttle_refusal_logs(interval: float) -> None:
    """Refused driving messages of a live class (a forged instructor token)
    are logged once per client address and ``interval``, the rest counted
    in the next line (790 forged messages a second made 790 warnings)."""
    import logging

    from .fairshare import ThrottleFilter

    logger = logging.getLogger("app.web.class_sockets")
    if not any(isinstance(f, ThrottleFilter) for f in logger.filters):
        # "class: refused %s from %s (%s): %s" -> (event, sid, address, message)
        logger.addFilter(ThrottleFilter("class: refused ", 2, interval))
    from .fairshare import UndecodableFilter

    engineio = logging.getLogger("engineio.server")   # a message that is not JSON: one line
    if not any(isinstance(f, UndecodableFilter) for f in engineio.filters):
        engineio.addFilter(UndecodableFilter(interval))
