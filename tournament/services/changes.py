"""A change to an event: its version moved on and the change logged, together (change_record)."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils import timezone

from tournament.models import AuditEntry, Event


def event_touch(event_id: int, *, results_only: bool = False) -> None:
    """Mark an event as changed: what readers cached for the old version is not served again,
    and pages say when the event last changed. `results_only`: the write changed games and
    nothing else the standings read but the entries it recounted (services/standings.py marks
    them), so a reader may re-rank from the standings it holds and those entries. Anything
    else — the default, so a write that does not say is never half-seen — makes every reader
    rank the event from scratch (`Event.structure_version`)."""
    moved: dict[str, Any] = {"version": F("version") + 1, "updated_at": timezone.now()}
    if not results_only:
        moved["structure_version"] = F("version")
    Event.objects.filter(pk=event_id).update(**moved)


def change_record(
    *,
    event: Event | None,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
    at: Any = None,
    results_only: bool = False,
) -> AuditEntry:
    """A change, as every write makes one, in the write's transaction: the event's version
    moves on (`event_touch`: what readers cached for the old version is not served again, and
    pages say when the event last changed) and the change goes in the log (who, what, through
    which table, before and after). Named for both: no write may do one without the other.
    `results_only`: see `event_touch`."""
    if event is not None:
        event_touch(event.pk, results_only=results_only)
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
