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
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def wait_for(check, timeout=10.0, what="condition"):
    """Poll ``check`` every 50 ms until it holds; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


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

    def redis(self, aof: bool = False, port: int | None = None) -> str:
        """Redis on a free port (or ``port``); with ``aof`` as deploy/README.md
        runs it, with its append-only file (in this folder), so a restart keeps
        the classes."""
        port = port or free_port()
        self._start("redis", [REDIS, "--port", str(port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "yes" if aof else "no",
                              "--appendfsync", "always" if aof else "everysec",
                              "--dir", str(self.folder)], port)
        return f"redis://127.0.0.1:{port}/0"

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        """Stop the service started as ``name`` (its whole process group) and forget it."""
        for i, (what, proc) in enumerate(self.procs):
            if what == name and proc.poll() is None:
                os.killpg(proc.pid, sig)
                proc.wait(timeout=15)
                del self.procs[i]
                return
        raise LookupError(name)

    def app(self, message_queue: str | None, name: str = "app", port: int | None = None) -> int:
        port = port or free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "ADVSEARCH_CLASS_CLIENT_HEADER": "X-Real-IP"}
        env.pop("MESSAGE_QUEUE", None)
        args = [sys.executable, "run.py", "--port", str(port),
                "--instance", str(self.folder / f"{name}-instance")]
        if message_queue:
            args += ["--message-queue", message_queue]
        self._start(name, args, port, env)
        return port

    def gunicorn(self, message_queue: str | None, name: str = "gunicorn",
                 env: dict | None = None) -> int:
        """One production process: gunicorn with deploy/gunicorn.conf.py (one
        gevent worker), on a free port; ready once the worker answers /healthz.
        ``env``: more environment (``DATABASE_URL``, say)."""
        port, more = free_port(), env
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "BIND": f"127.0.0.1:{port}",
               "ADVSEARCH_INSTANCE": str(self.folder / f"{name}-instance"),
               "ADVSEARCH_CLASS_CLIENT_HEADER": "X-Real-IP"}
        env.pop("MESSAGE_QUEUE", None)
        if message_queue:
            env["MESSAGE_QUEUE"] = message_queue
        env.update(more or {})
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


class Phone:
    """A class client as the page is one: joins (``present`` for an
    instructor), keeps the id it was given, and when its connection drops,
    connects again (from the same address, so through nginx as the phone
    would) every ``retry`` seconds and joins again with that id. python-
    socketio over a WebSocket; ``states`` are the ``state`` messages it got,
    ``lost``/``back`` the times (monotonic) it lost and regained the class."""

    def __init__(self, port: int, source: str, code: str, token: str | None = None,
                 retry: float = 0.5):
        self.port, self.source, self.code, self.token, self.retry = port, source, code, token, retry
        self.student = None
        self.states: list[dict] = []
        self.tallies: list[dict] = []
        self.lost: list[float] = []
        self.back: list[float] = []
        self.refused: list[dict] = []      # acks of joins refused while reconnecting
        self.hello: dict | None = None     # the last join's (or present's) acknowledgement
        self._closing = False
        self._lock = threading.Lock()
        self._connect()

    def _connect(self) -> None:
        import socketio

        sock = bound_socket(self.source, self.port)
        sio = socketio.Client(reconnection=False, websocket_extra_options={"socket": sock})
        sio.on("state", self.states.append, namespace="/class")
        sio.on("tally", self.tallies.append, namespace="/class")
        sio.on("disconnect", lambda *a: self._dropped(sio), namespace="/class")
        try:
            sio.connect(f"http://127.0.0.1:{self.port}", transports=["websocket"],
                        namespaces=["/class"], wait_timeout=5)
        except Exception:
            sock.close()
            raise
        if self.token:
            payload, name = {"code": self.code, "token": self.token, "live": True}, "present"
        else:
            payload, name = {"code": self.code}, "join"
            if self.student:
                payload["student"] = self.student
        ack = sio.call(name, payload, namespace="/class", timeout=5)
        if not ack["ok"]:
            self.refused.append(ack)
            sio.disconnect()
            if ack["error"]["status"] in (404, 410):   # the class is gone: the page stops too
                self._closing = True
            raise ConnectionError(ack["error"]["message"])
        self.hello = ack
        self.student = ack.get("student", self.student)
        self.sio = sio

    def _dropped(self, sio) -> None:
        if self._closing or sio is not getattr(self, "sio", None):
            return
        self.lost.append(time.monotonic())
        threading.Thread(target=self._again, daemon=True).start()

    def _again(self) -> None:
        while not self._closing:
            time.sleep(self.retry)
            try:
                with self._lock:
                    self._connect()
                self.back.append(time.monotonic())
                return
            except Exception:   # nginx has no process for us yet, the class refused: again
                continue

    def call(self, name: str, payload: dict, timeout: float = 10) -> dict:
        return self.sio.call(name, {"code": self.code, **payload}, namespace="/class",
                             timeout=timeout)

    def drive(self, name: str, **payload) -> dict:
        ack = self.call(name, {"token": self.token, **payload})
        assert ack["ok"], (name, ack)
        return ack

    def close(self) -> None:
        self._closing = True
        try:
            self.sio.disconnect()
        except Exception:
            pass


def bound_socket(source: str, port: int, timeout: float = 10.0) -> socket.socket:
    """A TCP connection to 127.0.0.1:port from ``source`` (any 127.x.y.z):
    nginx's ip_hash then sees different clients on one machine."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        raise
    s.settimeout(None)
    return s
