"""Writes for the round clock: the organizer sets the minutes a round lasts, starts a round's
clock (the start is stored, so every phone and the venue screen agree), and gives one table
extra minutes. Each logged."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournament.models import Event, Game, Round
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.game_change import game_change
from tournament.services.locks import event_lock

MOST_MINUTES = 600
# A table's extra minutes in all: a day of play (a small integer column: 274 × 120 overflowed).
MOST_EXTRA = 24 * 60


@transaction.atomic
def event_round_minutes_set(*, event: Event, minutes: Any, user: Any = None) -> Event:
    try:
        value = int(minutes)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value <= MOST_MINUTES:
        raise ServiceError("clock.minutes", "round_minutes", most=MOST_MINUTES)
    event_lock(event.pk)
    before = event.round_minutes
    event.round_minutes = value
    event.save(update_fields=["round_minutes", "updated_at"])
    change_record(
        event=event,
        user=user,
        action="clock.minutes",
        summary=f"{value} minutes per round",
        before={"round_minutes": before},
        after={"round_minutes": value},
    )
    return event


@transaction.atomic
def round_clock_start(*, rnd: Round, user: Any = None) -> Round:
    """Start (or restart from now) the round's clock."""
    event_lock(rnd.event_id)
    if not rnd.event.round_minutes:
        raise ServiceError("clock.no_minutes", "round_minutes")
    rnd.clock_started_at = timezone.now()
    rnd.save(update_fields=["clock_started_at"])
    change_record(
        event=rnd.event,
        user=user,
        action="clock.start",
        summary=f"round {rnd.number} clock started",
        after={"round": rnd.number, "minutes": rnd.event.round_minutes},
    )
    return rnd


def game_extra_minutes(*, game: Game, minutes: Any, user: Any = None) -> Game:
    """Extra minutes for one table (a late start, a long dispute)."""
    try:
        value = int(minutes)
    except (TypeError, ValueError):
        value = 0
    if not 1 <= value <= 120:
        raise ServiceError("clock.extra", "minutes")
    with game_change(game, None, user=user, results=False) as change:
        locked = change.game
        if locked.extra_minutes + value > MOST_EXTRA:
            raise ServiceError(
                "clock.extra_total",
                "minutes",
                table=locked.table,
                given=locked.extra_minutes,
                most=MOST_EXTRA,
            )
        locked.extra_minutes += value
        locked.save(update_fields=["extra_minutes"])  # beside the result: no version moved
        after = {"round": locked.round.number, "table": locked.table, "minutes": value}
        change.note("clock.extra", detail=f"+{value} min", after=after)
    game.extra_minutes = locked.extra_minutes  # the caller's copy, as a refresh gave it
    return game
