"""Django's Redis cache backend, with one Redis client per server kept for the process, and
each process's own memory standing in while Redis does not answer.

One client: Django's `RedisCacheClient.get_client` builds a new `redis.Redis` for every cache
call; the connection is pooled, but the client's constructor fills a table of ~170 reply
callbacks each time — about 0.2 ms of CPU per `cache.get` on the load machine, two or three
times a page, more than the round trip to Redis itself (docs/performance.md, `make load`). A
`redis.Redis` is safe to share between threads (each command takes a connection from the
pool), so one per pool is kept and everything else is Django's own backend. This reaches
three names Django keeps private — the backend's `_class`, the client's `_get_connection_pool`
and `_client` — so Django is held to its minor version (pyproject.toml), and
tests/tournament/test_redis_cache.py (one client for every call; still Django's cache) must
pass before the pin moves.

Outages: a cache is never a reason to fail a page. When a Redis command fails the process
marks Redis down for RETRY_SECONDS and serves every cache call from its own memory meanwhile
(a Django LocMemCache): pages are made from the database and kept per process, the guess
counts are kept per process. Everything cached is keyed by the version it was made from, so
nothing older than the database is ever served, before, during or after. The outage is
logged once a minute, not per request, its end once, and mailed to ADMINS at its start and
end from a thread (tournament/outages.py).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import RedisError

from tournament.outages import Outage

log = logging.getLogger(__name__)
# One per process, not per client: Django makes a cache (so a client) per alias and thread.
outage = Outage("Redis", log)

RETRY_SECONDS = 2.0  # after a failure, Redis is left alone this long (a page's worth of calls)
LOCAL_ENTRIES = 300  # what a process keeps of its own meanwhile (pages of the events in play)

F = TypeVar("F", bound=Callable[..., Any])


def _or_local(method: F) -> F:
    """The client's `method` on Redis, or on the process's memory while Redis is down."""
    name = method.__name__

    @functools.wraps(method)
    def call(self: RedisCacheClient, *args: Any) -> Any:
        if time.monotonic() < self.down_until:
            return getattr(self.local, name)(*args)
        try:
            answer = method(self, *args)
        except RedisError as exc:
            self.went_down(exc)
            return getattr(self.local, name)(*args)
        if self.down_since is not None:
            self.came_back()
        return answer

    return call  # type: ignore[return-value]


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(
        self, *args: Any, stand_in: str = "", stand_in_entries: int = LOCAL_ENTRIES, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        # Named by its cache, not by this client: Django makes a client per thread, and the
        # guess counts are a limit only if every thread of the process counts in one memory
        # (issue 44: one phone had 80 wrong seat codes checked, the limit 10, thread by thread).
        self.local = LocMemCache(
            f"redis-stand-in-{stand_in or id(self)}", {"OPTIONS": {"MAX_ENTRIES": stand_in_entries}}
        )
        self.down_until = 0.0
        self.down_since: float | None = None
        self._lock = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def went_down(self, exc: Exception) -> None:
        now = time.monotonic()
        with self._lock:
            self.down_until = now + RETRY_SECONDS
            if self.down_since is None:
                self.down_since = now
        outage.failed(exc, "pages made from the database, kept in this process's memory")

    def came_back(self) -> None:
        with self._lock:
            since, self.down_since = self.down_since, None
        if since is not None:
            outage.ended()

    add = _or_local(DjangoRedisCacheClient.add)
    get = _or_local(DjangoRedisCacheClient.get)
    set = _or_local(DjangoRedisCacheClient.set)
    touch = _or_local(DjangoRedisCacheClient.touch)
    delete = _or_local(DjangoRedisCacheClient.delete)
    get_many = _or_local(DjangoRedisCacheClient.get_many)
    has_key = _or_local(DjangoRedisCacheClient.has_key)
    incr = _or_local(DjangoRedisCacheClient.incr)
    set_many = _or_local(DjangoRedisCacheClient.set_many)
    delete_many = _or_local(DjangoRedisCacheClient.delete_many)
    clear = _or_local(DjangoRedisCacheClient.clear)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = functools.partial(
            RedisCacheClient,
            stand_in=f"{self.key_prefix}@{server}",
            # Many for the guess counts: a stand-in full of pages must not cull a lock.
            stand_in_entries=params.get("STAND_IN_ENTRIES", LOCAL_ENTRIES),
        )
