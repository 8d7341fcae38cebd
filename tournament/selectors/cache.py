"""The read side's one cache: what readers ask again and again between two writes, made once.
Used only by selectors (views never call it; a template may cache its own rendered fragment with
Django's `{% cache %}` tag, keyed by the same stamp — docs/performance.md, "Issue 45").

Everything is keyed by a stamp — an event's id, creation time and version, which every write
moves on in its own transaction (services/changes.py): a reader whose stamp is newer makes the
value again, so nothing older than the row it read is served, and nothing needs clearing.

One interface, `shared(kind, stamp, parts, make)`: `make()` once per kind, stamp and parts
across every process (Django's cache: each process's memory, or Redis with REDIS_URL), one
maker at a time while the others wait for its value. `shared_part` is the same for a value made
whole and read a part at a time (every player's placing, made where the event is ranked).
What it holds: the rounds in play, the placings, the conditions, whether an event has teams,
a whole-point venue's fractions, the downloads' bytes, a player's own games; and with
`latest`/`keep_latest`, one entry per page replaced as its stamp moves, whole public pages
(each process keeps the latest it read as well, for their stamp: LATEST_HERE). `remember` /
`remembered`: that a reader asked for something lately (a file the queue then makes ahead).

The ranked standings alone stay in each process (`StampedCache`): a Python object of a row per
player that at 10,000 players costs more to unpickle from Redis than to rank again from the
entries (108 / 63 ms on 2026-11-25; `make bench` prints both).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, Generic, TypeVar

from django.core.cache import cache

T = TypeVar("T")


class StampedCache(Generic[T]):
    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._data: OrderedDict[Hashable, tuple[Any, T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, stamp: Any, make: Callable[[], T]) -> T:
        return self.get_or_follow(key, stamp, lambda _held: make())

    def get_or_follow(self, key: Hashable, stamp: Any, make: Callable[[T | None], T]) -> T:
        """`get`, with `make` given the value held for another stamp of the key (or None): the
        new value may be made from the old one (the standings after one result)."""
        hit = self.peek(key, stamp)
        if hit is not None:
            return hit[0]
        with self._lock:
            held = self._data.get(key)
        # Made outside the lock: another thread may make it too, both are right.
        value = make(held[1] if held is not None else None)
        self.put(key, stamp, value)
        return value

    def peek(self, key: Hashable, stamp: Any) -> tuple[T] | None:
        """`(value,)` when held for this stamp, else None (a value may itself be None)."""
        with self._lock:
            hit = self._data.get(key)
            if hit is not None and hit[0] == stamp:
                self._data.move_to_end(key)
                return (hit[1],)
        return None

    def put(self, key: Hashable, stamp: Any, value: T) -> None:
        with self._lock:
            self._data[key] = (stamp, value)
            self._data.move_to_end(key)
            while len(self._data) > self.slots:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


_caches: list[StampedCache[Any]] = []


def stamped_cache(slots: int) -> StampedCache[Any]:
    cache: StampedCache[Any] = StampedCache(slots)
    _caches.append(cache)
    return cache


def clear_all() -> None:
    """Forget everything, shared or not (tests: ids repeat across rolled-back transactions;
    the bench: a reader's first page after a write)."""
    for stamped in _caches:
        stamped.clear()
    cache.clear()


def event_stamp(event: Any) -> str:
    """An event's state as one string: id, creation time (ids repeat after a rollback) and
    version. `event`: an Event, or its (pk, created_at, version) — a game's too."""
    pk, created, number = (
        event if isinstance(event, tuple) else (event.pk, event.created_at, event.version)
    )
    return f"{pk}.{created.timestamp():.6f}.{number}"


def tag_hash(parts: Any) -> str:
    """`parts` (stamps, the language, a query…) as 24 hex digits: what a shared value's key
    and a page's ETag (http_caching.py) are made of. Hashed from their repr: plain
    values (text, numbers, lists of them), whose repr is all they hold."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def shared_key(kind: str, stamp: str, parts: Any) -> str:
    return f"{kind}:{stamp}:{tag_hash(parts)}"


# How long a shared value is kept. A stamp is never asked for again once its event (or game,
# or player's games) has moved on, and with a result a second a 10,000-player event leaves
# ~700 KB of tables, pages and placings behind each second: kept an hour (the cache's
# default) that is 2.5 GB of Redis, kept five minutes 200 MB. A version nobody changes for
# longer is simply made again when next asked (one ranking).
SHARED_SECONDS = 300


def shared(
    kind: str, stamp: str, parts: Any, make: Callable[[], T], timeout: Any = SHARED_SECONDS
) -> T:
    """`make()` once per `stamp` and `parts` across every process sharing the cache. `parts`
    (language, query…) are hashed into the key; values must pickle. `timeout`: seconds to
    keep it (SHARED_SECONDS)."""
    key = shared_key(kind, stamp, parts)
    found = cache.get(key, _MISSING)
    if found is not _MISSING:
        return found
    return _made_once(key, key, make, lambda value: cache.set(key, value, timeout), lambda v: v)


def shared_part(
    kind: str,
    stamp: str,
    part: int,
    make_parts: Callable[[], dict[int, T]],
    timeout: Any = SHARED_SECONDS,
) -> T:
    """Part `part` of a value made whole but read a part at a time: `make_parts()` gives
    every part (0, 1, … each must be there), once per `stamp` across every process; a
    reader fetches and unpickles only its own part. For the players' placings: ranking
    makes all 10,000 at once, a player's page needs one."""

    def key_of(n: int) -> str:
        return f"{kind}:{stamp}:{n}"

    found = cache.get(key_of(part), _MISSING)
    if found is not _MISSING:
        return found

    def store(parts: dict[int, T]) -> None:
        cache.set_many({key_of(n): value for n, value in parts.items()}, timeout)

    return _made_once(f"{kind}:{stamp}", key_of(part), make_parts, store, lambda p: p[part])


def remember(kind: str, parts: Any, seconds: int) -> None:
    """Note, for `seconds`, that `kind` and `parts` happened (a reader asked for something):
    one key, shared by every process, that `remembered` reads."""
    cache.set(shared_key(kind, "noted", parts), True, seconds)


def remembered(kind: str, parts: Any) -> bool:
    """Whether `remember` noted `kind` and `parts` within its seconds."""
    return bool(cache.get(shared_key(kind, "noted", parts)))


# Each process also keeps the latest entries it read or made (up to LATEST_HERE of them, none
# over LATEST_HERE_BYTES): a page asked again for the same stamp — most of its reads between
# two writes — is then no round trip to Redis and no unpickling. The stamp decides, here as
# in Redis: an entry held for another stamp is not answered.
LATEST_HERE = 48
LATEST_HERE_BYTES = 256 * 1024
_latest_here = stamped_cache(LATEST_HERE)


def _keep_here(key: str, stamp: str, value: Any) -> None:
    if value is not None and _size(value) <= LATEST_HERE_BYTES:
        _latest_here.put(key, stamp, value)


def _size(value: Any) -> int:
    """A kept page's (headers, body) by its body; anything else by its repr."""
    body = value[1] if isinstance(value, tuple) and len(value) == 2 else value
    return len(body) if isinstance(body, bytes | str) else len(repr(value))


def latest(kind: str, parts: Any, stamp: str) -> Any:
    """What `keep_latest` holds for `kind` and `parts` if it was made for `stamp`, else None."""
    key = shared_key(kind, "latest", parts)
    here = _latest_here.peek(key, stamp)
    if here is not None:
        return here[0]
    found = _latest_for(stamp, cache.get(key))
    if found is None:
        return None
    _keep_here(key, stamp, found[0])
    return found[0]


def _latest_for(stamp: str, held: Any) -> tuple[Any] | None:
    """`(value,)` when `held`, what a latest entry's key holds, was made for `stamp`."""
    return (held[1],) if isinstance(held, tuple) and held[0] == stamp else None


def keep_latest(kind: str, parts: Any, stamp: str, make: Callable[[], Any]) -> Any:
    """`make()`'s value, made for `stamp`, kept as the one entry of `kind` and `parts`: a newer
    stamp's value replaces it, so the cache holds one per `parts` however often the stamp moves
    — for what is large and asked again between writes by many readers (a whole public page,
    http_caching.py `whole_page`), where one per stamp would leave every version behind for
    SHARED_SECONDS. Made by one reader at a time across processes, as `shared` values are:
    after a write every server's readers of a page miss it together (the 10,000-player
    standings table took 100 ms to make in each process). `make()` may return None — nothing to
    keep (a page only its reader may see): the readers who waited then make their own."""
    key = shared_key(kind, "latest", parts)

    def store(value: Any) -> None:
        if value is not None:
            cache.set(key, (stamp, value), SHARED_SECONDS)

    ready = partial(_latest_for, stamp)
    value = _made_once(f"{key}:{stamp}", key, make, store, lambda value: value, ready)
    _keep_here(key, stamp, value)
    return value


_MISSING = object()
# After a write every server's readers ask for the new version at once. The first marks what
# it makes (Django's `cache.add` sets a key only if absent: atomic in Redis and in local
# memory); the others wait for it instead of making the same thing on the same cores — the
# bench showed each version's placings made three times over without this.
MAKING_SECONDS = 30  # a maker that died leaves its mark no longer than this
WAIT_SECONDS = 5  # then a reader makes it itself


def _found(value: Any) -> tuple[Any] | None:
    return (value,) if value is not _MISSING else None


def _made_once(
    mark: str,
    key: str,
    make: Callable[[], Any],
    store: Callable[[Any], None],
    pick: Callable[[Any], T],
    ready: Callable[[Any], tuple[T] | None] = _found,
) -> T:
    """The value at `key`, made by one reader at a time: whoever sets `mark` calls `make()`,
    `store`s what it made and returns `pick(made)`, the value at `key`; the others wait for
    it to appear — `ready(what the key holds)` says `(value,)` — or for the mark to go: then
    each makes it itself."""

    def made_here() -> T:
        made = make()
        store(made)
        return pick(made)

    making = f"{mark}:making"
    if cache.add(making, 1, MAKING_SECONDS):
        try:
            return made_here()
        finally:
            cache.delete(making)
    deadline = time.monotonic() + WAIT_SECONDS
    pause = 0.002
    while time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
        found = ready(cache.get(key, _MISSING))
        if found is not None:
            return found[0]
        if cache.get(making) is None:
            break  # the maker failed, or what it made is gone already
    return made_here()
