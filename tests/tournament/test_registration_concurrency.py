"""Two sign-ups for the last place at the same moment, on PostgreSQL (issue 50): the second
arrives while the first is inside its transaction, its entry written but not committed. One is
registered and one waits — never both registered (services/registration.py takes the event's
lock before it counts the places)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.test_concurrency import race
from tournament.models import Entry, SignUp
from tournament.services.registration import registration_set

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL runs writers at once"),
]


def test_two_sign_ups_for_the_last_place_at_once(monkeypatch):
    event = make_event(slug="race-signup", players=["Aoki"])
    registration_set(event=event, open=True, capacity=2)
    sent = iter(["Baba", "Chiba"])

    def sign_up():
        name = next(sent)
        form = {"name": name, "email": f"{name.lower()}@example.org", "ema": "", "country": ""}
        return Client().post(f"/events/{event.slug}/register/", form)

    assert race(monkeypatch, sign_up) == [302, 302]
    states = dict(SignUp.objects.filter(event=event).values_list("name", "state"))
    assert states == {"Baba": "registered", "Chiba": "waiting"}
    assert Entry.objects.filter(event=event, withdrawn=False).count() == 2


def test_a_withdrawal_and_a_sign_up_at_once_fill_the_place_once(monkeypatch):
    event = make_event(slug="race-withdraw", players=[])
    registration_set(event=event, open=True, capacity=1)
    first = Client().post(
        f"/events/{event.slug}/register/", {"name": "Aoki", "email": "a@example.org"}
    )["Location"]
    Client().post(f"/events/{event.slug}/register/", {"name": "Baba", "email": "b@example.org"})
    answers = iter(
        [
            lambda: Client().post(first, {"confirm": "on"}),
            lambda: Client().post(
                f"/events/{event.slug}/register/", {"name": "Chiba", "email": "c@example.org"}
            ),
        ]
    )
    assert race(monkeypatch, lambda: next(answers)()) == [302, 302]
    states = dict(SignUp.objects.filter(event=event).values_list("name", "state"))
    assert states == {"Aoki": "withdrawn", "Baba": "registered", "Chiba": "waiting"}
    assert list(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Baba"
    ]
