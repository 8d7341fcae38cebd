"""Django's Redis cache backend, with one Redis client per server kept for the process.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` for every cache call; the
connection is pooled, but the client's constructor fills a table of ~170 reply callbacks each
time — about 0.2 ms of CPU per `cache.get` on the load machine, two or three times a page, more
than the round trip to Redis itself (docs/performance.md, `make load`). A `redis.Redis` is
safe to share between threads (each command takes a connection from the pool), so one per
pool is kept and everything else is Django's own backend.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
