"""CPU-heavy work kept off the loop, admitted per client, shed when the queue is long.

Under gunicorn's gevent worker every request of the process shares one OS
thread: a second of CPU spent building a big tree or drawing a run's events
would freeze every other visitor (pages, pings, uploads) for that second.
:func:`offload` runs such work in gevent's pool of real threads, where
Python's GIL still switches every few milliseconds, so the loop keeps
answering (``/healthz`` and ``GET /`` within milliseconds meanwhile).

Under ``python run.py`` (a thread per connection) the work runs in the
caller's thread, but at most ``work_threads`` such calls at once: with thirty
streams pulling at the same time, thirty threads took turns on the GIL and a
new visitor's page or Socket.IO handshake waited behind all of them.

Admission (:class:`WorkQueue`, one per app, limits from ``app.budget.Work``):
a Socket.IO connection has at most ``work_per_client`` jobs running or
waiting, a client's address ``work_per_address`` (one more: 429; from a
socket 503 + Retry-After, which the page waits out), its HTTP requests' and
its sockets' jobs counted together: one client opening twenty sockets had 6
jobs on each and filled the queue, and a lecture hall behind one NAT
address still has half the queue. At most
``work_queue`` jobs wait for a thread, and a job that could not start
within ``work_wait_seconds`` (the jobs ahead of it times a moving average of
a job's time, shared by the threads) is refused with 503 and ``Retry-After``
at once, so no request waits a minute for nothing; one that waits that long
after all is refused then. A stream's pulls (:func:`offload_stream`) are not
shed that way: the stream was admitted at its ``start``, and a page refused
half-way through a run it began would show an error instead of the end; they
wait their turn (up to :data:`STREAM_WAIT` seconds, under the page's 20 s
acknowledgement timeout) while new starts are refused. Past their address's
share they wait for that address's own jobs to end, outside the queue, so
one client's many sockets pulling at once hold no other client's place. Offloaded functions must not touch Flask's request or
app context: pass them what they need; they must not offload in turn (the
slots could all be taken by callers waiting for themselves).
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from contextlib import contextmanager
from typing import Iterator

from app.budget import refusal
from app.treefile.errors import N_

POOL_THREADS = 2
"""Threads of work without an app (the default ``work_threads``)."""
STREAM_WAIT = 15.0
"""Seconds a pull of a started stream may wait for a thread (then 503 + Retry-After,
which the page waits out and asks again)."""
_slots = threading.BoundedSemaphore(POOL_THREADS)


def _green() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


class WorkQueue:
    """Admission of heavy work: ``threads`` jobs at once, ``queue`` waiting at
    most ``wait`` seconds each, ``per_client`` per client. Its locks are the
    caller's kind (gevent's when gevent patched ``threading``): only the
    requests' greenlets or threads use it, never the pool's threads.

    >>> work = WorkQueue(threads=1, queue=0, wait=0.01, per_client=1)
    >>> with work.admitted("a"):
    ...     with work.admitted("b"):
    ...         pass
    Traceback (most recent call last):
    app.budget.OverBudget: The server is busy: 1 heavy request is running and 0 waiting. Try again in a few seconds.
    """

    def __init__(self, threads: int = POOL_THREADS, queue: int = 32, wait: float = 5.0,
                 per_client: int = 6, retry_after: int = 5, per_address: int | None = None):
        self.threads, self.queue, self.wait = threads, queue, wait
        self.per_client, self.retry_after = per_client, retry_after
        self.per_address = per_client if per_address is None else per_address
        self.running = self.waiting = 0
        self.refused = 0
        self.job_seconds = 0.05
        """A moving average of a job's time (wall clock, in its thread)."""
        self._clients: Counter = Counter()
        lock = threading.RLock()
        self._cond = threading.Condition(lock)
        self._turn = threading.Condition(lock)   # an address's share has room

    def _busy(self) -> Exception:
        self.refused += 1
        msgid = (N_("The server is busy: {running} heavy request is running and {waiting} "
                    "waiting. Try again in a few seconds.") if self.running == 1 else
                 N_("The server is busy: {running} heavy requests are running and {waiting} "
                    "waiting. Try again in a few seconds."))
        return refusal(msgid, 503, self.retry_after,
                       say={"running": self.running, "waiting": self.waiting})

    def _too_many(self, key) -> Exception:
        self.refused += 1
        return refusal("You have {count} heavy requests running or waiting: wait for "
                       "them to finish, then try again.", 429, 2,
                       say={"count": self._clients[key]})

    def _share_full(self, address: str) -> Exception:
        """A Socket.IO job past its address's share: 503 + Retry-After, which the
        page waits out (stream.js), since a hall's phones behind one NAT address
        share it and the 17th student's run should start a moment later, not fail."""
        self.refused += 1
        return refusal("Your address has {count} heavy requests running or waiting (everyone "
                       "on one network shares its place): try again in a few seconds.", 503,
                       self.retry_after, say={"count": self._clients[address]})

    @contextmanager
    def admitted(self, client: str | None, patient: bool = False,
                 address: str | None = None) -> Iterator[None]:
        """A slot for one job; ``patient``: work of something admitted already (a
        stream's pull), which waits its turn rather than being shed up front;
        ``address``: the client address of a Socket.IO connection's job
        (``client`` ``sid:...``), whose share it counts in too."""
        deadline = time.monotonic() + (max(self.wait, STREAM_WAIT) if patient else self.wait)
        with self._cond:
            most = self.per_client if str(client).startswith("sid:") else self.per_address
            if client is not None and self._clients[client] >= most:
                raise self._too_many(client)
            if address is not None and self._clients[address] >= self.per_address:
                if not patient:
                    raise self._share_full(address)
                self._await_share(address, deadline)
            if not patient and self.running >= self.threads and (
                    self.waiting >= self.queue
                    or (self.waiting + 1) * self.job_seconds / self.threads > self.wait):
                raise self._busy()   # it could not start within ``wait``: say so now
            self._clients[client] += 1
            if address is not None:
                self._clients[address] += 1
            self.waiting += 1
            try:
                while self.running >= self.threads:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise self._busy()
                    self._cond.wait(left)
            except BaseException:
                self._leave(client, address)
                self.waiting -= 1
                raise
            self.waiting -= 1
            self.running += 1
        started = time.monotonic()
        try:
            yield
        finally:
            with self._cond:
                self.job_seconds += 0.1 * (time.monotonic() - started - self.job_seconds)
                self.running -= 1
                self._leave(client, address)
                self._cond.notify()

    def _await_share(self, address: str, deadline: float) -> None:
        """Wait (holding the lock) until ``address`` has room in its share, or 503."""
        while self._clients[address] >= self.per_address:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._busy()
            self._turn.wait(left)

    def _leave(self, client, address=None) -> None:
        for key in (client, address) if address is not None else (client,):
            self._clients[key] -= 1
            if self._clients[key] <= 0:
                del self._clients[key]
            if self._clients[key] == self.per_address - 1:
                self._turn.notify_all()   # pulls waiting for this address's share

    def gauges(self) -> dict:
        return {"running": self.running, "waiting": self.waiting, "refused": self.refused,
                "job_ms": round(self.job_seconds * 1000, 1)}


def _context() -> tuple[WorkQueue | None, str | None, str | None]:
    """The app's queue, the client asking and, for a Socket.IO connection, its
    address, where a request is served."""
    from flask import current_app, has_app_context, has_request_context, request

    if not has_app_context():
        return None, None, None
    work = current_app.extensions.get("work")
    if work is None or not has_request_context():
        return work, None, None
    from .addresses import client_address

    sid = getattr(request, "sid", None)   # a Socket.IO connection
    if sid is not None:
        return work, f"sid:{sid}", client_address()
    return work, client_address(), None


def offload(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``: admitted by the app's :class:`WorkQueue` (per
    client, shed when the queue is long), then in a real thread of gevent's
    pool when gevent runs the server, else here."""
    return _offload(False, fn, args, kwargs)


def offload_stream(fn, *args, **kwargs):
    """:func:`offload` for a started stream's pull: it waits its turn (the run was
    admitted at ``start``), up to :data:`STREAM_WAIT` seconds."""
    return _offload(True, fn, args, kwargs)


def _offload(patient: bool, fn, args, kwargs):
    work, client, address = _context()
    if work is None:
        if not _green():
            with _slots:
                return fn(*args, **kwargs)
        return _in_pool(POOL_THREADS, fn, args, kwargs)
    with work.admitted(client, patient, address):
        if not _green():
            return fn(*args, **kwargs)
        return _in_pool(work.threads, fn, args, kwargs)


def _in_pool(size: int, fn, args, kwargs):
    """``fn`` in gevent's pool; an exception comes back as a value and is
    raised here: gevent's pool prints a traceback for every exception
    raised in it, and a refusal (OverBudget, a 404) is not an error."""
    ok, value = _pool(size).apply(_caught, (fn, args, kwargs))
    if ok:
        return value
    raise value


def _caught(fn, args, kwargs):
    try:
        return True, fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 (raised again in the caller)
        return False, exc


def _pool(size: int):
    from gevent import get_hub

    pool = get_hub().threadpool
    if pool.maxsize < size:
        pool.maxsize = size
    return pool


__all__ = ["offload", "offload_stream", "WorkQueue", "POOL_THREADS", "STREAM_WAIT"]
