"""The one lock every write to an event takes first.

Holding the event's row while a write checks and changes its games, players and stages makes
those writes happen one after another: a stage cannot close while a game of it is corrected,
two taps on "seat the next round" cannot both see the same next round, and since every write
takes this lock before any other row's, two writes never wait on each other in a circle.
(SQLite has one writer at a time anyway; there `select_for_update` is a no-op.)"""

from __future__ import annotations

from tournament.models import Event


def event_lock(event_id: int) -> None:
    """Take the event's row lock for the rest of the transaction (call inside `atomic`)."""
    list(Event.objects.select_for_update().filter(pk=event_id).values_list("pk", flat=True))
