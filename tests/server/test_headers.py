"""Findings 6 and 7 of the lecture-hall issue: DNS rebinding, security headers.

Each test first states the attack as the finding found it, against the real
threaded server, and checks that it now fails.
"""
from __future__ import annotations

import base64
import hashlib
import re

import requests

from app.web.security import content_security_policy, trusted_hosts

TIMEOUT = 10
FIG52 = "aima-fig-5-2"


def _port(live_server) -> int:
    return int(live_server.rsplit(":", 1)[1])


# -- finding 6: DNS rebinding -----------------------------------------------------

def test_rebinding_upload_is_refused(live_server, fig52_yaml):
    """Finding 6: ``Host: evil.example:P`` with a matching Origin got 201."""
    evil = f"evil.example:{_port(live_server)}"
    res = requests.post(f"{live_server}/api/trees", data=fig52_yaml.encode(), timeout=TIMEOUT,
                        headers={"Content-Type": "application/x-yaml", "Host": evil,
                                 "Origin": f"http://{evil}"})
    assert res.status_code == 400
    assert "host name" in res.json()["error"]["message"]


def test_rebinding_socket_handshake_is_refused(live_server):
    """Finding 6: the Socket.IO handshake under a foreign Host answered 200."""
    evil = f"evil.example:{_port(live_server)}"
    res = requests.get(f"{live_server}/socket.io/?EIO=4&transport=polling", timeout=TIMEOUT,
                       headers={"Host": evil, "Origin": f"http://{evil}"})
    assert res.status_code == 400
    # The same handshake under the server's own name still works.
    own = requests.get(f"{live_server}/socket.io/?EIO=4&transport=polling", timeout=TIMEOUT,
                       headers={"Origin": live_server})
    assert own.status_code == 200 and '"sid"' in own.text


def test_rebinding_pages_are_refused_and_own_names_answered(live_server):
    port = _port(live_server)
    for host in (f"evil.example:{port}", "evil.example", f"localhost.evil.example:{port}"):
        assert requests.get(f"{live_server}/", headers={"Host": host},
                            timeout=TIMEOUT).status_code == 400, host
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"LOCALHOST:{port}"):
        assert requests.get(f"{live_server}/", headers={"Host": host},
                            timeout=TIMEOUT).status_code == 200, host


def test_trusted_hosts_follow_the_listening_address(make_app):
    assert trusted_hosts("127.0.0.1") == ["localhost", "127.0.0.1"]
    everywhere = trusted_hosts("0.0.0.0")
    assert "127.0.0.1" in everywhere and len(everywhere) > 2  # the machine's own addresses
    app = make_app(HOST="hall.example.edu", EXTRA_HOSTS=["proxy.example.edu"])
    client = app.test_client()
    for name, status in (("hall.example.edu", 200), ("proxy.example.edu", 200),
                         ("localhost", 200), ("evil.example", 400)):
        assert client.get("/", headers={"Host": name}).status_code == status, name


# -- finding 7: headers ---------------------------------------------------------

def test_pages_and_api_carry_security_headers(live_server):
    """Finding 7: no CSP, nosniff or frame protection on pages and the API."""
    for path in ("/", f"/t/{FIG52}", "/practice", "/api/trees", f"/api/trees/{FIG52}",
                 "/api/trees/no-such-tree", "/static/js/core/model.js"):
        res = requests.get(f"{live_server}{path}", timeout=TIMEOUT)
        h = res.headers
        assert h["X-Content-Type-Options"] == "nosniff", path
        expected = content_security_policy("'self'")
        if res.headers["Content-Type"].startswith("text/html"):
            # A page may run one inline script, its import map, allowed by its hash.
            found = re.search(r'<script type="importmap">(.*?)</script>', res.text)
            digest = base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()
            expected = expected.replace("script-src 'self';", f"script-src 'self' 'sha256-{digest}';")
            assert res.text.count("<script") - res.text.count("<script type=\"module\" src=") == 1, path
        assert h["Content-Security-Policy"] == expected, path
        assert "frame-ancestors 'self'" in h["Content-Security-Policy"], path
        assert h["Referrer-Policy"] == "same-origin", path
        assert h["X-Frame-Options"] == "SAMEORIGIN", path
    policy = content_security_policy()
    assert "script-src 'self';" in policy and "unsafe" not in policy


def test_frame_ancestors_is_configurable(make_app):
    app = make_app(FRAME_ANCESTORS="'self' https://lms.example.edu")
    res = app.test_client().get("/")
    assert "frame-ancestors 'self' https://lms.example.edu" in res.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in res.headers  # it cannot say "and the LMS"


def test_templates_hold_no_inline_script():
    """The policy allows no inline script but the import map (data, not
    code, allowed by its hash: app.web.assets), once, in base.html."""
    from pathlib import Path

    maps = []
    for path in (Path(__file__).resolve().parents[2] / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            if tag == '<script type="importmap">':
                maps.append(path.name)
                continue
            assert "src=" in tag, f"{path.name}: inline script {tag}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"{path.name}: inline event handler"
    assert maps == ["base.html"], maps


def test_tree_file_is_an_attachment_never_a_page(live_server):
    """Finding 7: ``/file`` was served inline under the uploader's name (``evil.html``)."""
    body = b"title: <script>alert(1)</script>\nroot: {children: [1, 2]}\n"
    up = requests.post(f"{live_server}/api/trees", files={"file": ("evil.html", body)},
                       timeout=TIMEOUT)
    assert up.status_code == 201, up.text
    res = requests.get(f"{live_server}/api/trees/{up.json()['id']}/file", timeout=TIMEOUT)
    assert res.status_code == 200
    assert res.headers["Content-Disposition"] == 'attachment; filename="evil.yaml"'
    assert res.headers["Content-Type"].startswith("text/plain")
    assert res.headers["X-Content-Type-Options"] == "nosniff"
    assert res.content == body
