"""Class state in Redis, for several app processes behind nginx.

The same interface as :class:`app.classes.store.MemoryStore`. Keys, all
under ``class:<code>``: the record as JSON (changed with WATCH/MULTI), the
answers of a question's round q (``:a:<q>``, a hash student -> [label,
right, seconds], HSETNX so the first one counts), its tally (``:t:<q>``:
``n``, ``r`` and ``w:<label>``/``r:<label>`` counters), and the students (``:s``, student -> open connections). Small
Lua scripts make "answer once and count it" and "join unless full" atomic.

Every call has a short socket timeout: a Redis that is gone raises
:class:`~app.classes.store.StoreUnavailable` at once, never a hang.
"""
from __future__ import annotations

import json

import redis

from .store import StoreUnavailable, _tally

_ANSWER = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], 'n', 1)
if ARGV[5] == '1' then redis.call('HINCRBY', KEYS[2], 'r', 1) end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""
_JOIN = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -2 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and
   redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return redis.call('HLEN', KEYS[1])
"""
_LEAVE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 and
   redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return redis.call('HLEN', KEYS[1])
"""


POOL = 64
"""Redis connections of one process at most. A burst (500 answers in a second
under gevent) waits for a free one: redis-py's own pool (100 by default)
refused the 101st at once ("Too many connections"), which lost a third of
the answers of 500 students."""


def pool(url: str, timeout: float = 2.0, **options) -> redis.BlockingConnectionPool:
    """A pool for ``url`` whose callers wait (up to ``timeout`` seconds more
    than a command's own) for a free connection instead of failing."""
    return redis.BlockingConnectionPool.from_url(
        url, max_connections=POOL, timeout=2 * timeout, socket_connect_timeout=timeout,
        socket_timeout=timeout, health_check_interval=30, **options)


def connect(url: str, timeout: float = 2.0) -> redis.Redis:
    """A client for ``url`` that gives up after ``timeout`` seconds (a
    connection's wait for its turn aside)."""
    return redis.Redis(connection_pool=pool(url, timeout, decode_responses=True))


def _guarded(method):
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise StoreUnavailable(f"the class store (Redis) cannot be reached: {exc}") from exc
    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class RedisStore:
    def __init__(self, url: str, prefix: str = "class:"):
        self.url = url
        self.r = connect(url)
        self.prefix = prefix
        self._answer = self.r.register_script(_ANSWER)
        self._join = self.r.register_script(_JOIN)
        self._leave = self.r.register_script(_LEAVE)

    def _k(self, code: str, *parts: str) -> str:
        return ":".join((self.prefix + code, *parts))

    @_guarded
    def ping(self) -> None:
        self.r.ping()

    @_guarded
    def add(self, code, record, ttl):
        return bool(self.r.set(self._k(code), json.dumps(record), nx=True, px=int(ttl * 1000)))

    @_guarded
    def get(self, code):
        text = self.r.get(self._k(code))
        return json.loads(text) if text is not None else None

    @_guarded
    def change(self, code, fn, ttl):
        key = self._k(code)
        out = {}

        def attempt(pipe):
            text = pipe.get(key)
            if text is None:
                out["record"] = None
                return
            record = json.loads(text)
            new = fn(record)
            out["record"] = new if new is not None else json.loads(text)
            if new is not None:
                pipe.multi()
                pipe.set(key, json.dumps(new), px=int(ttl * 1000))

        self.r.transaction(attempt, key)
        return out["record"]

    @_guarded
    def answer(self, code, qid, student, label, right, ttl, seconds=0.0):
        field = ("r:" if right else "w:") + label
        return bool(self._answer(keys=[self._k(code, "a", qid), self._k(code, "t", qid)],
                                 args=[student, json.dumps([label, right, round(seconds, 3)]),
                                       field, int(ttl), "1" if right else "0"]))

    @_guarded
    def answer_of(self, code, qid, student):
        text = self.r.hget(self._k(code, "a", qid), student)
        return tuple(json.loads(text)[:2]) if text else None

    @_guarded
    def tally(self, code, qid):
        counts = self.r.hgetall(self._k(code, "t", qid))
        labels = {k[2:]: [int(v), k[0] == "r"] for k, v in counts.items()
                  if k[:2] in ("r:", "w:")}
        return _tally(int(counts.get("n", 0)), int(counts.get("r", 0)), labels)

    @_guarded
    def times(self, code, qid):
        return [float(json.loads(v)[2]) for v in self.r.hvals(self._k(code, "a", qid))]

    @_guarded
    def join(self, code, student, cap, ttl):
        n = self._join(keys=[self._k(code, "s"), self._k(code)], args=[student, cap, int(ttl)])
        return None if n < 0 else int(n)

    @_guarded
    def leave(self, code, student):
        return int(self._leave(keys=[self._k(code, "s")], args=[student]))

    @_guarded
    def students(self, code):
        return int(self.r.hlen(self._k(code, "s")))

    def codes(self):
        return []  # the sweeper looks at the classes with connections on its own process
