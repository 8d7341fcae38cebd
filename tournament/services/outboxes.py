"""Both outboxes sent (issue 49): a player's push messages and the organizer's channel posts,
each on its own — one kind's failure (a bug in a library, a database error while its words
are made) is logged and holds up neither the other kind nor its next run. Used by the task
queue's worker (tasks.py `notifications_send_task`) and `manage.py notifications`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from tournament.services.channel_send import channel_posts_next, channel_posts_send
from tournament.services.push_send import notifications_next, notifications_send

log = logging.getLogger(__name__)

# Each kind: how it sends what is due, and when its next row is due.
KINDS: dict[str, tuple[Callable[[], int], Callable[[], datetime | None]]] = {
    "push": (notifications_send, notifications_next),
    "channels": (channel_posts_send, channel_posts_next),
}
# A kind that raised is tried again this much later at the soonest: its rows taken stay
# leased (services/outbox_send.py LEASE), and an error that repeats must not spin the worker.
AFTER_FAILURE = timedelta(seconds=30)


@dataclass
class Run:
    """What one run sent, by kind, and the kinds that raised."""

    sent: dict[str, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.sent.values())


def outboxes_send() -> Run:
    """Every kind's due rows sent, each kind whatever the other did."""
    run = Run()
    for kind, (send, _next) in KINDS.items():
        try:
            run.sent[kind] = send()
        except Exception:  # one kind's failure is that kind's alone: logged, the other runs
            log.exception("notifications: sending the %s outbox failed", kind)
            run.sent[kind] = 0
            run.failed.append(kind)
    return run


def outboxes_next(run: Run) -> datetime | None:
    """When a run should come again: the first row still queued (a retry, a lease), not
    sooner than AFTER_FAILURE for a kind that raised; None when nothing waits."""
    now = timezone.now()
    dues: list[datetime] = []
    for kind, (_send, next_due) in KINDS.items():
        try:
            due = next_due()
        except Exception:
            log.exception("notifications: reading the %s outbox failed", kind)
            due = now
        if due is not None and kind in run.failed:
            due = max(due, now + AFTER_FAILURE)
        if due is not None:
            dues.append(due)
    return min(dues, default=None)
