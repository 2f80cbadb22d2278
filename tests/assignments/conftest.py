"""Fixtures of the assignment tests: one PostgreSQL cluster per session
(started only when a test asks for it), and ``db_url`` over both stores."""
from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text

from app.db import open_database, sqlite_url

from tests.assignments.postgres import cluster, server_bin


@pytest.fixture(scope="session")
def pg_server():
    if server_bin() is None:
        pytest.fail("PostgreSQL is not installed: scripts/bootstrap.sh test installs it")
    with cluster() as url:
        yield url


@pytest.fixture
def pg_url(pg_server):
    """A fresh database in the session's cluster, dropped after the test."""
    name = "t_" + uuid.uuid4().hex[:12]
    admin = open_database(pg_server, upgrade=False)
    with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = pg_server.rsplit("/", 1)[0] + "/" + name
    yield url
    with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "results.sqlite3")
    return request.getfixturevalue("pg_url")
