"""The anchor of ``bench/classes.py --cpu``: a bare Flask-SocketIO broadcast.

The same wire as the app's ``/class`` (a ``join`` / ``present`` acknowledged,
the instructor's ``step`` acknowledged and broadcast as ``state`` to the
class's room, the same JSON module and Socket.IO settings, the same message
queue when ``MESSAGE_QUEUE`` is set), and nothing else: no store, no token, no
checks. What a class step costs beyond this is the app's own.

    gunicorn -k gevent -b 127.0.0.1:PORT bench.bare_broadcast:app
"""
from __future__ import annotations

import os

from flask import Flask
from flask_socketio import SocketIO, join_room

from app.web.jsonio import StrictJSON


def _mode() -> str:
    try:
        from gevent import monkey
    except ImportError:
        return "threading"
    return "gevent" if monkey.is_module_patched("socket") else "threading"


app = Flask(__name__)
socketio = SocketIO(app, async_mode=_mode(), json=StrictJSON, async_handlers=False,
                    cors_allowed_origins="*",
                    message_queue=os.environ.get("MESSAGE_QUEUE") or None)
template: dict = {}
"""The class's state as students see it (the instructor's ``present`` brings it)."""


@app.get("/healthz")
def healthz():
    return {"ok": True}


@socketio.on("present", namespace="/class")
def present(data):
    template.update(data["state"])
    join_room(f"c:{data['code']}")
    return {"ok": True}


@socketio.on("join", namespace="/class")
def join(data):
    join_room(f"c:{data['code']}")
    return {"ok": True, "state": template}


@socketio.on("step", namespace="/class")
def step(data):
    template["seq"] = template.get("seq", 0) + 1
    socketio.emit("state", {**template, "step": data["step"]}, to=f"c:{data['code']}",
                  namespace="/class")
    return {"ok": True}
