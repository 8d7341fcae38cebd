"""Sending the queued Web Push messages (CONTRACT §7), by the task queue's worker
(tasks.py `notifications_send_task`) or `manage.py notifications` — never in a request.

Each message is encrypted `aes128gcm` for its subscription (RFC 8291) and signed with the
site's VAPID key (RFC 8292) by pywebpush. A 404 or 410 from the push service means the
browser has dropped the subscription: it is deleted, its other messages with it. A failure
of the service (down, a timeout, a 429 or 5xx) is tried again later, up to TRIES times, then
given up and logged once. Whatever else one message raises (the library refusing its row) is
that message's alone (issue 63: one row's VapidException left a whole batch unsettled, tried
again and mailed every two minutes): given up at once and logged once, the rest of the batch
sent and settled. A subscription the site would refuse today (services/push.py
`subscription_problem`: a row from before a check, or written by hand) is never sent to: it
is ended and logged once. Each message is its own request: one dead endpoint stops no other,
and the organizer's write that queued them has long been answered.
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
from tournament.services.push import subscription_problem

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
    # "sent"; "gone" (the service: 404/410) or "refused" (a subscription the site refuses):
    # the subscription ended; "failed" (tried again); "broken" (the library raised: given up
    # at once); or "skipped" (nothing left to say)
    status: str
    detail: str = ""


def _claims() -> dict[str, str]:
    subject = settings.VAPID_SUBJECT or f"mailto:{settings.SERVER_EMAIL}"
    return {"sub": subject}


def _send(row: Notification, payload: dict[str, str]) -> Outcome:
    """One message, over HTTP (in a thread of the pool: no database here). Never raises: what
    happened to this row is its Outcome, so one row cannot stop the batch's others."""
    vapid, _public = vapid_of(settings.VAPID_PRIVATE_KEY)
    subscription = row.subscription
    problem = subscription_problem(
        endpoint=subscription.endpoint, p256dh=subscription.p256dh, auth=subscription.auth
    )
    if problem:  # checked again here: no row reaches a host the allow list refuses
        return Outcome(row.pk, "refused", problem)
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
        if status:
            return Outcome(row.pk, "failed", f"HTTP {status}")
        return Outcome(row.pk, "broken", str(exc)[:200])  # refused before any request
    except requests.RequestException as exc:
        if isinstance(exc, ValueError):  # InvalidURL and the like: no retry mends the URL
            return Outcome(row.pk, "broken", f"{type(exc).__name__}: {str(exc)[:200]}")
        return Outcome(row.pk, "failed", f"{type(exc).__name__}: {str(exc)[:200]}")
    except Exception as exc:  # VapidException, the encryption's, whatever: this row's alone
        return Outcome(row.pk, "broken", f"{type(exc).__name__}: {str(exc)[:200]}")
    return Outcome(row.pk, "sent")


def _settle(rows: list[Notification], outcomes: list[Outcome], now: datetime) -> int:
    """Write back what happened (services/outbox_send.py): sent messages deleted, a gone or
    refused subscription deleted (its messages with it), a failure due again later or given
    up, a broken message given up now; each row given up or refused logged once."""
    failed = {o.row: o.detail for o in outcomes if o.status == "failed"}
    by_pk = {row.pk: row for row in rows}
    gone = {by_pk[o.row].subscription_id for o in outcomes if o.status in ("gone", "refused")}

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
    said: set[int] = set()  # a subscription refused with several messages: one line
    for o in outcomes:
        row = by_pk[o.row]
        if o.status == "broken":
            log.warning(
                "push: gave up a %s message to subscription %s at once: the library refused "
                "it (%s)",
                row.kind,
                row.subscription_id,
                o.detail,
            )
        elif o.status == "refused" and row.subscription_id not in said:
            said.add(row.subscription_id)
            log.warning(
                "push: ended subscription %s, whose %s the site refuses (not sent)",
                row.subscription_id,
                o.detail,
            )
    return sum(1 for o in outcomes if o.status == "sent")


def notifications_send() -> int:
    """Send every message due now, a batch at a time, until none is; how many were sent.
    Messages tried again later stay queued (`notifications_next`)."""
    if not settings.VAPID_PRIVATE_KEY:
        return 0
    vapid, _public = vapid_of(settings.VAPID_PRIVATE_KEY)  # a key that is not one: said
    # here, once, loudly — and so is a VAPID_SUBJECT py_vapid refuses, which would otherwise
    # give up every message one by one (the stand-in `aud` is any push service's origin).
    vapid.sign({**_claims(), "aud": "https://push.example"})
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
