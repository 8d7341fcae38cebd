"""Two confirmations for the last place at the same moment, on PostgreSQL (issues 50, 63): the
second arrives while the first is inside its transaction, its entry written but not committed.
One is registered and one waits — never both registered (services/registration.py takes the
event's lock before it counts the places). A sign-up takes its place when its address is
confirmed (its link opened), so that is where two players meet."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests.tournament.factories import make_event, signed_up
from tests.tournament.test_concurrency import race
from tournament.models import Entry, SignUp
from tournament.services.registration import registration_set, signup_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL runs writers at once"),
]


def _link(signup: SignUp) -> str:
    return f"/events/{signup.event.slug}/register/{signup.token}/"


def test_two_confirmations_for_the_last_place_at_once(monkeypatch):
    event = make_event(slug="race-signup", players=["Aoki"])
    registration_set(event=event, open=True, capacity=2)
    links = iter(
        [
            _link(signup_create(event=event, name=name, email=f"{name.lower()}@example.org"))
            for name in ("Baba", "Chiba")
        ]
    )
    assert race(monkeypatch, lambda: Client().get(next(links))) == [200, 200]
    states = dict(SignUp.objects.filter(event=event).values_list("name", "state"))
    assert states == {"Baba": "registered", "Chiba": "waiting"}
    assert Entry.objects.filter(event=event, withdrawn=False).count() == 2


def test_a_withdrawal_and_a_confirmation_at_once_fill_the_place_once(monkeypatch):
    event = make_event(slug="race-withdraw", players=[])
    registration_set(event=event, open=True, capacity=1)
    first = _link(signed_up(event, "Aoki"))
    signed_up(event, "Baba")
    chiba = _link(signup_create(event=event, name="Chiba", email="c@example.org"))
    answers = iter(
        [
            lambda: Client().post(first, {"confirm": "on"}),
            lambda: Client().get(chiba),
        ]
    )
    assert race(monkeypatch, lambda: next(answers)()) == [302, 200]
    states = dict(SignUp.objects.filter(event=event).values_list("name", "state"))
    assert states == {"Aoki": "withdrawn", "Baba": "registered", "Chiba": "waiting"}
    assert list(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Baba"
    ]
