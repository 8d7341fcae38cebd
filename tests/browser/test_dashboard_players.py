"""The dashboard's list of players in a browser: its buttons (mark present, undo a check-in,
reinstate) post through one form of the page (their `form` attribute) — the list itself holds
no CSRF token, so it is kept whole by what it shows — and each tap changes that player alone,
the list drawn again at once (nothing kept from before the tap)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Entry
from tournament.services.checkin import checkin_require
from tournament.services.events import entry_withdraw

pytestmark = [pytest.mark.django_db(transaction=True)]

NAMES = [f"山田 {k}" for k in "一二三四五六七八"]


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_list_s_buttons_check_in_undo_and_reinstate(live_server, browser, locale):
    event = make_event(slug=f"list-{locale[:2]}", players=NAMES)
    checkin_require(event=event, required=True)
    entry_withdraw(entry=Entry.objects.get(event=event, player__name=NAMES[7]))
    user = get_user_model().objects.create_user("desk", "desk@example.com", "secret-pw")
    event.organizers.add(user)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.slug}/manage/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "secret-pw")
    page.click("main button[type=submit]")
    rows = page.locator("ul.players > li")
    expect(rows).to_have_count(8)
    third = rows.filter(has_text=NAMES[2])
    third.locator("button[name=present][value='1']").click()
    page.wait_for_load_state()
    expect(third.locator(".checked-in-by")).to_have_attribute("data-by", "organizer")
    entry = Entry.objects.get(event=event, player__name=NAMES[2])
    assert entry.present and entry.checked_in_by == "organizer"
    assert Entry.objects.filter(event=event, present=True).count() == 1
    # Undo, then reinstate the withdrawn player: the list follows each tap.
    third.locator("button[name=present][value='0']").click()
    expect(third.locator("button[name=present][value='1']")).to_be_visible()
    assert not Entry.objects.get(pk=entry.pk).present
    last = rows.filter(has_text=NAMES[7])
    last.locator("button[name=withdrawn][value='0']").click()
    expect(last.locator(".badge")).to_have_count(0)
    assert not Entry.objects.get(event=event, player__name=NAMES[7]).withdrawn
    assert problems == []
    context.close()
