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
