"""Web Push to players (issue 49, CONTRACT §7): a browser's subscription taken and stopped,
and messages queued — in the transaction of the write they tell of, never sent from it.

A write that seats a round, leaves a result waiting for a seat's confirmation or finishes a
round's last table adds a `Notification` row per subscription it concerns (one query to find
them, one to add them; none added when nobody subscribed), and the task queue's worker sends
them once the write commits (services/push_send.py; tasks.py). The words are made when the
message is sent: a seating taken back before then takes its messages with it.
"""

from __future__ import annotations

import base64
import ipaddress
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from urllib3.util import parse_url

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
from tournament.services.queue import enqueue_on_commit

# No cap on a player's browsers (issue 63): player ids are public and nothing tells a made-up
# subscription from a phone's, so a cap either drops the real phone (the oldest went past
# five) or turns it away (a full player). A subscription ends only by a 404/410 from its push
# service, its own browser's "Stop" (which names its endpoint, the browser's secret), or with
# its event; how many rows a script writes is bounded by the per-network count of
# `POST /events/<slug>/push/` (services/throttle.py ("push", "address")).
LANGUAGES = ("ja", "en")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
KEY_MOST = {"p256dh": 100, "auth": 50}  # PushSubscription's columns
KEY_BYTES = {"p256dh": 65, "auth": 16}  # RFC 8291 §3: an uncompressed P-256 point; 16 bytes
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")  # PushSubscription.toJSON()'s keys
# An endpoint is printable ASCII with no space, backslash or fragment: every push service's
# URL is, and each of those is read differently by urlsplit and by urllib3 (requests), so
# that one would check a host and the other connect to another.
ENDPOINT = re.compile(r"[!-~]+")
# A host name as a browser writes one: lower case, no trailing dot, no brackets, no port.
LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
HOST = re.compile(rf"(?:{LABEL}\.)+{LABEL}")


def push_enabled() -> bool:
    """Whether the site has its VAPID key (settings.py): without one, nothing is offered."""
    return bool(settings.VAPID_PRIVATE_KEY)


def _endpoint_allowed(endpoint: str) -> bool:
    """An https address on port 443 of a known push service (settings.WEB_PUSH_SERVICES) — the
    site sends to no other machine — or, for the tests' stand-in, http on this machine.

    Read as the sender will connect: pywebpush posts with requests, which takes the host and
    port from urllib3's `parse_url`; urlsplit and urllib3 must read the same scheme, host and
    port, with no user part, or the endpoint is refused (issue 63: `https://127.0.0.1:8150\\@
    fcm.googleapis.com/x` was checked as fcm.googleapis.com and would have reached 127.0.0.1)."""
    if not ENDPOINT.fullmatch(endpoint) or "\\" in endpoint or "#" in endpoint:
        return False
    try:
        split = urlsplit(endpoint)
        split_port = split.port  # a port that is not a number raises here
        sent = parse_url(endpoint)  # LocationParseError is a ValueError
    except ValueError:
        return False
    host = split.hostname or ""
    sent_host = (sent.host or "").removeprefix("[").removesuffix("]")  # urllib3 keeps [::1]'s
    if "@" in split.netloc or sent.auth is not None:
        return False
    if (split.scheme, host, split_port) != (sent.scheme, sent_host, sent.port):
        return False
    if settings.WEB_PUSH_LOCAL and host in LOOPBACK and split.scheme in ("http", "https"):
        return True
    # The canonical form only: https, the host as the browser writes it, no port but 443.
    if not endpoint.startswith("https://") or split_port not in (None, 443):
        return False
    if not HOST.fullmatch(split.netloc.removesuffix(":443")) or _is_address(host):
        return False
    services = (s.strip().lower().rstrip(".") for s in settings.WEB_PUSH_SERVICES)
    return any(s and (host == s or host.endswith("." + s)) for s in services)


def _is_address(host: str) -> bool:
    """`10.0.0.1` — a host named by number, never a push service's."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.rsplit(".", 1)[-1].isdigit()  # 1.2.3 and the like, which resolvers take
    return True


def _key_bytes(value: str) -> bytes | None:
    """A key's bytes as pywebpush decodes them (base64url, padding optional), or None."""
    if not BASE64URL.fullmatch(value):
        return None
    bare = value.rstrip("=")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except ValueError:  # binascii.Error: a length no base64 has
        return None


def _key_problem(p256dh: str, auth: str) -> str | None:
    """Which of a subscription's keys the push library would refuse, or None: p256dh must be
    an uncompressed P-256 point that loads as a public key (http_ece loads it so to encrypt),
    auth 16 bytes (RFC 8291 §3.2) — checked here so that a message is never made for keys no
    browser made."""
    point = _key_bytes(p256dh)
    if point is None or len(point) != KEY_BYTES["p256dh"] or point[0] != 4:
        return "p256dh"
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:  # not a point of the curve
        return "p256dh"
    secret = _key_bytes(auth)
    if secret is None or len(secret) != KEY_BYTES["auth"]:
        return "auth"
    return None


def subscription_problem(*, endpoint: str, p256dh: str, auth: str) -> str | None:
    """The field of a stored subscription that the site would refuse today, or None: the
    sender checks each row again before it sends (services/push_send.py), so a row written
    before a check existed, or by hand, never reaches the network."""
    if not _endpoint_allowed(endpoint):
        return "endpoint"
    return _key_problem(p256dh, auth)


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
    bad = _key_problem(keys["p256dh"], keys["auth"])
    if bad:  # refused now, not by the sender later: nothing could ever be sent to it
        raise ServiceError("push.key", f"subscription.keys.{bad}")
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
    fields): the same browser asking again replaces its row (another player, new keys) — the
    endpoint is its secret, so only it can. No other row is touched: however many browsers
    follow a player, none displaces another (no cap by count: see the top of this module)."""
    player_id = fields["player_id"]
    if not Entry.objects.filter(event=event, player_id=player_id).exists():
        raise ServiceError("push.player", "player")
    kept, _created = PushSubscription.objects.update_or_create(
        event=event,
        endpoint=fields["endpoint"],
        defaults={k: v for k, v in fields.items() if k != "endpoint"},
    )
    return kept


def push_stop(*, event: Event, endpoint: Any) -> bool:
    """The browser's subscription at the event ended ("Stop notifications"); whether there
    was one. The endpoint is the browser's own secret: knowing it is the right to stop it, so
    only the exact endpoint stops a row (no prefix, no other case, no other event's)."""
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
        enqueue_on_commit("notifications_send_task")  # the sender, to find the rows
    return len(rows)


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
