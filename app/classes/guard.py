"""Join-code guessing, rate-limited per client.

Joins arrive over HTTP (``GET /c/<code>``) and over Socket.IO (``join``), so
the counter is Flask-Limiter's own engine, the ``limits`` library, called
directly: one moving window per client address, counting only *failed*
joins (an unknown code), shared by both ways in, and kept in Redis when the
app runs as several processes.

A client over its limit is still let into a class it has joined already (a
hall behind one address, the campus's NAT, where typos or one hostile
student's wrong codes would lock everyone else out): that tells a guesser
nothing it did not know.

>>> guard = JoinGuard("memory://", "2/minute")
>>> guard.retry_after("10.0.0.1") is None
True
>>> guard.failed("10.0.0.1"); guard.failed("10.0.0.1")
>>> 0 < guard.retry_after("10.0.0.1") <= 60
True
>>> guard.joined("10.0.0.1", "ABCDEF"); guard.admits("10.0.0.1", "ABCDEF")
True
>>> guard.admits("10.0.0.1", "GHJKMN"), guard.admits("10.0.0.2", "ABCDEF")
(False, False)
"""
from __future__ import annotations

import math
import time

import limits
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from .store import StoreUnavailable

try:
    from redis import RedisError
except ImportError:  # pragma: no cover - redis is pinned
    RedisError = OSError
_DOWN = (ConnectionError, TimeoutError, OSError, RedisError)


class JoinGuard:
    def __init__(self, storage_uri: str = "memory://", rate: str = "20/minute"):
        self.item = limits.parse(rate)
        options = {}
        if not storage_uri.startswith("memory:"):   # a Redis that is gone fails fast; a hall
            from .redis_store import pool           # joining at once waits for a connection
            options = {"connection_pool": pool(storage_uri)}
        storage = storage_from_string(storage_uri, **options)
        self.limiter = MovingWindowRateLimiter(storage)
        # Who has joined which class (a count in a window of a class's length, in the
        # same storage: one per process or shared in Redis).
        self.seen = FixedWindowRateLimiter(storage)

    def retry_after(self, client: str) -> int | None:
        """Seconds this client must wait before trying another code, or ``None``."""
        try:
            if self.limiter.test(self.item, "class-join", client):
                return None
            stats = self.limiter.get_window_stats(self.item, "class-join", client)
        except _DOWN as exc:
            raise StoreUnavailable(f"the rate limit store cannot be reached: {exc}") from exc
        return max(1, math.ceil(stats.reset_time - time.time()))

    def failed(self, client: str) -> None:
        try:
            self.limiter.hit(self.item, "class-join", client)
        except _DOWN as exc:
            raise StoreUnavailable(f"the rate limit store cannot be reached: {exc}") from exc

    def joined(self, client: str, code: str) -> None:
        """``client`` is in the class ``code`` (a join, or its page, with the right code)."""
        try:
            self.seen.hit(JOINED, "class-joined", client, code)
        except _DOWN as exc:
            raise StoreUnavailable(f"the rate limit store cannot be reached: {exc}") from exc

    def admits(self, client: str, code: str) -> bool:
        """Has ``client`` joined the class ``code`` in the last hours (served past its limit)?"""
        try:
            return not self.seen.test(JOINED, "class-joined", client, code)
        except _DOWN as exc:
            raise StoreUnavailable(f"the rate limit store cannot be reached: {exc}") from exc


JOINED = limits.parse("1 per 4 hours")
"""A join remembered for a class's length (a test: any join in the window)."""
