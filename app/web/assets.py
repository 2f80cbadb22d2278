"""The page's files under versioned URLs, which a browser keeps for good.

Every ``url_for('static', ...)`` carries ``?v=`` and the first characters of
the file's SHA-256 (read once at start-up); the page's ES modules import
one another by relative paths, and an import map, inline in ``base.html``
and allowed by its own hash in the Content-Security-Policy, sends those
imports to the same versioned URLs. An answer to a URL of the file as it is
is cached as ``immutable``; a changed file has a new URL. Before, every page
view asked again for each of its ~40 files (``no-cache``: 40 answers of 304),
from each of a hall's phones and on each test's page.

A URL without ``v`` (or with an old one) is served as before, ``no-cache``:
so if the import map were blocked the page would still load, only without
the browser's cache.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import os

from flask import request


class Assets:
    """The static folder's files and their versions, read at start-up."""

    def __init__(self, folder: str):
        self.versions: dict[str, str] = {}
        for root, _dirs, files in os.walk(folder):
            for name in files:
                path = os.path.join(root, name)
                rel = os.path.relpath(path, folder).replace(os.sep, "/")
                with open(path, "rb") as fh:
                    self.versions[rel] = hashlib.sha256(fh.read()).hexdigest()[:12]
        self._maps: dict[str, tuple[str, str]] = {}

    def import_map(self, static_url: str) -> tuple[str, str]:
        """(the import map's text, its CSP source) for static files served at
        ``static_url`` (``/static``, or under the app's mount point)."""
        if static_url not in self._maps:
            modules = {f"{static_url}/{rel}": f"{static_url}/{rel}?v={v}"
                       for rel, v in sorted(self.versions.items()) if rel.endswith(".js")}
            text = json.dumps({"imports": modules}, separators=(",", ":"))
            digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
            self._maps[static_url] = (text, f"'sha256-{digest}'")
        return self._maps[static_url]


@functools.lru_cache(maxsize=4)
def _read(folder: str) -> Assets:
    """The folder's versions, read once a process (every app a test makes
    would hash the ~100 files again: 3-4 s of the quick suite)."""
    return Assets(folder)


def _static_url(app) -> str:
    return request.script_root + app.static_url_path


def install(app) -> None:
    """Version the static URLs of ``app`` (not in debug mode, where files
    change under a running server, nor with ``STATIC_VERSIONS`` false: the
    files revalidated on every view, as before; bench/page_views.py)."""
    if app.debug or not app.config.get("STATIC_VERSIONS", True):
        app.jinja_env.globals["import_map"] = lambda: ""
        return
    assets = app.extensions["assets"] = _read(app.static_folder)

    @app.url_defaults
    def _version(endpoint, values):
        if endpoint == "static" and "v" not in values:
            version = assets.versions.get(values.get("filename", ""))
            if version:
                values["v"] = version

    app.jinja_env.globals["import_map"] = lambda: assets.import_map(_static_url(app))[0]

    @app.after_request
    def _cache(response):
        if request.endpoint == "static" and response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args["v"] == assets.versions.get(filename):
                kept_for_good(response)
        return response


def kept_for_good(response) -> None:
    """Cache headers for an answer whose URL names its content's version."""
    cc = response.cache_control
    cc.no_cache = None
    cc.public = True
    cc.max_age = 365 * 86_400
    cc.immutable = True


def page_script_source(app) -> str | None:
    """The CSP source that allows this request's import map (None: no map)."""
    assets = app.extensions.get("assets")
    return assets.import_map(_static_url(app))[1] if assets else None
