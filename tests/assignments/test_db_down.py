"""The results database down mid-burst (issue 25 finding 5, issue 27 point 4).

Two gunicorn processes (deploy/gunicorn.conf.py: gevent worker, psycopg
under gevent's patching, a pool per process) on one real PostgreSQL; 60
students submit within 8 s and PostgreSQL is stopped for 3 s in the middle
of it. While it is down every request that needs it is answered 503 with
``Retry-After`` and a JSON error (never a 500), and ``/healthz`` says the
results database is down (503); every submission acknowledged is in the
database; once it is back both processes serve again without a restart,
the refused students' retries included. (The same burst at 300 students
in a minute is bench/pg_gevent.py.)
"""
from __future__ import annotations

import pytest
import requests

from tests.assignments import burst
from tests.assignments.postgres import server_bin, started_cluster
from tests.classes.services import Services

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    if server_bin() is None:
        pytest.fail("PostgreSQL is not installed: scripts/bootstrap.sh test installs it")
    with started_cluster() as pg:
        svc = Services(tmp_path_factory.mktemp("pg-hall"))
        try:
            env = {"DATABASE_URL": pg.url}
            bases = [f"http://127.0.0.1:{svc.gunicorn(None, name, env)}"
                     for name in ("app1", "app2")]
            yield pg, bases, svc
        finally:
            svc.close()


def test_postgres_restarted_mid_burst_gives_503s_and_loses_nothing(hall):
    pg, bases, svc = hall
    aid, key, tokens = burst.setup(bases, 60)
    out = burst.run(bases, aid, key, tokens, seconds=8,
                    restart=burst.restart_at(pg, after=3, down=3), retry_cap=2)
    summary = out.summary()
    every = out.all_submits()
    # Never a 500 (nor a dropped connection): graded and stored, or refused 503 to retry.
    assert {a.status for a in every} <= {200, 503}, summary
    refused = [a for a in every if a.status == 503]
    assert refused, f"PostgreSQL was down for 3 s of the burst, yet nothing was refused: {summary}"
    for a in refused:
        assert a.retry_after and int(a.retry_after) > 0
        assert a.body["error"]["retry"] is True and "results database" in a.body["error"]["message"]
    # The dashboard: its JSON, or the same 503.
    assert {a.status for a in out.dashboard} <= {200, 503}, summary
    # /healthz said so while it was down, and is well again after.
    stopped, back = out.down
    said_down = [a for _, a in out.health if stopped < a.at and a.at + a.seconds < back]
    assert any(a.status == 503 and a.body["checks"]["results_db"] == "down" for a in said_down)
    for base in bases:
        now = requests.get(f"{base}/healthz", timeout=10)
        assert now.status_code == 200 and now.json()["checks"]["results_db"] == "ok"
    # Back without a restart: every student's submission went through in the end, on both
    # processes, and every acknowledged one is in the database.
    assert len(out.acknowledged()) == len(tokens), summary
    assert {n % 2 for n, tries in enumerate(out.submits) if len(tries) > 1} == {0, 1}
    kept = burst.stored(pg.url, aid)
    assert all(kept[f"S{n:05d}"] >= 1 for n in out.acknowledged())
    results = requests.get(f"{bases[1]}/api/assignments/{aid}/results", timeout=30,
                           headers={"Authorization": f"Bearer {key}"})
    assert results.status_code == 200 and len(results.json()["students"]) == len(tokens)
    # psycopg waited cooperatively in the gevent workers (app.db warns when it would not).
    for name in ("app1", "app2"):
        assert "blocks the whole worker" not in (svc.folder / f"{name}.log").read_text()
