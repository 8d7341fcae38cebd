"""Issue 49: `POST /events/<slug>/push/` is limited per client address as sign-ups are
(services/throttle.py): a script cannot fill the subscriptions from one address, a refused
body gives its place back, and "Stop notifications" is never held back."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import url
from tests.tournament.test_push import _good, _post
from tournament.models import PushSubscription
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db


def test_subscriptions_from_one_address_are_limited_and_stop_never_is(vapid, monkeypatch):
    monkeypatch.setitem(LIMITS, ("push", "address"), 3)
    event = make_event(slug="limit", players=[f"P{i:02d}" for i in range(8)])
    hall = Client(REMOTE_ADDR="203.0.113.7")
    # A refused body (no such player) writes nothing and gives its place back.
    assert _post(hall, event, {**_good(event), "player": 999999})[0] == 400
    for n in range(3):
        assert _post(hall, event, _good(event, f"http://127.0.0.1:9/{n}"))[0] == 201
    status, answer = _post(hall, event, _good(event, "http://127.0.0.1:9/more"))
    assert status == 429 and "Try again in" in answer["error"]
    assert PushSubscription.objects.count() == 3
    japanese = hall.post(
        url("push-subscribe", event.slug),
        json.dumps(_good(event, "http://127.0.0.1:9/ja")),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert japanese.status_code == 429 and int(japanese["Retry-After"]) > 0
    assert "このネットワーク" in japanese.json()["error"]
    # Another address is not held back by this one's count.
    elsewhere = Client(REMOTE_ADDR="198.51.100.2")
    assert _post(elsewhere, event, _good(event, "http://127.0.0.1:9/elsewhere"))[0] == 201
    # Stopping is never limited, however full the count.
    for n in range(3):
        stop = hall.post(
            url("push-stop", event.slug),
            json.dumps({"endpoint": f"http://127.0.0.1:9/{n}"}),
            content_type="application/json",
        )
        assert stop.status_code == 204
    assert PushSubscription.objects.count() == 1
