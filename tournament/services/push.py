"""Web Push to players (issue 49, CONTRACT §7): a browser's subscription taken and stopped,
and messages queued — in the transaction of the write they tell of, never sent from it.

A write that seats a round, leaves a result waiting for a seat's confirmation or finishes a
round's last table adds a `Notification` row per subscription it concerns (one query to find
them, one to add them; none added when nobody subscribed), and the task queue's worker sends
them once the write commits (services/push_send.py; tasks.py). The words are made when the
message is sent: a seating taken back before then takes its messages with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournament.models import (
    Entry,
    Event,
    Game,
    Notification,
    PushSubscription,
    Round,
    Seat,
)
from tournament.services.errors import ServiceError

# A player's browsers kept at an event: their phone, a tablet, a friend's phone — past this,
# the oldest goes, so a script posting subscriptions grows no table and the organizer's write
# queues a bounded number of messages per player.
MOST_PER_PLAYER = 5
LANGUAGES = ("ja", "en")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
KEY_MOST = {"p256dh": 100, "auth": 50}  # PushSubscription's columns


def push_enabled() -> bool:
    """Whether the site has its VAPID key (settings.py): without one, nothing is offered."""
    return bool(settings.VAPID_PRIVATE_KEY)


def _endpoint_allowed(endpoint: str) -> bool:
    """An https address of a known push service (settings.WEB_PUSH_SERVICES) — the site sends
    to no other machine — or, for the tests' stand-in, http on this machine."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 — a port that is not a number raises here
    except ValueError:
        return False
    if settings.WEB_PUSH_LOCAL and host in LOOPBACK and parts.scheme in ("http", "https"):
        return True
    if parts.scheme != "https" or not host:
        return False
    return any(host == s or host.endswith("." + s) for s in settings.WEB_PUSH_SERVICES)


def _text(value: Any, most: int) -> bool:
    """A non-empty string of at most `most` characters with no control character (PostgreSQL
    text holds no NUL: one would be a 500, not a 400)."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= most
        and not any(ord(c) < 32 or ord(c) == 127 for c in value)
    )


def subscription_parse(data: Any) -> dict[str, Any]:
    """The body of `POST /events/<slug>/push/` as the fields of a subscription; a
    ServiceError naming the field otherwise."""
    if not isinstance(data, dict):
        raise ServiceError("push.json", "")
    player = data.get("player")
    if isinstance(player, str) and player.isdigit():
        player = int(player)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 < player < 2**63:
        raise ServiceError("push.player", "player")
    subscription = data.get("subscription")
    if not isinstance(subscription, dict):
        raise ServiceError("push.endpoint", "subscription")
    endpoint = subscription.get("endpoint")
    if not _text(endpoint, 1000) or not _endpoint_allowed(endpoint):
        raise ServiceError("push.endpoint", "subscription.endpoint")
    keys = subscription.get("keys")
    if not isinstance(keys, dict):
        raise ServiceError("push.keys", "subscription.keys")
    for name, most in KEY_MOST.items():
        value = keys.get(name)
        if not _text(value, most):
            raise ServiceError("push.keys", f"subscription.keys.{name}")
    language = data.get("language")
    if language not in LANGUAGES:
        raise ServiceError("push.language", "language")
    return {
        "player_id": player,
        "endpoint": endpoint,
        "p256dh": keys["p256dh"],
        "auth": keys["auth"],
        "language": language,
    }


@transaction.atomic
def push_subscribe(*, event: Event, fields: dict[str, Any]) -> PushSubscription:
    """Keep a browser's subscription for a player of the event (`subscription_parse`'s
    fields): the same browser asking again replaces its row (another player, new keys), and
    past MOST_PER_PLAYER the player's oldest goes."""
    player_id = fields["player_id"]
    if not Entry.objects.filter(event=event, player_id=player_id).exists():
        raise ServiceError("push.player", "player")
    kept, _created = PushSubscription.objects.update_or_create(
        event=event,
        endpoint=fields["endpoint"],
        defaults={k: v for k, v in fields.items() if k != "endpoint"},
    )
    mine = PushSubscription.objects.filter(event=event, player_id=player_id)
    extra = list(mine.order_by("-created_at", "-pk").values_list("pk", flat=True)[MOST_PER_PLAYER:])
    if extra:
        PushSubscription.objects.filter(pk__in=extra).delete()
    return kept


def push_stop(*, event: Event, endpoint: Any) -> bool:
    """The browser's subscription at the event ended ("Stop notifications"); whether there
    was one. The endpoint is the browser's own secret: knowing it is the right to stop it."""
    if not _text(endpoint, 1000):
        raise ServiceError("push.endpoint", "endpoint")
    deleted, _kinds = PushSubscription.objects.filter(event=event, endpoint=endpoint).delete()
    return bool(deleted)


# --- queued in the writes' transactions ---------------------------------------------------


def _queue(subscriptions: Iterable[int], kind: str, rnd_id: int, game_id: int | None = None) -> int:
    """A message of `kind` for each of `subscriptions` (ids, or a query of them: read here),
    and the sender queued: one query to add the messages, none when nobody subscribed."""
    now = timezone.now()
    rows = [
        Notification(subscription_id=pk, kind=kind, round_id=rnd_id, game_id=game_id, due_at=now)
        for pk in subscriptions
    ]
    if rows:
        Notification.objects.bulk_create(rows)
        _send_soon()
    return len(rows)


def _send_soon() -> None:
    """The sender queued: a queue kept in this database takes it in the write's own
    transaction (one commit for both, as the ratings' replay, services/ratings.py); any other
    (the tests' immediate one) once the write commits, so it finds the rows."""
    from django_tasks_db import DatabaseBackend

    from tournament.tasks import notifications_send_task  # tasks.py imports services

    if isinstance(notifications_send_task.get_backend(), DatabaseBackend):
        notifications_send_task.enqueue()
    else:
        transaction.on_commit(partial(notifications_send_task.enqueue), robust=True)


def push_round_seated(rnd: Round, player_ids: Iterable[int]) -> int:
    """Round `rnd` was seated (round_seat): each seated player's subscriptions told their
    table and wind. The event's subscriptions are read whole and sorted here, not named by
    an IN list of every player of a 10,000-player round."""
    seated = set(player_ids)
    subscriptions = PushSubscription.objects.filter(event_id=rnd.event_id)
    if not seated or not push_enabled():  # a site without its key queues nothing, reads nothing
        return 0
    pks = [pk for pk, player in subscriptions.values_list("pk", "player_id") if player in seated]
    if not pks:
        return 0
    return _queue(pks, "seated", rnd.pk)


def push_results_told(games: list[Game], before: dict[int, tuple[bool, str]]) -> None:
    """After a change of results (services/game_change.py `log`), from each game as it was
    (`before`: finished, confirmation) and as it is now: a result newly waiting tells the
    table's other seats to confirm it; the last table of a round to finish tells everyone
    subscribed at the event where they stand."""
    if not push_enabled():
        return
    finished_rounds: set[int] = set()  # two games of one round finished by one change
    for game in games:
        was_finished, was_confirmation = before.get(game.pk, (False, ""))
        if game.confirmation == "waiting" and was_confirmation != "waiting":
            others = Seat.objects.filter(game=game).exclude(position=game.submitted_seat)
            subscriptions = PushSubscription.objects.filter(
                event_id=game.round.event_id, player__in=others.values("player")
            )
            _queue(subscriptions.values_list("pk", flat=True), "confirm", game.round_id, game.pk)
        if game.finished and not was_finished and game.round_id not in finished_rounds:
            finished_rounds.add(game.round_id)
            if not Game.objects.filter(round_id=game.round_id, finished=False).exists():
                everyone = PushSubscription.objects.filter(event_id=game.round.event_id)
                _queue(everyone.values_list("pk", flat=True), "finished", game.round_id)
