"""Real server processes for the lecture-hall tests, measured from outside.

``start_server(kind, budget=..., ...)`` starts ``python run.py`` (``kind``
``"run"``) or gunicorn with its gevent worker (``"gunicorn"``, the
deploy/gunicorn.conf.py settings) on a free 127.0.0.1 port, on a fresh
instance folder whose ``config.py`` carries the test's settings, and
returns a :class:`Served`: its URL, the pid of the process that serves
(gunicorn's worker), and its memory (``rss()``, ``peak()`` from /proc).
Every server is stopped (SIGKILL to its process group) after the test.
"""
from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
MiB = 1 << 20


def _status(pid: int, field: str) -> int:
    """A ``VmRSS``-like field of /proc/<pid>/status, in bytes."""
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1)) * 1024


class Served:
    def __init__(self, proc: subprocess.Popen, url: str, pid: int, instance: Path, kind: str):
        self.proc, self.url, self.pid, self.instance, self.kind = proc, url, pid, instance, kind

    def rss(self) -> int:
        return _status(self.pid, "VmRSS")

    def peak(self) -> int:
        return _status(self.pid, "VmHWM")

    def reset_peak(self) -> None:
        """Start :meth:`peak` again from now (a server shared between tests)."""
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def alive(self) -> bool:
        return self.proc.poll() is None and Path(f"/proc/{self.pid}").exists()

    def get(self, path: str, **kwargs):
        kwargs.setdefault("timeout", 30)
        return requests.get(self.url + path, **kwargs)

    def stop(self, sig=signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        if not self.log_file.closed:
            self.log_file.close()


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _nofile(limit: int | None):
    def set_limit():
        if limit:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return set_limit


_MIGRATED: list[Path] = []
_MIGRATING = threading.Lock()   # a test may start its servers at once (test_memory.py)


def _migrated_results() -> Path:
    """A results database at the newest schema, made once per test process:
    a server started on a new instance then finds the schema at its head
    instead of running every migration on a new file (as tests/conftest.py's
    ``make_app`` does)."""
    with _MIGRATING:   # (Alembic's run is not thread-safe)
        if not _MIGRATED:
            import tempfile

            from app.db import open_database, sqlite_url

            path = Path(tempfile.mkdtemp(prefix="migrated-")) / "results.sqlite3"
            open_database(sqlite_url(str(path))).engine.dispose()
            _MIGRATED.append(path)
    return _MIGRATED[0]


def launch(kind: str, instance: Path, settings: dict | None = None, nofile: int | None = None,
           gunicorn_args: tuple = ()) -> Served:
    instance.mkdir(parents=True, exist_ok=True)
    if not (instance / "results.sqlite3").exists() and "DATABASE_URL" not in (settings or {}):
        shutil.copyfile(_migrated_results(), instance / "results.sqlite3")
    config = "".join(f"{k} = {v!r}\n" for k, v in (settings or {}).items())
    (instance / "config.py").write_text(config, encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if kind == "run":
        cmd = [sys.executable, "run.py", "--port", "0", "--instance", str(instance)]
        env.pop("ADVSEARCH_INSTANCE", None)
    else:
        cmd = [str(Path(sys.executable).with_name("gunicorn")), "-c", "deploy/gunicorn.conf.py",
               "--bind", "127.0.0.1:0", *gunicorn_args]
        env["ADVSEARCH_INSTANCE"] = str(instance)
    log = open(instance / f"{kind}.log", "w+b")
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_nofile(nofile))
    pattern = re.compile(rb"(?:on|Listening at:) http://127\.0\.0\.1:(\d+)")
    deadline = time.monotonic() + 60
    port = None
    while time.monotonic() < deadline and port is None:
        if proc.poll() is not None:
            break
        log.seek(0)
        m = pattern.search(log.read())
        if m:
            port = int(m.group(1))
        else:
            time.sleep(0.1)
    if port is None:
        log.seek(0)
        proc.kill()
        proc.wait()
        text = log.read().decode(errors="replace")[-3000:]
        log.close()
        raise RuntimeError(f"{kind} did not start:\n{text}")
    pid = proc.pid
    if kind == "gunicorn":   # the worker serves; wait for it to answer
        url = f"http://127.0.0.1:{port}"
        while time.monotonic() < deadline:
            try:
                if requests.get(url + "/healthz", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        pid = _children(proc.pid)[0]
    served = Served(proc, f"http://127.0.0.1:{port}", pid, instance, kind)
    served.log_file = log
    return served


@pytest.fixture
def start_server(tmp_path):
    started: list[Served] = []

    def start(kind: str = "run", name: str = "instance", **kwargs) -> Served:
        served = launch(kind, tmp_path / f"{name}-{len(started)}", **kwargs)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()


def raise_own_fd_limit(wanted: int) -> None:
    """Let this test process open ``wanted`` sockets (a client crowd)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
