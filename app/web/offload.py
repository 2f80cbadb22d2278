"""CPU-heavy work off gevent's loop.

Under gunicorn's gevent worker every request of the process shares one OS
thread: a second of CPU spent building a big tree or drawing a run's events
would freeze every other visitor (pages, pings, uploads) for that second.
:func:`offload` runs such work in gevent's pool of real threads, where
Python's GIL still switches every few milliseconds, so the loop keeps
answering. Under ``python run.py`` (a thread per request already) it simply
calls the function. Offloaded functions must not touch Flask's request or
app context: pass them what they need.
"""
from __future__ import annotations

POOL_THREADS = 2


def _green() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def offload(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, in a real thread when gevent runs the server."""
    if not _green():
        return fn(*args, **kwargs)
    from gevent import get_hub

    pool = get_hub().threadpool
    if pool.maxsize != POOL_THREADS:
        pool.maxsize = POOL_THREADS
    return pool.apply(fn, args, kwargs)
