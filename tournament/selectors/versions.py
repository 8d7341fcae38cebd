"""What a public page's ETag is made from (http_caching.py), each one small query read
before the view runs: an event's row (selectors/events.event_by_slug), a game's version with
its seats' names, a player's events. What they cost a page is printed by `make bench` ("first
read").

The event's, the game's and the player's are read on nearly every request the public makes (a
game sheet or a player's page polled while nothing has moved costs its tag and one cache read),
and Django took longer to build each of them than PostgreSQL to answer it: 2.3 ms of the
process's CPU for a player's, 0.9 for a game's, against 0.15 to send and read the SQL (issue
46, docs/performance.md "The tags' queries"). So those are written as SQL once and read through
a plain cursor, each time and date converted here as both databases give it (`moment`,
`day`): `Model.objects.raw`, which converts them through the model's fields, took as much CPU
again as the cursor (0.65 against 0.31 ms a game's on the bench machine, issue 67) by building
a model instance a row. tests/tournament/test_tag_queries.py holds the querysets they stand for
and checks both give the same answers on both databases."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language

from tournament.models import Entry, Event, Game, Player, RatingDue, RatingStep, Round, Seat, Stage
from tournament.selectors.cache import event_stamp

# An event is still being played on its day and the next (a two-day tournament, a night that
# runs past midnight); after that only a stage left open would not say it is over.
RUNNING_DAYS = timedelta(days=1)


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

    @property
    def shown(self) -> list[object]:
        """What its sheet shows, for the page's tag: its own stamp, round, table, players'
        names, event's name and whether it is final — and the event's stamp while it may
        reach its last hand (what each player needs moves with the other tables)."""
        shown: list[object] = [self.stamp, self.round, self.table, self.names, self.event_name]
        return [*shown, self.finished, *([self.event_stamp] if self.in_play else [])]

    @property
    def sheet_key(self) -> tuple:
        """What the rendered sheet is kept by (game_page.html): the game's own stamp, its
        players' names, the event's name and the language — a result at another table leaves
        it as it was. Its event's address and rules are not in it: neither ever changes."""
        return (self.stamp, self.names, self.event_name, get_language())

    @property
    def conditions_key(self) -> tuple:
        """What the conditions panel is kept by: what each player needs moves with the other
        tables' results, so the event's stamp, and the language."""
        return (self.event_stamp, self.game_id, get_language())


@cache
def _game_sql() -> str:
    """A row per seat in seat order: the game's id, creation time, version, table, whether
    it is finished and its mode, its round's number and event, the event's stamp and name,
    the seat's player's name."""
    game, seat, rnd, event, player = (m._meta.db_table for m in (Game, Seat, Round, Event, Player))
    return f"""
        SELECT g.id, g.created_at, g.version, g."table", g.finished, g.mode,
               r.number AS round_number, e.id AS event_id, e.created_at AS event_created,
               e.version AS event_version, e.name AS event_name, p.name AS player_name
        FROM {seat} s
        JOIN {game} g ON g.id = s.game_id
        JOIN {rnd} r ON r.id = g.round_id
        JOIN {event} e ON e.id = r.event_id
        JOIN {player} p ON p.id = s.player_id
        WHERE s.game_id = %s AND e.slug = %s
        ORDER BY s.position"""


def sql_rows(sql: str, params: list[Any]) -> list[tuple]:
    """The rows of a query written as SQL, as the database's driver gives them."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def game_version(game_id: int, slug: str) -> GameVersion | None:
    """One query of plain values, a row per seat in seat order; None for a game of another
    event (a game always has its seats)."""
    rows = sql_rows(_game_sql(), [game_id, slug])
    if not rows:
        return None
    _id, created, version, table, finished, mode, number, event_id, event_created, *rest = rows[0]
    event_version, event_name, _player_name = rest
    return GameVersion(
        game_id,
        event_stamp((game_id, moment(created), version)),  # the game's own, made the same way
        number,
        table,
        not finished and mode == "hands",
        [row[11] for row in rows],
        event_id,
        event_stamp((event_id, moment(event_created), event_version)),
        event_name,
        bool(finished),
    )


# A table's feed's columns: its game's stamp, the event's structure and its standings' rows.
TABLE_STAMP = (
    "pk",
    "created_at",
    "version",
    "round__event__structure_version",
    "round__event__rows_version",
)


def table_stamp(slug: str, round_number: int, table: int) -> tuple[Any, ...] | None:
    """What the feed of a table shows can move with: the game's own stamp (every write to it
    moves its version: a hand, an undo, a correction, a confirmation), the event's structure
    (a player renamed, the rules) and its standings' rows (what each seat needs in the last
    hand, or before the last game, moves when another table's result is final); another
    table's hand does not. One query; None if the event has no such table."""
    games = Game.objects.filter(round__event__slug=slug, round__number=round_number, table=table)
    return games.values_list(*TABLE_STAMP).first()


def featured_stamp(slug: str) -> tuple[Any, ...] | None:
    """`table_stamp` of the event's table on stream (CONTRACT §9), found in the same query: the
    game's id is in it, so featuring another table moves it as that game's hands do. One
    query; None if no table is featured (or no such event)."""
    games = Game.objects.filter(round__event__slug=slug, round__event__featured_game=F("pk"))
    return games.values_list(*TABLE_STAMP).first()


def moment(value: datetime | str) -> datetime:
    """A time read in raw SQL: PostgreSQL gives an aware datetime, SQLite a naive one (or its
    text) in UTC, as Django stores every time there."""
    parsed = value if isinstance(value, datetime) else parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a time: {value!r}")
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def day(value: date | str) -> date:
    """A date read in raw SQL: a date from PostgreSQL, from SQLite a date or its text."""
    parsed = value if isinstance(value, date) else parse_date(value)
    if parsed is None:
        raise ValueError(f"not a date: {value!r}")
    return parsed


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


@cache
def _player_sql() -> str:
    """A row per event the player entered, in event order: the event's id, creation time,
    version, name, address and day; the player's name; their site rating's newest step;
    whether the site's ratings wait for a replay; whether the event has a stage left open,
    and any stage."""
    entry, event, player, step, due, stage = (
        m._meta.db_table for m in (Entry, Event, Player, RatingStep, RatingDue, Stage)
    )
    return f"""
        SELECT e.id, e.created_at, e.version, e.name, e.slug, e.held_on,
               p.name AS player_name,
               (SELECT t.id FROM {step} t
                WHERE t.player_id = n.player_id AND t.series_id IS NULL
                ORDER BY t.id DESC LIMIT 1) AS rating_step,
               EXISTS (SELECT 1 FROM {due} d WHERE d.series_id IS NULL) AS ratings_due,
               EXISTS (SELECT 1 FROM {stage} g WHERE g.event_id = e.id AND NOT g.closed)
                   AS stage_open,
               EXISTS (SELECT 1 FROM {stage} g WHERE g.event_id = e.id) AS staged
        FROM {entry} n
        JOIN {event} e ON e.id = n.event_id
        JOIN {player} p ON p.id = n.player_id
        WHERE n.player_id = %s
        ORDER BY e.id"""


def player_events(player_id: int) -> PlayerEvents | None:
    """One query, a row per event entered; None for a player in no event."""
    rows = sql_rows(_player_sql(), [player_id])
    if not rows:
        return None
    events, running = {}, set()
    for pk, created, version, name, slug, held_on, *_rest, stage_open, staged in rows:
        events[pk] = (event_stamp((pk, moment(created), version)), name, slug)
        # SQLite answers EXISTS with 0 or 1.
        if event_running(over=bool(staged) and not stage_open, held_on=day(held_on)):
            running.add(pk)
    player_name, rating_step, ratings_due = rows[0][6:9]
    return PlayerEvents(player_name, events, rating_step, bool(ratings_due), frozenset(running))


def event_running(*, over: bool, held_on: date) -> bool:
    """Still being played: not over and its day not past yesterday. The one rule for where
    "Notify me" is offered — a player's page, find your seat (issue 49)."""
    return not over and held_on >= timezone.localdate() - RUNNING_DAYS
