"""Wrong guesses — passwords at either log-in, codes typed at /t/, seat codes, table links that
do not exist — counted per client, and past a limit refused for a while, so nothing can be
guessed by trying it all, while nobody is refused for what someone else tried.

A client is what sent the guess: its network (`client_network`: an IPv4 address, an IPv6
/64 — one client may hold every address of it; behind our proxy, the address the proxy saw)
and, where a phone has a session, that phone. The counts name the network "address". A
phone's limit is low; an address's (a venue's Wi-Fi is one address for every phone in the
hall) is many phones' worth, a backstop only a script changing phones reaches. What is
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
(README "Guessing"). A lock earned is kept in the database as well (GuessLock: one write, by
the first try a full count refuses), and a cache that has forgotten everything — Redis
restarted without persistence, or this process's own memory while Redis is away — loads every
unexpired lock back before it counts again, so no restart lifts a lock (issue 44).
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from tournament.models import Event, GuessLock
from tournament.services.changes import change_record

WINDOW = 15 * 60  # seconds a count lasts from its first guess
# Present (never expiring) in a guesses cache that holds every earned lock: missing, the cache
# is new — Redis restarted and forgot, or a process counts in its own memory — and the locks
# in the database are loaded into it before a new count starts.
LOADED = "locks:loaded"
_loading = threading.Lock()

# (what is guessed, who guesses): tries within WINDOW.
LIMITS: dict[tuple[str, str], int] = {
    # Wrong passwords for one account from one network: a stranger elsewhere cannot lock the
    # organizer out (issue 44); the one network guessing is stopped.
    ("login", "account"): 5,
    ("login", "address"): 20,  # wrong passwords from one network, any accounts
    # One account from every network: a ceiling only many networks (20 at 5 each) reach, and
    # which stops only networks that have failed that account (services/accounts.py).
    ("login", "account_anywhere"): 100,
    # Log-in links by e-mail (the way in no lock closes): mails asked from one network, and
    # mails sent to one account (past it the answer is the same, and no mail goes).
    ("reset", "address"): 20,
    ("reset", "account"): 3,
    ("seat", "phone"): 10,  # wrong seat codes from one phone, any tables
    ("seat", "address"): 300,
    ("code", "phone"): 30,  # wrong table codes typed at /t/ from one phone
    ("code", "address"): 300,
    ("link", "address"): 300,  # /t/<token>/ links that do not exist
    ("checkin", "phone"): 10,  # wrong check-in codes from one phone, any events
    ("checkin", "address"): 300,
    # Sign-ups from one address (issue 50): a venue's whole crowd on its one Wi-Fi signs up
    # under this. A sign-up counts only once its address is confirmed (issue 63), so a script
    # fills nothing here; this caps the e-mails it makes us send. A refused one gives its back.
    ("signup", "address"): 300,
    ("signup_link", "address"): 300,  # private sign-up links that do not exist
    # "Notify me" from one address (issue 49): a hall's Wi-Fi is one address for every phone
    # in it — a 256-player day turns notifications on well under this, phones asking again
    # included; a script writing subscriptions is not. One refused (a 400) gives its back;
    # "Stop notifications" is never counted, so nobody is kept from stopping.
    ("push", "address"): 1000,
}


# An IPv6 client holds a whole /64: RFC 4291 §2.5.4 gives every interface identifier 64 bits
# and a home or phone network one /64 (RFC 6177, RFC 7934 §6), and a client there may change
# its address at will (privacy addresses, RFC 8981). Counted per address, 21 addresses of one
# /64 locked the organizer out in two minutes; counted per /64, they are one client.
IPV6_NETWORK = 64


def _network(text: str) -> str | None:
    """The network a client is counted as: its IPv4 address (an IPv4-mapped IPv6 address too),
    or its IPv6 /64 written as a network (`2001:db8:1:2::/64`); None if `text` is no address."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_NETWORK), strict=False))
    return str(address)


def network_named(text: str) -> str | None:
    """The network `text` names as `client_network` writes it (an address, or an IPv6 /64),
    or None: what the dashboard's "Lift it" posts back."""
    base, slash, length = text.strip().partition("/")
    if slash and length != ("64" if ":" in base else "32"):
        return None
    return _network(base)


def client_network(request: HttpRequest) -> str | None:
    """The caller's network, what every per-address limit counts (an IPv4 address, an IPv6
    /64). Behind our own proxy (BEHIND_PROXY), of the address it appended last to
    X-Forwarded-For — the only entry it vouches for; the rest is whatever the client sent.
    Without BEHIND_PROXY the header is ignored. A forwarded entry that is not an address
    falls back to the connection's own, so garbage never switches the network limit off."""
    own = _network(request.META.get("REMOTE_ADDR", ""))
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1]
        return _network(forwarded) or own
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
    it started beside it), and INCR keeps it (an expired key is made again). Each try first
    asks whether the cache holds the earned locks (one cache read, no query) and, if not,
    loads them before it counts: loaded after the count began, a lock the count itself had
    just earned (another thread, the same phone) was read as an old one and this try's place
    taken twice — 9 of 10 right tries let through (CI, 2026-11-25)."""
    cache = _cache()
    if cache.get(LOADED) is None:
        # One thread loads; the others wait for it, so no count begins (and no lock is written)
        # while the locks are read.
        with _loading:
            if cache.get(LOADED) is None:
                _locks_load()  # a lock loaded full: its key's add fails, its INCR is over
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


def guess_take(kind: str, *, unchecked: tuple[str, ...] = (), **who: str | None) -> Guess:
    """Take this try's place in each count of `kind` (`phone=…`, `address=…`, `account=…`,
    narrowest first; a None is not counted). Raises Throttled — the try not made, and no
    place kept in any count — if one was full. A count named in `unchecked` takes the try's
    place but never refuses it."""
    counts = _counts(kind, who)
    taken: list[str] = []
    for w, (key, limit) in counts.items():
        taken.append(key)
        if _count(key) > limit and w not in unchecked:
            for place in taken:
                _give_back(place)
            wait = _wait([key])
            network = w == "address" and kind in NETWORK_KINDS  # the dashboard names it
            _lock_keep(key, wait, address=who["address"] if network else None)
            raise Throttled(wait)
    return Guess({w: key for w, (key, _limit) in counts.items()})


def _counts_forget(keys: list[str]) -> None:
    """These counts gone from the guesses cache: each count, its start and its kept mark."""
    _cache().delete_many([f"{key}{end}" for key in keys for end in ("", ":since", ":locked")])


def guess_forget(kind: str, **who: str) -> None:
    """Start these counts again, locks earned included (a log-in link used by the account's
    owner: services/accounts.py)."""
    keys = [key for key, _limit in _counts(kind, who).values()]
    GuessLock.objects.filter(key__in=keys).delete()
    _counts_forget(keys)


def guess_counted(kind: str, **who: str) -> bool:
    """Whether the one count named (`account=…`) holds a try now (one cache read)."""
    ((w, value),) = who.items()
    return bool(_cache().get(_key(kind, w, value)))


def _wait(keys: list[str]) -> int:
    """Seconds until the last of these full counts ends its window."""
    started = _cache().get_many([f"{key}:since" for key in keys])
    now = time.time()
    ends = [since + WINDOW - now for since in started.values()]
    return math.ceil(max(ends, default=WINDOW))


def _lock_keep(key: str, wait: int, *, address: str | None) -> None:
    """Keep a full count's lock in the database until its window ends: written once, by the
    first try it refuses (`:locked` beside the count says it is kept; a script's later tries
    write nothing), not by the try that filled it — that one may be right and give its
    place back. Expired locks are pruned by the same write."""
    if not _cache().add(f"{key}:locked", 1, wait):
        return
    now = timezone.now()
    with transaction.atomic():
        GuessLock.objects.filter(until__lte=now).delete()
        GuessLock.objects.update_or_create(
            key=key, defaults={"until": now + timedelta(seconds=wait), "address": address}
        )


def _locks_load() -> set[str]:
    """Put every unexpired lock back in the guesses cache, full, until its time (one query),
    and mark the cache as holding them. Returns the keys loaded."""
    cache = _cache()
    now = timezone.now()
    loaded: set[str] = set()
    for key, until in GuessLock.objects.filter(until__gt=now).values_list("key", "until"):
        kind, who, _digest = key.split(":")
        limit = LIMITS.get((kind, who))
        if limit is None:  # a limit since removed
            continue
        left = math.ceil((until - now).total_seconds())
        since = until.timestamp() - WINDOW
        cache.set_many({key: limit, f"{key}:since": since, f"{key}:locked": 1}, left)
        loaded.add(key)
    cache.set(LOADED, 1, None)
    return loaded


# Kinds whose address count is a network's backstop for codes typed in a hall: the organizer
# may lift it. A log-in's address count is not: it stops a password guesser.
NETWORK_KINDS = tuple(k for k, w in LIMITS if w == "address" and k != "login")


def network_release(*, event: Event, user: Any, address: str) -> bool:
    """Lift a network's backstop: its address counts start again, so a phone there may guess
    again; a phone over its own limit stays stopped (its own count is not touched). Logged
    on the event whose organizer lifted it. False if nothing was held."""
    keys = [_key(kind, "address", address) for kind in NETWORK_KINDS]
    with transaction.atomic():
        deleted, _rows = GuessLock.objects.filter(key__in=keys).delete()
        if deleted:
            change_record(
                event=event,
                user=user,
                action="guesses.network_release",
                summary=f"codes from {address} allowed again",
                after={"address": address},
            )
    _counts_forget(keys)
    return bool(deleted)
