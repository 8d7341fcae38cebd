"""The standings and the tables followed without polling (issue 67): server-sent events,
served under ASGI (tournament/asgi.py, uvicorn beside gunicorn: `make serve`). A phone that
polls costs a request through Django every 5 s; a phone that follows holds one open answer, a
coroutine here, and is sent the page when it changes.

The stream is a small ASGI application of its own (`stream_app`), not a Django view: Django's
ASGI handler gives every request a thread for its middleware for as long as it lasts, and a
thousand open streams were a thousand threads (uvicorn ran out of them under 512 MB). Here a
phone costs a coroutine; what a request needs of Django is asked of it directly — the host
checked against ALLOWED_HOSTS, the language as LocaleMiddleware chooses it, the event by its
address — and gunicorn's answer at the same address (views/public/stream.py) is 204.

One `Follower` per page and language in each process asks the page's tag every LOOK_SECONDS —
one query a second for all the phones following that page, as one poll would cost — and when it
moves takes the page as readers not signed in get it (http_caching.page_kept_for_readers: made
once, or already made by the queue after the result, and kept for everyone) and hands it to
every phone's stream. A phone is sent at most one page every GAP_SECONDS (the pace the page
promises: it follows within 5 s), always the newest: a phone that fell behind is sent what the
page is now, never what it was. Nothing here is a second cache: the page's bytes are the kept
page's, and a phone that reconnects (its browser sends the tag it holds as Last-Event-ID) is
sent nothing it has. The poll stays: a browser without EventSource, an address served by
gunicorn (the stream answers 204 there), a dropped stream — live.js polls meanwhile.

A table's page is its phone's own (its seat, its forms), so its stream (`TableWatch`,
`follow_table`) sends no page: one watch per process asks the stamp of every followed table at
once (selectors/tables.tables_moved, the values the page's tag holds) and tells a table's
phones `moved` when it changes; live.js then asks its page as its poll would.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import suppress
from functools import partial
from typing import Any
from urllib.parse import unquote

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import Http404
from django.urls import reverse
from django.utils.translation import get_language_from_request

from tournament.http_caching import page_kept_for_readers
from tournament.models import Event, TableLink
from tournament.selectors.events import event_by_slug
from tournament.selectors.tables import table_link_by_token, tables_moved
from tournament.services.throttle import Throttled, client_network, guess_take

log = logging.getLogger(__name__)

# A phone's browser waits this long before it connects again after a dropped stream (the
# `retry` field), and a stream says something at least this often, so that no proxy closes it
# as idle (nginx's proxy_read_timeout is 60 s).
RETRY_MS = 5000
KEEPALIVE_SECONDS = 20


def _sse(page: bytes, tag: str, name: str = "") -> bytes:
    """`page` as one server-sent event (of type `name`, else a plain message): its tag as the
    id, each line a data line (EventSource joins them with newlines; a carriage return would
    end a line too, so none is sent)."""
    data = b"".join(b"data: " + line + b"\n" for line in page.replace(b"\r", b"").split(b"\n"))
    kind = f"event: {name}\n".encode() if name else b""
    return kind + b"id: " + tag.encode() + b"\n" + data + b"\n"


class Looks:
    """Something a stream looks at every STREAM_LOOK_SECONDS, through an outage: a look that
    fails leaves the phones with what they have, and is logged once, as is its recovery."""

    what = "stream"
    _failing = False

    def attempt(self, look: Callable[[], Any]) -> Any:
        """`look()` in a thread's sync code, or None while the database is away."""
        # A database that went away meanwhile: its dead connection is dropped, not reused.
        close_old_connections()
        try:
            found = look()
        except Http404:
            raise
        except Exception:
            if not self._failing:
                log.warning("%s: the look failed", self.what, exc_info=True)
            self._failing = True
            return None
        if self._failing:
            log.warning("%s: looking again", self.what)
        self._failing = False
        return found


class Follower(Looks):
    """One page in one language, followed for every phone of this process that streams it."""

    def __init__(self, path: str, language: str) -> None:
        self.path, self.language = path, language
        self.what = f"stream of {path}"
        self.tag = ""  # the newest page's tag and its event
        self.event = b""
        self.gone = False  # the page is no more (the event deleted): streams end
        self.phones = 0
        self._moved = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def join(self) -> None:
        self.phones += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._look())

    def leave(self) -> None:
        self.phones -= 1

    async def moved(self, tag: str) -> None:
        """Returns once the page's tag is not `tag`."""
        while self.tag == tag and not self.gone:
            waiting = self._moved
            await waiting.wait()

    async def _look(self) -> None:
        while self.phones > 0:
            found = await sync_to_async(self._page)()
            if found is not None and found[0] != self.tag:
                self.tag, self.event = found[0], _sse(found[1], found[0])
                self._wake()
            if self.gone:
                self._wake()
                break
            await asyncio.sleep(settings.STREAM_LOOK_SECONDS)
        _followers.pop((self.path, self.language), None)
        await sync_to_async(connections.close_all)()  # nobody follows: its connection goes too

    def _wake(self) -> None:
        self._moved.set()
        self._moved = asyncio.Event()

    def _page(self) -> tuple[str, bytes] | None:
        try:
            return self.attempt(lambda: page_kept_for_readers(self.path, self.language))
        except Http404:
            self.gone = True
            return None


_followers: dict[tuple[str, str], Follower] = {}


async def follow(path: str, language: str, holding: str) -> AsyncIterator[bytes]:
    """A phone's stream of the page at `path` in `language`: the page each time it changes
    (never the one it is `holding`, by tag), at most one every STREAM_GAP_SECONDS; a comment
    line when there is nothing to say for a while."""
    follower = _followers.get((path, language))
    if follower is None:
        follower = _followers[(path, language)] = Follower(path, language)
    follower.join()
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        sent_at = -float(settings.STREAM_GAP_SECONDS)
        while not follower.gone:
            newest = follower.tag  # "" until the follower's first look has found the page
            if newest and newest != holding:
                pause = sent_at + settings.STREAM_GAP_SECONDS - time.monotonic()
                if pause > 0:
                    await asyncio.sleep(pause)
                holding, sent_at = follower.tag, time.monotonic()  # the newest after the pause
                yield follower.event
                continue
            try:
                await asyncio.wait_for(follower.moved(newest), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": still here\n\n"
    finally:
        follower.leave()


class TableWatch(Looks):
    """Every table a phone of this process follows, looked at together: one query every
    STREAM_LOOK_SECONDS for all of them (selectors/tables.tables_moved), whatever their number.
    A table's phone is not sent its page — that is its own, with its seat and its forms — but
    told that the table moved (`moved`, its stamp as the id); it then asks its page as its poll
    would, and is answered 304 when nothing it shows moved for it."""

    what = "tables' stream"

    def __init__(self) -> None:
        self.stamps: dict[int, str] = {}  # by link id; "" once the link is no more
        self.phones: Counter[int] = Counter()
        self._moved: dict[int, asyncio.Event] = {}
        self.begun = self.done = 0  # looks begun; the number of the last one finished
        self._looked = asyncio.Event()  # set after each look, then replaced
        self._task: asyncio.Task[None] | None = None

    def join(self, link: int) -> None:
        self.phones[link] += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._look())

    def leave(self, link: int) -> None:
        self.phones[link] -= 1
        if self.phones[link] <= 0:
            del self.phones[link]
            self.stamps.pop(link, None)
            self._moved.pop(link, None)

    async def moved(self, link: int, stamp: str | None) -> None:
        """Returns once the table's stamp is not `stamp`."""
        while self.stamps.get(link) == stamp:
            await self._moved.setdefault(link, asyncio.Event()).wait()

    async def looked_after(self, begun: int) -> None:
        """Returns once a look begun after the first `begun` has finished."""
        while self.done <= begun:
            await self._looked.wait()

    async def _look(self) -> None:
        global _tables
        while self.phones:
            self.begun += 1
            number = self.begun
            found = await sync_to_async(self.attempt)(partial(tables_moved, list(self.phones)))
            for link in list(self.phones) if found is not None else ():
                stamp = found.get(link, "")
                if self.stamps.get(link) != stamp:
                    self.stamps[link] = stamp
                    waiting = self._moved.pop(link, None)
                    if waiting is not None:
                        waiting.set()
            self.done = number
            self._looked.set()
            self._looked = asyncio.Event()
            await asyncio.sleep(settings.STREAM_LOOK_SECONDS)
        if _tables is self:
            _tables = None
        await sync_to_async(connections.close_all)()


_tables: TableWatch | None = None


async def follow_table(link: int, holding: str) -> AsyncIterator[bytes]:
    """A table phone's stream: `moved` each time the table's stamp is not the one it holds
    (as soon as it is seen: a hand should reach the table's other phones at once); a comment
    line when there is nothing to say for a while; the end once the link is no more."""
    global _tables
    if _tables is None:
        _tables = TableWatch()
    watch = _tables
    watch.join(link)
    begun = watch.begun
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        # The stamp the watch holds may be older than the phone's page (a hand saved since the
        # last look, the page loaded after it): only a look begun after the phone came counts.
        await watch.looked_after(begun)
        while True:
            stamp = watch.stamps.get(link)
            if stamp == "":
                return
            if stamp is not None and stamp != holding:
                holding = stamp
                yield _sse(stamp.encode(), stamp, "moved")
                continue
            try:
                await asyncio.wait_for(watch.moved(link, stamp), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": still here\n\n"
    finally:
        watch.leave(link)


# The addresses gunicorn answers 204 at (urls.py `standings-stream`, `table-stream`), served
# here instead.
STREAM_PATH = re.compile(r"/events/(?P<slug>[^/]+)/standings/stream/")
TABLE_STREAM_PATH = re.compile(r"/t/(?P<token>[^/]+)/stream/")

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def is_stream(scope: dict[str, Any]) -> bool:
    """Whether an ASGI request is for a stream (tournament/asgi.py sends it here)."""
    return scope["type"] == "http" and any(
        path.fullmatch(scope["path"]) for path in (STREAM_PATH, TABLE_STREAM_PATH)
    )


def _event(slug: str) -> Event | None:
    close_old_connections()  # a connection kept from before an outage is not reused
    return event_by_slug(slug)


def _table(token: str, network: str | None) -> TableLink | int:
    """The open table a token links, else the status the table's page would have: 404 for a
    link that does not exist (a guess, counted as the page counts it: 429 once there were too
    many), 410 for one replaced or a game over."""
    close_old_connections()
    link = table_link_by_token(token)
    if link is None:
        try:
            guess_take("link", address=network)
        except Throttled:
            return 429
        return 404
    if link.revoked_at is not None or link.game.finished:
        return 410
    return link


async def _standings(request: ASGIRequest, slug: str) -> AsyncIterator[bytes] | int:
    event = await sync_to_async(_event)(slug)
    if event is None:
        return 404
    page = reverse("event-detail", args=[event.slug])
    # A browser connecting again says which page it holds: it is not sent that one again.
    holding = request.headers.get("Last-Event-ID", "")[:100]
    return follow(page, get_language_from_request(request), holding)


async def _table_moves(request: ASGIRequest, token: str) -> AsyncIterator[bytes] | int:
    link = await sync_to_async(_table)(token, client_network(request))
    if isinstance(link, int):
        return link
    # The stamp of what the phone holds: the one it was last told, else its page's.
    holding = request.headers.get("Last-Event-ID") or request.GET.get("since", "")
    return follow_table(link.pk, holding[:100])


async def stream_app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    """An event's standings page, or a table's moves, as server-sent events, for as long as
    the phone listens."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # ALLOWED_HOSTS, as every Django answer checks it
    except DisallowedHost:
        await _answer(send, 400)
        return
    if request.method != "GET":
        await _answer(send, 405)
        return
    path = unquote(scope["path"])
    standings = STREAM_PATH.fullmatch(path)
    if standings:
        stream = await _standings(request, standings.group("slug"))
    else:
        table = TABLE_STREAM_PATH.fullmatch(path)
        stream = await _table_moves(request, table.group("token"))  # type: ignore[union-attr]
    if isinstance(stream, int):
        await _answer(send, stream)
        return
    headers = [
        (b"content-type", b"text/event-stream"),
        (b"cache-control", b"no-cache"),
        (b"x-accel-buffering", b"no"),  # nginx: each event as it is written
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})

    async def pump() -> None:
        async for chunk in stream:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    pumping, listening = asyncio.create_task(pump()), asyncio.create_task(gone())
    await asyncio.wait({pumping, listening}, return_when=asyncio.FIRST_COMPLETED)
    for task in (pumping, listening):
        task.cancel()
        with suppress(asyncio.CancelledError, OSError):
            await task
    await stream.aclose()  # the follower counts one phone fewer
    if not listening.cancelled() and listening.done():
        return  # the phone went
    with suppress(OSError):
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _answer(send: Send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})
