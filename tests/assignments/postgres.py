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


class Cluster:
    """A started cluster: ``url``, and :meth:`stop` / :meth:`start` to take it
    down and bring it back on the same port and data (a restart mid-test)."""

    def __init__(self, bin_dir: Path, root: str, as_user: list[str], port: int):
        self.bin_dir, self.root, self.as_user, self.port = bin_dir, root, as_user, port
        self.data = os.path.join(root, "data")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"

    def _ctl(self, *args: str, check: bool = True):
        return subprocess.run([*self.as_user, str(self.bin_dir / "pg_ctl"), "-D", self.data,
                               *args], check=check, capture_output=True, text=True, timeout=60)

    def start(self) -> None:
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                f"-c max_connections=100")
        self._ctl("-o", opts, "-l", os.path.join(self.root, "log"), "-w", "-t", "30", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: clients are disconnected, open transactions rolled back (a restart);
        ``immediate``: as a crash."""
        self._ctl("-m", mode, "-w", "stop", check=False)


@contextmanager
def started_cluster():
    """Yield a :class:`Cluster` of a fresh database on loopback, deleted after."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL server not installed (Debian package postgresql)")
    root = tempfile.mkdtemp(prefix="pg-test-")
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    found = Cluster(bin_dir, root, as_user, _free_port())
    subprocess.run([*as_user, str(bin_dir / "initdb"), "-D", found.data, "-U", "postgres",
                    "--auth=trust", "-E", "UTF8", "--no-sync"],
                   check=True, capture_output=True, text=True, timeout=60)
    found.start()
    try:
        yield found
    finally:
        found.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def cluster():
    """Yield a ``postgresql+psycopg://`` URL of a fresh database on loopback."""
    with started_cluster() as found:
        yield found.url
