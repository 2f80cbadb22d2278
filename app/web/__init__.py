"""The web app: Flask factory, HTTP API, Socket.IO stream, store of uploads.

Serve with ``app = create_app()`` then ``socketio_of(app).run(app, port=5000)``
(which is what ``run.py`` does).

Each app gets its own :class:`~flask_socketio.SocketIO`: Flask-SocketIO keeps
a single server per ``SocketIO`` object and dispatches events through the
latest one, so a module-level object shared by several apps (a test's app
beside a running live server) would send one app's events to the other.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

from flask import Flask
from flask_socketio import SocketIO

from . import errors
from .jsonio import StrictJSON, StrictJSONProvider
from .library import TreeLibrary
from .origins import same_origin
from .sockets import StreamNamespace
from .store import UploadStore

REPO = Path(__file__).resolve().parents[2]

# Feature blueprints, one line each: every module defines ``bp``.
BLUEPRINTS = (
    "app.web.api",       # /api/...: library, uploads, traces
    "app.web.pages",     # /, /t/<id>: the visualizer page
    "app.web.export",    # Graphviz pictures
    "app.web.practice",  # practice questions
)

DEFAULTS = dict(
    DATABASE=None,                  # default: <instance>/trees.sqlite3
    TREES_DIR=str(REPO / "trees"),  # the built-in library
    MAX_CONTENT_LENGTH=2 << 20,     # bytes of one request (uploads)
    STORE_MAX_TREES=1000,           # cap of the upload store ...
    STORE_MAX_BYTES=64 << 20,       # ... in trees and in bytes of text
    TREE_LIMITS=None,               # app.treefile limits for uploads (None: its defaults)
    TREE_CACHE_SIZE=32,             # parsed uploaded trees kept in memory
    TRACE_MAX_EVENTS=200_000,       # longest run GET .../trace answers whole
    TRACE_MAX_BYTES=64 << 20,       # and its largest size (one event may change every node)
    SOCKET_MAX_RUNS=4,              # open runs per connection (oldest closed first)
    SOCKET_MAX_COUNT=1000,          # events per pull
    SOCKET_MAX_MESSAGE=64 << 10,    # bytes of one Socket.IO message from a client
    EXTRA_ORIGINS=(),               # origins trusted beside the server's own (a proxy's)
)


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> Flask:
    """Make the app: ``test_config`` overrides the instance's ``config.py``;
    ``instance_path`` (default ``instance/`` in the repository) holds the
    store of uploads."""
    app = Flask(__name__.split(".")[0], instance_path=instance_path,
                instance_relative_config=True, root_path=str(REPO),
                template_folder="templates", static_folder="static")
    app.json = StrictJSONProvider(app)
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    database = app.config["DATABASE"] or os.path.join(app.instance_path, "trees.sqlite3")
    app.config["DATABASE"] = database

    store = UploadStore(database, app.config["STORE_MAX_TREES"], app.config["STORE_MAX_BYTES"])
    app.extensions["trees"] = TreeLibrary(app.config["TREES_DIR"], store,
                                          limits=app.config["TREE_LIMITS"],
                                          cache_size=app.config["TREE_CACHE_SIZE"])
    errors.register(app)
    for name in BLUEPRINTS:
        app.register_blueprint(importlib.import_module(name).bp)
    _init_socketio(app)
    return app


def _init_socketio(app: Flask) -> SocketIO:
    extra = tuple(app.config["EXTRA_ORIGINS"])
    socketio = SocketIO(
        app, async_mode="threading", json=StrictJSON,
        cors_allowed_origins=lambda origin, environ=None: same_origin(origin, environ, extra),
        max_http_buffer_size=app.config["SOCKET_MAX_MESSAGE"],
        async_handlers=False,  # one connection's events in order, each in its own thread
    )
    stream = StreamNamespace("/", app.config["SOCKET_MAX_RUNS"], app.config["SOCKET_MAX_COUNT"])
    socketio.on_namespace(stream)
    app.extensions["stream"] = stream  # its ``runs`` are the open runs of every connection
    return socketio


def socketio_of(app: Flask) -> SocketIO:
    """The app's :class:`~flask_socketio.SocketIO` (for ``run`` and ``test_client``)."""
    return app.extensions["socketio"]


__all__ = ["create_app", "socketio_of", "BLUEPRINTS", "DEFAULTS"]
