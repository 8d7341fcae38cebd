"""CONTRACT §9's featured table (issue 68): the organizer puts a table of the round being played
on stream from the dashboard (services/events.event_feature_game); the overlay without
`?round=&table=` and the featured feed follow it. Logged like every organizer change; a game
of another event refused; a table deleted or a round unseated leaves none featured."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import translation

from tests.tournament.factories import baba_day, make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, Event, Game
from tournament.services.errors import ServiceError
from tournament.services.events import event_feature_game
from tournament.services.games import game_remove
from tournament.services.imports import event_delete
from tournament.services.rounds import round_seat, round_unseat

pytestmark = pytest.mark.django_db

JA = {"accept-language": "ja"}


def _tables(event: Event, number: int = 5) -> list[Game]:
    return list(Game.objects.filter(round__event=event, round__number=number).order_by("table"))


def _logged(event: Event) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(event=event, action="event.feature").order_by("pk"))


def test_featuring_sets_moves_and_clears_the_table_on_stream_each_logged():
    event = baba_day(slug="feature", played=4, seat_next=True)  # round 5 seated
    first, second = _tables(event)[:2]
    user = make_user("streamer")
    version = event.version

    event_feature_game(event=event, game=first, user=user)
    event.refresh_from_db()
    assert event.featured_game == first
    assert event.version > version  # pages that show it (the dashboard) move on
    event_feature_game(event=event, game=second, user=user)
    event.refresh_from_db()
    assert event.featured_game == second
    event_feature_game(event=event, game=None, user=user)
    event.refresh_from_db()
    assert event.featured_game is None

    put, moved, stopped = _logged(event)
    assert (put.before, put.after) == (None, {"round": 5, "table": first.table})
    assert moved.before == {"round": 5, "table": first.table}
    assert moved.after == {"round": 5, "table": second.table}
    assert (stopped.before, stopped.after) == ({"round": 5, "table": second.table}, None)
    assert put.user == user
    with translation.override("ja"):
        assert entry_sentence(moved) == f"第5回戦 {second.table}卓目"
        assert entry_sentence(stopped) == f"第5回戦 {second.table}卓目：配信卓から外しました"
    with translation.override("en"):
        assert entry_sentence(stopped) == f"Round 5 table {second.table}: no longer on stream"

    # The same choice again (a second tap) changes and logs nothing.
    version = Event.objects.get(pk=event.pk).version
    event_feature_game(event=event, game=None, user=user)
    assert Event.objects.get(pk=event.pk).version == version and len(_logged(event)) == 3


def test_a_game_of_another_event_is_refused_naming_the_field():
    event = baba_day(slug="feature-mine", played=4, seat_next=True)
    other = make_event(slug="feature-theirs")
    round_seat(event=other, rng=random.Random(1))
    theirs = Game.objects.filter(round__event=other).first()
    with pytest.raises(ServiceError) as refused:
        event_feature_game(event=event, game=theirs)
    assert (refused.value.code, refused.value.field) == ("event.feature_other", "game")
    event.refresh_from_db()
    assert event.featured_game_id is None and _logged(event) == []


def test_a_table_deleted_or_a_round_unseated_leaves_no_table_featured():
    event = make_event(slug="feature-gone")
    round_seat(event=event, rng=random.Random(1))
    first, second = _tables(event, 1)
    event_feature_game(event=event, game=first)
    game_remove(game=first)
    event.refresh_from_db()
    assert event.featured_game_id is None

    event_feature_game(event=event, game=second)
    round_unseat(rnd=second.round)
    event.refresh_from_db()
    assert event.featured_game_id is None
    assert not Game.objects.filter(round__event=event).exists()


def test_an_event_with_a_table_on_stream_is_deleted_whole():
    event = baba_day(slug="feature-deleted", played=4, seat_next=True)
    event_feature_game(event=event, game=_tables(event)[0])
    event_delete(event=event)
    assert not Event.objects.filter(slug="feature-deleted").exists()
    assert not Game.objects.filter(round__event_id=event.pk).exists()


# --- the dashboard ---------------------------------------------------------------------------


def test_the_organizer_features_a_table_from_the_dashboard_and_stops():
    event = baba_day(slug="feature-page", played=4, seat_next=True)
    first, second = _tables(event)[:2]
    client = logged_in(organizer_for(event))
    dashboard = url("event-manage", event.slug)
    page = text(client.get(dashboard, headers=JA))
    # Each table of the round being played has its button; none is on stream yet.
    for game in (first, second):
        assert f'action="{url("game-feature", event.slug, game.pk)}"' in page
    assert "配信卓にする" in page and "data-on-stream" not in page
    # The overlay's address, to paste into the streaming software.
    assert f'href="/events/{event.slug}/overlay/?lang=ja"' in page
    assert f"http://testserver/events/{event.slug}/overlay/?lang=ja" in page

    answer = client.post(url("game-feature", event.slug, second.pk), headers=JA)
    assert answer.status_code == 302 and answer["Location"] == dashboard
    page = text(client.get(dashboard, headers=JA))
    assert f"{second.table}卓を配信卓にしました。" in page
    row = page[page.index(f'action="{url("game-unfeature", event.slug)}"') - 600 :]
    assert "配信中" in row and "配信卓を外す" in row
    assert f'action="{url("game-feature", event.slug, second.pk)}"' not in page
    event.refresh_from_db()
    assert event.featured_game_id == second.pk

    # The live part the page refreshes says the same (its tag moved with the event).
    live = text(client.get(url("table-states", event.slug)))
    assert "data-on-stream" in live and url("game-unfeature", event.slug) in live

    answer = client.post(url("game-unfeature", event.slug))
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.featured_game_id is None
    assert "data-on-stream" not in text(client.get(dashboard))


def test_a_table_of_an_earlier_round_on_stream_can_still_be_stopped():
    event = baba_day(slug="feature-earlier", played=4, seat_next=False)  # round 4 done
    finished = _tables(event, 4)[0]
    event_feature_game(event=event, game=finished)
    round_seat(event=event, rng=random.Random(1))  # round 5 seated: round 4 is no longer listed
    client = logged_in(organizer_for(event))
    page = text(client.get(url("event-manage", event.slug), headers=JA))
    assert "前の回戦の卓" in page and url("game-unfeature", event.slug) in page
    assert url("game-feature", event.slug, _tables(event)[0].pk) in page


def test_only_the_event_s_organizers_feature_a_table():
    event = baba_day(slug="feature-rights", played=4, seat_next=True)
    game = _tables(event)[0]
    feature = url("game-feature", event.slug, game.pk)
    stop = url("game-unfeature", event.slug)
    anonymous = Client().post(feature)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Client().post(stop).status_code == 302
    # An organizer of another event, and a referee of this one: refused, and shown no button.
    other = make_event(slug="feature-other")
    stranger = logged_in(organizer_for(other, "stranger"))
    assert stranger.post(feature).status_code == 403 and stranger.post(stop).status_code == 403
    referee = make_user("referee")
    event.referees.add(referee)
    as_referee = logged_in(referee)
    assert as_referee.post(feature).status_code == 403
    page = text(as_referee.get(url("event-manage", event.slug)))
    assert feature not in page and "/overlay/" in page
    assert Event.objects.get(pk=event.pk).featured_game_id is None
    # A game of another event through this event's address: no such table here.
    round_seat(event=other, rng=random.Random(1))
    theirs = Game.objects.filter(round__event=other).first()
    owner = logged_in(organizer_for(event, "owner"))
    assert owner.post(url("game-feature", event.slug, theirs.pk)).status_code == 404
    assert owner.get(feature).status_code == 405  # a change is a POST
    assert owner.post(feature).status_code == 302
    assert Event.objects.get(pk=event.pk).featured_game_id == game.pk
