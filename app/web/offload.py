"""CPU-heavy work kept from starving the requests that wait on it.

Under gunicorn's gevent worker every request of the process shares one OS
thread: a second of CPU spent building a big tree or drawing a run's events
would freeze every other visitor (pages, pings, uploads) for that second.
:func:`offload` runs such work in gevent's pool of real threads, where
Python's GIL still switches every few milliseconds, so the loop keeps
answering.

Under ``python run.py`` (a thread per connection) the work runs in the
caller's thread, but at most ``POOL_THREADS`` such calls at once: with thirty
streams pulling at the same time, thirty threads took turns on the GIL and a
new visitor's page or Socket.IO handshake waited behind all of them (connects
failed after 5 s in bench/server_load.py); the others now wait on a
semaphore, which costs no CPU, as gevent's pool queues them. Offloaded
functions must not touch Flask's request or app context: pass them what
they need; they must not offload in turn (the slots could all be taken by
callers waiting for themselves).
"""
from __future__ import annotations

import threading

POOL_THREADS = 2
_slots = threading.BoundedSemaphore(POOL_THREADS)


def _green() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def offload(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``: in a real thread of gevent's pool when gevent
    runs the server, else here once one of ``POOL_THREADS`` slots is free."""
    if not _green():
        with _slots:
            return fn(*args, **kwargs)
    from gevent import get_hub

    pool = get_hub().threadpool
    if pool.maxsize != POOL_THREADS:
        pool.maxsize = POOL_THREADS
    return pool.apply(fn, args, kwargs)
