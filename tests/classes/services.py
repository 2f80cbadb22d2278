"""Real parts for the scale-out test and benchmark: Debian's redis-server and
nginx, and app processes (gunicorn with ``deploy/gunicorn.conf.py``, the
production way, or ``python run.py``), each on a free loopback port,
started here and stopped by :meth:`Services.close`.

nginx runs as this user with everything (pid, logs, temporary files) in a
folder of its own, from the repository's ``deploy/nginx.conf`` with the
listen port and the upstream servers replaced, plus an access log that
records which app process served each request (``$upstream_addr``).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not open port {port} within {timeout} s")


def nginx_config(upstreams: list[int], port: int, folder: Path) -> str:
    """deploy/nginx.conf for these ports, inside a main config of our own."""
    site = (REPO / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
    site, n = re.subn(r"(?:    server 127\.0\.0\.1:\d+;\n)+", servers, site)
    assert n == 1, "deploy/nginx.conf: the upstream's server lines were not found"
    site, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert n == 1, "deploy/nginx.conf: 'listen 80;' was not found"
    temp = "".join(f"{name}_temp_path {folder / name};\n"
                   for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} warn;
events {{ worker_connections 4096; }}
http {{
log_format upstream '$remote_addr $upstream_addr "$request"';
access_log {folder / 'access.log'} upstream;
{temp}
{site}
}}
"""


class Services:
    """Start what a test needs; ``close()`` stops all of it (in reverse order)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.procs: list[tuple[str, subprocess.Popen]] = []

    def _start(self, what: str, args: list[str], port: int, env=None) -> subprocess.Popen:
        log = open(self.folder / f"{what}.log", "wb")
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=REPO, start_new_session=True)
        log.close()
        self.procs.append((what, proc))
        wait_port(port, proc, what)
        return proc

    def redis(self) -> str:
        port = free_port()
        self._start("redis", [REDIS, "--port", str(port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
                    port)
        return f"redis://127.0.0.1:{port}/0"

    def app(self, message_queue: str | None, name: str = "app") -> int:
        port = free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "ADVSEARCH_CLASS_CLIENT_HEADER": "X-Real-IP"}
        env.pop("MESSAGE_QUEUE", None)
        args = [sys.executable, "run.py", "--port", str(port),
                "--instance", str(self.folder / f"{name}-instance")]
        if message_queue:
            args += ["--message-queue", message_queue]
        self._start(name, args, port, env)
        return port

    def gunicorn(self, message_queue: str | None, name: str = "gunicorn") -> int:
        """One production process: gunicorn with deploy/gunicorn.conf.py (one
        gevent worker), on a free port; ready once the worker answers /healthz."""
        port = free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "BIND": f"127.0.0.1:{port}",
               "ADVSEARCH_INSTANCE": str(self.folder / f"{name}-instance"),
               "ADVSEARCH_CLASS_CLIENT_HEADER": "X-Real-IP"}
        env.pop("MESSAGE_QUEUE", None)
        if message_queue:
            env["MESSAGE_QUEUE"] = message_queue
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        proc = self._start(name, [gunicorn, "-c", "deploy/gunicorn.conf.py"], port, env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with status {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    s.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if b" 200 " in s.recv(64):
                        return port
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{name}'s worker did not answer within 60 s")

    def nginx(self, upstreams: list[int], name: str = "nginx") -> int:
        port = free_port()
        nginx_dir = self.folder / name
        nginx_dir.mkdir(exist_ok=True)
        conf = nginx_dir / "nginx.conf"
        conf.write_text(nginx_config(upstreams, port, nginx_dir))
        self._start(name, [NGINX, "-p", str(nginx_dir), "-c", str(conf)], port)
        return port

    def pids(self, *names: str) -> list[int]:
        """Process ids of the services started under these names (their workers
        are their children)."""
        return [p.pid for name, p in self.procs if name in names]

    def access_log(self, name: str = "nginx") -> str:
        path = self.folder / name / "access.log"
        return path.read_text() if path.exists() else ""

    def close(self) -> None:
        for what, proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)
        self.procs.clear()


def bound_socket(source: str, port: int, timeout: float = 10.0) -> socket.socket:
    """A TCP connection to 127.0.0.1:port from ``source`` (any 127.x.y.z):
    nginx's ip_hash then sees different clients on one machine."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.settimeout(None)
    return s
