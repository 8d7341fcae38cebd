"""Issue 46 in a browser: a seated round of more tables than one answer sends (480 players,
120 tables) on the venue screen — pages of the tables that fit in the room's type, "page 1
of N" counted from the whole round, each page's tables asked for when the page lacks them; on
a phone the tables it holds and a link to the next ones."""

from __future__ import annotations

import math
import random

import pytest

from tests.browser.test_venue_screen import PAGE_SECONDS, SMALLEST_TEXT, _page
from tests.tournament.factories import make_event
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

PLAYERS = 480
TABLES = PLAYERS // 4
CARDS = "ol.seating > li.seat-card"


def _seated() -> str:
    event = make_event(slug="big", players=[f"Player {i:03d}" for i in range(PLAYERS)])
    round_seat(event=event, rng=random.Random(3))
    return event.slug


# The first table on show is `table` (a window's page turned, its tables fetched or held).
NEXT = f"""(table) => {{
  const cards = Array.from(document.querySelectorAll('{CARDS}')).filter((c) => !c.hidden);
  return cards.length > 0 && cards[0].querySelector('h2').textContent === table;
}}"""


def _first_table(page) -> str:
    return page.locator(f"{CARDS}:visible h2").first.inner_text()


def test_a_seated_round_turns_its_pages_a_window_of_tables_at_a_time(live_server, browser):
    slug = _seated()
    context, page = _page(browser, 1920, 1080, "en-GB")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.clock.install()  # the page turns when the test runs the clock (PAGE_SECONDS)
    page.goto(f"{live_server.url}/events/{slug}/screen/")
    assert page.locator(CARDS).count() == 100  # what the page holds: one answer's most
    shown = page.locator(f"{CARDS}:visible").count()
    assert 4 <= shown < 100
    pages = math.ceil(TABLES / shown)
    counter = page.locator("[data-page-of]")
    assert counter.is_visible() and counter.inner_text().strip() == f"· page 1 of {pages}"
    assert _first_table(page) == "Table 1"
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= 32, where
    assert page.locator("[data-screen-more]").is_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    # The page turns: the next tables, from those the page holds.
    page.clock.run_for(PAGE_SECONDS * 1000)
    page.wait_for_function(
        "() => document.querySelector('[data-page-of]').textContent.includes('page 2')",
        timeout=5000,
    )
    page.wait_for_function(NEXT, arg=f"Table {shown + 1}", timeout=10000)

    # Opened on a later window (a phone's "next" link): page 1 is asked for and shows the
    # first tables; the next page's tables are asked for as it turns.
    page.goto(f"{live_server.url}/events/{slug}/screen/?from=100")
    page.wait_for_function(NEXT, arg="Table 1", timeout=10000)
    assert any(f"from=0&rows={shown}" in url for url in asked), asked
    assert counter.inner_text().strip() == f"· page 1 of {pages}"
    page.clock.run_for(PAGE_SECONDS * 1000)
    page.wait_for_function(NEXT, arg=f"Table {shown + 1}", timeout=5000)
    assert any(f"from={shown}&rows={shown}" in url for url in asked), asked
    assert page.locator(CARDS).count() == shown  # the window asked for, no more
    assert page.problems == []
    context.close()


def test_on_a_phone_a_seated_round_shows_its_window_and_the_next(live_server, browser):
    slug = _seated()
    context, page = _page(browser, 390, 844, "ja-JP")
    page.goto(f"{live_server.url}/events/{slug}/screen/")
    assert page.locator(f"{CARDS}:visible").count() == 100  # a phone scrolls
    more = page.locator("[data-screen-more]")
    assert more.is_visible() and f"{TABLES}卓中 1〜100卓目" in more.inner_text()
    more.locator("a").click()
    page.wait_for_url("**from=100")
    assert f"{TABLES}卓中 21〜120卓目" in page.locator("[data-screen-more]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.problems == []
    context.close()
