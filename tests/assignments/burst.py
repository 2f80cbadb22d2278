"""A hall's homework burst against real servers, with PostgreSQL restarted
mid-way: shared by tests/assignments/test_db_down.py and bench/pg_gevent.py.

Each student has registered beforehand; at a moment spread evenly over
``seconds`` they submit one exercise to one of the app processes (round
robin, from an address of their own, ``X-Real-IP``), and when refused with
503 they wait its ``Retry-After`` and submit again, as the page does. An
instructor reads the dashboard's JSON once a second meanwhile, and
``/healthz`` of every process is polled, so what each said while the
database was down is on record.
"""
from __future__ import annotations

import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import requests
from sqlalchemy import create_engine, text

ANSWER = {"answers": {"pruned": []}}
EXERCISE = {"tree": "random", "mode": "cuts", "branching": 3, "depth": 3}


@dataclass
class Answer:
    """One HTTP answer: when (monotonic), how long, its status and body."""
    at: float
    seconds: float
    status: int
    body: dict
    retry_after: str | None = None


@dataclass
class Burst:
    submits: list[list[Answer]] = field(default_factory=list)   # per student, in order
    dashboard: list[Answer] = field(default_factory=list)
    health: list[tuple[str, Answer]] = field(default_factory=list)   # (base, answer)
    down: tuple[float, float] | None = None     # when PostgreSQL was stopped and back

    def all_submits(self) -> list[Answer]:
        return [a for tries in self.submits for a in tries]

    def acknowledged(self) -> list[int]:
        """Students whose submission was answered 200 (graded and stored)."""
        return [n for n, tries in enumerate(self.submits) if tries and tries[-1].status == 200]

    def p95(self, answers: list[Answer]) -> float:
        times = sorted(a.seconds for a in answers)
        return times[max(0, int(0.95 * len(times)) - 1)] if times else 0.0

    def summary(self) -> dict:
        every = self.all_submits()
        first = [tries[0] for tries in self.submits if tries]
        refused = [a for a in every if a.status == 503]
        statuses: dict[int, int] = {}
        for a in every:
            statuses[a.status] = statuses.get(a.status, 0) + 1
        out = {"students": len(self.submits), "acknowledged": len(self.acknowledged()),
               "requests": len(every), "statuses": statuses,
               "p50_ms": statistics.median(a.seconds for a in first) * 1000 if first else 0,
               "p95_ms": self.p95(first) * 1000,
               "p95_ok_ms": self.p95([a for a in every if a.status == 200]) * 1000,
               "max_ms": max((a.seconds for a in every), default=0) * 1000,
               "refused_503": len(refused),
               "students_refused": sum(1 for t in self.submits if any(a.status == 503 for a in t)),
               "dashboard_statuses": sorted({a.status for a in self.dashboard}),
               "dashboard_p95_ms": self.p95([a for a in self.dashboard if a.status == 200]) * 1000}
        if self.down:
            stopped, back = self.down
            out["db_down_s"] = back - stopped
            ok_after = [a.at + a.seconds for a in every if a.status == 200 and a.at >= back]
            out["first_ok_after_back_s"] = (min(ok_after) - back) if ok_after else None
            late = [tries for tries in self.submits
                    if any(a.status == 503 for a in tries) and tries[-1].status == 200]
            out["refused_students_done_after_s"] = (
                statistics.median(t[-1].at + t[-1].seconds - t[0].at for t in late) if late else None)
        return out


def answer(r: requests.Response, t0: float, seconds: float) -> Answer:
    try:
        body = r.json()
    except ValueError:
        body = {"raw": r.text[:200]}
    return Answer(t0, seconds, r.status_code, body, r.headers.get("Retry-After"))


def timed(session: requests.Session, method: str, url: str, **kw) -> Answer:
    t0 = time.monotonic()
    try:
        r = session.request(method, url, timeout=30, **kw)
    except requests.RequestException as exc:
        return Answer(t0, time.monotonic() - t0, 0, {"exception": exc.__class__.__name__})
    return answer(r, t0, time.monotonic() - t0)


def address(n: int) -> str:
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255 or 1}"


def setup(bases: list[str], students: int) -> tuple[str, str, list[str]]:
    """An assignment (one random cuts exercise, attempts unlimited) and ``students``
    registered; its id, instructor key and each student's token."""
    s = requests.Session()
    made = s.post(f"{bases[0]}/api/assignments", timeout=30, json={
        "title": "Burst", "exercises": [EXERCISE], "attempts": None}).json()
    aid = made["id"]

    def register(n: int) -> str:
        r = requests.post(f"{bases[n % len(bases)]}/api/assignments/{aid}/students", timeout=30,
                          json={"student": f"S{n:05d}"}, headers={"X-Real-IP": address(n)})
        r.raise_for_status()
        return r.json()["token"]

    with ThreadPoolExecutor(16) as pool:
        tokens = list(pool.map(register, range(students)))
    return aid, made["instructor"], tokens


def run(bases: list[str], aid: str, key: str, tokens: list[str], seconds: float,
        restart=None, retry_cap: float | None = None, threads: int = 96) -> Burst:
    """The burst; ``restart(burst)`` (if given) runs in its own thread from the
    start and records ``burst.down``. ``retry_cap`` shortens the wait a
    ``Retry-After`` asks for (a test's patience), never lengthens it."""
    out = Burst(submits=[[] for _ in tokens])
    start = time.monotonic() + 0.5
    done = threading.Event()
    local = threading.local()

    def session() -> requests.Session:
        if not hasattr(local, "s"):
            local.s = requests.Session()
        return local.s

    def student(n: int) -> None:
        time.sleep(max(0.0, start + n * seconds / len(tokens) - time.monotonic()))
        base = bases[n % len(bases)]
        headers = {"X-Student-Token": tokens[n], "X-Real-IP": address(n)}
        for _ in range(20):
            a = timed(session(), "POST", f"{base}/api/assignments/{aid}/me/exercises/0",
                      json=ANSWER, headers=headers)
            out.submits[n].append(a)
            if a.status != 503:
                return
            wait = float(a.retry_after or 1)
            time.sleep(min(wait, retry_cap) if retry_cap else wait)

    def watch() -> None:
        s = requests.Session()
        while not done.is_set():
            out.dashboard.append(timed(s, "GET", f"{bases[0]}/api/assignments/{aid}/results",
                                       headers={"Authorization": f"Bearer {key}"}))
            for base in bases:
                out.health.append((base, timed(s, "GET", f"{base}/healthz")))
            done.wait(0.5)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    restarter = None
    if restart is not None:
        restarter = threading.Thread(target=restart, args=(out, start), daemon=True)
        restarter.start()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(student, range(len(tokens))))
    if restarter is not None:
        restarter.join()
    done.set()
    watcher.join()
    return out


def restart_at(cluster, after: float, down: float):
    """A ``restart`` for :func:`run`: PostgreSQL stopped ``after`` s into the
    burst (``fast``: clients cut off, open transactions rolled back), started
    again ``down`` s later."""
    def restart(out: Burst, start: float) -> None:
        time.sleep(max(0.0, start + after - time.monotonic()))
        stopped = time.monotonic()
        cluster.stop("fast")
        time.sleep(max(0.0, stopped + down - time.monotonic()))
        cluster.start()
        out.down = (stopped, time.monotonic())
    return restart


def stored(url: str, aid: str) -> dict[str, int]:
    """Submissions in the database per student name (read straight, not through the app)."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(text(
                "SELECT st.name, count(su.id) FROM students st LEFT JOIN submissions su "
                "ON su.student_id = st.id WHERE st.assignment_id = :a GROUP BY st.name"),
                {"a": aid}).all()
    finally:
        engine.dispose()
    return {name: n for name, n in rows}
