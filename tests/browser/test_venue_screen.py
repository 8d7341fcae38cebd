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
def test_the_venue_screen_shows_its_columns_whole_at_1920(live_server, browser, locale):
    _baba()
    context, page = _page(browser, 1920, 1080, locale)
    page.goto(f"{live_server.url}/events/baba-demo/screen/")
    table = page.locator("#standings-table")
    headers = table.locator("thead th")
    assert headers.count() == 19  # rank … avg. rank, 1st–4th, R1–R8, status: all in the page
    right = page.evaluate("() => document.documentElement.clientWidth")
    shown = [h for h in headers.all() if h.is_visible()]
    # Issue 32: for 32 px type the screen gives up the places first, then the average rank;
    # the totals, the status and every round stay, none cut off.
    kept = [h.inner_text().strip() for h in shown]
    assert len(kept) >= 13 and ("R8" in kept or "8回戦" in kept), kept
    for header in shown:
        box = header.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right, header.inner_text()
    assert page.problems == []
    context.close()


# Every element with text of its own, shown: its font size (issue 32: at least 32 px).
SMALLEST_TEXT = """() => {
  let smallest = Infinity, where = "";
  for (const el of document.querySelectorAll("main *")) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim());
    if (!own || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < smallest) { smallest = size; where = el.textContent.trim().slice(0, 40); }
  }
  return [smallest, where];
}"""

# How much of the screen's height the standings fill: from the table's top to its last row
# shown.
FILLED = """() => {
  const table = document.querySelector("#standings-table");
  const rows = Array.from(table.querySelectorAll("tbody tr")).filter((r) => !r.hidden);
  const bottom = rows[rows.length - 1].getBoundingClientRect().bottom;
  return (bottom - table.getBoundingClientRect().top) / window.innerHeight;
}"""


@pytest.mark.parametrize("players", [16, 32, 64])
def test_the_venue_screen_fills_the_room_s_screen_in_large_type(live_server, browser, players):
    """Issue 32: 16 to 64 players at 1920×1080 — text at least 32 px, the rows filling at least
    80 % of the height (a page at a time beyond one screen), names as plain text."""
    from tests.tournament.factories import league_data

    event_import(league_data(players, 6))
    context, page = _page(browser, 1920, 1080, "ja-JP")
    page.goto(f"{live_server.url}/events/league-{players}-6/screen/")
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= 32, where
    assert page.evaluate(FILLED) >= 0.8
    assert page.locator("#standings-table td.player a").count() == 0  # plain names
    shown = page.locator("#standings-table tbody tr:visible").count()
    counter = page.locator("[data-page-of]")
    if shown < players:  # screenfuls of `shown` rows
        assert counter.is_visible() and f"/ {-(-players // shown)} ページ" in counter.inner_text()
    else:
        assert counter.is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert page.problems == []
    context.close()


def test_a_long_list_pages_itself(live_server, browser):
    _baba()
    context, page = _page(browser, 1920, 540, "en-GB")  # half a screen: the list needs pages
    page.goto(f"{live_server.url}/events/baba-demo/screen/?stage=")  # every stage: 16 rows
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
