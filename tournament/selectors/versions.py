"""What a public page's ETag is made from (views/conditional.py), each one small query read
before the view runs: an event's row, a game's version with its seats' names, a player's
events. Plain querysets: what they cost a page is printed by `make bench` ("first read")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from tournament.models import Entry, Event, RatingDue, RatingStep, Seat, Stage
from tournament.selectors.cache import event_stamp

# An event is still being played on its day and the next (a two-day tournament, a night that
# runs past midnight); after that only a stage left open would not say it is over.
RUNNING_DAYS = timedelta(days=1)


def event_by_slug(slug: str) -> Event | None:
    """The event a page of one event shows (the view gets this row). One query, its
    registration settings joined: the standings page links the sign-up while it is open."""
    return Event.objects.select_related("registration").filter(slug=slug).first()


def event_stamp_by_slug(slug: str) -> str | None:
    """The event's stamp alone, for an answer that reads the event itself (the API). One
    query."""
    row = Event.objects.filter(slug=slug).values_list("pk", "created_at", "version").first()
    return event_stamp(row) if row is not None else None


@dataclass(frozen=True)
class GameVersion:
    """What a game sheet is keyed by, read without building the game: the game's own stamp
    (id, creation time, version), its round, table and whether it may still reach its last
    hand (the page's title and conditions), its players' names in seat order, and its event's
    id, stamp and name. The event's rules are not in it: they are copied when the event is made
    and never change."""

    game_id: int
    stamp: str
    round: int
    table: int
    in_play: bool  # not finished and kept hand by hand: it may reach its last hand
    names: list[str]
    event_id: int
    event_stamp: str
    event_name: str
    finished: bool = False  # its result is final: a page of it no longer follows it


def game_version(game_id: int, slug: str) -> GameVersion | None:
    """One query of plain values, a row per seat in seat order; None for a game of another
    event (a game always has its seats)."""
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
        event_stamp((game_id, created, number)),  # the game's own, made the same way
        rnd,
        table,
        not finished and mode == "hands",
        [row[0] for row in rows],
        event_id,
        event_stamp((event_id, event_created, version)),
        name,
        finished,
    )


@dataclass(frozen=True)
class PlayerEvents:
    """What a player's page is keyed by: their name (a rename moves no event on), each event
    they entered by id — (stamp, name, slug) — their site rating's newest step (a
    correction in an earlier event replays ratings in later ones: issue 34), and whether the
    site's ratings wait for a replay (issue 46: the page says so until it has run)."""

    name: str
    events: dict[int, tuple[str, str, str]]
    rating_step: int | None
    ratings_due: bool = False
    # The events still being played — a stage not closed (or none stored) and their day not
    # past yesterday: their sections offer "Notify me" (issue 49).
    running: frozenset[int] = frozenset()


def player_events(player_id: int) -> PlayerEvents | None:
    """One query, a row per event entered; None for a player in no event."""
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
