"""Issue 29: at time-up the hand form offers "the game ends after this hand" by itself — the
table's phone does not need a reload when the round's clock runs out."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Game, Round
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_the_time_up_choice_appears_when_the_clock_runs_out(live_server, phone):
    event = make_event(slug="clock")
    event.table_entry, event.round_minutes = "tables", 1
    event.save()
    round_seat(event=event, rng=random.Random(4))
    # The round started 57 seconds ago: three seconds are left.
    Round.objects.filter(event=event).update(
        clock_started_at=timezone.now() - timedelta(seconds=57)
    )
    game = Game.objects.filter(round__event=event).order_by("table").first()
    link = game.links.get(revoked_at__isnull=True)
    phone.goto(f"{live_server.url}/t/{link.token}/")
    phone.fill("#id_code", link.seat_codes[0])
    phone.click("button.primary")
    choice = phone.locator("[data-time-up]")
    expect(choice).to_be_hidden()
    expect(choice).to_be_visible(timeout=8000)  # no reload: clock.js shows it at zero
    phone.check("input[name='type'][value='draw']")
    phone.check("input[name='time_up']")
    phone.click("button.primary")
    expect(phone.locator(".card.warning[role=status]")).to_contain_text("waits for another seat")
    assert phone.problems == []


def test_a_phone_opened_before_the_clock_follows_it_to_time_up_and_the_game_s_end(
    live_server, phone
):
    """helper-50: a phone opened at seating, before the organizer started the clock, never
    showed the clock nor the time-up choice, so its table could not end the game at time-up;
    and once the game ended, "Time is up" stayed. The clock is part of the page's live
    region, and its start, restart and extra minutes move the page's tag."""
    from tournament.services.clock import round_clock_start

    event = make_event(slug="clock-late")
    event.table_entry, event.round_minutes = "tables", 1
    event.save()
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    link = game.links.get(revoked_at__isnull=True)
    phone.goto(f"{live_server.url}/t/{link.token}/")
    phone.fill("#id_code", link.seat_codes[0])
    phone.click("button.primary")
    expect(phone.locator("form[data-hand]")).to_be_visible()
    phone.evaluate("window.notReloaded = true")
    assert phone.locator("[data-clock]").count() == 0
    assert phone.locator("input[name='time_up']").count() == 0
    # The organizer starts the clock; 57 s later three seconds are left. Written while the
    # phone's requests are held: on the tests' in-memory SQLite (one shared cache) a read that
    # meets this thread's write is refused at once ("database table is locked", a 503 the
    # phone then counted, seen once on a fresh-clone CI run), where a database file waits.
    held: list = []
    phone.route("**/*", lambda route: held.append(route))
    phone.wait_for_timeout(300)  # what was asked before is answered meanwhile
    round_clock_start(rnd=Round.objects.get(event=event))
    Round.objects.filter(event=event).update(
        clock_started_at=timezone.now() - timedelta(seconds=57)
    )
    for route in held:
        route.continue_()
    phone.unroute("**/*")  # and lets through any asked since
    expect(phone.locator("[data-clock]")).to_be_visible(timeout=8000)
    choice = phone.locator("[data-time-up]")
    expect(choice).to_be_visible(timeout=8000)  # at zero, no reload
    expect(phone.locator("[data-clock] [data-up]")).to_be_visible()
    assert phone.evaluate("window.notReloaded") is True
    phone.check("input[name='type'][value='draw']")
    phone.check("input[name='time_up']")
    phone.click("button.primary")
    expect(phone.locator(".card.warning[role=status]")).to_contain_text("waits for another seat")
    # Played out: no clock, no "Time is up".
    expect(phone.locator("[data-clock]")).to_have_count(0)
    assert phone.problems == []
