from __future__ import annotations

from typing import Any

from tournament.models import AuditEntry, Event


def audit_record(
    *,
    event: Event | None,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        summary=summary[:300],
        before=before,
        after=after,
    )
