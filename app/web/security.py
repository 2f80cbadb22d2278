"""Headers every answer carries, and the host names the server answers to.

- **Trusted hosts.** A page on ``evil.example`` whose name is made to point
  at this server (DNS rebinding) sends ``Host: evil.example``; its ``Origin``
  then matches, so the same-origin checks alone would let it in. The server
  answers only the names in ``TRUSTED_HOSTS`` (Flask's own setting): by
  default ``localhost`` and ``127.0.0.1``, plus the ``--host`` given, and when
  listening on every address (``0.0.0.0``), the machine's own addresses and
  name. The check sits in front of the whole WSGI app, so Socket.IO's
  handshake is refused as surely as HTTP.
- **Headers.** A Content-Security-Policy that allows only the server's own
  scripts (no inline script, no ``eval``), ``nosniff``, ``frame-ancestors``
  (``FRAME_ANCESTORS``, default ``'self'``; a course's LMS may be added) and a
  Referrer-Policy that keeps addresses (they carry tree ids) on this site.
"""
from __future__ import annotations

import fcntl
import json
import socket
import struct

from werkzeug.sansio.utils import host_is_trusted

from .assets import page_script_source

LOCAL_HOSTS = ("localhost", "127.0.0.1")
ANY_ADDRESS = ("0.0.0.0", "", "::")


def trusted_hosts(listen_host: str | None = None, extra=()) -> list[str]:
    """The names a server listening on ``listen_host`` answers to.

    >>> trusted_hosts("127.0.0.1")
    ['localhost', '127.0.0.1']
    >>> trusted_hosts("hall.example.edu", ["lms.example.edu"])
    ['localhost', '127.0.0.1', 'hall.example.edu', 'lms.example.edu']
    >>> "127.0.0.1" in trusted_hosts("0.0.0.0") and len(trusted_hosts("0.0.0.0")) > 2
    True
    """
    hosts = list(LOCAL_HOSTS)
    if listen_host in ANY_ADDRESS:
        hosts += machine_addresses()
    elif listen_host:
        hosts.append(listen_host)
    hosts += list(extra)
    return list(dict.fromkeys(h.lower() for h in hosts if h))


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses (every interface) and its host names,
    read locally: nothing is sent on the network."""
    names = [socket.gethostname()]
    fqdn = socket.getfqdn()
    if fqdn and fqdn not in names:
        names.append(fqdn)
    names += [f"{n}.local" for n in names if "." not in n]   # mDNS, as phones find laptops
    return _interface_addresses() + names


def _interface_addresses() -> list[str]:
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
            except OSError:  # no IPv4 address on it
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


class TrustedHostMiddleware:
    """Refuse (400, JSON) any request whose ``Host`` is not trusted, before
    the app, Flask-SocketIO included, sees it."""

    def __init__(self, wsgi_app, hosts: list[str]):
        self.wsgi_app = wsgi_app
        self.hosts = hosts

    def __call__(self, environ, start_response):
        # An empty or missing Host is refused too: it names no site, and the
        # server's own name (SERVER_NAME) must not stand in for it.
        host = (environ.get("HTTP_HOST") or "").strip().lower()
        if "HTTP_HOST" in environ:
            environ["HTTP_HOST"] = host   # names are case-blind; Flask's own check is not
        if not host or not host_is_trusted(host, self.hosts):
            body = json.dumps({"error": {"message": (
                "This server does not answer to that host name. If it should, add the name "
                "to TRUSTED_HOSTS (or start it with --host NAME).")}}).encode()
            start_response("400 Bad Request", [("Content-Type", "application/json"),
                                               ("Content-Length", str(len(body))),
                                               ("Connection", "close")])
            return [body]
        return self.wsgi_app(environ, start_response)


def content_security_policy(frame_ancestors: str = "'self'") -> str:
    return "; ".join((
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        f"frame-ancestors {frame_ancestors}",
    ))


def with_sources(policy: str, directive: str, sources) -> str:
    """``policy`` with ``sources`` added to its ``directive`` (and ``'none'``
    taken out of it); a policy without that directive is returned as it was.

    >>> with_sources("default-src 'self'; frame-ancestors 'none'", "frame-ancestors",
    ...              ["https://lms.example"])
    "default-src 'self'; frame-ancestors https://lms.example"
    >>> with_sources("script-src 'self'; style-src 'self'", "script-src", ["'sha256-x'", "'self'"])
    "script-src 'self' 'sha256-x'; style-src 'self'"
    >>> with_sources("default-src 'self'", "script-src", ["'sha256-x'"])
    "default-src 'self'"
    """
    out = []
    for part in policy.split("; "):
        words = part.split(" ")
        if words[0] == directive:
            part = " ".join([w for w in words if w != "'none'"]
                            + [s for s in dict.fromkeys(sources) if s not in words])
        out.append(part)
    return "; ".join(out)


def install_headers(app) -> None:
    """Add the security headers to every answer (an answer that set its own
    policy, like an exported SVG, keeps it)."""
    policy = content_security_policy(app.config["FRAME_ANCESTORS"])
    same_only = app.config["FRAME_ANCESTORS"].strip() in ("'self'", "'none'")

    @app.after_request
    def _headers(response):
        h = response.headers
        h.setdefault("Content-Security-Policy", policy)
        if response.mimetype == "text/html":
            # A page's import map (app.web.assets) is an inline script: allowed
            # by its hash, in whichever policy the page was given.
            source = page_script_source(app)
            if source:
                h["Content-Security-Policy"] = with_sources(
                    h["Content-Security-Policy"], "script-src", [source])
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if same_only:  # for browsers that know no frame-ancestors
            h.setdefault("X-Frame-Options",
                         "DENY" if "'none'" in app.config["FRAME_ANCESTORS"] else "SAMEORIGIN")
        return response


__all__ = ["trusted_hosts", "machine_addresses", "TrustedHostMiddleware",
           "content_security_policy", "with_sources", "install_headers"]
