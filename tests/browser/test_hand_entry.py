"""An organizer on a phone logs in, records a game hand by hand, and sees the standings change."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Game
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]


def cell(page, row, header: str):
    """A row's cell under the column headed `header` (columns move: Status follows Total)."""
    headers = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
    return row.locator("td").nth(headers.index(header))


def test_hand_by_hand_game_on_a_phone_changes_the_standings(live_server, phone):
    from django.contrib.auth import get_user_model

    event = make_event(slug="browser")
    user = get_user_model().objects.create_user("org", "org@example.com", "secret-pw")
    event.organizers.add(user)
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    seats = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    page = phone
    base = live_server.url

    page.goto(f"{base}/events/browser/")
    winner_row = page.locator("table.standings tr", has_text=seats[2])
    assert cell(page, winner_row, "Games").inner_text() == "0"  # no games yet

    page.goto(f"{base}/events/browser/manage/games/{game.pk}/hands/")
    assert "/accounts/login/" in page.url  # organizers only
    page.fill("#id_username", "org")
    page.fill("#id_password", "secret-pw")
    page.click("button.primary")
    assert page.url.endswith(f"/games/{game.pk}/hands/")
    assert page.locator(".next .label").inner_text() == "E1-0"
    # Every row's label fits its column on a phone ("Yakuman" ran into its ×1 button).
    page.locator("fieldset[data-for='ron'] details.rare summary").first.click()
    # Read in one go: the page's live region may be drawn again between two lookups.
    overflowing = page.evaluate(
        """() => Array.from(document.querySelectorAll(".pick-label:not(.visually-hidden)"))
            .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth)
            .map((e) => [e.innerText, e.scrollWidth, e.clientWidth])"""
    )
    assert overflowing == []

    # East 1: seat 2 rons seat 1, 3 han 40 fu. Ron is chosen at first: only its fields show.
    # (expect waits for entry.js, which is deferred and may run after the page's load event)
    expect(page.locator("fieldset[data-for='tsumo']")).to_be_hidden()
    assert page.locator("fieldset[data-for='ron']").is_visible()
    page.check("input[name='wins_0_seat'][value='2']")
    page.check("input[name='discarder'][value='1']")
    # The winner cannot have dealt in: that seat's dealt-in button is off.
    assert page.is_disabled("input[name='discarder'][value='2']")
    page.check("input[name='wins_0_han'][value='5']")
    expect(page.locator("fieldset[data-for='ron'] [data-fu]").first).to_be_hidden()  # mangan
    page.check("input[name='wins_0_han'][value='3']")
    expect(page.locator("fieldset[data-for='ron'] [data-fu]").first).to_be_visible()
    page.check("input[name='wins_0_fu'][value='40']")
    page.click("button.primary")
    assert page.locator(".next .label").inner_text() == "E2-0"
    assert "30200" in page.locator("table.running").inner_text()

    # A bad hand (1 han 20 fu) is shown next to the field and keeps what was pressed.
    page.check("input[name='type'][value='tsumo']")
    page.check("input[name='winner'][value='0']")
    page.check("input[name='han'][value='1']")
    page.check("input[name='fu'][value='20']")
    page.click("button.primary")
    expect(page.locator("#id_fu_error")).to_be_visible()
    assert page.is_checked("input[name='fu'][value='20']")
    assert page.is_checked("input[name='type'][value='tsumo']")

    # East 2: a yakuman ron from seat 1 takes them below zero; the game closes itself.
    # Yakuman waits behind its disclosure; pressing it clears a han already pressed.
    page.check("input[name='type'][value='ron']")
    page.check("input[name='wins_0_seat'][value='2']")
    page.check("input[name='discarder'][value='1']")
    page.check("input[name='wins_0_han'][value='2']")
    page.locator("fieldset[data-for='ron'] details.rare > summary").first.click()
    page.check("input[name='wins_0_yakuman'][value='1']")
    assert not page.is_checked("input[name='wins_0_han'][value='2']")
    page.click("button.primary")
    expect(page.locator(".card.done")).to_be_visible()

    page.goto(f"{base}/events/browser/")
    winner_row = page.locator("table.standings tr", has_text=seats[2])
    assert cell(page, winner_row, "Games").inner_text() == "1"
    assert float(cell(page, winner_row, "Total").inner_text()) > 0
    assert page.problems == []
