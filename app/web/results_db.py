"""The results database out of reach: a clear 503, never a raw 500.

PostgreSQL restarted, its host rebooting, the pool of connections all in
use for longer than :data:`app.db.POOL_WAIT` seconds, SQLite's file locked
past its busy timeout: every request that needs the results database then
answers ``503 {"error": {"message", "retry": true}}`` with ``Retry-After``,
whatever route it came through (homework, LTI). Nothing half-done is left
behind: each write is one transaction (:mod:`app.db`), rolled back when its
connection breaks, and only a committed one is acknowledged. The engine
checks each connection as it leaves the pool (``pool_pre_ping``), so once
the database is back the next request gets a fresh connection: no restart.

:func:`reachable` is ``/healthz``'s check (``checks.results_db``), on a
connection of its own with a short timeout, so the probe answers at once
even while every pooled connection is busy or the server does not answer.
"""
from __future__ import annotations

import logging

from flask import Flask, current_app, jsonify, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from .errors import said

log = logging.getLogger(__name__)

RETRY_AFTER = 5
"""Seconds the client is asked to wait before trying again."""
UNREACHABLE = (OperationalError, InterfaceError, PoolTimeout)
"""What SQLAlchemy raises when the database cannot be reached or does not
answer (connection refused or lost, server shutting down, pool exhausted)."""


def _unreachable(exc: Exception):
    log.warning("the results database is unreachable: %s", str(exc).splitlines()[0][:200])
    message = said("The results database cannot be reached just now: try again in "
                   "a few seconds.")
    if _lms_page():     # the LMS's browser posted a page (login, launch): a page answers it
        response = current_app.make_response(
            render_template("lti_refused.html", message=message))
    else:
        response = jsonify({"error": {"message": message, "retry": True}})
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def _lms_page() -> bool:
    """Is this the LMS's browser opening a page of the tool (its OIDC login or launch, in
    the course's frame), not a request of the tool's own scripts (which read JSON)?"""
    return request.blueprint == "lti" and request.accept_mimetypes.best_match(
        ["application/json", "text/html"]) == "text/html"


def register(app: Flask) -> None:
    """Answer 503 + ``Retry-After`` wherever the results database is out of reach."""
    for kind in UNREACHABLE:
        app.register_error_handler(kind, _unreachable)


def reachable(app=None) -> bool | None:
    """Whether the results database answers (``None``: this app has none)."""
    db = (app or current_app).extensions.get("results_db")
    if db is None:
        return None
    try:
        return db.ping()
    except Exception as exc:  # noqa: BLE001 (any failure to answer is "down")
        log.warning("healthz: the results database is down: %s",
                    str(exc).splitlines()[0][:200] if str(exc) else exc.__class__.__name__)
        return False
