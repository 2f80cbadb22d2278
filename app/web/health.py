"""``GET /healthz``: the process is up and answering, with a few gauges
(open runs, renders running, uploads kept) for a load balancer or a lecturer."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    ext = current_app.extensions
    gate = ext.get("render_gate")
    trees, size = ext["trees"].store.usage()
    return jsonify({"status": "ok", "open_runs": ext["stream"].runs.count(),
                    "run_nodes": ext["stream"].runs.nodes(),
                    "run_memory": ext["stream"].runs.memory(),
                    "renders": gate.busy if gate else 0,
                    "uploads": trees, "upload_bytes": size})
