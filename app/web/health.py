"""``GET /healthz``: the process is up and answering, what it depends on is
reachable, with a few gauges (open runs, renders running, heavy work,
uploads kept) for a load balancer or a lecturer.

``checks`` names each dependency ``ok`` or ``down``: the store of uploads
(SQLite) always, the results database (``results_db``: homework and LTI, on
a connection of its own with a 1 s timeout), Redis where a message queue is
configured (class state and broadcasts live there). Any ``down`` makes the answer ``503`` with
``"status": "down"``, so a load balancer stops sending students to a
process that cannot serve their class. Redis is asked with a short timeout:
the probe answers within a second even when Redis does not.
"""
from __future__ import annotations

import logging

from flask import Blueprint, current_app, jsonify

from .results_db import reachable

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)

REDIS_TIMEOUT = 0.5
"""Seconds a Redis ping may take before Redis counts as down."""


def _redis_ok(app) -> bool:
    url = app.config.get("MESSAGE_QUEUE")
    client = app.extensions.get("health_redis")
    if client is None:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT,
                                      socket_connect_timeout=REDIS_TIMEOUT)
        app.extensions["health_redis"] = client
    try:
        return bool(client.ping())
    except Exception as exc:  # noqa: BLE001 (any failure to answer is "down")
        log.warning("healthz: Redis at %s is down: %s", url, exc.__class__.__name__)
        return False


@bp.get("/healthz")
def healthz():
    app = current_app
    ext = app.extensions
    gate = ext.get("render_gate")
    checks = {}
    try:
        trees, size = ext["trees"].store.usage()
        checks["store"] = "ok"
    except Exception as exc:  # noqa: BLE001 (a store that cannot be read is down)
        log.warning("healthz: the store is down: %s", exc)
        trees = size = None
        checks["store"] = "down"
    results = reachable(app)
    if results is not None:
        checks["results_db"] = "ok" if results else "down"
    if app.config.get("MESSAGE_QUEUE"):
        checks["redis"] = "ok" if _redis_ok(app) else "down"
    down = "down" in checks.values()
    work = ext.get("work")
    body = {"status": "down" if down else "ok", "checks": checks,
            "open_runs": ext["stream"].runs.count(),
            "run_nodes": ext["stream"].runs.nodes(),
            "run_memory": ext["stream"].runs.memory(),
            "renders": gate.busy if gate else 0,
            "work": work.gauges() if work else None,
            "uploads": trees, "upload_bytes": size}
    return jsonify(body), 503 if down else 200
