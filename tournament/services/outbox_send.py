"""The one sender loop of the site's outboxes (issue 49; models/outbox.py): a player's push
messages (services/push_send.py) and the organizer's channel posts (services/channel_send.py)
are taken the same way, retried at the same pace and settled the same way — only how one is
sent, and what a give-up logs, differ.

Taking: the due rows, oldest first, moved to a lease time of this sender's own (a microsecond
drawn at random) by one UPDATE that takes only rows still due, then read back by it — a second
sender running meanwhile (the command beside the worker) takes none of them (no row lock, so
none but services/locks.py's); a sender killed mid-batch leaves them to the next once the
lease ends. Settling: sent (or nothing left to say) deleted; a failure due again later, or
after TRIES given up and logged once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TypeVar

from django.db import transaction
from django.utils import timezone

from tournament.models.outbox import Outbox

# Taken rows are not due again for this long (the lease).
LEASE = timedelta(minutes=2)
TRIES = 4  # a row's sends before it is given up (the first and three retries)
AGAIN_AFTER = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10))

Row = TypeVar("Row", bound=Outbox)


def again_at(now: datetime, tries: int) -> datetime:
    """When a send that failed `tries` times is tried again."""
    return now + AGAIN_AFTER[min(tries, len(AGAIN_AFTER)) - 1]


def outbox_claim(model: type[Row], now: datetime, batch: int, related: Sequence[str]) -> list[Row]:
    """Up to `batch` of `model`'s due rows, oldest first, taken for LEASE (read with
    `related`). Three queries; one when nothing is due."""
    due = model.objects.filter(due_at__lte=now).order_by("due_at", "pk")
    candidates = list(due.values_list("pk", flat=True)[:batch])
    if not candidates:
        return []
    lease = now + LEASE + timedelta(microseconds=secrets.randbelow(10**6))
    model.objects.filter(pk__in=candidates, due_at__lte=now).update(due_at=lease)
    mine = model.objects.filter(pk__in=candidates, due_at=lease).order_by("pk")
    return list(mine.select_related(*related))


def outbox_settle(
    model: type[Row],
    rows: Sequence[Row],
    failed: Mapping[int, str],
    now: datetime,
    *,
    gave_up: Callable[[Row, int, str], None],
    also: Callable[[], None] | None = None,
) -> None:
    """Write back a batch in one transaction: every row not in `failed` (row id → why)
    deleted; `also` run (push: the subscriptions the service says are gone); each failure
    due again later, or given up after TRIES — `gave_up(row, tries, why)` logs it."""
    with transaction.atomic():
        model.objects.filter(pk__in=[r.pk for r in rows if r.pk not in failed]).delete()
        if also is not None:
            also()
        for row in rows:
            if row.pk not in failed:
                continue
            tries = row.attempts + 1
            if tries >= TRIES:
                gave_up(row, tries, failed[row.pk])
                model.objects.filter(pk=row.pk).delete()
            else:
                model.objects.filter(pk=row.pk).update(attempts=tries, due_at=again_at(now, tries))


def outbox_drain(
    model: type[Row],
    batch: int,
    related: Sequence[str],
    send: Callable[[list[Row], datetime], int],
) -> int:
    """Every row due now taken a batch at a time (`outbox_claim`) and handed to `send`, which
    sends them and settles them (`outbox_settle`) and says how many went, until none is due;
    how many went in all. Rows tried again later stay queued (`outbox_next`)."""
    total = 0
    while True:
        now = timezone.now()
        rows = outbox_claim(model, now, batch, related)
        if not rows:
            return total
        total += send(rows, now)


def outbox_next(model: type[Outbox]) -> datetime | None:
    """When the earliest row still queued is due (a retry, or a lease ending), or None."""
    return model.objects.order_by("due_at").values_list("due_at", flat=True).first()
