"""The tool (the app on a real threaded server) and a third-party LTI 1.3
platform (tests/lti/platform.py, the library lti1p3platform) registered with
each other on loopback, once per module."""
from __future__ import annotations

import threading

import pytest

from tests.lti.platform import Platform


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    from app.web import create_app
    from app.web.serving import threaded_server

    platform = Platform()
    app = create_app({"RATELIMIT_ENABLED": False, "LTI_PLATFORMS": [platform.tool_registration()]},
                     instance_path=str(tmp_path_factory.mktemp("lti") / "instance"))
    server = threaded_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    tool = f"http://127.0.0.1:{server.port}"
    platform.connect(tool)
    platform.tool_url, platform.app = tool, app
    yield platform
    platform.close()
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)
    app.extensions["results_db"].dispose()
