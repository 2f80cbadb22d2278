"""Pictures and worksheets over HTTP.

- ``GET /api/trees/<id>/export.<fmt>?algorithm=&step=&depth=&order=&seed=&strict=&style=&legend=``
  the run at ``step`` (a number, or ``end``, the default) as ``svg``, ``png``,
  ``pdf``, ``dot`` or ``tikz``.
- ``GET /api/trees/<id>/worksheet.pdf?algorithm=&...&steps=1`` the worksheet:
  the blank tree, the answer key and, with ``steps=1``, one page per step.

Errors are JSON like the rest of the API: 400 for bad arguments or options
that do not fit the tree, 404 for an unknown tree or format, 413 for a tree
over the budget (asked before any work), 503 + ``Retry-After`` when the
renders the server runs at once are all busy.

Every render runs in a worker process with memory and time limits
(:mod:`app.render.worker`): a Graphviz blow-up costs that process, never the
server.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from app.budget import Budget, Gate
from app.i18n import N_
from app.render import FORMATS, MEDIA_TYPES, RenderError, filename, parse_step
from app.render.worker import RenderFailed, render_job
from app.search import SearchError
from app.search.tree import Tree
from app.treefile import tree_to_dict

from .errors import ApiError, api_error
from .i18n import page_language
from .params import argument_error, options_from_query, refused_by_record
from app.search.descriptors import get

bp = Blueprint("export", __name__, url_prefix="/api")

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _flag(args: dict, name: str, default: bool) -> bool:
    text = args.pop(name, None)
    if text is None:
        return default
    text = text.strip().lower()
    if text not in _TRUE + _FALSE:
        raise argument_error(name, "{name} must be 1 or 0, not {value}", name=name,
                             value=repr(text))
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


def _budget() -> Budget:
    return current_app.extensions["budget"]


def _gate() -> Gate:
    """The server-wide cap on renders running at once (made on first use)."""
    gate = current_app.extensions.get("render_gate")
    if gate is None:
        budget = _budget()
        gate = current_app.extensions.setdefault("render_gate", Gate(
            budget.renders.renders_at_once, budget.renders.render_queue_seconds, N_("renders"),
            retry_after=max(1, budget.renders.render_seconds // 3)))
    return gate


def _render(tree: Tree, options, **job) -> bytes:
    """Render in a limited worker process, when a render slot is free."""
    budget = _budget()
    job = {"tree": tree_to_dict(tree, explicit_ids=True),
           "options": {"algorithm": options.algorithm, "depth": options.depth,
                       "order": options.order, "seed": options.seed,
                       "strict": options.strict, "style": options.style,
                       "iterations": options.iterations,          # [mcts]
                       "exploration": options.exploration},
           "lang": page_language(), **job}
    with _gate().slot():
        try:
            return render_job(job, budget.renders.render_seconds, budget.renders.render_memory,
                              budget.renders.render_output)
        except RenderFailed as exc:
            if exc.status >= 500:
                current_app.logger.error("render: %s", exc.message)
            extra = {"Retry-After": "10"} if exc.status == 503 else {}
            raise ApiError(exc.status, exc.message, headers=extra) from exc


@bp.get("/trees/<tree_id>/export.<fmt>")
def export_picture(tree_id: str, fmt: str):
    if fmt not in FORMATS:
        raise api_error(404, "Unknown picture format {fmt}: choose one of {formats}.",
                        fmt=repr(fmt[:40]), formats=", ".join(FORMATS))
    args = request.args.to_dict()
    args.pop("lang", None)          # read by page_language()
    legend = _flag(args, "legend", True)
    step_text = args.pop("step", "end").strip() or "end"
    try:
        step = parse_step(step_text)
    except RenderError as exc:
        raise argument_error("step", "step must be a whole number from 0, or 'end', not {value}",
                             value=repr(step_text)) from exc
    options = _options(args)
    tree = current_app.extensions["trees"].fetch(tree_id)   # a random one: heavy work
    _budget().check_picture(len(tree.nodes))
    resolved = _resolved(options, tree)
    data = _render(tree, resolved, kind="export", step=step, fmt=fmt, legend=legend)
    return _answer(data, fmt, filename(tree_id, resolved, step, fmt))


def _resolved(options, tree: Tree):
    try:
        return options.resolved(tree)
    except SearchError as exc:
        raise ApiError(400, str(exc)) from exc


@bp.get("/trees/<tree_id>/worksheet.pdf")
def worksheet_pdf(tree_id: str):
    args = request.args.to_dict()
    args.pop("lang", None)          # read by page_language()
    steps = _flag(args, "steps", False)
    options = _options(args)
    tree = current_app.extensions["trees"].fetch(tree_id)
    _budget().check_worksheet(len(tree.nodes), steps=steps)   # before any work
    resolved = _resolved(options, tree)
    if not (record := get(resolved.algorithm)).worksheet:   # values worked out by hand
        raise refused_by_record("algorithm", record, "worksheet")
    data = _render(tree, resolved, kind="worksheet", steps=steps,
                   max_pages=_budget().renders.flipbook_pages - 1)
    stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in tree_id)
    return _answer(data, "pdf", f"{stem[:60] or 'tree'}-worksheet.pdf")
