"""Issue 13, the round clock: the start stored on the server, so every page counts down to the
same moment; extra minutes for one table; at time-up a table may end its game after the hand
in play."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import Game, Round
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db


def setup():
    event = make_event(slug="c")
    client = logged_in(organizer_for(event))
    round_seat(event=event, rng=random.Random(2))
    games = list(Game.objects.filter(round__event=event).order_by("table"))
    return event, client, games


def ends(html: str) -> str:
    return html.split('data-ends="')[1].split('"')[0]


def test_the_clock_needs_minutes_then_every_page_counts_to_the_same_end():
    event, client, games = setup()
    client.post(url("round-clock", event.slug, 1))
    assert Round.objects.get(event=event).clock_started_at is None  # no minutes set yet
    client.post(url("round-minutes", event.slug), {"round_minutes": "60"})
    client.post(url("round-clock", event.slug, 1))
    started = Round.objects.get(event=event).clock_started_at
    assert started is not None
    public = text(client.get(url("round-detail", event.slug, 1)))
    sheet = text(client.get(url("game-hands", event.slug, games[1].pk)))
    screen = text(client.get(url("standings-screen", event.slug)))
    assert "Time left" in public and ends(public) == ends(sheet) == ends(screen)
    assert datetime.fromisoformat(ends(public)) == started + timedelta(minutes=60)
    # Extra minutes for table 1 only.
    client.post(url("game-extra", event.slug, games[0].pk), {"minutes": "5"})
    first = text(client.get(url("game-hands", event.slug, games[0].pk)))
    assert ends(first) > ends(sheet)


def test_at_time_up_the_hand_may_end_the_game():
    event, client, games = setup()
    client.post(url("round-minutes", event.slug), {"round_minutes": "60"})
    client.post(url("round-clock", event.slug, 1))
    game = games[0]
    page = text(client.get(url("game-hands", event.slug, game.pk)))
    # In the page already, hidden until clock.js reaches zero (no reload needed) …
    assert '<div class="card warning" data-time-up hidden>' in page and 'name="time_up"' in page
    # … and refused by the server before time is up.
    early = client.post(
        url("game-hands", event.slug, game.pk),
        {"version": game.version, "type": "draw", "tenpai": ["0"], "time_up": "on"},
    )
    assert early.status_code == 400 and "time is not up yet" in text(early)
    assert game.hands.count() == 0
    Round.objects.filter(event=event).update(
        clock_started_at=Round.objects.get(event=event).clock_started_at - timedelta(minutes=61)
    )
    page = text(client.get(url("game-hands", event.slug, game.pk)))
    assert "Time is up" in page and '<div class="card warning" data-time-up>' in page
    # A sentence beside its box keeps its own colon alone (helper-49 saw "…hand:").
    assert "the game ends after this hand</label>" in page
    reply = client.post(
        url("game-hands", event.slug, game.pk),
        {"version": game.version, "type": "draw", "tenpai": ["0"], "time_up": "on"},
    )
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.finished and game.hands.get().data["time_up"] is True


@pytest.mark.parametrize("minutes", ["-1", "601", "ten"])
def test_bad_minutes_are_refused_and_change_nothing(minutes):
    event, client, _ = setup()
    reply = client.post(url("round-minutes", event.slug), {"round_minutes": minutes}, follow=True)
    event.refresh_from_db()
    assert event.round_minutes == 0 and "0 (no clock) to 600" in text(reply)


def test_no_time_left_is_shown_for_play_that_is_over():
    from tournament.services.games import game_correct

    event, client, games = setup()
    client.post(url("round-minutes", event.slug), {"round_minutes": "60"})
    client.post(url("round-clock", event.slug, 1))
    for game in games:  # every table of round 1 finished by final scores
        names = [s.player.name for s in game.seats.order_by("position")]
        data = {"round": 1, "table": game.table, "seats": names}
        game_correct(
            game=game,
            data={**data, "scores": [40000, 30000, 20000, 10000]},
            expected_version=game.version,
        )
        sheet = text(client.get(url("game-hands", event.slug, game.pk)))
        assert "Time left" not in sheet  # that table's play is over
        if game is not games[-1]:  # another table still plays: the round's clock runs
            assert "Time left" in text(client.get(url("round-sheet", event.slug, 1)))
    done = text(client.get(url("round-sheet", event.slug, 1)))
    assert "Time left" not in done and "the clock" not in done  # nor (re)start it
    assert "Time left" not in text(client.get(url("round-detail", event.slug, 1)))


def test_a_table_whose_time_up_hand_ended_its_game_shows_no_clock():
    """helper-49's walk: once the hand at time-up ended the game, the table's phone and the
    round's pages still said "Time is up: finish the hand in play" while the result waited for
    a second seat. Play there is over: no clock on the table's pages; the round's clock stops
    when every table has played out (finished, waiting or disputed)."""
    from django.test import Client

    event, client, games = setup()
    event.table_entry = "tables"
    event.save()
    client.post(url("round-minutes", event.slug), {"round_minutes": "60"})
    client.post(url("round-clock", event.slug, 1))
    Round.objects.filter(event=event).update(
        clock_started_at=Round.objects.get(event=event).clock_started_at - timedelta(minutes=61)
    )
    phone = Client()
    game = games[0]
    link = game.links.get(revoked_at__isnull=True)
    phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
    assert "Time is up" in text(phone.get(f"/t/{link.token}/"))
    reply = phone.post(
        f"/t/{link.token}/",
        {"do": "hand", "version": game.version, "type": "draw", "tenpai": ["0"], "time_up": "on"},
    )
    assert reply.status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting" and not game.finished
    for page in (
        phone.get(f"/t/{link.token}/"),
        client.get(url("game-hands", event.slug, game.pk)),
    ):
        assert "Time is up" not in text(page) and "Time left" not in text(page)
    # Another table still plays: the round's pages keep the clock …
    assert "Time is up" in text(client.get(url("round-sheet", event.slug, 1)))
    # … until every table has played out, whether finished or waiting for a second seat.
    Game.objects.filter(round__event=event).exclude(pk=game.pk).update(
        confirmation="disputed", finished=False
    )
    for page in (
        client.get(url("round-sheet", event.slug, 1)),
        client.get(url("round-detail", event.slug, 1)),
        client.get(url("standings-screen", event.slug)),
    ):
        assert "Time is up" not in text(page) and "Time left" not in text(page)
