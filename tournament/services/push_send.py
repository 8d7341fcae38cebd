"""Sending the queued Web Push messages (CONTRACT §7), by the task queue's worker
(tasks.py `notifications_send_task`) or `manage.py notifications` — never in a request.

Each message is encrypted `aes128gcm` for its subscription (RFC 8291) and signed with the
site's VAPID key (RFC 8292) by pywebpush. A 404 or 410 from the push service means the
browser has dropped the subscription: it is deleted, its other messages with it. Any other
failure (the service down, a timeout, a 429 or 5xx) is tried again later, up to TRIES times,
then given up and logged once. Each message is its own request: one dead endpoint stops no
other, and the organizer's write that queued them has long been answered.
"""

from __future__ import annotations

import json
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from tournament.models import Notification, PushSubscription
from tournament.push_keys import vapid_of
from tournament.selectors.push import notification_payloads

log = logging.getLogger(__name__)

BATCH = 200  # messages taken at once: sent, then written back, before the next
# Taken messages are not due again for this long: a second sender running meanwhile (the
# command beside the worker) skips them; a sender killed mid-batch leaves them to the next.
LEASE = timedelta(minutes=2)
TRIES = 4  # a message's sends before it is given up (the first and three retries)
AGAIN_AFTER = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10))


def again_at(now: datetime, tries: int) -> datetime:
    """When a send that failed `tries` times is tried again (channel posts keep the same pace)."""
    return now + AGAIN_AFTER[min(tries, len(AGAIN_AFTER)) - 1]


TIMEOUT = 10  # seconds a push service has to answer one message
# How long a push service keeps a message for a phone that is off (RFC 8030 §5.2): after
# an hour the seating or the standings it tells of has moved on.
TTL = 3600
SENDERS = 8  # requests in flight at once: a 256-player round sent in a few seconds
GONE = (404, 410)  # the subscription has expired or was unsubscribed (RFC 8030 §7.3)


@dataclass(frozen=True)
class Outcome:
    row: int
    status: str  # "sent", "gone", "failed", or "skipped" (nothing left to say)
    detail: str = ""


def _claim(now: datetime) -> list[Notification]:
    """The due messages, oldest first, taken for LEASE: moved to a lease time of this
    sender's own (a microsecond drawn at random) by one UPDATE that takes only rows still due,
    then read back by it — a second sender's UPDATE takes none of them (no row lock, so none
    but services/locks.py's)."""
    due = Notification.objects.filter(due_at__lte=now).order_by("due_at", "pk")
    candidates = list(due.values_list("pk", flat=True)[:BATCH])
    if not candidates:
        return []
    lease = now + LEASE + timedelta(microseconds=secrets.randbelow(10**6))
    Notification.objects.filter(pk__in=candidates, due_at__lte=now).update(due_at=lease)
    mine = Notification.objects.filter(pk__in=candidates, due_at=lease).order_by("pk")
    return list(mine.select_related("subscription__player", "round__event__venue", "game"))


def _claims() -> dict[str, str]:
    subject = settings.VAPID_SUBJECT or f"mailto:{settings.SERVER_EMAIL}"
    return {"sub": subject}


def _send(row: Notification, payload: dict[str, str]) -> Outcome:
    """One message, over HTTP (in a thread of the pool: no database here)."""
    vapid, _public = vapid_of(settings.VAPID_PRIVATE_KEY)
    subscription = row.subscription
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            json.dumps(payload, ensure_ascii=False),
            vapid_private_key=vapid,
            vapid_claims=_claims(),  # a new dict: pywebpush writes `aud` and `exp` into it
            content_encoding="aes128gcm",
            timeout=TIMEOUT,
            ttl=TTL,
        )
    except WebPushException as exc:
        status = exc.status_code
        if status in GONE:
            return Outcome(row.pk, "gone", str(status))
        return Outcome(row.pk, "failed", f"HTTP {status}" if status else str(exc)[:200])
    except (requests.RequestException, ValueError, TypeError) as exc:
        # The service unreachable, or keys a browser never made (the encryption refuses them).
        return Outcome(row.pk, "failed", f"{type(exc).__name__}: {str(exc)[:200]}")
    return Outcome(row.pk, "sent")


def _settle(rows: dict[int, Notification], outcomes: list[Outcome], now: datetime) -> int:
    """Write back what happened: sent messages deleted; a gone subscription deleted (its
    messages with it); a failure due again later, or given up and logged after TRIES."""
    done = [o.row for o in outcomes if o.status != "failed"]
    gone = {rows[o.row].subscription_id for o in outcomes if o.status == "gone"}
    with transaction.atomic():
        Notification.objects.filter(pk__in=done).delete()
        if gone:
            PushSubscription.objects.filter(pk__in=gone).delete()
        for outcome in outcomes:
            if outcome.status != "failed":
                continue
            row = rows[outcome.row]
            tries = row.attempts + 1
            if tries >= TRIES:
                log.warning(
                    "push: gave up a %s message to subscription %s after %s tries (%s)",
                    row.kind,
                    row.subscription_id,
                    tries,
                    outcome.detail,
                )
                Notification.objects.filter(pk=row.pk).delete()
            else:
                Notification.objects.filter(pk=row.pk).update(
                    attempts=tries, due_at=again_at(now, tries)
                )
    return sum(1 for o in outcomes if o.status == "sent")


def notifications_send() -> int:
    """Send every message due now, a batch at a time, until none is; how many were sent.
    Messages tried again later stay queued (`notifications_next`)."""
    if not settings.VAPID_PRIVATE_KEY:
        return 0
    vapid_of(settings.VAPID_PRIVATE_KEY)  # a key that is not one: said here, once, loudly
    total = 0
    with ThreadPoolExecutor(SENDERS) as pool:
        while True:
            now = timezone.now()
            rows = _claim(now)
            if not rows:
                return total
            payloads = notification_payloads(rows)
            work = [(row, payloads[row.pk]) for row in rows]
            silent = [Outcome(row.pk, "skipped") for row, payload in work if payload is None]
            said = [(row, payload) for row, payload in work if payload is not None]
            outcomes = list(pool.map(lambda item: _send(*item), said))
            total += _settle({row.pk: row for row in rows}, outcomes + silent, now)


def notifications_next() -> datetime | None:
    """When the earliest message still queued is due (a retry), or None."""
    first = Notification.objects.order_by("due_at").values_list("due_at", flat=True).first()
    return first
