"""Giving memory back to the system when big runs close.

Measured on the server after a lecture hall's load (bench/server_load.py,
``sys._debugmallocstats`` and ``mallinfo2`` read inside the process): the
objects still alive were no more than at idle, yet the process held
~600 MiB. Two causes, both fixed here:

1. **Garbage cycles nobody collects.** A dropped connection leaves
   exception tracebacks whose frames hold a pull's answer (half a MB of
   JSON each), thread objects, locks: ~20,000 objects in reference cycles.
   The collector's full pass is rare while big trees are alive (it waits
   until the long-lived objects have grown by a quarter), and an idle server
   allocates nothing, so none ran: they stayed for good, with the ~100 MB of
   C heap and the Python arenas they sit in. :func:`release` (called when
   the server has no open runs) collects them first.
2. **Arenas pinned by a few objects.** Python's small-object allocator
   returns a 1 MiB arena to the system only when every object in it is
   gone; objects that outlive a load (those cycles, start-up objects freed
   and remade elsewhere) pin arenas filled during the peak. Collecting the
   cycles frees most; :func:`freeze_startup` moves the start-up objects out
   of the collector's way (``gc.freeze``), so a full collection walks only
   what came after start-up and costs milliseconds when idle.

3. **First-use objects made in the middle of a load.** Flask makes its
   template environment on the first page, Jinja compiles each template on
   first use, and modules are imported when first needed; made during a
   load, these few hundred lasting objects land in arenas the load filled
   and pin them (a census after a full load: 570 objects more than at idle,
   yet 50 MiB more held). :func:`warm_up` serves each kind of page, a trace
   once at start-up, before :func:`freeze_startup`.

Then ``malloc_trim`` returns the C heap's free pages, and :func:`limit_arenas`
keeps glibc to two heaps (one per thread would fragment the same way). The
allocator itself stays (``PYTHONMALLOC=malloc`` gives memory back at page
granularity but made a pull ~1.8x slower in CPU time, measured side by side).
The glibc calls do nothing where the C library is not glibc.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import sys
import threading
import time
import urllib.parse

_M_ARENA_MAX = -8
_lock = threading.Lock()
_last = 0.0


def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 (glibc only)
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


def limit_arenas(count: int = 2) -> None:
    """At most ``count`` malloc heaps for the whole process (call at start)."""
    if _LIBC is not None:
        _LIBC.mallopt(_M_ARENA_MAX, count)


WARM_UP = ("/", "/?lang=id", "/t/aima-fig-5-2", "/practice", "/practice/aima-fig-5-2",
           "/edit", "/edit/aima-fig-5-2", "/play", "/play/tictactoe", "/c", "/healthz",
           "/api/trees", "/api/trees/aima-fig-5-2", "/api/pseudocode", "/i18n/id.json",
           "/api/trees/aima-fig-5-2/trace?algorithm=alphabeta")


def raise_open_files(connections: int) -> int:
    """Raise this process's soft limit of open files towards its hard limit,
    enough for ``connections`` connections and some to spare (a distribution's
    default soft limit, 1,024, is below the process's cap of connections);
    the soft limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + 64
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    return soft


def warm_up(app) -> None:
    """Serve each kind of page and a trace once, read a tree in each format
    and open and close an Engine.IO session, in the process, before the first visitor (point 3 above). Never fatal: a server that cannot warm up
    still serves. (Not Flask-SocketIO's test client: it takes over the
    server's sending for good.)"""
    from app.treefile import load_tree

    try:
        client = app.test_client()
        for path in WARM_UP:
            client.get(path)
        for text in ("A(B(3, 12), C(2, 4))", '{"title": "W", "root": {"id": "A", "children": [{"value": 1}]}}',
                     "title: W\nroot:\n  id: A\n  children: [{value: 1}]\n"):
            load_tree(text)           # each reader of an upload, and the sniffing
        # An Engine.IO session opened and closed: its service thread starts
        # now, not with the first student.
        opened = client.get("/socket.io/?EIO=4&transport=polling")
        sid = json.loads(opened.get_data(as_text=True)[1:]).get("sid")
        if sid:
            client.post(f"/socket.io/?EIO=4&transport=polling&sid={sid}", data="1")
    except Exception:  # noqa: BLE001 (a warm-up is an optimisation only)
        app.logger.warning("warm-up failed", exc_info=True)


def freeze_startup() -> None:
    """Once the app is loaded: collect, then move every object made so far
    into the collector's permanent generation, so later full collections
    (and :func:`release`) never walk the modules, templates and catalogues."""
    gc.collect()
    gc.freeze()


def release(min_interval: float = 1.0, collect: bool = False) -> bool:
    """Return free memory to the system, at most once per ``min_interval``
    seconds; whether it ran. ``collect``: first free garbage cycles with a
    full collection (cheap only when the server is quiet: it walks every
    object made since start-up, a big tree included, holding the GIL)."""
    global _last
    with _lock:
        now = time.monotonic()
        if now - _last < min_interval:
            return False
        _last = now
    if collect:
        # Caches that keep strings made during the load, each pinning the
        # arena it sits in (found with tracemalloc started before a load and
        # read after it): the type attribute cache holds every looked-up
        # name, such as the "on_pull" that python-socketio builds per event,
        # and the URL parser keeps the last 128 Socket.IO addresses.
        sys._clear_type_cache()
        urllib.parse.clear_cache()
        gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)   # ctypes lets go of the GIL meanwhile
    return True
