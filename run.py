"""Serve the visualizer: ``python run.py [--host 127.0.0.1] [--port 5000] [--debug]``.

Uses Werkzeug's threaded server with real WebSockets (simple-websocket):
plenty for a lecture hall on one machine. The store of uploaded trees lives
in ``instance/`` unless ``--instance DIR`` says otherwise.
"""
from __future__ import annotations

import argparse
import logging
import os

from app.web import create_app, socketio_of
from app.web.serving import RequestHandler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--debug", action="store_true",
                        help="reload on code changes and show tracebacks (never in public)")
    parser.add_argument("--instance", metavar="DIR",
                        help="folder of the upload store (default: instance/)")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(instance_path=os.path.abspath(args.instance) if args.instance else None,
                     settings={"HOST": args.host})
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Serving the adversarial-search visualizer on http://{shown}:{args.port}/ "
          "(Ctrl+C to stop)", flush=True)
    socketio_of(app).run(app, host=args.host, port=args.port, debug=args.debug,
                         use_reloader=args.debug, log_output=args.debug,
                         allow_unsafe_werkzeug=True, request_handler=RequestHandler)


if __name__ == "__main__":
    main()
