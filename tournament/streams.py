"""The standings followed without polling (issue 67): server-sent events, served under ASGI
(tournament/asgi.py, uvicorn beside gunicorn: `make serve`). A phone that polls costs a request
through Django every 5 s; a phone that follows holds one open answer, a coroutine here, and is
sent the page when it changes.

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
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import suppress
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
from tournament.models import Event
from tournament.selectors.events import event_by_slug

log = logging.getLogger(__name__)

# A phone's browser waits this long before it connects again after a dropped stream (the
# `retry` field), and a stream says something at least this often, so that no proxy closes it
# as idle (nginx's proxy_read_timeout is 60 s).
RETRY_MS = 5000
KEEPALIVE_SECONDS = 20


def _sse(page: bytes, tag: str) -> bytes:
    """`page` as one server-sent event: its tag as the id, each line a data line (EventSource
    joins them with newlines; a carriage return would end a line too, so none is sent)."""
    data = b"".join(b"data: " + line + b"\n" for line in page.replace(b"\r", b"").split(b"\n"))
    return b"id: " + tag.encode() + b"\n" + data + b"\n"


class Follower:
    """One page in one language, followed for every phone of this process that streams it."""

    def __init__(self, path: str, language: str) -> None:
        self.path, self.language = path, language
        self.tag = ""  # the newest page's tag and its event
        self.event = b""
        self.gone = False  # the page is no more (the event deleted): streams end
        self.phones = 0
        self._moved = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failing = False

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
        # A database that went away meanwhile: its dead connection is dropped, not reused.
        close_old_connections()
        try:
            found = page_kept_for_readers(self.path, self.language)
        except Http404:
            self.gone = True
            return None
        except Exception:  # an outage: the phones keep the page they have, told once
            if not self._failing:
                log.warning("stream of %s: the page could not be made", self.path, exc_info=True)
            self._failing = True
            return None
        if self._failing:
            log.warning("stream of %s: the page is made again", self.path)
        self._failing = False
        return found


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


# The address gunicorn answers 204 at (urls.py `standings-stream`), served here instead.
STREAM_PATH = re.compile(r"/events/(?P<slug>[^/]+)/standings/stream/")

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def is_stream(scope: dict[str, Any]) -> bool:
    """Whether an ASGI request is for the stream (tournament/asgi.py sends it here)."""
    return scope["type"] == "http" and STREAM_PATH.fullmatch(scope["path"]) is not None


def _event(slug: str) -> Event | None:
    close_old_connections()  # a connection kept from before an outage is not reused
    return event_by_slug(slug)


async def stream_app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    """An event's standings page as server-sent events, for as long as the phone listens."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # ALLOWED_HOSTS, as every Django answer checks it
    except DisallowedHost:
        await _answer(send, 400)
        return
    slug = unquote(STREAM_PATH.fullmatch(scope["path"]).group("slug"))  # type: ignore[union-attr]
    event = await sync_to_async(_event)(slug) if request.method == "GET" else None
    if event is None:
        await _answer(send, 404 if request.method == "GET" else 405)
        return
    page = reverse("event-detail", args=[event.slug])
    # A browser connecting again says which page it holds: it is not sent that one again.
    holding = request.headers.get("Last-Event-ID", "")[:100]
    stream = follow(page, get_language_from_request(request), holding)
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
