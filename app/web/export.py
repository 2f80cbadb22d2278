"""Pictures and worksheets over HTTP.

- ``GET /api/trees/<id>/export.<fmt>?algorithm=&step=&depth=&order=&seed=&strict=&style=&legend=``
  the run at ``step`` (a number, or ``end``, the default) as ``svg``, ``png``,
  ``pdf``, ``dot`` or ``tikz``.
- ``GET /api/trees/<id>/worksheet.pdf?algorithm=&...&steps=1`` the worksheet:
  the blank tree, the answer key and, with ``steps=1``, one page per step.

Errors are JSON like the rest of the API: 400 for bad arguments or options
that do not fit the tree, 404 for an unknown tree or format.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from app.render import FORMATS, MEDIA_TYPES, RenderError, export, filename, parse_step
from app.render.engine import GraphvizError
from app.search import SearchError

from .errors import ApiError, BadArgument
from .params import options_from_query

bp = Blueprint("export", __name__, url_prefix="/api")

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _flag(args: dict, name: str, default: bool) -> bool:
    text = args.pop(name, None)
    if text is None:
        return default
    text = text.strip().lower()
    if text not in _TRUE + _FALSE:
        raise BadArgument(name, f"{name} must be 1 or 0, not {text!r}")
    return text in _TRUE


def _options(args: dict):
    try:
        return options_from_query(args)
    except SearchError as exc:
        raise ApiError(400, str(exc)) from exc


def _answer(data: bytes, fmt: str, name: str) -> Response:
    response = Response(data, mimetype=MEDIA_TYPES[fmt].split(";")[0])
    response.headers["Content-Type"] = MEDIA_TYPES[fmt]
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    if fmt == "svg":  # opened on its own, an SVG may run nothing
        response.headers["Content-Security-Policy"] = \
            "default-src 'none'; style-src 'unsafe-inline'"
    return response


def _render(make):
    try:
        return make()
    except GraphvizError as exc:
        current_app.logger.error("graphviz: %s", exc)
        raise ApiError(500, str(exc)) from exc
    except (SearchError, RenderError) as exc:
        raise ApiError(400, str(exc)) from exc


@bp.get("/trees/<tree_id>/export.<fmt>")
def export_picture(tree_id: str, fmt: str):
    if fmt not in FORMATS:
        raise ApiError(404, f"Unknown picture format {fmt!r}: choose one of {', '.join(FORMATS)}.")
    args = request.args.to_dict()
    legend = _flag(args, "legend", True)
    step_text = args.pop("step", "end").strip() or "end"
    try:
        step = parse_step(step_text)
    except RenderError as exc:
        raise BadArgument("step", str(exc)) from exc
    options = _options(args)
    tree = current_app.extensions["trees"].get(tree_id)
    data = _render(lambda: export(tree, options, step, fmt, legend=legend))
    resolved = options if options.algorithm else options.resolved(tree)
    return _answer(data, fmt, filename(tree_id, resolved, step, fmt))


@bp.get("/trees/<tree_id>/worksheet.pdf")
def worksheet_pdf(tree_id: str):
    from app.render.worksheet import worksheet

    args = request.args.to_dict()
    steps = _flag(args, "steps", False)
    options = _options(args)
    tree = current_app.extensions["trees"].get(tree_id)
    data = _render(lambda: worksheet(tree, options, steps=steps))
    stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in tree_id)
    return _answer(data, "pdf", f"{stem[:60] or 'tree'}-worksheet.pdf")
