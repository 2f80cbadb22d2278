"""The pages people open: the tree library (``/``) and the visualizer
(``/t/<id>``), plus the pseudocode listings the visualizer shows.

The pages are thin: the browser fetches the tree from ``/api/trees/<id>`` and
the events over Socket.IO. The server renders only what must be safe: a
tree's description is Markdown from an uploaded file, so it is rendered here
with raw HTML disabled and then sanitised by an allow-list.

- ``GET /``                 the library: built-in trees, uploads, the upload area
- ``GET /t/<id>``           the step-through visualizer (contract §4)
- ``GET /api/pseudocode``   ``{"aima": [lines], "wikipedia": [lines]}`` for
  ``?algorithm=...&strict=0|1&depth=N`` (depth only says "depth-limited")
"""
from __future__ import annotations

import bleach
from flask import Blueprint, current_app, jsonify, render_template, request
from markdown_it import MarkdownIt
from markupsafe import Markup

from app.i18n import pseudocode_notes
from app.search.options import ALGORITHMS
from app.search.pseudocode import listings_for

from .errors import ApiError, api_error
from .i18n import localized, page_language

bp = Blueprint("pages", __name__)

# What a description may contain after rendering: text formatting and links.
ALLOWED_TAGS = ["p", "br", "em", "strong", "code", "pre", "ul", "ol", "li",
                "blockquote", "a", "h3", "h4", "h5", "h6"]
ALLOWED_ATTRIBUTES = {"a": ["href", "title"]}
_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False})


def render_description(text: str) -> Markup:
    """Markdown -> HTML that is safe to insert into a page.

    >>> str(render_description("*Fig. 5.2* <script>alert(1)</script>"))
    '<p><em>Fig. 5.2</em> &lt;script&gt;alert(1)&lt;/script&gt;</p>'
    >>> str(render_description("[x](javascript:alert(1))"))
    '<p>[x](javascript:alert(1))</p>'
    >>> str(render_description("[AIMA](https://aima.cs.berkeley.edu/)"))
    '<p><a href="https://aima.cs.berkeley.edu/">AIMA</a></p>'
    """
    if not text or not text.strip():
        return Markup("")
    # Headings shrink by two levels: the page has its own h1/h2.
    html = _markdown.render(text).replace("<h1>", "<h3>").replace("</h1>", "</h3>") \
        .replace("<h2>", "<h4>").replace("</h2>", "</h4>")
    clean = bleach.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                         protocols=["http", "https", "mailto"], strip=True)
    return Markup(clean.strip())


@bp.get("/")
def library():
    return render_template("library.html")


@bp.get("/t/<tree_id>")
def visualizer(tree_id: str):
    try:
        tree = current_app.extensions["trees"].fetch(tree_id)   # a random one: heavy work
    except ApiError as exc:
        return render_template("missing.html", tree_id=tree_id, message=exc.message), exc.status
    return render_template(
        "visualizer.html", tree_id=tree_id, title=localized(tree, "title"), source=localized(tree, "source"),
        description_html=render_description(localized(tree, "description")))


@bp.get("/api/pseudocode")
def pseudocode():
    algorithm = request.args.get("algorithm", "alphabeta")
    if algorithm not in ALGORITHMS:
        raise api_error(400, "unknown algorithm {name}: choose one of {names}",
                        name=repr(algorithm)[:60], names=", ".join(ALGORITHMS))
    strict = request.args.get("strict", "0").lower() in ("1", "true", "yes", "on")
    depth_limited = bool(request.args.get("depth", "").strip())
    listings = listings_for(algorithm, strict=strict, depth_limited=depth_limited)
    lang = request.args.get("lang") or page_language()
    return jsonify(pseudocode_notes(listings, lang))     # the ITB lecture's comments
