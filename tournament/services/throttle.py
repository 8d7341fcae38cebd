"""Wrong guesses — passwords at either log-in, codes typed at /t/, seat codes, table links that
do not exist — counted per client, and past a limit refused for a while, so nothing can be
guessed by trying it all, while nobody is refused for what someone else tried.

A client is what sent the guess: its address (`client_address`, the one the log-in has always
used: behind our proxy, the address the proxy saw) and, where a phone has a session, that
phone. A phone's limit is low; an address's (a venue's Wi-Fi is one address for every phone
in the hall) is many phones' worth, a backstop only a script changing phones reaches. What is
never guessed is never counted: a valid table link opens whatever anyone else tried, and a
right code gives its try back.

A try refused is not a try: it takes no place in any count (issue 44: one phone's 290 refused
seat codes filled its address's count and locked every phone in the hall out). Counts are
checked narrowest first (the phone, then the address), so a phone over its own limit never
reaches its address's count, and a phone is only ever stopped by its own guesses or by its
address's backstop — which counts only the tries of phones still allowed to guess.

Counts are atomic and shared by every worker: each try takes its place first (`incr` in the
`guesses` cache, Redis with REDIS_URL: one INCR), then is checked, and a try over a limit
gives back every place it took, so forty tries at once still let exactly the limit through
(a count read and then written lets them all through). The `guesses` cache is an alias of
its own, so the pages and downloads filling the `default` cache never evict a count. If Redis
is unreachable, each process counts in one memory all its threads share until Redis is back
(redis_cache.py; README "Reliability"): a limit then holds per process. Counts live in Redis,
not the database: a worker restart keeps them; a Redis restart keeps what Redis persisted
(README "Guessing").
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

WINDOW = 15 * 60  # seconds a count lasts from its first guess

# (what is guessed, who guesses): tries within WINDOW.
LIMITS: dict[tuple[str, str], int] = {
    # Wrong passwords for one account from one address: a stranger elsewhere cannot lock the
    # organizer out (issue 44); the one address guessing is stopped.
    ("login", "account"): 5,
    ("login", "address"): 20,  # wrong passwords from one address, any accounts
    # One account from every address: a ceiling only many addresses (20 at 5 each) reach.
    ("login", "account_anywhere"): 100,
    ("seat", "phone"): 10,  # wrong seat codes from one phone, any tables
    ("seat", "address"): 300,
    ("code", "phone"): 30,  # wrong table codes typed at /t/ from one phone
    ("code", "address"): 300,
    ("link", "address"): 300,  # /t/<token>/ links that do not exist
    ("checkin", "phone"): 10,  # wrong check-in codes from one phone, any events
    ("checkin", "address"): 300,
}


def _ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The caller's address. Behind our own proxy (BEHIND_PROXY), the one it appended last to
    X-Forwarded-For — the only entry it vouches for; the rest is whatever the client sent.
    Without BEHIND_PROXY the header is ignored. A forwarded entry that is not an address
    falls back to the connection's own, so garbage never switches the address limit off."""
    own = _ip(request.META.get("REMOTE_ADDR", ""))
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1]
        return _ip(forwarded) or own
    return own


class Throttled(Exception):
    """Too many wrong guesses from this client: try again in `seconds`."""

    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = max(1, seconds)

    @property
    def minutes(self) -> int:
        return math.ceil(self.seconds / 60)


def _cache() -> Any:
    return caches["guesses"]


def _key(kind: str, who: str, value: str) -> str:
    """A count's key: what is guessed, by whom — the client's own text (a typed name, an
    address) hashed, so a key is short and plain whatever was sent."""
    digest = hashlib.blake2b(value.encode(), digest_size=12).hexdigest()
    return f"{kind}:{who}:{digest}"


def _counts(kind: str, who: dict[str, str | None]) -> dict[str, tuple[str, int]]:
    """Who → (key, limit) of each count a try of `kind` goes into (a None is not one)."""
    return {w: (_key(kind, w, v), LIMITS[kind, w]) for w, v in who.items() if v}


@dataclass
class Guess:
    """One try, its place taken in each of its counts (`guess_take`), by who: a right guess
    gives the places back (`right`); a wrong one keeps them."""

    keys: dict[str, str]

    def right(self) -> None:
        for key in self.keys.values():
            _give_back(key)

    def forget(self, who: str) -> None:
        """Start `who`'s count again (a right log-in: the account's; the address keeps the
        others it tried)."""
        if who in self.keys:
            _cache().delete(self.keys[who])


def _count(key: str) -> int:
    """The key's count after this try: its window starts at its first try (add, with the time
    it started beside it), and INCR keeps it (an expired key is made again)."""
    cache = _cache()
    if cache.add(key, 1, WINDOW):
        cache.set(f"{key}:since", time.time(), WINDOW)
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, WINDOW)
        return 1


def _give_back(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing to give back
        _cache().decr(key)


def guess_take(kind: str, **who: str | None) -> Guess:
    """Take this try's place in each count of `kind` (`phone=…`, `address=…`, `account=…`,
    narrowest first; a None is not counted). Raises Throttled — the try not made, and no
    place kept in any count — if one was full."""
    counts = _counts(kind, who)
    taken: list[str] = []
    for key, limit in counts.values():
        taken.append(key)
        if _count(key) > limit:
            for place in taken:
                _give_back(place)
            raise Throttled(_wait([key]))
    return Guess({w: key for w, (key, _limit) in counts.items()})


def _wait(keys: list[str]) -> int:
    """Seconds until the last of these full counts ends its window."""
    started = _cache().get_many([f"{key}:since" for key in keys])
    now = time.time()
    ends = [since + WINDOW - now for since in started.values()]
    return math.ceil(max(ends, default=WINDOW))
