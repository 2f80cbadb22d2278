"""The tree editor (contract §6) and its what-if API.

- ``GET  /edit``               the editor on an empty root
- ``GET  /edit/<id>``          the editor on a copy of tree ``<id>`` (built-in, upload, ``r-...``)
- ``GET  /edit/random``        a fresh random tree (redirects to ``/edit/r-...``)
- ``POST /api/edit/run``       ``{tree, options, previous_state? | previous?, edit?, text?}``
  -> the search of the edited tree (app.whatif) with a ``state`` token for the next
  request's ``previous_state``, or ``400 {"error": {"message", "key"}}`` naming the node
- ``POST /api/edit/parse``     ``{text, format?}`` -> ``{"tree": ...}`` (every id written),
  or ``400 {"error": {"message", "line", "column"}}``
- ``POST /api/edit/best-order`` ``{tree, options}`` -> ``{"order": {key: [keys]}}``

Saving goes through the ordinary upload (``POST /api/trees``), so an edited
tree gets the same content-derived id as the same file uploaded.
"""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, current_app, jsonify, redirect, render_template, request

from app.games.random_tree import RandomSpec
from app.search import SearchError
from app.treefile import TreeFileError
from app.budget import Gate
from app.i18n import N_, words
from app.whatif import DocumentError, WhatIf, parse_text

from .errors import ApiError, api_error
from .i18n import error_message, page_language

bp = Blueprint("editor", __name__)

FORMATS = ("yaml", "json", "notation")


def _whatif() -> WhatIf:
    found = current_app.extensions.get("whatif")
    if found is None:
        budget = current_app.extensions["budget"]
        found = current_app.extensions["whatif"] = WhatIf(budget)
        # Server-wide: a flood of what-if runs waits its turn (then 503), the rest of the app goes on.
        current_app.extensions["whatif-gate"] = Gate(budget.editor.editor_runs_at_once, wait=5.0,
                                                     what=N_("what-if runs"))
    return found


def _gate() -> Gate:
    _whatif()
    return current_app.extensions["whatif-gate"]


@bp.get("/edit")
def empty():
    return render_template("editor.html", tree_id="")


@bp.get("/edit/random")
def random():
    spec = RandomSpec(branching=(2, 3), depth=3, seed=secrets.randbelow(10_000))
    return redirect(f"/edit/{spec.id()}")


@bp.get("/edit/<tree_id>")
def copy(tree_id: str):
    try:
        tree = current_app.extensions["trees"].fetch(tree_id)   # a random one: heavy work
    except ApiError as exc:
        return render_template("missing.html", tree_id=tree_id, message=exc.message), exc.status
    return render_template("editor.html", tree_id=tree_id, title=tree.title)


def _body(*required: str, optional: tuple[str, ...] = ()) -> dict:
    """The request's JSON object, read within the budget (never a 500)."""
    limit = 2 * _whatif().budget.editor.editor_bytes + 64 * 1024
    if (request.content_length or 0) > limit:
        raise api_error(413, "The request is larger than {size:,} KiB.", size=limit // 1024)
    data = request.get_data(cache=False)
    if len(data) > limit:
        raise api_error(413, "The request is larger than {size:,} KiB.", size=limit // 1024)
    try:
        body = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise api_error(400, "The request must be one JSON object.") from None
    if not isinstance(body, dict):
        raise api_error(400, "The request must be one JSON object.")
    for key in body:
        if key not in required + optional:
            raise api_error(400, "unknown field {name}: expected {fields}",
                            name=repr(str(key)[:40]), fields=", ".join(required + optional))
    for key in required:
        if key not in body:
            raise api_error(400, "missing field {name}", name=repr(key))
    return body


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number in strict JSON")


def _refusal(exc: Exception) -> dict:
    if isinstance(exc, DocumentError):
        said = error_message(exc.cause if exc.cause is not None else exc)
        return {"error": {**exc.to_dict(), "message": said}}
    return {"error": {"message": error_message(exc), "key": None}}


def _refused(exc: Exception):
    return jsonify(_refusal(exc)), 400


RUN_FIELDS = ("options", "previous", "previous_state", "edit", "text")
"""The optional fields of a what-if run (beside ``tree``), over HTTP and Socket.IO alike."""


def what_if(body: dict) -> tuple[dict, int]:
    """One what-if run of a request's object (``tree`` and :data:`RUN_FIELDS`):
    ``(answer, 200)``, or ``({"error": {"message", "key"}}, 400)`` for a tree
    or options the loader or the core refuses. Raises :class:`ApiError` for a
    malformed request and :class:`~app.budget.OverBudget` past the budget
    (the gate's 503 included). Shared by ``POST /api/edit/run`` and the
    ``/edit`` Socket.IO namespace (app.web.editor_sockets)."""
    edit, text, state = body.get("edit"), body.get("text", "all"), body.get("previous_state")
    if text not in ("all", "notation", False, True) or not (state is None or isinstance(state, str)):
        raise api_error(400, "text is 'all', 'notation' or false; previous_state a string")
    lang = page_language()     # every sentence of the answer in the reader's language
    try:
        with _gate().slot():
            answer = _whatif().run(body["tree"], body.get("options"),
                                   previous=body.get("previous"),
                                   edit=edit if isinstance(edit, dict) else None,
                                   text="all" if text is True else text,
                                   previous_state=state, words=words(lang), lang=lang)
    except (DocumentError, SearchError) as exc:
        return _refusal(exc), 400
    return answer, 200


@bp.post("/api/edit/run")
def run():
    answer, status = what_if(_body("tree", optional=RUN_FIELDS))
    return jsonify(answer), status


@bp.post("/api/edit/best-order")
def best_order():
    body = _body("tree", optional=("options",))
    try:
        with _gate().slot():
            return jsonify(_whatif().best_order(body["tree"], body.get("options")))
    except (DocumentError, SearchError) as exc:
        return _refused(exc)


@bp.post("/api/edit/parse")
def parse():
    body = _body("text", optional=("format",))
    text, fmt = body["text"], body.get("format")
    if not isinstance(text, str) or (fmt is not None and fmt not in FORMATS):
        raise api_error(400, "text must be a string and format one of {formats}",
                        formats=", ".join(FORMATS))
    try:
        return jsonify({"tree": parse_text(text, fmt, _whatif().budget)})
    except TreeFileError as exc:     # in the reader's language, at its line and column
        return jsonify({"error": {**exc.to_dict(), "message": error_message(exc)}}), 400
