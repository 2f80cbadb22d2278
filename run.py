"""Serve the visualizer: ``python run.py [--host 127.0.0.1] [--port 5000] [--debug]``.

Uses Werkzeug's threaded server with real WebSockets (simple-websocket),
bounded (app.web.serving: silent connections closed after 60 s, a cap on
connections and so on threads and file descriptors): plenty for a lecture
hall on one machine. A department's server runs gunicorn instead
(deploy/gunicorn.conf.py). ``--port 0`` picks a free port (printed). The store of uploaded trees lives
in ``instance/`` unless ``--instance DIR`` says otherwise.

``--host 0.0.0.0`` serves the local network too (a lecture hall without
internet: students' phones join the class at the laptop's address, which the
join link and QR code show). ``--message-queue redis://HOST:PORT`` (or the
``MESSAGE_QUEUE`` environment variable) shares live classes between several
processes behind nginx (deploy/README.md).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys

from app.web import create_app, socketio_of
from app.web.classes import lan_url
from app.web import memory
from app.web.serving import RequestHandler, per_address_cap, threaded_server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--debug", action="store_true",
                        help="reload on code changes and show tracebacks (never in public)")
    parser.add_argument("--instance", metavar="DIR",
                        help="folder of the upload store (default: instance/)")
    parser.add_argument("--message-queue", metavar="URL", default=os.environ.get("MESSAGE_QUEUE"),
                        help="redis://HOST:PORT shared by several processes for live classes "
                             "(default: $MESSAGE_QUEUE, else none: one process)")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    memory.limit_arenas()   # before any thread: freed memory goes back to the system
    settings = {"HOST": args.host, "MESSAGE_QUEUE": args.message_queue or None,
                "CLASS_LAN_URL": lan_url(args.host, args.port)}
    try:
        app = create_app(instance_path=os.path.abspath(args.instance) if args.instance else None,
                         settings=settings)
    except RuntimeError as exc:  # a message queue that cannot be reached, say
        print(f"run.py: {exc}", file=sys.stderr)
        sys.exit(2)
    memory.warm_up(app)       # first-use objects made now, not amid a load
    memory.freeze_startup()   # full collections then skip what start-up made
    shown = f"[{args.host}]" if ":" in args.host else args.host
    if args.debug:   # Werkzeug's reloader and debugger: never in public
        print(f"Serving (debug) on http://{shown}:{args.port}/", flush=True)
        socketio_of(app).run(app, host=args.host, port=args.port, debug=True,
                             use_reloader=True, log_output=True,
                             allow_unsafe_werkzeug=True, request_handler=RequestHandler)
        return
    budget = app.extensions["budget"]
    # A descriptor per connection: as many as the system lets this process open.
    open_files = memory.raise_open_files(budget.serving.connections)
    server = threaded_server(app, args.host, args.port, quiet=False,
                             idle=budget.serving.idle_seconds,
                             max_connections=max(64, min(budget.serving.connections, open_files - 64)),
                             per_address=per_address_cap(app))
    print(f"Serving the adversarial-search visualizer on http://{shown}:{server.port}/ "
          "(Ctrl+C to stop)", flush=True)
    if settings["CLASS_LAN_URL"]:
        print(f"Students on this network join classes at {settings['CLASS_LAN_URL']}/c",
              flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
