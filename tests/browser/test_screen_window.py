"""Issue 46 in a browser: a field longer than one answer sends (300 players) on the venue
screen — pages of the rows that fit in the room's type, "page 1 of N" counted from the whole
field, each page's rows asked for when the page lacks them; on a phone the rows it holds and a
link to the next ones."""

from __future__ import annotations

import math

import pytest

from tests.browser.test_venue_screen import PAGE_SECONDS, SMALLEST_TEXT, _page
from tests.tournament.factories import league_data
from tournament.services.imports import event_import

pytestmark = [pytest.mark.django_db(transaction=True)]

PLAYERS = 300
ROWS = "#standings-table tbody tr"


def _field() -> str:
    event_import(league_data(PLAYERS, 2))
    return f"league-{PLAYERS}-2"


def test_a_large_field_turns_its_pages_a_window_at_a_time(live_server, browser):
    slug = _field()
    context, page = _page(browser, 1920, 1080, "en-GB")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.clock.install()  # the page turns when the test runs the clock (PAGE_SECONDS)
    page.goto(f"{live_server.url}/events/{slug}/screen/")
    assert page.locator(ROWS).count() == 100  # what the page holds: one answer's most
    shown = page.locator(f"{ROWS}:visible").count()
    assert 10 <= shown < 100
    pages = math.ceil(PLAYERS / shown)
    counter = page.locator("[data-page-of]")
    assert counter.is_visible() and counter.inner_text().strip() == f"· page 1 of {pages}"
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= 32, where
    assert page.locator("[data-screen-more]").is_hidden()  # the screen turns its own pages
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    first = page.locator(f"{ROWS}:visible td.player").first.inner_text()

    # Opened on a later window (a phone's "next" link): page 1 is asked for, and shows the
    # first rows, in the same type.
    page.goto(f"{live_server.url}/events/{slug}/screen/?from=200")
    page.wait_for_function(
        f"() => document.querySelectorAll('{ROWS}').length === {shown}", timeout=10000
    )
    assert any(f"from=0&rows={shown}" in url for url in asked), asked
    assert page.locator(f"{ROWS}:visible td.player").first.inner_text() == first
    assert counter.inner_text().strip() == f"· page 1 of {pages}"
    # The page turns: the next rows, asked for as it does.
    page.clock.run_for(PAGE_SECONDS * 1000)
    page.wait_for_function(
        "() => document.querySelector('[data-page-of]').textContent.includes('page 2')",
        timeout=5000,
    )
    page.wait_for_function(
        f"""(first) => {{
          const rows = Array.from(document.querySelectorAll('{ROWS}'))
            .filter((r) => !r.hidden);
          return rows.length === {shown}
            && rows[0].querySelector('td.player').textContent !== first;
        }}""",
        arg=first,
        timeout=10000,
    )
    assert any(f"from={shown}&rows={shown}" in url for url in asked), asked
    assert page.locator(ROWS).count() == shown  # the window asked for, no more
    assert page.problems == []
    context.close()


def test_on_a_phone_a_large_field_shows_its_window_and_the_next(live_server, browser):
    slug = _field()
    context, page = _page(browser, 390, 844, "ja-JP")
    page.goto(f"{live_server.url}/events/{slug}/screen/")
    assert page.locator(f"{ROWS}:visible").count() == 100  # a phone scrolls
    more = page.locator("[data-screen-more]")
    assert more.is_visible() and f"{PLAYERS}人中 1〜100人目" in more.inner_text()
    more.locator("a").click()
    page.wait_for_url("**from=100")
    assert f"{PLAYERS}人中 101〜200人目" in page.locator("[data-screen-more]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.problems == []
    context.close()
