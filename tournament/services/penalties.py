"""Writes for penalties: point adjustments to a player's total, given and cancelled by an
organizer or referee; both logged. They count in the standings at once (the event's version
moves on with the log entry)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournament.models import Entry, Event, Penalty, Round
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.locks import event_lock
from tournament.services.stages import stage_require_open

MOST = Decimal("1000")  # no venue's adjustment comes near; a typo (−2000 for −20) does


@transaction.atomic
def penalty_give(
    *,
    event: Event,
    player: str,
    points: Any,
    reason: str,
    round_number: int | None = None,
    user: Any = None,
) -> Penalty:
    """A penalty (negative points) or bonus for a registered player, optionally in a round."""
    event_lock(event.pk)
    entry = Entry.objects.filter(event=event, player__name=player).select_related("player")
    found = entry.first()
    if found is None:
        raise ServiceError("penalty.player", "player", name=player)
    try:
        value = Decimal(str(points)).quantize(Decimal("0.1"))
    except (InvalidOperation, ValueError):
        raise ServiceError("penalty.points", "points", value=str(points)) from None
    if value == 0 or abs(value) > MOST:
        raise ServiceError("penalty.points", "points", value=str(points))
    reason = " ".join(str(reason).split())[:200]
    if not reason:
        raise ServiceError("penalty.reason", "reason")
    known = round_number is None or Round.objects.filter(event=event, number=round_number).exists()
    if not known:
        raise ServiceError("penalty.round", "round_number", round=round_number)
    _require_open(event, round_number)
    penalty = Penalty.objects.create(
        event=event,
        player=found.player,
        round_number=round_number,
        points=value,
        reason=reason,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    change_record(
        event=event,
        user=user,
        action="penalty.give",
        summary=f"{player} {value}",
        after=_logged(penalty),
    )
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, user: Any = None) -> Penalty:
    """Cancel a penalty: kept, marked cancelled, no longer counted."""
    event_lock(penalty.event_id)
    penalty.refresh_from_db()
    if penalty.cancelled_at is not None:
        return penalty  # cancelled by a first tap whose answer was not seen
    _require_open(penalty.event, penalty.round_number)
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = user if getattr(user, "is_authenticated", False) else None
    penalty.save(update_fields=["cancelled_at", "cancelled_by"])
    change_record(
        event=penalty.event,
        user=user,
        action="penalty.cancel",
        summary=f"{penalty.player.name} {penalty.points}",
        before=_logged(penalty),
    )
    return penalty


def _require_open(event: Event, round_number: int | None) -> None:
    """A closed stage's standings are final: a penalty in one of its rounds, or in none (it
    counts in every stage: scoring/standings/records.py `penalties_in`), would change them —
    given or cancelled alike."""
    rounds = [] if round_number is None else [round_number]
    stage_require_open(event, rounds=rounds, every=round_number is None)


def _logged(penalty: Penalty) -> dict[str, Any]:
    return {
        "player": penalty.player.name,
        "points": float(penalty.points),
        "round": penalty.round_number,
        "reason": penalty.reason,
    }
