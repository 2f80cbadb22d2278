"""The language of a page: Flask-Babel with our two catalogues.

The language is, in order: ``?lang=`` in the address (a link can set it;
the choice is then kept in a cookie), a page script's ``X-Page-Lang`` header
(the language its page was drawn in, which a second tab's choice must not
change mid-sentence), the ``lang`` cookie (the browser keeps
the person's choice), the browser's ``Accept-Language``, else English.

- every template gets ``lang`` (the code), ``languages`` (code -> name) and
  ``lang_url(code)`` (this page in another language) for the switcher;
- ``GET /i18n/<lang>.json`` is the catalogue of the page's scripts
  (``static/js/core/i18n.js`` loads it before any script draws a word;
  ``catalogue_url`` gives its versioned address, which pages preload);
- :func:`page_language` is the language of the request, for the API and the
  Socket.IO handlers.
"""
from __future__ import annotations

import functools
import hashlib
import json

from flask import Blueprint, Flask, current_app, g, request, url_for
from flask_babel import Babel

from app.i18n import (DEFAULT, LANGUAGES, TRANSLATIONS, chosen_language, compile_catalogues,
                      js_messages, language)
from app.web.assets import kept_for_good

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def page_language() -> str:
    """The request's language (see the module's docstring)."""
    cached = g.get("lang")
    if cached:
        return cached
    lang = chosen_language(request.args.get("lang") or request.headers.get("X-Page-Lang"),
                           request.cookies.get(COOKIE), request.headers.get("Accept-Language"))
    g.lang = lang
    return lang


def error_message(exc) -> str:
    """A tree file's error in the request's language (English outside a request)."""
    from flask import has_request_context

    from app.i18n import error_message as in_language

    return in_language(exc, page_language() if has_request_context() else DEFAULT)


def localized(tree, key: str) -> str:
    """The tree's ``title``, ``description`` or ``source`` in the request's
    language, if its file gives one (``translations:``; a game's, its
    catalogue messages), else as written."""
    said = getattr(tree, "said", None) or {}    # a game's: catalogue messages
    if key in said:
        from app.i18n import message_in

        msgid, fields = said[key]
        return message_in(msgid, fields, page_language())
    translations = getattr(tree, "translations", None) or {}
    return translations.get(page_language(), {}).get(key) or getattr(tree, key)


def lang_url(code: str) -> str:
    """This page's address with ``lang=<code>`` (other parameters kept)."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    from urllib.parse import urlencode

    return f"{request.path}?{urlencode(args, doseq=True)}"


def _remember(response):
    asked = request.args.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax")
    if request.args.get("lang") is None and request.endpoint and not request.path.startswith(("/static", "/i18n")):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


@functools.lru_cache(maxsize=len(LANGUAGES))
def _catalogue(lang: str) -> tuple[bytes, str]:
    """A language's catalogue as served, and its version (read once a process)."""
    body = json.dumps(js_messages(lang), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode()
    return body, hashlib.sha256(body).hexdigest()[:12]


def catalogue_url(lang: str) -> str:
    """The catalogue's address with its version: base.html preloads it while
    the page's modules load, and a browser keeps it for good (before, every
    module of an Indonesian page waited for it on every view: buttons did
    nothing until it came)."""
    return url_for("i18n.catalogue", lang=lang, v=_catalogue(language(lang))[1])


@bp.get("/i18n/<lang>.json")
def catalogue(lang: str):
    """The translated strings of the page's scripts, ``{msgid: msgstr}``."""
    body, version = _catalogue(language(lang))
    response = current_app.response_class(body, mimetype="application/json")
    if request.args.get("v") == version:
        kept_for_good(response)
    else:   # an old version, or none: what it is now, for a while
        response.cache_control.max_age = 300
    return response


def init_app(app: Flask) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=page_language)
    app.after_request(_remember)

    @app.context_processor
    def _languages():
        return {"lang": page_language(), "languages": LANGUAGES, "lang_url": lang_url,
                "algorithms_doc": _algorithms_doc, "catalogue_url": catalogue_url}


def _algorithms_doc() -> dict:
    """The algorithms' records in the page's language, written into every page
    (base.html's meta) so that static/js/core/algorithms.js needs no request: its module
    then runs as soon as the page is parsed, before the first click or drop."""
    from app.search.descriptors import document
    from app.i18n import words
    return document(words(page_language()))
