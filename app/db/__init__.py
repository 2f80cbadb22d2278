"""The one database layer of results that last: SQLAlchemy Core, migrated by Alembic.

The embedded default is one SQLite file under ``instance/`` in WAL mode
(readers never wait for the writer); a department running several processes
or machines sets one URL (``DATABASE_URL=postgresql+psycopg://user@host/db``)
and the same code runs on PostgreSQL. The schema is brought up to date at
start-up (:func:`open_database` runs the migrations to ``head``).

Every write is one transaction (:meth:`Database.write`): a submission is
either committed whole or not at all, so a crash mid-submission loses
nothing acknowledged and leaves nothing half-written. On SQLite a write
transaction starts ``BEGIN IMMEDIATE`` (it takes the write lock at once, so
two writers queue instead of failing on a lock upgrade) and commits with
``synchronous=FULL``.

>>> import tempfile, os
>>> db = open_database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "r.sqlite3"))
>>> db.dialect, db.journal_mode()
('sqlite', 'wal')
>>> {'alembic_version', 'assignments', 'students'} <= set(db.table_names())
True
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import NullPool

from app.db.wal import use_wal

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
MIGRATION_LOCK = 2_202_022
"""PostgreSQL advisory lock held while the schema is migrated."""
BUSY_MS = 10_000
"""How long a SQLite writer waits for the lock before giving up (ms)."""
CONNECT_SECONDS = 5
"""How long opening a PostgreSQL connection may take (a host that does not answer)."""
POOL_WAIT = 10
"""How long a request waits for a pooled connection before it is refused (503)."""
PING_SECONDS = 1
"""How long the health probe's own connection and query may take."""


class Database:
    """An engine and the two ways in: :meth:`read` and :meth:`write`."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.dialect = engine.dialect.name
        self._probe: Engine | None = None

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction: committed when the block ends, rolled back on an error."""
        conn = self.engine.connect()
        if self.dialect == "sqlite":
            conn = conn.execution_options(sqlite_begin="BEGIN IMMEDIATE")
        try:
            with conn.begin():
                yield conn
        finally:
            conn.close()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (one consistent snapshot)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def ping(self) -> bool:
        """Whether the database answers ``SELECT 1``, within about :data:`PING_SECONDS`
        (PostgreSQL: on a connection of its own, not one from the busy pool)."""
        if self.dialect != "postgresql":
            with self.engine.connect() as conn:
                return conn.exec_driver_sql("SELECT 1").scalar() == 1
        if self._probe is None:
            self._probe = create_engine(
                self.engine.url, poolclass=NullPool,
                connect_args={"connect_timeout": PING_SECONDS,
                              "options": f"-c statement_timeout={PING_SECONDS * 1000}"})
        with self._probe.connect() as conn:
            return conn.exec_driver_sql("SELECT 1").scalar() == 1

    def journal_mode(self) -> str | None:
        if self.dialect != "sqlite":
            return None
        with self.engine.connect() as conn:
            return conn.exec_driver_sql("PRAGMA journal_mode").scalar()

    def table_names(self) -> list[str]:
        return inspect(self.engine).get_table_names()

    def dispose(self) -> None:
        self.engine.dispose()
        if self._probe is not None:
            self._probe.dispose()


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite connections set to WAL, a busy timeout and
    explicit transactions (pysqlite's own are off: SQLAlchemy's recipe)."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if not url.startswith("sqlite"):
        # Each connection is checked as it leaves the pool (a restarted server's dead
        # ones are replaced); one that cannot be opened, or a pool busy for too long,
        # is an error at once (app.web.results_db answers it 503), never a hang.
        engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20,
                               pool_timeout=POOL_WAIT,
                               connect_args={"connect_timeout": CONNECT_SECONDS})
        _say_how_psycopg_waits()     # the dialect has imported psycopg by now
        return engine
    engine = create_engine(url, connect_args={"timeout": BUSY_MS / 1000,
                                              "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None      # SQLAlchemy emits BEGIN itself (below)
        use_wal(dbapi_conn)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        conn.exec_driver_sql(conn.get_execution_options().get("sqlite_begin", "BEGIN"))

    return engine


def _say_how_psycopg_waits() -> None:
    """Warn when gevent has patched ``select`` but psycopg waits with ``wait_c``:
    that one blocks every greenlet of the process while a query runs. psycopg
    picks its wait function at import, so it must be imported after the patching
    (gunicorn's gevent worker patches before it loads the app: ``wait_poll``)."""
    import sys

    waiting = sys.modules.get("psycopg.waiting")
    monkey = sys.modules.get("gevent.monkey")
    if waiting and monkey and monkey.is_module_patched("select") \
            and waiting.wait.__name__ == "wait_c":
        log.warning("psycopg was imported before gevent patched select: every query "
                    "blocks the whole worker")


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with Alembic (idempotent)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    # Several processes may start at once on one database: the first to take the lock
    # migrates, the others wait and then find the schema at its head.
    conn = engine.connect()
    if engine.dialect.name == "sqlite":
        conn = conn.execution_options(sqlite_begin="BEGIN IMMEDIATE")
    with conn, conn.begin():
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def open_database(url: str, upgrade: bool = True) -> Database:
    """The database at ``url``, migrated to the newest schema."""
    engine = make_engine(url)
    if upgrade:
        migrate(engine)
    return Database(engine)


__all__ = ["Database", "open_database", "make_engine", "migrate", "sqlite_url"]
