"""The Redis cache backend (REDIS_URL): django-redis's, with each process's own memory standing
in while Redis does not answer. Public APIs only: the cache methods Django documents, each
tried on Redis through django-redis and, on a Redis error, answered from a Django LocMemCache.

Why django-redis and not Django's own backend: Django's `RedisCacheClient.get_client` builds a
new `redis.Redis` for every cache call, whose constructor fills a table of ~170 reply callbacks
— more CPU than the round trip itself, two or three times a page (0.13 ms of CPU a `cache.get`
against 0.05 ms: docs/performance.md, issue 45). django-redis keeps one `redis.Redis` per
server for the cache (Django makes a cache per alias and thread) and its connection pool per
server for the process, counts with one atomic INCR (services/throttle.py), and documents its
OPTIONS (SOCKET_TIMEOUT, …).

Outages: a cache is never a reason to fail a page. When a Redis command fails the cache marks
Redis down for RETRY_SECONDS and serves every cache call from its process's memory meanwhile:
pages are made from the database and kept per process, the guess counts are kept per process.
django-redis's own IGNORE_EXCEPTIONS answers a miss instead, which would forget every count —
a limit would not hold at all. Everything cached is keyed by the version it was made from, so
nothing older than the database is ever served, before, during or after. The outage is
logged once a minute, not per request, its end once, and mailed to ADMINS at its start and
end from a thread (tournament/outages.py).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache as DjangoRedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

from tournament.outages import Outage

log = logging.getLogger(__name__)
# One per process, not per cache: Django makes a cache per alias and thread.
outage = Outage("Redis", log)

RETRY_SECONDS = 2.0  # after a failure, Redis is left alone this long (a page's worth of calls)
LOCAL_ENTRIES = 300  # what a process keeps of its own meanwhile (pages of the events in play)
# What Redis not answering raises through django-redis (its ConnectionInterrupted wraps them).
REDIS_DOWN = (RedisError, ConnectionInterrupted, socket.timeout)


def _or_stand_in(name: str) -> Any:
    """The cache method `name` on Redis, or on the process's memory while Redis is down."""
    on_redis = getattr(DjangoRedisCache, name)

    def call(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self.down_until:
            return getattr(self.stand_in, name)(*args, **kwargs)
        try:
            answer = on_redis(self, *args, **kwargs)
        except REDIS_DOWN as exc:
            self.went_down(exc)
            return getattr(self.stand_in, name)(*args, **kwargs)
        # Any cache object's answer ends the process's outage, not only one that had failed
        # (Django makes one per thread: the end waited 47–51 s for a thread that had, issue 63).
        if self.down_since is not None or outage.ongoing:
            self.came_back()
        return answer

    call.__name__ = call.__qualname__ = name
    call.__doc__ = on_redis.__doc__
    return call


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # Named by its cache (LocMemCache shares one memory per name), not by this object:
        # Django makes a cache per thread, and the guess counts are a limit only if every
        # thread of the process counts in one memory (issue 44: one phone had 80 wrong seat
        # codes checked, the limit 10, thread by thread). Many entries for the guesses: a
        # stand-in full of pages must not cull a lock.
        self.stand_in = LocMemCache(
            f"redis-stand-in-{self.key_prefix}@{server}",
            # The alias's own timeout, prefix and version: the same calls mean the same there.
            {**params, "OPTIONS": {"MAX_ENTRIES": params.get("STAND_IN_ENTRIES", LOCAL_ENTRIES)}},
        )
        self.down_until = 0.0
        self.down_since: float | None = None
        self.switching = threading.Lock()

    def went_down(self, exc: Exception) -> None:
        now = time.monotonic()
        with self.switching:
            self.down_until = now + RETRY_SECONDS
            if self.down_since is None:
                self.down_since = now
        outage.failed(exc, "pages made from the database, kept in this process's memory")

    def came_back(self) -> None:
        with self.switching:
            self.down_since = None
        outage.ended()  # once for the process, whichever thread's cache answered first

    # Every method of Django's cache API the site calls, directly or through BaseCache's own
    # (get_or_set, …), each on Redis or the stand-in.
    get = _or_stand_in("get")
    set = _or_stand_in("set")
    add = _or_stand_in("add")
    incr = _or_stand_in("incr")
    decr = _or_stand_in("decr")
    delete = _or_stand_in("delete")
    get_many = _or_stand_in("get_many")
    set_many = _or_stand_in("set_many")
    delete_many = _or_stand_in("delete_many")
    touch = _or_stand_in("touch")
    has_key = _or_stand_in("has_key")
    clear = _or_stand_in("clear")
