"""The Redis cache backend (production, REDIS_URL): django-redis's, one client kept per server,
and each process's memory standing in while Redis does not answer (issue 29: a Redis restart
answered 500 on every page). Each test runs a Redis server of its own (tests/redis_support.py).
"""

from __future__ import annotations

import logging
import random
import threading

import pytest
import redis
from django.core.cache import caches
from django.test import Client, override_settings

from tests.tournament.factories import make_event, scores_game
from tournament import redis_cache
from tournament.models import Game
from tournament.outages import Outage
from tournament.redis_cache import RedisCache
from tournament.selectors.cache import clear_all
from tournament.services import throttle
from tournament.services.rounds import round_seat
from tournament.services.throttle import LIMITS, Throttled, guess_take

OPTIONS = {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25}


def backend_on(url: str) -> RedisCache:
    return RedisCache(url, {"KEY_PREFIX": "test", "OPTIONS": OPTIONS})


def test_it_keeps_one_client_for_every_call(redis_server, monkeypatch):
    # Django's own backend builds a redis.Redis per call (~170 reply callbacks each time: more
    # CPU than the round trip, docs/performance.md); this one builds one for the cache.
    built: list[redis.Redis] = []
    build = redis.Redis.__init__

    def counted(client: redis.Redis, *args: object, **kwargs: object) -> None:
        built.append(client)
        build(client, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    backend = backend_on(redis_server.url)
    for n in range(10):
        backend.set(f"k{n}", n, 30)
        assert backend.get(f"k{n}") == n
        assert backend.incr(f"k{n}") == n + 1
        assert backend.add(f"k{n}", 0, 30) is False
        backend.get_many([f"k{n}", "none"])
    assert len(built) == 1


def test_replies_are_parsed_by_hiredis(redis_server):
    # pyproject.toml asks for redis[hiredis]: redis-py then parses replies in C by itself
    # (a quarter less CPU a kept page's read, docs/performance.md, issue 67).
    from redis.connection import DefaultParser
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE and "Hiredis" in DefaultParser.__name__
    backend = backend_on(redis_server.url)
    backend.set("a", "x" * 40_000, 30)
    assert backend.get("a") == "x" * 40_000


def test_it_is_still_django_s_cache(redis_server):
    backend = backend_on(redis_server.url)
    assert backend.get("a", "none") == "none"
    backend.set("a", {"rows": [1, 2]}, 30)
    assert backend.get("a") == {"rows": [1, 2]}
    assert backend.add("making", 1, 30) and not backend.add("making", 2, 30)
    backend.set_many({"a": 1, "b": 2}, 30)
    assert backend.get_many(["a", "b", "c"]) == {"a": 1, "b": 2}
    backend.delete("a")
    assert backend.get("a") is None


def test_redis_gone_is_this_processs_memory_logged_once_and_back_when_it_is(
    redis_server, caplog, monkeypatch
):
    monkeypatch.setattr(redis_cache, "outage", Outage("Redis", redis_cache.log))  # fresh
    backend = backend_on(redis_server.url)
    backend.set("kept", "in redis", 60)
    redis_server.kill()
    caplog.set_level(logging.WARNING, logger="tournament.redis_cache")
    # Every call answers, from the process's memory; nothing raises.
    assert backend.get("kept") is None
    backend.set("page", "made from the database", 60)
    assert backend.get("page") == "made from the database"
    assert backend.add("making", 1, 30) and not backend.add("making", 1, 30)
    assert backend.get_many(["page", "x"]) == {"page": "made from the database"}
    for _ in range(100):
        backend.get("page")
    downs = [r for r in caplog.records if "Redis is unavailable" in r.getMessage()]
    assert len(downs) == 1  # once a minute, not once a call
    # Redis back (a restart keeps nothing): the next call after the pause goes to it again.
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)
    backend.down_until = 0.0
    redis_server.start()
    backend.set("fresh", "in redis again", 60)
    assert backend_on(redis_server.url).get("fresh") == "in redis again"
    assert any("answers again" in r.getMessage() for r in caplog.records)


def test_the_outage_ends_at_the_first_answer_of_any_thread_s_cache(
    redis_server, caplog, monkeypatch
):
    # Issue 63: Django makes a cache per thread; the end was noticed only when a thread whose
    # own cache had failed used it again (47–51 s late).
    monkeypatch.setattr(redis_cache, "outage", Outage("Redis", redis_cache.log))
    failed, other = backend_on(redis_server.url), backend_on(redis_server.url)
    redis_server.kill()
    caplog.set_level(logging.WARNING, logger="tournament.redis_cache")
    failed.get("x")  # this thread's cache meets the outage
    assert redis_cache.outage.ongoing
    redis_server.start()
    other.get("x")  # another thread's, which never failed, gets an answer
    assert not redis_cache.outage.ongoing
    assert sum("answers again" in r.getMessage() for r in caplog.records) == 1


@pytest.fixture
def redis_caches(redis_server, settings):
    """The site's caches on this test's Redis, as production has them (REDIS_URL)."""
    on = {"BACKEND": "tournament.redis_cache.RedisCache", "LOCATION": redis_server.url}
    with override_settings(
        CACHES={
            "default": {**on, "KEY_PREFIX": "site", "OPTIONS": OPTIONS},
            "guesses": {**on, "KEY_PREFIX": "site:guesses", "OPTIONS": OPTIONS},
        }
    ):
        clear_all()
        yield redis_server
    caches["default"].clear()


@pytest.mark.django_db
def test_every_page_answers_while_redis_is_down(redis_caches):
    event = make_event(slug="down", players=[f"P{i}" for i in range(8)])
    event.table_entry = "tables"
    event.save()
    game = scores_game(event, 1, 1, [f"P{i}" for i in range(4)])
    round_seat(event=event, rng=random.Random(1))
    table = Game.objects.filter(round__number=2).first().links.get()
    player = game.seats.first().player
    pages = [
        "/",
        f"/events/{event.slug}/",
        f"/events/{event.slug}/standings/live/",
        f"/events/{event.slug}/screen/",
        f"/events/{event.slug}/games/{game.pk}/",
        f"/events/{event.slug}/standings.csv",
        f"/players/{player.pk}/",
        f"/t/{table.token}/",
        f"/api/v1/events/{event.slug}/standings",
    ]
    client = Client()
    before = {page: client.get(page) for page in pages}  # cached in Redis
    assert all(r.status_code == 200 for r in before.values()), {
        p: r.status_code for p, r in before.items()
    }
    redis_caches.kill()
    for page in pages:
        assert client.get(page).status_code == 200, page
    # A write meanwhile is seen at once: nothing older is served from anywhere.
    scores_game(event, 1, 2, [f"P{i}" for i in range(4, 8)], scores=[10000, 20000, 30000, 40000])
    assert "P7" in client.get(f"/events/{event.slug}/standings.csv").content.decode()
    # The table's seat codes still work, and still count wrong guesses (per process).
    phone = Client()
    reply = phone.post(f"/t/{table.token}/", {"do": "seat", "code": table.seat_codes[0]})
    assert reply.status_code == 302
    for _ in range(LIMITS["seat", "phone"]):
        phone.post(f"/t/{table.token}/", {"do": "seat", "code": "ZZZZZZ"})
    assert phone.post(f"/t/{table.token}/", {"do": "seat", "code": "ZZZZZZ"}).status_code == 429


@pytest.mark.django_db(transaction=True)  # a thread keeps the lock earned in the database
@pytest.mark.parametrize("where", ["redis", "memory"])
def test_forty_guesses_at_once_let_exactly_the_limit_through(where, request):
    if where == "redis":
        request.getfixturevalue("redis_caches")
    # The earned locks loaded first, as a running site has them: the test database (SQLite
    # in memory, shared by the threads) locks a whole table while the one lock is written.
    throttle._locks_load()
    passed, stopped = [], []
    start = threading.Barrier(40)

    def guess() -> None:
        start.wait()
        try:
            passed.append(guess_take("login", account="victim", address=None))
        except Throttled:
            stopped.append(1)

    threads = [threading.Thread(target=guess) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(passed) == LIMITS["login", "account"] and len(stopped) == 35
