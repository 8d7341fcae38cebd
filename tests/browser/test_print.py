"""Issue 32: what an organizer prints for 16 tables (64 players) fits one A4 page each — the
round sheet (no buttons, no clock; the seat slips printed apart) and the seating for the wall,
by table and by name — and names on the round sheet read from the left."""

from __future__ import annotations

import random
import re

import pytest

from tournament.services.events import event_create, event_table_entry_set
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

FAMILY = ["山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "中村"]
GIVEN = ["一郎", "花子", "健太郎", "真央", "翔", "美奈子", "蓮", "陽菜"]


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.fixture
def sixteen_tables(live_server, browser):
    from django.contrib.auth import get_user_model

    names = [f"{f} {g}" for f in FAMILY for g in GIVEN]
    event = event_create(name="春の天鳳杯", slug="haru", ruleset="tenhou", players=names)
    event_table_entry_set(event=event, table_entry="tables", table_mode="hands")
    event.round_minutes = 90
    event.save()
    round_seat(event=event, rng=random.Random(2))
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/events/haru/manage/rounds/1/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    page.locator("form[action$='/clock/'] button").click()  # the clock runs: it must not print
    yield page, live_server.url
    context.close()


def test_the_round_sheet_and_the_seating_print_on_one_a4_page_each(sixteen_tables):
    page, base = sixteen_tables
    assert page.locator("article.table-card").count() == 16
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
