"""Issue 49: a "waits for your confirmation" message still queued when the result has been
confirmed (or approved) is not sent — it would ask a player to confirm what is settled. Seen
walking the feature: the worker retries a failed send after 30 s, 2 and 10 minutes, long
after a table has confirmed."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import organizer_for, url
from tournament.models import Game, Notification, Player
from tournament.push_keys import private_key_new
from tournament.selectors.push import notification_payloads
from tournament.services.rounds import round_seat
from tournament.services.tables import game_approve

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i:02d}" for i in range(8)]
P256DH = (  # any browser public key: nothing is encrypted here
    "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
)


def _rows() -> list[Notification]:
    rows = Notification.objects.filter(kind="confirm")
    return list(rows.select_related("subscription__player", "round__event", "game"))


def test_a_confirmation_asked_for_a_result_since_approved_is_not_sent(settings):
    settings.VAPID_PRIVATE_KEY = private_key_new()
    event = make_event(slug="stale", players=PLAYERS)
    event.table_entry, event.table_mode = "tables", "scores"
    event.save()
    for name in PLAYERS:  # every player follows themself, in English
        body = {
            "player": Player.objects.get(name=name).pk,
            "subscription": {
                "endpoint": f"http://127.0.0.1:9/{name}",
                "keys": {"p256dh": P256DH, "auth": "tBHItJI5svbpez7KI4CCXg"},
            },
            "language": "en",
        }
        reply = Client().post(
            url("push-subscribe", event.slug), json.dumps(body), "application/json"
        )
        assert reply.status_code == 201
    round_seat(event=event, rng=random.Random(3))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    link = game.links.get(revoked_at__isnull=True)
    phone = Client()
    phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    post = {"do": "scores", "version": game.version, "deposits": "0"}
    for i, (name, score) in enumerate(zip(names, [40000, 30000, 20000, 10000], strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    phone.post(f"/t/{link.token}/", post)
    game.refresh_from_db()
    assert game.confirmation == "waiting"
    waiting = notification_payloads(_rows())
    assert len(waiting) == 3  # the three other seats are asked…
    assert all(m and "waits for your confirmation" in m["body"] for m in waiting.values())
    game_approve(game=game, user=organizer_for(event))
    assert set(notification_payloads(_rows()).values()) == {
        None
    }  # …and, once settled, told nothing
