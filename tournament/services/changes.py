"""A change to an event: its version moved on and the change logged, together (change_record)."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils import timezone

from tournament.models import AuditEntry, Event


def event_touch(event_id: int) -> None:
    """Mark an event as changed: what readers cached for the old version is not served again,
    and pages say when the event last changed."""
    Event.objects.filter(pk=event_id).update(version=F("version") + 1, updated_at=timezone.now())


def change_record(
    *,
    event: Event | None,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
    at: Any = None,
) -> AuditEntry:
    """A change, as every write makes one, in the write's transaction: the event's version
    moves on (`event_touch`: what readers cached for the old version is not served again, and
    pages say when the event last changed) and the change goes in the log (who, what, through
    which table, before and after). Named for both: no write may do one without the other."""
    if event is not None:
        event_touch(event.pk)
    return AuditEntry.objects.create(
        event=event,
        user=user if getattr(user, "is_authenticated", False) else None,
        at_table=at.table if at is not None else None,  # through a table link (AtTable)
        at_seat=at.seat if at is not None else None,
        action=action,
        summary=summary[:300],
        before=before,
        after=after,
    )
