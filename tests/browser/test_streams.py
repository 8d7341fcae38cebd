"""Issue 67 in a browser: pages that follow a stream instead of polling, served as `make serve`
serves them where uvicorn runs the site's ASGI application (tournament/asgi.py, STREAMS). A
hand one table phone records shows on the other phone through the table's stream; a result
shows on a player's standings page through the standings' stream; neither page polls while
its stream is open."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.test_live_pages import _hands_shown, _phone, _record, _table
from tests.tournament.test_standings_tag import _finish
from tournament import streams
from tournament.models import Game

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asgi_server(settings) -> Iterator[str]:
    """The site under uvicorn in this process (the test's database), streams on: its address."""
    settings.STREAMS = True
    settings.STREAM_LOOK_SECONDS = 0.2
    cache.clear()  # no page kept from before the site streamed
    pages = ASGIStaticFilesHandler(get_asgi_application())  # static files, as live_server

    async def site(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if streams.is_stream(scope):
            await streams.stream_app(scope, receive, send)
        else:
            await pages(scope, receive, send)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(site, port=port, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    streams._followers.clear()
    streams._tables = None


def _asked(page: Any, path: str) -> list[tuple[str, int]]:
    """What live.js asks at `path` from now on (its looks say `X-Requested-With: fetch`; the
    outbox's copy of the page for offline use, fetched once the service worker is ready, does
    not), each with the status it was answered."""
    seen: list[tuple[str, int]] = []

    def answered(response: Any) -> None:
        ours = response.request.headers.get("x-requested-with") == "fetch"
        if ours and response.url.split("?")[0].endswith(path):
            seen.append((response.request.resource_type, response.status))

    page.on("response", answered)
    return seen


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_a_hand_reaches_the_other_phone_through_the_table_s_stream(asgi_server, browser, locale):
    game, path, codes = _table(f"stream-{locale[:2]}")
    one, first = _phone(browser, asgi_server + path, codes[0], locale)
    two, second = _phone(browser, asgi_server + path, codes[1], locale)
    assert second.locator("#table-live[data-stream]").count() == 1
    polls = _asked(second, path)
    time.sleep(5)  # longer than the poll's 4 s: the page with its stream open asks nothing
    assert polls == []
    _record(first)
    # The other phone: told the table moved, it asks its page once, and shows the hand — asked
    # once more only if that look got no answer (a busy test machine's SQLite: 503).
    expect(second.locator("form[data-hand] input[name=number]")).to_have_value("2", timeout=5000)
    expect(_hands_shown(second)).to_have_count(2)
    assert second.evaluate("window.notReloaded") is True
    assert [kind for kind, _status in polls] in (["fetch"], ["fetch", "fetch"]), polls
    assert polls[-1][1] == 200 and all(s not in (200, 304) for _, s in polls[:-1]), polls
    asked = len(polls)
    time.sleep(5)
    assert len(polls) == asked  # and then nothing again
    assert game.hands.count() == 1
    assert first.problems == [] and second.problems == []
    one.close()
    two.close()


def test_a_look_that_got_no_answer_is_asked_again_with_the_stream_open(asgi_server, browser):
    game, path, codes = _table("stream-owed")
    one, first = _phone(browser, asgi_server + path, codes[0], "en-GB")
    two, second = _phone(browser, asgi_server + path, codes[1], "en-GB")
    dropped: list[str] = []

    def once(route: Any) -> None:
        """The first look after the move gets no answer (the venue's Wi-Fi for a moment)."""
        looking = route.request.headers.get("x-requested-with") == "fetch"  # live.js's look
        if looking and not dropped:
            dropped.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    second.route(f"**{path}", once)
    _record(first)
    # The look the move asked for failed; the next tick (4 s) asks again, stream or not.
    expect(second.locator("form[data-hand] input[name=number]")).to_have_value("2", timeout=8000)
    assert len(dropped) == 1
    assert second.evaluate("window.notReloaded") is True
    assert game.hands.count() == 1
    one.close()
    two.close()


def test_a_result_reaches_a_player_through_the_standings_stream(asgi_server, browser):
    game, _path, _codes = _table("stream-standings")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    player = context.new_page()
    problems: list[str] = []
    player.on("pageerror", lambda e: problems.append(str(e)))
    address = f"/events/{game.round.event.slug}/"
    player.goto(asgi_server + address)
    player.evaluate("window.notReloaded = true")
    polls = _asked(player, address)
    names = [s.player.name for s in Game.objects.get(pk=game.pk).seats.order_by("position")]
    _finish(game, [10000, 20000, 30000, 40000])
    # The page is sent: the last seat now leads the standings, the same document, no poll.
    leader = player.locator("#standings-page table tbody tr").first
    expect(leader).to_contain_text(names[3], timeout=8000)
    assert player.evaluate("window.notReloaded") is True
    assert polls == []
    assert problems == []
    context.close()
