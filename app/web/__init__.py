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

from app.budget import Budget

from . import assets, errors, i18n, limits, origins, results_db, sessions
from .jsonio import StrictJSON, StrictJSONProvider
from .treejson import TreeJson
from .library import TreeLibrary
from .offload import WorkQueue
from .origins import same_origin
from .serving import BodyDeadline
from .security import TrustedHostMiddleware, install_headers, trusted_hosts
from .class_sockets import ClassNamespace
from .editor_sockets import EditNamespace
from .sockets import StreamNamespace
from .store import UploadStore

REPO = Path(__file__).resolve().parents[2]

# Feature blueprints, one line each: every module defines ``bp``.
BLUEPRINTS = (
    "app.web.api",       # /api/...: library, uploads, traces
    "app.web.pages",     # /, /t/<id>: the visualizer page
    "app.web.export",    # Graphviz pictures
    "app.web.practice",  # practice questions
    "app.web.play",      # /play: play a game against the search
    "app.web.health",    # /healthz
    "app.web.editor",    # /edit: the tree editor and its what-if runs
    "app.web.classes",   # live classes: /api/classes, /c/<code>, /c/<code>/present
    "app.web.i18n",      # /i18n/<lang>.json: the page scripts' words
    "app.web.assignments",  # homework: /api/assignments, /a/<id> (contract §7)
    "app.web.lti",       # LTI 1.3 tool: /lti/login, /lti/launch, deep links, grade passback
    "app.web.lti_register",  # LTI Dynamic Registration: /lti/register/<key>, /lti/platforms/<key>
)

DEFAULTS = dict(
    DATABASE=None,                  # default: <instance>/trees.sqlite3
    DATABASE_URL=None,              # results (assignments): default sqlite:///<instance>/results.sqlite3;
                                    # postgresql+psycopg://... for several processes (env DATABASE_URL too)
    ASSIGNMENT_BUDGET={},           # app.budget.AssignmentBudget fields to change
    LTI_PLATFORMS=[],               # LMS registrations (docs/lti.md): issuer, client_id, URLs, deployments
    LTI_PRIVATE_KEY=None,           # the tool's RSA key (PEM or a file; default instance/lti-private.pem)
    TREES_DIR=str(REPO / "trees"),  # the built-in library
    BUDGET={},                      # app.budget.Budget fields to change: every cost limit
    TREE_LIMITS=None,               # app.treefile limits for uploads (None: its defaults)
    TREE_CACHE_SIZE=32,             # parsed uploaded trees kept in memory
    EXTRA_ORIGINS=(),               # origins trusted beside the server's own (a proxy's)
    HOST=None,                      # the address listened on (run.py --host), for TRUSTED_HOSTS
    TRUSTED_HOSTS=None,             # host names answered (None: localhost, 127.0.0.1, HOST)
    EXTRA_HOSTS=(),                 # names trusted beside those (a proxy's public name)
    FRAME_ANCESTORS="'self'",       # who may frame the pages (CSP), e.g. "'self' https://lms.example"
    ASYNC_MODE=None,                # Socket.IO: None = gevent when patched (gunicorn), else threading
    MESSAGE_QUEUE=os.environ.get("MESSAGE_QUEUE") or None,  # redis://...: several processes
                                    # share broadcasts and class state (None: one process)
    CLASS_IDLE_SECONDS=3 * 3600,    # a class ends after this long without activity
    CLASS_SWEEP_SECONDS=60,         # how often idle classes are looked for
    CLASS_KEY_MAX_EVENTS=50_000,    # longest run questions are asked on
    CLASS_JOIN_RATE="20/minute",    # failed joins (wrong codes) per client
    CLASS_JOINS_PER_ADDRESS=400,    # connections of one address in one class (a hall behind one NAT)
    CLASS_CLIENT_HEADER=None,       # "X-Real-IP" behind a trusted proxy (deploy/nginx.conf)
    CLASS_PUBLIC_URL=None,          # base of join links (default: as the request came)
    CLASS_LAN_URL=None,             # set by run.py --host 0.0.0.0: the laptop's LAN address
)

# Older single settings, still honoured: each sets one budget field.
BUDGET_KEYS = {
    "MAX_CONTENT_LENGTH": "upload_bytes", "STORE_MAX_TREES": "store_trees",
    "STORE_MAX_BYTES": "store_bytes", "TRACE_MAX_EVENTS": "trace_events",
    "TRACE_MAX_BYTES": "trace_bytes", "SOCKET_MAX_RUNS": "runs_per_client",
    "SOCKET_MAX_COUNT": "pull_events", "SOCKET_MAX_MESSAGE": "socket_message_bytes",
}


def create_app(test_config: dict | None = None, instance_path: str | None = None,
               settings: dict | None = None) -> Flask:
    """Make the app: ``test_config`` overrides the instance's ``config.py``;
    ``instance_path`` (default ``instance/`` in the repository) holds the
    store of uploads; ``settings`` (from the command line) apply after either."""
    app = Flask(__name__.split(".")[0], instance_path=instance_path,
                instance_relative_config=True, root_path=str(REPO),
                template_folder="templates", static_folder="static")
    app.json = StrictJSONProvider(app)
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("ADVSEARCH")   # ADVSEARCH_TRUSTED_HOSTS='["hall.example"]'
    else:
        app.config.from_mapping(test_config)
    app.config.from_mapping(settings or {})
    budget = _budget(app.config)
    app.extensions["budget"] = budget
    app.config["MAX_CONTENT_LENGTH"] = budget.requests.upload_bytes
    if app.config["TRUSTED_HOSTS"] is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config["HOST"], app.config["EXTRA_HOSTS"])
    os.makedirs(app.instance_path, exist_ok=True)
    database = app.config["DATABASE"] or os.path.join(app.instance_path, "trees.sqlite3")
    app.config["DATABASE"] = database

    store = UploadStore(database, budget.store.store_trees, budget.store.store_bytes,
                        max_age=budget.store.store_unused_days * 86_400,
                        client_trees=budget.store.store_client_trees,
                        client_bytes=budget.store.store_client_bytes)
    app.extensions["trees"] = TreeLibrary(app.config["TREES_DIR"], store,
                                          limits=app.config["TREE_LIMITS"],
                                          cache_size=app.config["TREE_CACHE_SIZE"],
                                          cache_nodes=budget.store.tree_cache_nodes,
                                          game_size=budget.games.game_size)
    app.extensions["tree_json"] = TreeJson(budget.store.tree_json_bytes)
    work = budget.work
    app.extensions["work"] = WorkQueue(work.work_threads, work.work_queue,
                                       work.work_wait_seconds, work.work_per_client,
                                       per_address=work.work_per_address)
    errors.register(app)
    results_db.register(app)   # the results database out of reach: 503 + Retry-After
    assets.install(app)   # static files under versioned URLs, cached for good
    install_headers(app)
    origins.install(app)   # state-changing requests from this server's own pages only
    i18n.init_app(app)  # the page's language (Flask-Babel), catalogues compiled
    for name in BLUEPRINTS:
        app.register_blueprint(importlib.import_module(name).bp)
    limits.init(app)
    sessions.install(app, _init_socketio(app))   # Engine.IO sessions capped per address
    app.wsgi_app = BodyDeadline(app.wsgi_app, budget.serving.idle_seconds)   # slow uploads cut off
    # Outermost: a host name not trusted never reaches Flask or Socket.IO.
    app.wsgi_app = TrustedHostMiddleware(app.wsgi_app, app.config["TRUSTED_HOSTS"])
    return app


def _budget(config) -> Budget:
    overrides = {field: config[key] for key, field in BUDGET_KEYS.items()
                 if config.get(key) is not None}
    return Budget.from_mapping({**overrides, **config["BUDGET"]})


def budget_of(app: Flask) -> Budget:
    """The app's :class:`~app.budget.Budget`: every cost limit, asked before work starts."""
    return app.extensions["budget"]


def async_mode(config) -> str:
    """``gevent`` when gevent has patched the standard library (gunicorn's
    gevent worker), else ``threading`` (``python run.py``)."""
    if config.get("ASYNC_MODE"):
        return config["ASYNC_MODE"]
    try:
        from gevent import monkey
    except ImportError:
        return "threading"
    return "gevent" if monkey.is_module_patched("socket") else "threading"


def _init_socketio(app: Flask) -> SocketIO:
    extra = tuple(app.config["EXTRA_ORIGINS"])
    budget = budget_of(app)
    socketio = SocketIO(
        app, async_mode=async_mode(app.config), json=StrictJSON,
        cors_allowed_origins=lambda origin, environ=None: same_origin(origin, environ, extra),
        max_http_buffer_size=budget.runs.socket_message_bytes,
        async_handlers=False,  # one connection's events in order, each in its own thread
        # Broadcasts between server processes (scale-out) go through this queue
        # (a redis:// URL); None: one process, nothing to share.
        message_queue=app.config.get("MESSAGE_QUEUE"),
        # Engine.IO drops a closed connection (and the memory it holds) within
        # this many seconds; a memory test shortens it (tests/server/test_memory.py).
        **({"ping_timeout": app.config["SOCKET_PING_TIMEOUT"]}
           if app.config.get("SOCKET_PING_TIMEOUT") else {}),
    )
    stream = StreamNamespace("/", budget.runs.runs_per_client, budget.runs.pull_events,
                             budget.runs.pull_changes, budget.runs.runs_open, budget.runs.run_nodes,
                             max_bytes=budget.runs.run_memory)
    socketio.on_namespace(stream)
    app.extensions["stream"] = stream  # its ``runs`` are the open runs of every connection
    socketio.on_namespace(ClassNamespace("/class"))
    socketio.on_namespace(EditNamespace("/edit"))   # the editor's what-if runs
    return socketio


def socketio_of(app: Flask) -> SocketIO:
    """The app's :class:`~flask_socketio.SocketIO` (for ``run`` and ``test_client``)."""
    return app.extensions["socketio"]


__all__ = ["create_app", "socketio_of", "budget_of", "async_mode", "BLUEPRINTS", "DEFAULTS"]
