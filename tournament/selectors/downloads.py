"""What each download is kept by: one stamp function per file, each moving with everything
that file shows (exports/files.py keeps the bytes under it, and asks nothing else).

Most writes reach a stamp through the event's version (services/changes.py: every write to
an event moves it, in its own transaction). The exceptions are named where they matter: a
hand moves the version but not the standings' rows; a venue renamed in the admin, a series'
rule or its events, and a pool's ratings replayed by the queue move no event at all."""

from __future__ import annotations

from django.db.models import Count, Max, Sum

from tournament.models import Event, Rating, Series, SeriesEvent
from tournament.selectors.cache import event_stamp, tag_hash
from tournament.selectors.published import rows_stamp
from tournament.selectors.ratings import Pool


def standings_stamp(event: Event) -> str:
    """The standings file: the rows (the read model's `rows_stamp`, read from the event's row:
    a hand leaves it, and a server that has not ranked the event serves the kept file), and
    the event's name and rules, which move them too."""
    return rows_stamp(event)


def teams_stamp(event: Event) -> str:
    """The team standings: the rows summed by team; teams and their rule are set by writes
    that move the rows' stamp as any change but a result does (services/teams.py)."""
    return rows_stamp(event)


def ema_stamp(event: Event) -> str:
    """The EMA's file: the rows, the players' profiles (each edit moves the rows' stamp),
    the event's name and day — and its venue's name, which the admin renames without moving
    any event."""
    venue = event.venue.name if event.venue_id else ""
    return f"{rows_stamp(event)}:{tag_hash(venue)}"


def statistics_stamp(event: Event) -> str:
    """The statistics: counted from the hands, so every version of the event (a hand
    moves it)."""
    return event_stamp(event)


def entrants_stamp(event: Event) -> str:
    """The entrants: every write to a sign-up the file lists (registered, waiting, pending)
    moves the event's version; those that do not (an unconfirmed sign-up made, expired, told
    again) change only sign-ups the file leaves out."""
    return event_stamp(event)


def plan_stamp(event: Event) -> str:
    """The seating plan: made, uploaded or removed only through services/plans.py, which
    moves the event's version."""
    return event_stamp(event)


def series_stamp(series: Series) -> str:
    """A season's file: the series' own name and rule (a rule changed moves no event), its
    events in order (one added or removed moves no event of those that stay), and each
    event's stamp (their standings). One query."""
    members = SeriesEvent.objects.filter(series=series).order_by("position")
    events = [
        (position, event_stamp((pk, created, version)))
        for position, pk, created, version in members.values_list(
            "position", "event_id", "event__created_at", "event__version"
        )
    ]
    own = (series.pk, series.name, series.rule, series.best_of, series.min_games)
    return f"{series.pk}:{tag_hash([own, events])}"


def ratings_stamp(pool: Pool) -> str:
    """A pool's leaderboard file. Its ratings: the queue's replay deletes the rows it redoes
    and makes them again, never updating one (services/ratings.py), and ids are never reused
    — so their count, newest id and sum of ids change with every replay that changes them.
    Its players' names: a rename moves the structure of every event the player entered
    (services/players.player_rename), and only a change other than a result moves an event's
    `structure_version`, which never goes back — so their count and sum, over the pool's
    events, move with it without moving at every hand. Two queries."""
    ratings = Rating.objects.filter(series_id=pool.series_id).aggregate(
        n=Count("id"), top=Max("id"), ids=Sum("id")
    )
    events = Event.objects.all()
    if pool.series is not None:
        events = events.filter(series_members__series=pool.series)
    named = events.aggregate(n=Count("id"), moved=Sum("structure_version"))
    return f"{pool.series_id}:{tag_hash([ratings, named])}"
