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


class JoinGuard:
    def __init__(self, storage_uri: str = "memory://", rate: str = "20/minute"):
        self.item = limits.parse(rate)
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))

    def retry_after(self, client: str) -> int | None:
        """Seconds this client must wait before trying another code, or ``None``."""
        if self.limiter.test(self.item, "class-join", client):
            return None
        stats = self.limiter.get_window_stats(self.item, "class-join", client)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def failed(self, client: str) -> None:
        self.limiter.hit(self.item, "class-join", client)
