"""Issue 46 in a browser: at a large event the organizer's score form offers the table's four;
typing part of anyone else's name fills the seat's suggestions from the search
(static/js/players.js), and the name chosen is saved."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Game
from tournament.services.events import event_register_players
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

FIELD = [f"選手{i:03d}" for i in range(200)]


def test_typing_a_name_fills_the_suggestions_and_a_substitute_is_saved(live_server, phone):
    from django.contrib.auth import get_user_model

    event = make_event(slug="big", players=FIELD)
    user = get_user_model().objects.create_user("org", "org@example.com", "secret-pw")
    event.organizers.add(user)
    round_seat(event=event, rng=random.Random(4))
    event_register_players(event=event, names=["Late Comer"])  # registered, never seated
    game = Game.objects.get(round__event=event, table=1)
    base = live_server.url
    phone.goto(f"{base}/accounts/login/?next=/events/big/manage/games/{game.pk}/scores/")
    phone.fill("#id_username", "org")
    phone.fill("#id_password", "secret-pw")
    phone.click("main button[type=submit]")
    # The deferred players.js runs before DOMContentLoaded: typing earlier (the datalist is
    # in the page as soon as it is parsed) would find no listener yet — a race this test lost
    # about one run in two once the pages grew.
    phone.wait_for_url("**/scores/")
    phone.wait_for_load_state("domcontentloaded")
    options = phone.locator("datalist#event-players option")
    expect(options).to_have_count(4)  # the table's own four, nobody else
    phone.fill("#id_seat_1", "選手19")
    expect(options.first).to_have_attribute("value", "選手190")  # the search's, first
    values = options.evaluate_all("(os) => os.map((o) => o.value)")
    assert values[:10] == FIELD[190:] and len(values) <= 20 + 4
    phone.fill("#id_seat_1", "late")
    expect(options.first).to_have_attribute("value", "Late Comer")
    phone.fill("#id_seat_1", "Late Comer")
    for i, score in enumerate([40000, 30000, 20000, 10000]):
        phone.fill(f"#id_score_{i}", str(score))
    phone.locator("button.primary", has_text="Save").click()
    phone.wait_for_url("**/manage/rounds/1/")
    seats = game.seats.select_related("player").order_by("position")
    assert seats[1].player.name == "Late Comer"
    assert phone.problems == []
