"""The tags' hot queries (selectors/versions.py: a game's, a player's events, an event's row)
and a player's own games' key (selectors/players.py) are written as SQL for speed (issue 46):
here are the querysets they stand for, and the checks that both give the same answers in every
state a game or a player's events can be in, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from tests.tournament.factories import PLAYERS, make_event, scores_game
from tournament.models import Entry, Event, Game, Player, RatingDue, RatingStep, Seat, Stage
from tournament.selectors.cache import event_stamp
from tournament.selectors.players import own_games_key
from tournament.selectors.versions import (
    RUNNING_DAYS,
    GameVersion,
    PlayerEvents,
    game_version,
    player_events,
)
from tournament.services.games import game_record
from tournament.services.ratings import ratings_catch_up

pytestmark = pytest.mark.django_db


def game_version_by_queryset(game_id: int, slug: str) -> GameVersion | None:
    """What `game_version`'s SQL stands for."""
    rows = list(
        Seat.objects.filter(game_id=game_id, game__round__event__slug=slug)
        .order_by("position")
        .values_list(
            "player__name",
            "game__created_at",
            "game__version",
            "game__round__number",
            "game__table",
            "game__finished",
            "game__mode",
            "game__round__event_id",
            "game__round__event__created_at",
            "game__round__event__version",
            "game__round__event__name",
        )
    )
    if not rows:
        return None
    _name, created, number, rnd, table, finished, mode, event_id, event_created, version, name = (
        rows[0]
    )
    return GameVersion(
        game_id,
        event_stamp((game_id, created, number)),
        rnd,
        table,
        not finished and mode == "hands",
        [row[0] for row in rows],
        event_id,
        event_stamp((event_id, event_created, version)),
        name,
        finished,
    )


def player_events_by_queryset(player_id: int) -> PlayerEvents | None:
    """What `player_events`'s SQL stands for."""
    newest_step = (
        RatingStep.objects.filter(player_id=OuterRef("player_id"), series__isnull=True)
        .order_by("-pk")
        .values("pk")[:1]
    )
    rows = list(
        Entry.objects.filter(player_id=player_id)
        .order_by("event_id")
        .annotate(
            rating_step=Subquery(newest_step),
            ratings_due=Exists(RatingDue.objects.filter(series__isnull=True)),
            stage_open=Exists(Stage.objects.filter(event=OuterRef("event_id"), closed=False)),
            staged=Exists(Stage.objects.filter(event=OuterRef("event_id"))),
        )
        .values_list(
            "player__name",
            "event_id",
            "event__created_at",
            "event__version",
            "event__name",
            "event__slug",
            "rating_step",
            "ratings_due",
            "stage_open",
            "staged",
            "event__held_on",
        )
    )
    if not rows:
        return None
    events = {
        pk: (event_stamp((pk, created, number)), name, slug)
        for _n, pk, created, number, name, slug, *_rest in rows
    }
    since = timezone.localdate() - RUNNING_DAYS
    running = frozenset(row[1] for row in rows if (row[8] or not row[9]) and row[10] >= since)
    return PlayerEvents(rows[0][0], events, rows[0][6], rows[0][7], running)


def same_games(slug: str) -> None:
    for game in Game.objects.all():
        for asked in (slug, "other"):
            found = game_version(game.pk, asked)
            assert found == game_version_by_queryset(game.pk, asked)
    assert game_version(10**9, slug) is None


def own_games_key_by_queryset(player_id: int) -> list[tuple]:
    """What `own_games_key`'s SQL stands for."""
    return list(
        Seat.objects.filter(player_id=player_id, rank__isnull=False)
        .order_by("game_id")
        .values_list("game_id", "game__version", "game__table")
    )


def same_players() -> None:
    for player in Player.objects.all():
        assert player_events(player.pk) == player_events_by_queryset(player.pk)
        assert own_games_key(player.pk) == own_games_key_by_queryset(player.pk)
    assert player_events(10**9) is None


def test_a_game_s_tag_query_answers_as_its_queryset_in_every_state():
    event = make_event(slug="g")
    make_event(slug="other")  # a game asked under another event's address is not found
    finished = scores_game(event, 1, 1, PLAYERS[:4])
    playing = game_record(
        event=event, data={"round": 1, "table": 2, "seats": PLAYERS[4:8], "hands": []}
    )
    assert not playing.finished and playing.mode == "hands"
    same_games("g")
    found = game_version(playing.pk, "g")
    assert found is not None and found.in_play and not found.finished
    assert found.names == PLAYERS[4:8]
    assert game_version(finished.pk, "g").finished  # type: ignore[union-attr]
    # The event moves on with every write: the tag's stamp moves with it.
    before = game_version(finished.pk, "g")
    scores_game(event, 2, 1, PLAYERS[:4])
    after = game_version(finished.pk, "g")
    assert before is not None and after is not None
    assert before.event_stamp != after.event_stamp
    assert after.event_stamp == event_stamp(Event.objects.get(slug="g"))
    same_games("g")


def test_a_player_s_tag_query_answers_as_its_queryset_in_every_state():
    league = make_event(slug="league")
    staged = make_event(slug="staged")
    old = make_event(slug="old")
    Event.objects.filter(pk=old.pk).update(held_on=timezone.localdate() - timedelta(days=9))
    Stage.objects.filter(event=old).delete()  # an event made before stages were stored
    same_players()  # no rating yet, nothing due
    scores_game(league, 1, 1, PLAYERS[:4])
    scores_game(staged, 1, 1, PLAYERS[:4])
    game_record(  # a game still played: none of its seats counts yet
        event=league, data={"round": 2, "table": 1, "seats": PLAYERS[:4], "hands": []}
    )
    same_players()  # ratings due, not yet replayed
    assert len(own_games_key(Player.objects.get(name=PLAYERS[0]).pk)) == 2
    Stage.objects.filter(event=staged).update(closed=True)
    assert RatingDue.objects.filter(series__isnull=True).exists()
    ratings_catch_up(None)
    same_players()  # rated: their newest steps
    entered = player_events(Player.objects.get(name=PLAYERS[0]).pk)
    assert entered is not None and entered.rating_step is not None and not entered.ratings_due
    # Running: the league (no stage), not the event with its one stage closed, nor the old one.
    assert entered.running == {league.pk}
    assert set(entered.events) == {league.pk, staged.pk, old.pk}
    Stage.objects.create(event=staged, position=9, name="F", last_round=2, closed=False)
    same_players()  # a stage left open: still being played
    assert player_events(Player.objects.get(name=PLAYERS[0]).pk).running == {  # type: ignore[union-attr]
        league.pk,
        staged.pk,
    }
    Player.objects.create(name="Nobody")  # in no event
    same_players()


def test_the_event_s_query_answers_as_its_queryset():
    """`event_by_slug`'s SQL: the same row, every column converted as the ORM converts it
    (times, the rules' JSON), for an ASCII and a Japanese address; none for an unknown one."""
    from django.forms.models import model_to_dict

    from tournament.selectors.events import event_by_slug

    for slug in ("spring", "春の大会"):
        event = make_event(slug=slug)
        Event.objects.filter(pk=event.pk).update(version=7)
        found = event_by_slug(slug)
        expected = Event.objects.get(slug=slug)
        assert isinstance(found, Event) and found.pk == expected.pk
        assert model_to_dict(found) == model_to_dict(expected)
        assert (found.created_at, found.version) == (expected.created_at, 7)
        assert event_stamp(found) == event_stamp(expected)
    assert event_by_slug("nothing-here") is None
