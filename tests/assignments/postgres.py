"""A throw-away PostgreSQL cluster for the tests: initdb in a temporary
folder, pg_ctl start on a free loopback port, stopped and deleted after.

Debian's ``postgresql`` package (15) puts the server in
/usr/lib/postgresql/15/bin; PostgreSQL refuses to run as root, so under
root the cluster runs as the ``postgres`` user (``runuser``).
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

BIN_GLOB = "/usr/lib/postgresql/*/bin"


def server_bin() -> Path | None:
    for found in sorted(glob.glob(BIN_GLOB), reverse=True):
        if os.access(os.path.join(found, "pg_ctl"), os.X_OK):
            return Path(found)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def cluster():
    """Yield a ``postgresql+psycopg://`` URL of a fresh database on loopback."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL server not installed (Debian package postgresql)")
    root = tempfile.mkdtemp(prefix="pg-test-")
    data = os.path.join(root, "data")
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()

    def run(*args, **kw):
        return subprocess.run([*as_user, *args], check=True, capture_output=True, text=True,
                              timeout=60, **kw)

    run(str(bin_dir / "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--no-sync")
    opts = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
            f"-c max_connections=100")
    run(str(bin_dir / "pg_ctl"), "-D", data, "-o", opts, "-l", os.path.join(root, "log"),
        "-w", "-t", "30", "start")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bin_dir / "pg_ctl"), "-D", data, "-m", "immediate",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)
