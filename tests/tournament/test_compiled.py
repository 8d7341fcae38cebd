"""Querysets compiled once (selectors/compiled.py) give what the querysets themselves give."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import league_data
from tournament.models import Event, Game, Player, Seat
from tournament.selectors.compiled import Compiled
from tournament.services.imports import event_import

pytestmark = pytest.mark.django_db


def seats(game_id, slug):
    return (
        Seat.objects.filter(game_id=game_id, game__round__event__slug=slug)
        .order_by("position")
        .values_list("player__name", "score", "game__created_at", "game__round__event__name")
    )


def test_rows_and_instances_are_the_queryset_s_own():
    event = event_import(league_data(8, 2))
    other = league_data(8, 1)
    other["slug"] = "other"
    event_import(other)
    compiled = Compiled(seats, -1, "stand-in")
    for game in Game.objects.all():
        for slug in (event.slug, "other", "nowhere"):
            assert compiled.rows(game.pk, slug) == list(seats(game.pk, slug))
    events = Compiled(lambda slug: Event.objects.filter(slug=slug), "stand-in")
    [found] = events.instances(event.slug)
    [expected] = Event.objects.filter(slug=event.slug)
    assert [(f.attname, getattr(found, f.attname)) for f in Event._meta.concrete_fields] == [
        (f.attname, getattr(expected, f.attname)) for f in Event._meta.concrete_fields
    ]
    assert found.rules == expected.rules and found._state.db == expected._state.db
    assert events.instances("nowhere") == []
    # One query a call, and an id no row can have is simply none (SQLite cannot bind it).
    first = Game.objects.first().pk
    with CaptureQueriesContext(connection) as captured:
        compiled.rows(first, event.slug)
    assert len(captured) == 1
    assert compiled.rows(10**30, event.slug) == []


def test_a_stand_in_the_sql_does_not_carry_as_it_is_is_refused():
    # `contains` sends "%stand-in%": putting a value in its place would be wrong, so no call runs.
    by_name = Compiled(lambda part: Player.objects.filter(name__contains=part), "stand-in")
    with pytest.raises(ImproperlyConfigured, match="stand-in"):
        by_name.rows("Player")


def test_each_page_s_first_read_compiled_is_its_queryset():
    from tournament.selectors.compiled import (
        EVENT_BY_SLUG,
        GAME_VERSION,
        PLAYER_EVENTS,
        event_by_slug,
        game_version_rows,
        player_event_rows,
    )

    event = event_import(league_data(8, 2))
    [found] = EVENT_BY_SLUG.instances(event.slug)
    assert found.pk == event.pk and found.version == event_by_slug(event.slug).get().version
    assert EVENT_BY_SLUG.instances("nowhere") == list(event_by_slug("nowhere")) == []
    for game in Game.objects.all():
        for slug in (event.slug, "nowhere"):
            assert GAME_VERSION.rows(game.pk, slug) == list(game_version_rows(game.pk, slug))
    for player in Player.objects.all():
        assert PLAYER_EVENTS.rows(player.pk) == list(player_event_rows(player.pk))
    assert GAME_VERSION.rows(1, event.slug) == list(game_version_rows(1, event.slug))
