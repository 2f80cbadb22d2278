"""Every error the server answers is JSON: ``{"error": {"message": ...}}``.

Flask's own answers to 404, 405, 413 and 500 are HTML pages; the handlers
here turn them (and the app's own :class:`ApiError`) into the JSON the API
promises. A blueprint that wants an HTML error page for its own views (the
visualizer page, say) registers ``bp.errorhandler(404)``: Flask prefers a
blueprint's handler for errors raised in that blueprint's views.
"""
from __future__ import annotations

import logging

from flask import Flask, current_app, jsonify
from werkzeug.exceptions import HTTPException, InternalServerError

from app.budget import OverBudget

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error with an HTTP status, answered as ``{"error": {...}}``.

    ``fields`` go into the error object beside ``message`` (for example
    ``line`` and ``column`` of a bad tree file, or the ``argument`` at fault).
    """

    def __init__(self, status: int, message: str, headers: dict | None = None, **fields):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.fields = fields

    def to_dict(self) -> dict:
        return {"message": self.message, **self.fields}


class BadArgument(ApiError):
    """A query argument or a Socket.IO payload field that is not acceptable."""

    def __init__(self, argument: str, message: str):
        super().__init__(400, message, argument=argument)
        self.argument = argument


def api_error(status: int, msgid: str, *, headers: dict | None = None,
              body: dict | None = None, **fields) -> ApiError:
    """An :class:`ApiError` whose message is the catalogue message ``msgid``
    (English, ``{named}`` fields from ``fields``) in the request's language;
    ``body`` goes into the JSON beside it (``line``, ``argument``...)."""
    err = ApiError(status, said(msgid, **fields), headers, **(body or {}))
    err.msgid, err.msg_fields = msgid, fields
    return err


def said(msgid: str, **fields) -> str:
    """The catalogue message ``msgid`` in the request's language (English
    outside a request)."""
    from flask import has_request_context

    from app.i18n import DEFAULT, message_in

    from .i18n import page_language

    return message_in(msgid, fields, page_language() if has_request_context() else DEFAULT)


def budget_message(exc: OverBudget) -> str:
    """An :class:`OverBudget`'s sentence in the request's language."""
    if exc.msgid is None:
        return exc.message
    return said(exc.msgid, **exc.msg_fields)


def error_body(message: str, **fields) -> dict:
    """The JSON body of an error answer."""
    return {"error": {"message": message, **fields}}


def json_error(status: int, message: str, **fields):
    """A Flask response ``(body, status)`` for an error."""
    return jsonify(error_body(message, **fields)), status


def said_of(exc: ApiError) -> str:
    """``exc``'s sentence in the request's language: an answer made of a
    catalogue error's sentence (a SearchError's, say: ``raise ApiError(400,
    str(exc))``) is said from that error's message id."""
    cause = exc.__cause__ or exc.__context__
    if getattr(cause, "msgid", None) and exc.message == getattr(cause, "message", None):
        from .i18n import error_message

        return error_message(cause)
    return exc.message


def _api_error(exc: ApiError):
    body = {**exc.to_dict(), "message": said_of(exc)}
    return jsonify({"error": body}), exc.status, exc.headers


def _over_budget(exc: OverBudget):
    response = jsonify(error_body(budget_message(exc), **exc.fields))
    response.status_code = exc.status
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _http_error(exc: HTTPException):
    # Keep the headers Werkzeug computed (``Allow`` on a 405, say).
    response = exc.get_response()
    response.data = current_app.json.dumps(error_body(exc.description or exc.name))
    response.content_type = "application/json"
    return response


def _internal_error(exc: InternalServerError):
    # Reached only when the exception is not propagated (not in TESTING):
    # the details go to the log, never to the client.
    original = getattr(exc, "original_exception", None)
    if original is not None:
        log.error("unhandled error", exc_info=original)
    return json_error(500, said("Internal server error: the problem has been logged."))


def register(app: Flask) -> None:
    """Install the JSON error handlers on ``app``."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(OverBudget, _over_budget)
    app.register_error_handler(InternalServerError, _internal_error)
    app.register_error_handler(HTTPException, _http_error)
