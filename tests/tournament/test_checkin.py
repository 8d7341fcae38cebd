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


def check_in(phone: Client, name: str, code: str, language: str = "en"):
    return phone.post(
        "/events/door/checkin/",
        {"name": name, "code": code},
        headers={"accept-language": language},
    )


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


def test_a_name_typed_as_find_your_seat_takes_it_and_a_full_width_code_are_accepted(organizer):
    # Issue 43: 「鈴木花子」 without the space and the code typed on a Japanese keyboard in
    # full width (ＹＴＨＦ) were refused, though "find your seat" found 鈴木 花子.
    event = make_event(slug="door", players=["鈴木 花子", "Anna Berg", "山田 太郎", "佐藤 一"])
    organizer.post("/events/door/manage/checkin/", {"required": "1"})
    event.refresh_from_db()
    wide = event.checkin_code.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})
    assert wide != event.checkin_code  # ＹＴＨＦ, not YTHF
    reply = check_in(Client(), "鈴木花子", wide)
    assert reply.status_code == 302
    assert Entry.objects.get(event=event, player__name="鈴木 花子").present
    # Any case and width; but the whole name, never a part of it (鈴木 alone is no one).
    assert check_in(Client(), "ＡＮＮＡ ＢＥＲＧ", event.checkin_code).status_code == 302
    part = check_in(Client(), "山田", event.checkin_code)
    assert part.status_code == 400 and "nobody called 山田" in text(part)
    assert not Entry.objects.get(event=event, player__name="山田 太郎").present


def test_two_players_whose_names_read_alike_are_told_apart_by_the_name_as_registered(organizer):
    event = make_event(slug="door", players=["Li Ming", "LiMing", "A", "B"])
    organizer.post("/events/door/manage/checkin/", {"required": "1"})
    event.refresh_from_db()
    alike = check_in(Client(), "Li　Ming", event.checkin_code)  # an ideographic space: the one
    assert alike.status_code == 302
    present = set(Entry.objects.filter(event=event, present=True).values_list("player__name"))
    assert present == {("Li Ming",)}
    unsure = check_in(Client(), "li ming", event.checkin_code)  # either of the two
    page = text(unsure)
    assert unsure.status_code == 400 and "more than one player" in page
    ja = check_in(Client(), "li ming", event.checkin_code, language="ja")
    assert "と読める選手が複数います" in text(ja)
