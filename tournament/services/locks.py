"""The one lock every write to an event takes first.

Holding the event's row while a write checks and changes its games, players and stages makes
those writes happen one after another: a stage cannot close while a game of it is corrected,
two taps on "seat the next round" cannot both see the same next round, and since every write
takes this lock before any other row's, two writes never wait on each other in a circle.
(SQLite has one writer at a time anyway; there `select_for_update` is a no-op.)

PostgreSQL's `FOR NO KEY UPDATE`, not `FOR UPDATE`: it keeps writes to the event apart just
the same, but not a row that merely refers to the event — a rating replay's new steps check
their key to it at commit (`FOR KEY SHARE`), and while a results write held the event `FOR
UPDATE` waiting for the pool's due row the replay had deleted, the two waited on each other (a
deadlock seen by `make load`'s tournament day)."""

from __future__ import annotations

from tournament.models import Event


def event_lock(event_id: int) -> None:
    """Take the event's row lock for the rest of the transaction (call inside `atomic`)."""
    locked = Event.objects.select_for_update(no_key=True).filter(pk=event_id)
    list(locked.values_list("pk", flat=True))


def game_event_lock(game_id: int) -> int | None:
    """Take the lock of the event a game belongs to, found through the game in the same query
    (only the event's row is locked); the event's id, or None if the game is gone. The game's
    own row is locked next, by services/game_change.py."""
    events = Event.objects.select_for_update(of=("self",), no_key=True).filter(
        rounds__games=game_id
    )
    return events.values_list("pk", flat=True).first()


# Rating pools span events, so an event's lock does not keep two replays of one pool apart (two
# events' tables finishing at once): each replay holds its pool's lock, taken after the event's
# and pools in one order (the site's, then series by id), so no two writes wait in a circle.
# PostgreSQL: a transaction-scoped advisory lock on a number of the pool's own; SQLite has one
# writer at a time already.
POOL_LOCK_BASE = 0x5241_0000  # "RA": apart from any other advisory lock a deployment takes


def pool_lock(series_id: int | None) -> None:
    """Take a rating pool's lock for the rest of the transaction (call inside `atomic`)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [POOL_LOCK_BASE, series_id or 0])
