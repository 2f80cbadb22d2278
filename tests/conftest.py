"""Fixtures shared by every test folder.

- ``make_app(**config)``: a fresh app on this test's own instance folder
  (calling it twice gives a "restarted" server on the same store).
- ``app``, ``client``, ``socket_client``: the usual Flask trio.
- ``live_server``: the real threaded server (WebSockets included) on a free
  127.0.0.1 port for the whole session; a ``str`` base URL with ``.app``.
- ``fig52_yaml``: AIMA Figure 5.2 as a tree file.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FIG_5_2 = """\
title: AIMA Figure 5.2, a two-ply game
source: Russell & Norvig, AIMA 3rd ed., Fig. 5.2
algorithm: alphabeta
root:
  id: A
  children:
    - id: B
      children:
        - {id: b1, value: 3}
        - {id: b2, value: 12}
        - {id: b3, value: 8}
    - id: C
      children:
        - {id: c1, value: 2}
        - {id: c2, value: 4}
        - {id: c3, value: 6}
    - id: D
      children:
        - {id: d1, value: 14}
        - {id: d2, value: 5}
        - {id: d3, value: 2}
"""


@pytest.fixture(scope="session")
def fig52_yaml() -> str:
    return FIG_5_2


@pytest.fixture
def make_app(tmp_path):
    """``make_app(**config)`` -> a new app whose store is in ``tmp_path``."""
    from app.web import create_app  # imported here so other folders' tests never depend on it

    instance = tmp_path / "instance"

    def make(**config):
        return create_app({"TESTING": True, **config}, instance_path=str(instance))

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def socket_client(app, client):
    """Flask-SocketIO's test client, connected to ``/``."""
    from app.web import socketio_of

    sc = socketio_of(app).test_client(app, flask_test_client=client)
    yield sc
    if sc.is_connected():
        sc.disconnect()


class LiveServer(str):
    """The base URL (``http://127.0.0.1:PORT``) of a running server; ``.app`` is its app."""

    app = None


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The real threaded server with the built-in trees and an empty store."""
    from app.web import create_app
    from app.web.serving import threaded_server

    # Many tests upload from one address here: the per-client rate limit has tests of its own.
    app = create_app({"RATELIMIT_ENABLED": False},
                     instance_path=str(tmp_path_factory.mktemp("live") / "instance"))
    server = threaded_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    url = LiveServer(f"http://127.0.0.1:{server.port}")
    url.app = app
    yield url
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


# -- the real browser ----------------------------------------------------------
# One Chromium for the whole session: Playwright's sync API allows one running
# instance per process, so every browser test shares this fixture.
CHROMIUM = "/usr/bin/chromium"  # Debian's own build: Playwright never downloads a browser here
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
