"""Issue 12, finding 3 in a browser: the venue screen at 1920×1080 shows every column with
nothing cut off, in large type, in both languages, and pages a long list by itself; on a phone
each player's status is on the first screen."""

from __future__ import annotations

import pytest

from tournament.demo import demo_events
from tournament.services.imports import event_import

pytestmark = [pytest.mark.django_db(transaction=True)]


def _baba() -> None:
    for data in demo_events():
        if data["slug"] == "baba-demo":
            event_import(data)


def _page(browser, width: int, height: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return context, page


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_venue_screen_shows_every_column_at_1920(live_server, browser, locale):
    _baba()
    context, page = _page(browser, 1920, 1080, locale)
    page.goto(f"{live_server.url}/events/baba-demo/screen/")
    table = page.locator("#standings-table")
    headers = table.locator("thead th")
    assert headers.count() == 19  # rank … avg. rank, 1st–4th, R1–R8, status
    right = page.evaluate("() => document.documentElement.clientWidth")
    for i in range(headers.count()):
        box = headers.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right, headers.nth(i).inner_text()
    size = float(page.evaluate("() => getComputedStyle(document.body).fontSize")[:-2])
    assert size >= 20  # readable from the back of the room
    # 16 players fit one screen at this size: no page counter.
    assert page.locator("[data-page-of]").is_hidden()
    assert page.problems == []
    context.close()


def test_a_long_list_pages_itself(live_server, browser):
    _baba()
    context, page = _page(browser, 1920, 540, "en-GB")  # half a screen: the list needs pages
    page.goto(f"{live_server.url}/events/baba-demo/screen/")
    counter = page.locator("[data-page-of]")
    assert counter.is_visible() and "page 1 of" in counter.inner_text()
    visible = page.locator("#standings-table tbody tr:visible")
    first = visible.first.locator("td.player").inner_text()
    page.wait_for_function(
        "() => document.querySelector('[data-page-of]').textContent.includes('page 2')",
        timeout=15000,
    )
    after = page.locator("#standings-table tbody tr:visible").first
    assert after.locator("td.player").inner_text() != first
    context.close()


def test_on_a_phone_the_status_is_on_the_first_screen(live_server, browser):
    _baba()
    context, page = _page(browser, 390, 844, "en-GB")
    page.goto(f"{live_server.url}/events/baba-demo/")
    badge = page.locator("#standings-table tbody tr").first.locator(".badge")
    box = badge.bounding_box()
    assert badge.inner_text() == "Champion" and box["x"] + box["width"] <= 390
    context.close()
