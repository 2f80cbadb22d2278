"""Giving memory back to the system when big runs close.

A run on a big tree makes hundreds of thousands of small objects; when it
closes Python frees them, but glibc keeps the freed pages in its heaps (one
per thread that allocated) and the process stays as large as at its peak.
:func:`release` asks glibc to return free pages
(``malloc_trim``); :func:`limit_arenas` keeps the number of heaps small.
Both do nothing where the C library is not glibc.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time

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


def release(min_interval: float = 1.0) -> bool:
    """Return free heap pages to the system, at most once per ``min_interval``
    seconds; whether it ran. (A run's objects are freed by reference counting
    when it closes; a full garbage collection would hold the GIL for a second
    on a big heap, so none is forced here.)"""
    global _last
    with _lock:
        now = time.monotonic()
        if now - _last < min_interval:
            return False
        _last = now
    if _LIBC is not None:
        _LIBC.malloc_trim(0)   # ctypes lets go of the GIL meanwhile
    return True
