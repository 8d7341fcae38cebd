"""Wrong guesses at table links (a typed code at /t/, a seat's code to confirm) are counted,
and past a limit refused for a while, so codes cannot be guessed by trying them all.

Counted in Django's cache: the process's own memory by default, a shared cache (CACHES) when
the app runs on several servers. A count is per what is guessed at (one link's seat codes)
or per address (codes typed at /t/): a venue's players share one address, so its limit is
generous; guessing a 6-character code needs hundreds of millions of tries."""

from __future__ import annotations

from django.core.cache import cache

WINDOW = 15 * 60  # seconds
LIMITS = {"code": 30, "seat": 10}  # per address typing codes at /t/; per link's seat codes


def _key(kind: str, who: str) -> str:
    return f"throttle:{kind}:{who}"


def throttled(kind: str, who: str) -> bool:
    """Whether `who` has used up its wrong tries of this kind for now."""
    return (cache.get(_key(kind, who)) or 0) >= LIMITS[kind]


def count_failure(kind: str, who: str) -> None:
    key = _key(kind, who)
    if not cache.add(key, 1, WINDOW):
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.add(key, 1, WINDOW)
