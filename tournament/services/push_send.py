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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from tournament.models import Notification, PushSubscription
from tournament.push_keys import vapid_of
from tournament.selectors.push import notification_payloads
from tournament.services.outbox_send import (  # TRIES, again_at: the pace, said once
    TRIES,
    again_at,
    outbox_drain,
    outbox_next,
    outbox_settle,
)

log = logging.getLogger(__name__)

BATCH = 200  # messages taken at once: sent, then written back, before the next
RELATED = ("subscription__player", "round__event__venue", "game")  # what the words read
__all__ = ["TRIES", "again_at", "notifications_next", "notifications_send"]
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


def _settle(rows: list[Notification], outcomes: list[Outcome], now: datetime) -> int:
    """Write back what happened (services/outbox_send.py): sent messages deleted, a gone
    subscription deleted (its messages with it), a failure due again later or given up."""
    failed = {o.row: o.detail for o in outcomes if o.status == "failed"}
    by_pk = {row.pk: row for row in rows}
    gone = {by_pk[o.row].subscription_id for o in outcomes if o.status == "gone"}

    def gave_up(row: Notification, tries: int, detail: str) -> None:
        log.warning(
            "push: gave up a %s message to subscription %s after %s tries (%s)",
            row.kind,
            row.subscription_id,
            tries,
            detail,
        )

    def drop_gone() -> None:
        if gone:
            PushSubscription.objects.filter(pk__in=gone).delete()

    outbox_settle(Notification, rows, failed, now, gave_up=gave_up, also=drop_gone)
    return sum(1 for o in outcomes if o.status == "sent")


def notifications_send() -> int:
    """Send every message due now, a batch at a time, until none is; how many were sent.
    Messages tried again later stay queued (`notifications_next`)."""
    if not settings.VAPID_PRIVATE_KEY:
        return 0
    vapid_of(settings.VAPID_PRIVATE_KEY)  # a key that is not one: said here, once, loudly
    with ThreadPoolExecutor(SENDERS) as pool:

        def send(rows: list[Notification], now: datetime) -> int:
            payloads = notification_payloads(rows)
            work = [(row, payloads[row.pk]) for row in rows]
            silent = [Outcome(row.pk, "skipped") for row, payload in work if payload is None]
            said = [(row, payload) for row, payload in work if payload is not None]
            outcomes = list(pool.map(lambda item: _send(*item), said))
            return _settle(rows, outcomes + silent, now)

        return outbox_drain(Notification, BATCH, RELATED, send)


def notifications_next() -> datetime | None:
    """When the earliest message still queued is due (a retry), or None."""
    return outbox_next(Notification)
