"""The Redis cache backend (production, REDIS_URL): Django's own, one client kept per server.

Needs a Redis server on 127.0.0.1:6379 (the development machine and CI have one); skipped
where there is none."""

from __future__ import annotations

import uuid

import pytest

from tournament.redis_cache import RedisCache

redis = pytest.importorskip("redis")


@pytest.fixture
def backend():
    cache = RedisCache("redis://127.0.0.1:6379/9", {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    try:
        cache.get("ping")
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis server on 127.0.0.1:6379")
    yield cache
    cache.delete_many(["a", "b", "making"])


def test_it_keeps_one_client_for_every_call(backend):
    client = backend._cache.get_client("a")
    assert backend._cache.get_client("b") is client
    assert backend._cache.get_client("a", write=True) is client  # one server: one pool


def test_it_is_still_django_s_cache(backend):
    assert backend.get("a", "none") == "none"
    backend.set("a", {"rows": [1, 2]}, 30)
    assert backend.get("a") == {"rows": [1, 2]}
    assert backend.add("making", 1, 30) and not backend.add("making", 2, 30)
    backend.set_many({"a": 1, "b": 2}, 30)
    assert backend.get_many(["a", "b", "c"]) == {"a": 1, "b": 2}
    backend.delete("a")
    assert backend.get("a") is None
