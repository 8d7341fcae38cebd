"""Issue 32: what an organizer prints for 16 tables (64 players) fits one A4 page each — the
round sheet (no buttons, no clock; the seat slips printed apart) and the seating for the wall,
by table and by name — and names on the round sheet read from the left. Issue 43: for 16
players the same sheets fill the page in large type (they once printed small on a mostly empty
A4); 40 tables go a page at a time, nothing past the page's side."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tournament.services.events import event_create, event_table_entry_set
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

FAMILY = ["山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "中村"]
GIVEN = ["一郎", "花子", "健太郎", "真央", "翔", "美奈子", "蓮", "陽菜"]
MORE_FAMILY = ["小林", "加藤", "吉田", "山口", "松本", "井上"]
MORE_FAMILY += ["木村", "清水", "山崎", "池田", "橋本", "石川"]


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def seated_round(live_server, browser, tables: int, locale: str = "ja-JP"):
    """An event of `tables` tables, round 1 seated, and an organizer's page on its round sheet."""
    names = [f"{f} {g}" for f in FAMILY + MORE_FAMILY for g in GIVEN][: 4 * tables]
    event = event_create(name="春の天鳳杯", slug="haru", ruleset="tenhou", players=names)
    event_table_entry_set(event=event, table_entry="tables", table_mode="hands")
    event.round_minutes = 90
    event.save()
    round_seat(event=event, rng=random.Random(2))
    return signed_in(live_server, browser, "/events/haru/manage/rounds/1/", locale)


def signed_in(live_server, browser, path: str, locale: str):
    """An organizer (a superuser made here) signed in, on `path`."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    return context, page


@pytest.fixture
def sixteen_tables(live_server, browser):
    context, page = seated_round(live_server, browser, 16)
    page.locator("form[action$='/clock/'] button").click()  # the clock runs: it must not print
    yield page, live_server.url
    context.close()


def test_the_round_sheet_and_the_seating_print_on_one_a4_page_each(sixteen_tables):
    page, base = sixteen_tables
    # The clock's form reloads the sheet: counted once it has all arrived (a count taken at
    # once found 15 of a page still loading on a slow machine).
    expect(page.locator("article.table-card")).to_have_count(16)
    assert page.locator("[data-clock]").is_visible()
    page.emulate_media(media="print")
    # Nothing to press and no clock on paper; names from the left.
    for selector in ("button", "[data-clock]", ".slip"):
        assert not [e for e in page.locator(selector).all() if e.is_visible()], selector
    cell = page.locator("table.seats td.player").first
    assert cell.evaluate("el => getComputedStyle(el).textAlign") in ("left", "start")
    assert pages(page.pdf(format="A4")) == 1
    # The slips print apart, when asked for (the button sets what is printed).
    page.evaluate("document.body.dataset.printing = 'slips'")
    assert page.locator(".slip").first.is_visible()
    assert pages(page.pdf(format="A4")) > 1
    page.evaluate("delete document.body.dataset.printing")
    for order in ("", "?order=name"):
        page.goto(f"{base}/events/haru/rounds/1/seating/{order}")
        shown = page.locator("ol.seating > li, ol.by-name > li").count()
        assert shown == (64 if order else 16)
        assert pages(page.pdf(format="A4")) == 1, order


# The printed area of an A4 page in CSS pixels: 210 × 297 mm less the 12 mm margins of
# site.css's @page. A page as wide as this lays out as the printer does.
AREA = {"width": 703, "height": 1032}

# What a printed sheet holds: the top and foot of everything shown, its right edge, and the
# smallest type (pt) of the names it lists.
PRINTED = """(names) => {
  let top = Infinity, bottom = 0, right = 0, smallest = Infinity;
  for (const el of document.querySelectorAll("main *")) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    top = Math.min(top, r.top);
    bottom = Math.max(bottom, r.bottom);
    right = Math.max(right, r.right);
  }
  for (const el of document.querySelectorAll(names)) {
    if (!el.checkVisibility()) continue;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
  }
  return { filled: (bottom - top) / window.innerHeight, right, smallest: smallest * 0.75 };
}"""

NAMES = "table.seats td.player, .seat-card .name, ol.by-name .name"


def printed(page, address: str) -> tuple[int, dict]:
    """The sheet at `address` on A4: its number of pages, and what it holds."""
    page.emulate_media(media="screen")
    page.goto(address)
    page.emulate_media(media="print")
    page.set_viewport_size(AREA)
    return pages(page.pdf(format="A4")), page.evaluate(PRINTED, NAMES)


# Each sheet for 16 players: the type of its names at least (pt) — issue 32 printed them at
# 8.5 pt (the round sheet), 11 pt (the seating) and 10.5 pt (by name).
SHEETS_OF_FOUR_TABLES = [
    ("/events/haru/manage/rounds/1/", 14),
    ("/events/haru/rounds/1/seating/", 28),
    ("/events/haru/rounds/1/seating/?order=name", 20),
]


def test_sixteen_players_print_on_a_full_page_in_large_type(live_server, browser):
    """Issue 43: four tables — the round sheet, the seating by table and by name each fill most
    of one A4 page (three quarters at least), their names in large type, nothing past its side."""
    context, page = seated_round(live_server, browser, 4)
    for path, least in SHEETS_OF_FOUR_TABLES:
        count, sheet = printed(page, live_server.url + path)
        assert count == 1, path
        assert sheet["filled"] >= 0.75, (path, sheet)
        assert sheet["smallest"] >= least, (path, sheet)
        assert sheet["right"] <= AREA["width"], (path, sheet)
    context.close()


def test_forty_tables_print_a_page_at_a_time(live_server, browser):
    """Issue 43: a big event (40 tables, 160 players) goes a page at a time, each page full and
    no wider than the paper: the seating 20 tables a page, by name in three columns, the round
    sheet 18 tables a page; the type never under 10 pt."""
    context, page = seated_round(live_server, browser, 40)
    expected = {
        "/events/haru/manage/rounds/1/": 3,
        "/events/haru/rounds/1/seating/": 2,
        "/events/haru/rounds/1/seating/?order=name": 2,
    }
    for path, count in expected.items():
        shown, sheet = printed(page, live_server.url + path)
        assert shown == count, path
        assert sheet["filled"] > count - 1, (path, sheet)  # every page but the last full
        assert sheet["smallest"] >= 10 and sheet["right"] <= AREA["width"], (path, sheet)
    context.close()


# Every cell of a printed round sheet that holds more than its column: an English wind
# ("North 北") over its player's name, a heading ("Points") past the card's edge.
SPILLED = """() => [...document.querySelectorAll("table.seats th, table.seats td")]
  .filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent.trim())"""


@pytest.mark.parametrize("tables", [1, 4, 16])
def test_an_english_round_sheet_prints_each_wind_in_its_own_column(live_server, browser, tables):
    """The walk of 2026-11-30 printed 「East 東」 over 青木 on the English sheet of one table
    (its wind column was sized in the headings' smaller type): at every print size each cell
    holds what it shows."""
    context, page = seated_round(live_server, browser, tables, locale="en-GB")
    count, sheet = printed(page, f"{live_server.url}/events/haru/manage/rounds/1/")
    assert count == 1 and sheet["right"] <= AREA["width"], sheet
    assert "N 北" in page.locator("table.seats").first.inner_text()
    assert page.evaluate(SPILLED) == []
    context.close()


def test_the_seat_slips_print_without_the_players_sitting_out(live_server, browser):
    """The walk of 2026-11-30: the slips, cut and handed to the seats, printed the final's
    list of the twelve not playing after them. The sheet itself still lists them."""
    from tests.tournament.factories import baba_day

    baba_day(slug="slips", played=7, close_qualifier=True, seat_next=True)
    context, page = signed_in(live_server, browser, "/events/slips/manage/rounds/8/", "en-GB")
    expect(page.locator(".sit-outs li")).to_have_count(12)
    page.emulate_media(media="print")
    assert page.locator(".sit-outs").is_visible()
    page.evaluate("document.body.dataset.printing = 'slips'")
    assert page.locator(".slip").first.is_visible() and not page.locator(".sit-outs").is_visible()
    context.close()


# The words of the names on a printed sheet whose letters sit on more than one line.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll("table.seats td.player")) {
    if (!el.checkVisibility()) continue;
    const node = el.firstChild;
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_final_s_one_table_prints_a_long_latin_name_whole(live_server, browser, locale):
    """A second walk of 2026-11-30: the final's one table printed "Papado / poulou"."""
    from tests.tournament.factories import baba_day

    names = {"青木": "Alexandra Papadopoulou"}
    baba_day(slug="long", played=7, close_qualifier=True, seat_next=True, names=names)
    context, page = signed_in(live_server, browser, "/events/long/manage/rounds/8/", locale)
    count, sheet = printed(page, f"{live_server.url}/events/long/manage/rounds/8/")
    assert count == 1 and sheet["right"] <= AREA["width"], sheet
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate(SPILLED) == []
    context.close()
