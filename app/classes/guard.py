"""Join-code guessing, rate-limited per client.

Joins arrive over HTTP (``GET /c/<code>``) and over Socket.IO (``join``), so
the counter is Flask-Limiter's own engine, the ``limits`` library, called
directly: one moving window per client address, counting only *failed*
joins (an unknown code), shared by both ways in, and kept in Redis when the
app runs as several processes.

>>> guard = JoinGuard("memory://", "2/minute")
>>> guard.retry_after("10.0.0.1") is None
True
>>> guard.failed("10.0.0.1"); guard.failed("10.0.0.1")
>>> 0 < guard.retry_after("10.0.0.1") <= 60
True
"""
from __future__ import annotations

import math
import time

import limits
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

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
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri, **options))

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
