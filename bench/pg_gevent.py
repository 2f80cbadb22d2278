"""Homework on PostgreSQL under gunicorn's gevent worker (issue 27 point 4).

Two gunicorn processes as deployed (deploy/gunicorn.conf.py: one gevent
worker each, psycopg under gevent's patching, a pool of connections per
process) on one PostgreSQL 15 (a throw-away cluster on loopback, as the
tests start it). 300 students, registered beforehand, each submit one
exercise at a moment spread evenly over a minute (round robin over the two
processes, each from an address of their own); an instructor reads the
dashboard's JSON twice a second. Two runs: a quiet one, then one with
PostgreSQL stopped (``pg_ctl -m fast``) ``--after`` s into the burst and
started again ``--down`` s later; a refused student waits the
``Retry-After`` and submits again, as the page does. The machinery is
tests/assignments/burst.py (the test tests/assignments/test_db_down.py
runs it at 60 students in 8 s).

    .venv/bin/python bench/pg_gevent.py [--students 300] [--seconds 60] [--after 25] [--down 5]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.assignments import burst  # noqa: E402
from tests.assignments.postgres import started_cluster  # noqa: E402
from tests.classes.services import Services  # noqa: E402


def one(bases, pg, students, seconds, restart) -> dict:
    aid, key, tokens = burst.setup(bases, students)
    out = burst.run(bases, aid, key, tokens, seconds, restart=restart)
    summary = out.summary()
    kept = burst.stored(pg.url, aid)
    summary["stored_of_acknowledged"] = sum(1 for n in out.acknowledged()
                                            if kept.get(f"S{n:05d}", 0) >= 1)
    summary["health_503"] = sum(1 for _, a in out.health if a.status == 503)
    summary["load"] = open("/proc/loadavg").read().split()[:3]
    return summary


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--after", type=float, default=25.0)
    ap.add_argument("--down", type=float, default=5.0)
    args = ap.parse_args()
    with started_cluster() as pg:
        svc = Services(Path(tempfile.mkdtemp(prefix="bench-pg-gevent-")))
        try:
            env = {"DATABASE_URL": pg.url}
            bases = [f"http://127.0.0.1:{svc.gunicorn(None, n, env)}" for n in ("app1", "app2")]
            quiet = one(bases, pg, args.students, args.seconds, None)
            restarted = one(bases, pg, args.students, args.seconds,
                            burst.restart_at(pg, args.after, args.down))
        finally:
            svc.close()
    print(f"{args.students} students within {args.seconds:.0f} s, two gunicorn gevent processes, "
          f"PostgreSQL 15; load {os.getloadavg()}")
    for name, s in (("quiet", quiet), ("PostgreSQL restarted", restarted)):
        print(name, s)


if __name__ == "__main__":
    main()
