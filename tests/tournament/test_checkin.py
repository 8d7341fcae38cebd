"""Issue 33: check-in. With it on, a round seats the players checked in — on their phones with
the event's code, or ticked by the organizer; the others sit out, recorded. A latecomer is
checked in between rounds; a no-show is withdrawn in one step; the dashboard counts present /
expected; wrong codes are rate-limited per phone, and nobody else's guesses stop a player."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tests.tournament.test_tournament_day import finish
from tournament.models import Entry, Event, Seat, SitOut
from tournament.services.checkin import checkin_mark, checkin_require
from tournament.services.rounds import round_seat
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db

EIGHT = [f"山田 {k}" for k in "一二三四五六七八"]


@pytest.fixture
def organizer():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("o", "o@example.com", "pw"))
    return client


@pytest.fixture
def event(organizer):
    event = make_event(slug="door", players=EIGHT)
    organizer.post("/events/door/manage/checkin/", {"required": "1"})
    event.refresh_from_db()
    assert event.checkin_required and len(event.checkin_code) == 4
    return event


def check_in(phone: Client, name: str, code: str):
    return phone.post("/events/door/checkin/", {"name": name, "code": code})


def test_a_player_checks_in_with_the_event_s_code(organizer, event):
    page = text(organizer.get("/events/door/manage/", headers={"accept-language": "ja"}))
    assert "8人中0人受付済み" in page and event.checkin_code in page
    phone = Client()
    wrong = check_in(phone, EIGHT[0], "ZZZZ" if event.checkin_code != "ZZZZ" else "YYYY")
    assert wrong.status_code == 400 and "check-in code" in text(wrong)
    # Any case, with spaces: the same code.
    typed = " ".join(event.checkin_code.lower())
    done = phone.post("/events/door/checkin/", {"name": EIGHT[0], "code": typed}, follow=True)
    assert f"{EIGHT[0]} is checked in" in text(done)
    assert Entry.objects.get(event=event, player__name=EIGHT[0]).present
    unknown = check_in(phone, "木村 太郎", event.checkin_code)
    assert unknown.status_code == 400 and "nobody called 木村 太郎 plays" in text(unknown)
    page = text(organizer.get("/events/door/manage/", headers={"accept-language": "ja"}))
    assert "8人中1人受付済み" in page


def test_wrong_codes_stop_one_phone_not_the_player_next_to_it(event):
    limit = LIMITS["checkin", "phone"]
    guesser = Client()
    for _ in range(limit):
        assert (
            check_in(
                guesser, EIGHT[1], "QQQQ" if event.checkin_code != "QQQQ" else "WWWW"
            ).status_code
            == 400
        )
    stopped = check_in(guesser, EIGHT[1], event.checkin_code)
    assert stopped.status_code == 429 and "Too many wrong codes" in text(stopped)
    assert not Entry.objects.get(event=event, player__name=EIGHT[1]).present
    other = Client()  # another phone at the same Wi-Fi
    assert check_in(other, EIGHT[2], event.checkin_code).status_code == 302


def test_seating_takes_the_players_present_and_a_latecomer_the_next_round(organizer, event):
    for name in EIGHT[:4]:
        checkin_mark(entry=Entry.objects.get(event=event, player__name=name), present=True)
    event.refresh_from_db()
    round_seat(event=event, rng=random.Random(1))
    seated = set(Seat.objects.filter(round__event=event).values_list("player__name", flat=True))
    assert seated == set(EIGHT[:4])
    absent = SitOut.objects.filter(round__event=event, reason="absent")
    assert set(absent.values_list("player__name", flat=True)) == set(EIGHT[4:])
    finish(event, 1, {1: [45000, 30000, 15000, 10000]})
    # Four latecomers check in between rounds: round 2 seats all eight.
    for name in EIGHT[4:]:
        check_in(Client(), name, event.checkin_code)
    round_seat(event=event, number=2, rng=random.Random(2))
    second = Seat.objects.filter(round__event=event, round__number=2)
    assert set(second.values_list("player__name", flat=True)) == set(EIGHT)


def test_no_shows_are_withdrawn_in_one_step_and_check_in_can_be_turned_off(organizer, event):
    for name in EIGHT[:5]:
        checkin_mark(entry=Entry.objects.get(event=event, player__name=name), present=True)
    reply = organizer.post("/events/door/manage/checkin/absent/", follow=True)
    assert "3 players who did not check in are withdrawn" in text(reply)
    withdrawn = Entry.objects.filter(event=event, withdrawn=True)
    assert set(withdrawn.values_list("player__name", flat=True)) == set(EIGHT[5:])
    # A withdrawn player cannot check themself back in: the organizer reinstates them.
    refused = check_in(Client(), EIGHT[6], event.checkin_code)
    assert "is withdrawn from this event" in text(refused)
    checkin_require(event=event, required=False)
    event = Event.objects.get(pk=event.pk)
    closed = check_in(Client(), EIGHT[0], event.checkin_code)
    assert "does not take check-ins" in text(closed)


def test_the_dashboard_ticks_a_player_present(organizer, event):
    entry = Entry.objects.get(event=event, player__name=EIGHT[3])
    organizer.post(f"/events/door/manage/checkin/{entry.pk}/", {"present": "1"})
    entry.refresh_from_db()
    assert entry.present
    page = text(organizer.get("/events/door/manage/"))
    assert "1 of 8 present" in page and 'aria-pressed="true"' in page
