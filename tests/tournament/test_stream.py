"""The standings followed without polling (tournament/streams.py, issue 67): under ASGI the
stream sends the page as readers get it, then the page each time it changes, never one the
phone holds; under WSGI it answers 204 and the page polls as before."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text, url
from tests.tournament.test_standings_tag import _finish, _hand
from tournament import streams
from tournament.asgi import application
from tournament.models import Game, TableLink
from tournament.selectors.tables import table_moves, tables_moved
from tournament.services import throttle
from tournament.services.rounds import round_seat
from tournament.services.tables import table_link_renew

WAIT = 10  # seconds a test waits for an event before it fails


@pytest.fixture(autouse=True)
def no_followers():
    """Each test's event loop follows its own pages (a process has one loop; a test, its own)."""
    streams._followers.clear()
    streams._tables = None
    yield
    streams._followers.clear()
    streams._tables = None


def run(coroutine) -> None:
    """`coroutine` in an event loop of its own thread (a browser test in the same process may
    leave one running in this one), then the connection of asgiref's one thread for sync code
    closed: a server keeps it, but a test database is dropped only once nobody holds one."""

    async def then_close() -> None:
        try:
            await coroutine
        finally:
            await sync_to_async(connections.close_all)()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, then_close()).result()


def _seated(slug: str):
    event = make_event(slug=slug, players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(4))
    first, second = Game.objects.filter(round__event=event).order_by("table")
    _hand(first)  # play has begun
    return event, first, second


def _event(chunk: bytes) -> tuple[str, str]:
    """An event's id and its data, as EventSource reads them."""
    lines = chunk.decode().split("\n")
    ident = next(line[4:] for line in lines if line.startswith("id: "))
    data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
    return ident, data


def test_a_page_is_one_event_of_data_lines_with_its_tag() -> None:
    event = streams._sse(b"<p>a</p>\r\n<p>b</p>", "abc")
    assert event == b"id: abc\ndata: <p>a</p>\ndata: <p>b</p>\n\n"


@pytest.mark.django_db
def test_under_wsgi_the_stream_is_204_and_the_page_polls(settings) -> None:
    event, _first, _second = _seated("stream-wsgi")
    assert Client().get(url("standings-stream", event.slug)).status_code == 204  # gunicorn's
    assert "data-stream" not in text(Client().get(url("event-detail", event.slug)))
    # The site runs the stream (make serve) from now on: no page kept before is answered.
    settings.STREAMS = True
    page = text(Client().get(url("event-detail", event.slug)))
    assert f'data-stream="{url("standings-stream", event.slug)}"' in page
    assert 'data-live="' in page  # the poll stays, for when there is no stream
    sorted_page = text(Client().get(url("event-detail", event.slug) + "?sort=total"))
    assert "data-stream" not in sorted_page  # the stream follows the page without a query


class Phone:
    """A browser's EventSource at `path`, through the site's ASGI application as uvicorn runs
    it (tournament/asgi.py): what the server sends, and the phone going away."""

    def __init__(
        self, path: str, *headers: tuple[bytes, bytes], host: bytes = b"testserver", query=b""
    ):
        self.sent: asyncio.Queue = asyncio.Queue()
        self.inbox: asyncio.Queue = asyncio.Queue()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query,
            "root_path": "",
            "headers": [(b"host", host), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.task = asyncio.create_task(application(scope, self.inbox.get, self.sent.put))

    async def start(self) -> dict:
        return await asyncio.wait_for(self.sent.get(), WAIT)

    async def page(self) -> tuple[str, str]:
        """The next page sent: its id (the tag) and its HTML."""
        while True:
            body = (await asyncio.wait_for(self.sent.get(), WAIT))["body"]
            if body.startswith(b"id: "):
                return _event(body)

    async def leave(self) -> None:
        await self.inbox.put({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, WAIT)


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_page_then_each_change_and_never_what_the_phone_holds(settings) -> None:
    settings.STREAM_LOOK_SECONDS, settings.STREAM_GAP_SECONDS = 0.05, 0
    event, _first, second = _seated("stream-asgi")
    address = url("standings-stream", event.slug)

    async def follow() -> None:
        phone = Phone(address, (b"accept-language", b"ja"))
        start = await phone.start()
        assert start["status"] == 200
        assert dict(start["headers"])[b"content-type"] == b"text/event-stream"
        assert dict(start["headers"])[b"cache-control"] == b"no-cache"
        assert (await phone.sent.get())["body"] == b"retry: 5000\n\n"
        tag, page = await phone.page()
        assert 'id="standings-page"' in page and 'lang="ja"' in page  # the phone's language
        assert 'name="csrfmiddlewaretoken" value=""' in page  # nobody's token: not for sending
        # The very page a reader not signed in gets, with its tag as the event's id.
        served = await sync_to_async(Client().get)(
            url("event-detail", event.slug), HTTP_ACCEPT_LANGUAGE="ja"
        )
        assert served["ETag"] == f'"{tag}"'
        token = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')
        assert token.sub(r'\1"', served.content.decode()) == page
        # A phone connecting again with that page is sent nothing until the page moves.
        again = Phone(address, (b"accept-language", b"ja"), (b"last-event-id", tag.encode()))
        assert (await again.start())["status"] == 200
        assert (await again.sent.get())["body"] == b"retry: 5000\n\n"
        await sync_to_async(_finish)(second, [90000, 10000, 0, 0])
        moved, newer = await phone.page()
        assert moved != tag
        winner = await sync_to_async(
            lambda: second.seats.select_related("player").get(position=0).player.name
        )()
        assert winner in newer
        assert (await again.page())[0] == moved  # the other phone: the new page, once
        assert again.sent.empty()
        await phone.leave()
        await again.leave()
        await asyncio.sleep(0.3)
        assert streams._followers == {}  # nobody follows the page: nobody looks at it

    run(follow())


@pytest.mark.django_db(transaction=True)
def test_an_unknown_event_is_404_a_host_not_ours_400() -> None:
    async def ask() -> None:
        assert (await Phone("/events/nobody/standings/stream/").start())["status"] == 404
        host = Phone("/events/nobody/standings/stream/", host=b"evil.example")
        assert (await host.start())["status"] == 400

    run(ask())


def _told(body: bytes) -> str:
    """A table stream's `moved`: the table's new stamp (its id and its data)."""
    lines = body.decode().split("\n")
    assert lines[0] == "event: moved", body
    ident = next(line[4:] for line in lines if line.startswith("id: "))
    assert f"data: {ident}" in lines
    return ident


@pytest.mark.django_db(transaction=True)
def test_a_table_stream_says_when_the_table_moves_never_what_the_phone_holds(settings) -> None:
    settings.STREAM_LOOK_SECONDS = 0.05
    settings.STREAMS = True
    _event, first, _second = _seated("stream-table")
    link = TableLink.objects.select_related("game__round__event").get(
        game=first, revoked_at__isnull=True
    )
    stamp = table_moves(link)
    assert tables_moved([link.pk]) == {link.pk: stamp}  # the page's stamp is the stream's
    address = url("table-stream", link.token)
    page = text(Client().get(url("table-page", link.token)))
    assert f'data-stream="{address}?since={stamp}"' in page
    assert 'data-live="' in page  # the poll stays, for when there is no stream

    async def follow() -> None:
        phone = Phone(address, query=f"since={stamp}".encode())
        start = await phone.start()
        assert start["status"] == 200
        assert dict(start["headers"])[b"content-type"] == b"text/event-stream"
        assert (await phone.sent.get())["body"] == b"retry: 5000\n\n"
        await asyncio.sleep(0.3)
        assert phone.sent.empty()  # it holds the table as it is
        fresh = Phone(address)  # a phone holding nothing is told at once
        await fresh.start()
        await fresh.sent.get()
        assert _told((await asyncio.wait_for(fresh.sent.get(), WAIT))["body"]) == stamp
        await sync_to_async(_hand)(first)
        moved = _told((await asyncio.wait_for(phone.sent.get(), WAIT))["body"])
        assert moved != stamp
        assert _told((await asyncio.wait_for(fresh.sent.get(), WAIT))["body"]) == moved
        # A phone connecting again says the stamp it was last told: nothing until it moves.
        again = Phone(address, (b"last-event-id", moved.encode()), query=f"since={stamp}".encode())
        await again.start()
        await again.sent.get()
        await asyncio.sleep(0.3)
        assert again.sent.empty()
        # The organizer replaces the link: every phone is told, and the link streams no more.
        await sync_to_async(table_link_renew)(game=first)
        for each in (phone, fresh, again):
            assert _told((await asyncio.wait_for(each.sent.get(), WAIT))["body"]) != moved
        assert (await Phone(address).start())["status"] == 410
        for each in (phone, fresh, again):
            await each.leave()
        await asyncio.sleep(0.3)
        assert streams._tables is None  # nobody follows a table: nobody looks

    run(follow())


@pytest.mark.django_db(transaction=True)
def test_an_unknown_table_is_a_guess_as_on_its_page(monkeypatch) -> None:
    guesses = []
    monkeypatch.setattr(streams, "guess_take", lambda what, address: guesses.append(address))

    async def ask() -> None:
        assert (await Phone("/t/no-such-link/stream/").start())["status"] == 404

    run(ask())
    assert guesses == ["127.0.0.1"]

    def refused(what, address):
        raise throttle.Throttled(60)

    monkeypatch.setattr(streams, "guess_take", refused)

    async def again() -> None:
        assert (await Phone("/t/no-such-link/stream/").start())["status"] == 429

    run(again())


@pytest.mark.django_db
def test_under_wsgi_a_table_stream_is_204_and_the_table_polls() -> None:
    _event, first, _second = _seated("stream-table-wsgi")
    link = first.links.get(revoked_at__isnull=True)
    assert Client().get(url("table-stream", link.token)).status_code == 204
    page = text(Client().get(url("table-page", link.token)))
    assert "data-stream" not in page and 'data-live="' in page


@pytest.mark.django_db(transaction=True)  # a look drops the connections an outage left
def test_a_look_through_an_outage_keeps_what_phones_have_and_says_so_once(caplog) -> None:
    from django.db import OperationalError

    watch = streams.TableWatch()
    answers = iter([OperationalError("gone"), OperationalError("gone"), {1: "a"}])

    def look():
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    with caplog.at_level("WARNING", logger="tournament.streams"):
        assert watch.attempt(look) is None
        assert watch.attempt(look) is None
        assert watch.attempt(look) == {1: "a"}
    said = [record.getMessage() for record in caplog.records]
    assert said == ["tables' stream: the look failed", "tables' stream: looking again"]


@pytest.mark.django_db(transaction=True)
def test_a_page_loaded_after_a_hand_is_not_told_of_it_by_an_older_look(settings) -> None:
    """The phone that entered a hand loads its page at once: the watch may still hold the
    table as it was before the hand (its last look was earlier). That phone is told nothing —
    neither the older stamp nor, at the next look, its own page's (helper-21's walk saw both)."""
    settings.STREAM_LOOK_SECONDS = 2  # a wide window between two looks
    _event, first, _second = _seated("stream-table-late")
    link = first.links.get(revoked_at__isnull=True)
    address = url("table-stream", link.token)
    before = tables_moved([link.pk])[link.pk]

    async def follow() -> None:
        other = Phone(address, query=f"since={before}".encode())  # another phone at the table
        await other.start()
        await other.sent.get()
        await asyncio.sleep(0.3)  # the watch has looked: it holds the table before the hand
        await sync_to_async(_hand)(first)
        after = await sync_to_async(lambda: tables_moved([link.pk])[link.pk])()
        entering = Phone(address, query=f"since={after}".encode())  # its page, just loaded
        await entering.start()
        await entering.sent.get()
        assert _told((await asyncio.wait_for(other.sent.get(), WAIT))["body"]) == after
        await asyncio.sleep(0.3)
        assert entering.sent.empty()
        await other.leave()
        await entering.leave()

    run(follow())
