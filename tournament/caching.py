"""A small per-process cache for what readers ask again and again between two writes.

Each slot holds one value and the stamp it was made for (an event's creation time and
version, which every write moves on in its own transaction — services/audit.py). A reader
whose stamp differs makes the value again; so nothing older than the row it read is served.
Least recently used slots go first; every gunicorn worker keeps its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class StampedCache(Generic[T]):
    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._data: OrderedDict[Hashable, tuple[Any, T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, stamp: Any, make: Callable[[], T]) -> T:
        hit = self.peek(key, stamp)
        if hit is not None:
            return hit[0]
        value = make()  # outside the lock: another thread may make it too, both are right
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
    """Forget everything (tests: ids repeat across rolled-back transactions)."""
    for cache in _caches:
        cache.clear()


def event_stamp(event: Any) -> tuple[Any, int]:
    return (event.created_at, event.version)  # created_at: ids repeat after a rollback
