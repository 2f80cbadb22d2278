"""The HTTP API (contract §3): the tree library, uploads and whole traces.

- ``GET  /api/trees``                 the built-in trees: id, title, source, size, ``url``
- ``GET  /api/trees?ids=a,b``         the given trees (uploads too; unknown ids left out, and
  random ones past the few a request builds: library.RANDOM_BUILDS)
- ``POST /api/trees``                 upload (multipart ``file`` or raw body) -> 201
  ``{id, url, delete_token}``; rate-limited per client (:mod:`.limits`: 429 + ``Retry-After``)
- ``DELETE /api/trees/<id>``          delete an upload (header ``X-Delete-Token``) -> 204
- ``GET  /api/trees/<id>``            the tree as JSON (file structure + ``info``;
  ``?form=flat``: its nodes as columns, app.web.treejson.flat_nodes)
- ``GET  /api/trees/<id>/file``       the tree file as it was written
- ``GET  /api/trees/<id>/trace?...``  ``{"events": [...]}``, ending with ``done``
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from app.i18n import N_, words
from app.i18n.positions import move_words, position_words
from app.search import SearchError, run as search_run
from app.search import algorithms_for
from app.search.descriptors import document
from app.treefile import tree_to_dict

from app.budget import Gate, OverBudget, refusal
from app.games.random_tree import RandomSpec

from .addresses import client_address
from .errors import ApiError, api_error
from .i18n import page_language
from .library import TreeLibrary, tree_url
from .origins import same_origin
from .offload import offload
from .params import argument_error, options_dict, options_from_query
from .treejson import FORMS, encoded, flat_nodes

bp = Blueprint("api", __name__, url_prefix="/api")

# Body types of a raw upload, and the format each is read as (None: guessed,
# so plain text may be the one-line notation or a file of either format).
RAW_TYPES = {
    "application/x-yaml": "yaml", "application/yaml": "yaml", "text/yaml": "yaml",
    "text/x-yaml": "yaml", "application/json": "json", "text/plain": None,
}


SMALL_TREE = 2_000
"""Trees written out as JSON in the request's own thread (a few ms); bigger ones off the loop."""
OFFLOAD_BYTES = 32 << 10
"""Uploads larger than this are read off gevent's loop (app.web.offload)."""


def library() -> TreeLibrary:
    return current_app.extensions["trees"]


@bp.get("/algorithms")
def list_algorithms():
    """Every algorithm's record (app.search.descriptors), its names in the
    reader's language (``?lang=``, else the page's)."""
    lang = request.args.get("lang") or page_language()
    response = jsonify(document(words(lang)))
    response.cache_control.max_age = 300
    return response


@bp.get("/trees")
def list_trees():
    ids = request.args.get("ids")
    if ids is None:
        return jsonify(library().entries())
    wanted = [i for i in ids.split(",") if i][:500]
    return jsonify(library().describe(wanted))


@bp.post("/trees")
def upload_tree():
    data, filename, fmt = _read_upload()
    # A small file is read at once; a big one (seconds of parsing) off the loop.
    upload = library().upload
    owner = client_address()   # the upload counts to this client's share of the store
    tree_id, token = (upload(data, filename=filename, fmt=fmt, owner=owner)
                      if len(data) < OFFLOAD_BYTES
                      else offload(upload, data, filename=filename, fmt=fmt, owner=owner))
    url = tree_url(tree_id)
    answer = {"id": tree_id, "url": url}
    if token is not None:   # the first uploader may delete it
        answer["delete_token"] = token
    return jsonify(answer), 201, {"Location": url}


@bp.delete("/trees/<tree_id>")
def delete_tree(tree_id: str):
    """Delete an upload: its delete token in ``X-Delete-Token`` (or JSON ``token``)."""
    _check_origin()
    lib = library()
    if lib.is_builtin(tree_id):
        raise api_error(403, "Built-in trees cannot be deleted.")
    data = request.get_json(silent=True) if request.is_json else None
    token = request.headers.get("X-Delete-Token") or (
        data.get("token") if isinstance(data, dict) else None)
    if not isinstance(token, str) or not token:
        raise api_error(400, "Send the upload's delete token in the X-Delete-Token header.")
    if not lib.delete(tree_id, token):
        if lib.store.get(tree_id) is None:
            raise api_error(404, "There is no uploaded tree {tree_id}.", tree_id=repr(tree_id))
        raise api_error(403, "That is not this tree's delete token.")
    current_app.extensions["tree_json"].forget(tree_id)
    return "", 204


@bp.get("/trees/<tree_id>")
def get_tree(tree_id: str):
    form = request.args.get("form", "nested")
    if form not in FORMS:
        raise argument_error("form", "form must be 'nested' or 'flat'")
    flat = form == "flat"
    lib = library()
    tree = lib.fetch(tree_id)   # may build a big random tree
    lang = page_language()
    if getattr(tree, "lazy", False):  # a game: its top, and the nodes the page opened
        opened = [i for i in request.args.get("open", "").split(",") if i][:200]
        return Response(_tree_body(tree.to_dict(opened), lang, _tree_extra(lib, tree_id, tree), flat),
                        mimetype="application/json")
    # Made once per tree, language and form (app.web.treejson): a lecture's phones ask for the same.
    kept = current_app.extensions["tree_json"]
    key = f"{lang}:{form}"
    body = kept.get(tree_id, key, tree)
    if body is None:
        extra = _tree_extra(lib, tree_id, tree)
        body = (_tree_file_body(tree, lang, extra, flat) if len(tree.nodes) <= SMALL_TREE
                else offload(_tree_file_body, tree, lang, extra, flat))
        kept.put(tree_id, key, tree, body)
    return Response(body, mimetype="application/json")


def _tree_extra(lib: TreeLibrary, tree_id: str, tree) -> dict:
    """What the answer adds to the tree file's structure."""
    return {"id": tree_id, "url": tree_url(tree_id), "algorithms": algorithms_for(tree, whatif=False),
            "builtin": lib.is_builtin(tree_id), "info": lib.entry(tree_id)}


def _tree_file_body(tree, lang: str, extra: dict, flat: bool) -> bytes:
    return _tree_body(tree_to_dict(tree, explicit_ids=True), lang, extra, flat)


def _tree_body(data: dict, lang: str, extra: dict, flat: bool) -> bytes:
    """The JSON answer: the file's structure (``flat``: its nodes as columns,
    app.web.treejson.flat_nodes), ``extra``, and a game's positions and moves
    in words (in ``lang``). No request context: it may run off the loop
    (app.web.offload)."""
    positions = position_words(data, lang)   # a game's boards in words
    moves = move_words(data, lang) if positions else {}   # and its moves
    if flat:
        nodes = flat_nodes(data.pop("root"))
        data = {**data, "form": "flat", "nodes": nodes}
    return encoded({**data, **extra, **({"positions": positions, "moves": moves} if positions else {})})


@bp.get("/trees/<tree_id>/file")
def get_tree_file(tree_id: str):
    lib = library()
    # A random tree is built and written out here: heavy work (100,000 nodes, 0.8 s).
    text, filename = (offload(lib.source, tree_id) if RandomSpec.is_id(tree_id)
                      else lib.source(tree_id))
    # Always a download, never a page: an upload named evil.html stays text.
    # The name keeps the file's stem but always ends as a tree file.
    mimetype = "application/json" if filename.endswith(".json") else "text/plain"
    stem = _safe_name(filename.rsplit(".", 1)[0])[:80] or tree_id
    ext = "json" if mimetype == "application/json" else "yaml"
    return Response(text, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{stem}.{ext}"'})


@bp.get("/trees/<tree_id>/trace")
def trace(tree_id: str):
    args = request.args.to_dict()
    say = words(args.pop("lang", None))     # the sentences' language (default English)
    options = options_from_query(args)
    tree = library().fetch(tree_id)   # may build a big random tree
    budget = current_app.extensions["budget"]
    try:
        options = options.resolved(tree)
        budget.check_trace(len(tree.nodes), options.algorithm, options.depth,
                           options.iterations)   # [mcts] iterations
    except SearchError as exc:
        raise ApiError(400, str(exc)) from exc
    with _trace_gate(budget).slot():   # one at a time: pages and runs never wait behind
        chunks, size = offload(_encoded, lambda: search_run(tree, options, say),
                               budget.traces.trace_events, budget.traces.trace_bytes)
    head = b'{"options":%s,"events":[' % json.dumps(options_dict(options)).encode()
    length = len(head) + size - bool(chunks) + 2
    return Response(_joined(head, chunks), mimetype="application/json",
                    headers={"Content-Length": str(length)})


def _trace_gate(budget) -> Gate:
    gate = current_app.extensions.get("trace_gate")
    if gate is None:
        gate = current_app.extensions.setdefault("trace_gate", Gate(
            budget.traces.traces_at_once, budget.traces.trace_queue_seconds, N_("traces"), retry_after=10,
            queue=budget.traces.traces_waiting))
    return gate


def _encoded(make_events, max_events: int, max_bytes: int) -> tuple[list[bytes], int]:
    """Encode as we go: a long run is held as compact bytes, not as dicts, and
    refused as soon as it passes either cap (an event may carry a change per
    node: iterative deepening on a big tree makes gigabytes in few events)."""
    encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
    chunks: list[bytes] = []
    size = 0
    try:
        events = make_events()
    except SearchError as exc:
        raise ApiError(400, str(exc)) from exc
    try:
        for event in events:
            if len(chunks) == max_events:
                raise _too_long(N_("This run has more than {limit:,} events: too many for one "
                                   "answer. Set a depth limit (depth=N), or step through it in "
                                   "the visualizer, which loads it in pieces."), max_events)
            chunk = encode(event).encode()
            size += len(chunk) + 1
            if size > max_bytes:
                raise _too_long(N_("This run has more than {limit:,.0f} MiB of events: too many "
                                   "for one answer. Set a depth limit (depth=N), or step "
                                   "through it in the visualizer, which loads it in pieces."),
                                max_bytes / (1 << 20))
            chunks.append(chunk)
    except SearchError as exc:
        raise ApiError(400, str(exc)) from exc
    finally:
        events.close()
    return chunks, size


def _too_long(msgid: str, limit) -> OverBudget:
    # Raised off the request's thread (offload), where Flask's request is not
    # at hand: the error handler says it in the request's language.
    return refusal(msgid, 413, say={"limit": limit})


def _joined(head: bytes, chunks: list[bytes], group: int = 2000):
    """The body in pieces, so that it is never copied whole."""
    yield head
    for start in range(0, len(chunks), group):
        yield (b"," if start else b"") + b",".join(chunks[start:start + group])
    yield b"]}"


def _read_upload() -> tuple[bytes, str | None, str | None]:
    """``(data, file name, format)`` of an upload, or :class:`ApiError`."""
    _check_origin()
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    too_large = api_error(413, "The upload is larger than {size:,} KiB.", size=limit // 1024,
                          body={"line": None, "column": None}) if limit is not None else None
    # Refuse before reading a byte of the body (Werkzeug would also stop at the limit).
    if limit is not None and (request.content_length or 0) > limit:
        raise too_large
    mimetype = request.mimetype
    if mimetype == "multipart/form-data" or mimetype in RAW_TYPES:
        _read_body(limit, too_large)
    if mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None and "file" in request.form:   # a text field: curl -F 'file=<t.yaml'
            return request.form["file"].encode("utf-8", "surrogateescape"), None, None
        if upload is None:
            raise api_error(400, "A multipart upload needs the tree file in a field named "
                            "'file'.", body={"line": None, "column": None})
        # The loader tells the format by the file name's ending, else by the text.
        return upload.read(), upload.filename or None, None
    if mimetype in RAW_TYPES:
        return request.get_data(), None, RAW_TYPES[mimetype]
    if not mimetype:
        raise api_error(415, "Send the tree as multipart field 'file', or as the body with "
                             "Content-Type {types}; this request has no Content-Type.",
                        types=", ".join(RAW_TYPES), body={"line": None, "column": None})
    raise api_error(415, "Send the tree as multipart field 'file', or as the body with "
                         "Content-Type {types}; not {given}.", types=", ".join(RAW_TYPES),
                    given=mimetype, body={"line": None, "column": None})


def _check_origin() -> None:
    origin = request.headers.get("Origin")  # browsers send it; scripts need not
    if origin is not None and not same_origin(origin, request.environ,
                                              tuple(current_app.config["EXTRA_ORIGINS"])):
        raise api_error(403, "Uploads are accepted from this server's own pages only.")


def _read_body(limit: int | None, too_large: ApiError | None) -> None:
    """Read the body into the request's cache (the form parser reads it from
    there), refusing one over ``limit``. A body without a Content-Length
    (chunked) is cut at the limit by Werkzeug without a word, so that a
    truncated file could be taken for the whole: probe for one byte more."""
    data = request.get_data(cache=True)
    if limit is None or request.content_length is not None or len(data) < limit:
        return
    try:
        more = request.stream.read(1)
    except RequestEntityTooLarge:
        more = b"?"
    if more:
        raise too_large


def _safe_name(filename: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in filename)
