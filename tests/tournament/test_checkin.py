"""Issue 33: check-in. With it on, a round seats the players checked in — on their phones with
the event's code, or ticked by the organizer; the others sit out, recorded. A latecomer is
checked in between rounds; a no-show is withdrawn in one step; the dashboard counts present /
expected; wrong codes are rate-limited per phone, and nobody else's guesses stop a player."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text
from tests.tournament.test_tournament_day import finish
from tournament.models import Entry, Event, Seat, SitOut
from tournament.selectors.checkin import checkin_code_shown, checkin_screen_key
from tournament.services.checkin import checkin_code_right, checkin_mark, checkin_require
from tournament.services.rounds import round_seat
from tournament.services.throttle import LIMITS, WINDOW

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
    assert event.checkin_required and len(checkin_code_shown(event)) == 4
    return event


def check_in(phone: Client, name: str, code: str, language: str = "en"):
    return phone.post(
        "/events/door/checkin/",
        {"name": name, "code": code},
        headers={"accept-language": language},
    )


def test_a_player_checks_in_with_the_event_s_code(organizer, event):
    page = text(organizer.get("/events/door/manage/", headers={"accept-language": "ja"}))
    assert "8人中0人受付済み" in page and checkin_code_shown(event) in page
    phone = Client()
    wrong = check_in(phone, EIGHT[0], "ZZZZ" if checkin_code_shown(event) != "ZZZZ" else "YYYY")
    assert wrong.status_code == 400 and "check-in code" in text(wrong)
    # Any case, with spaces: the same code.
    typed = " ".join(checkin_code_shown(event).lower())
    done = phone.post("/events/door/checkin/", {"name": EIGHT[0], "code": typed}, follow=True)
    assert f"{EIGHT[0]} is checked in" in text(done)
    assert Entry.objects.get(event=event, player__name=EIGHT[0]).present
    unknown = check_in(phone, "木村 太郎", checkin_code_shown(event))
    assert unknown.status_code == 400 and "nobody called 木村 太郎 plays" in text(unknown)
    page = text(organizer.get("/events/door/manage/", headers={"accept-language": "ja"}))
    assert "8人中1人受付済み" in page


def test_wrong_codes_stop_one_phone_not_the_player_next_to_it(event):
    limit = LIMITS["checkin", "phone"]
    guesser = Client()
    for _ in range(limit):
        assert (
            check_in(
                guesser, EIGHT[1], "QQQQ" if checkin_code_shown(event) != "QQQQ" else "WWWW"
            ).status_code
            == 400
        )
    stopped = check_in(guesser, EIGHT[1], checkin_code_shown(event))
    assert stopped.status_code == 429 and "Too many wrong codes" in text(stopped)
    assert 0 < int(stopped["Retry-After"]) <= WINDOW
    assert not Entry.objects.get(event=event, player__name=EIGHT[1]).present
    other = Client()  # another phone at the same Wi-Fi
    assert check_in(other, EIGHT[2], checkin_code_shown(event)).status_code == 302


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
        check_in(Client(), name, checkin_code_shown(event))
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
    refused = check_in(Client(), EIGHT[6], checkin_code_shown(event))
    assert "is withdrawn from this event" in text(refused)
    checkin_require(event=event, required=False)
    event = Event.objects.get(pk=event.pk)
    closed = check_in(Client(), EIGHT[0], checkin_code_shown(event))
    assert "does not take check-ins" in text(closed)


def test_the_dashboard_ticks_a_player_present(organizer, event):
    entry = Entry.objects.get(event=event, player__name=EIGHT[3])
    organizer.post(f"/events/door/manage/checkin/{entry.pk}/", {"present": "1"})
    entry.refresh_from_db()
    assert entry.present
    page = text(organizer.get("/events/door/manage/"))
    assert "1 of 8 present" in page and "✓ checked in by an organizer" in page


def test_a_name_typed_as_find_your_seat_takes_it_and_a_full_width_code_are_accepted(organizer):
    # Issue 43: 「鈴木花子」 without the space and the code typed on a Japanese keyboard in
    # full width (ＹＴＨＦ) were refused, though "find your seat" found 鈴木 花子.
    event = make_event(slug="door", players=["鈴木 花子", "Anna Berg", "山田 太郎", "佐藤 一"])
    organizer.post("/events/door/manage/checkin/", {"required": "1"})
    event.refresh_from_db()
    wide = checkin_code_shown(event).translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})
    assert wide != checkin_code_shown(event)  # ＹＴＨＦ, not YTHF
    reply = check_in(Client(), "鈴木花子", wide)
    assert reply.status_code == 302
    assert Entry.objects.get(event=event, player__name="鈴木 花子").present
    # Any case and width; but the whole name, never a part of it (鈴木 alone is no one).
    assert check_in(Client(), "ＡＮＮＡ ＢＥＲＧ", checkin_code_shown(event)).status_code == 302
    part = check_in(Client(), "山田", checkin_code_shown(event))
    assert part.status_code == 400 and "nobody called 山田" in text(part)
    assert not Entry.objects.get(event=event, player__name="山田 太郎").present


def test_two_players_whose_names_read_alike_are_told_apart_by_the_name_as_registered(organizer):
    event = make_event(slug="door", players=["Li Ming", "LiMing", "A", "B"])
    organizer.post("/events/door/manage/checkin/", {"required": "1"})
    event.refresh_from_db()
    alike = check_in(
        Client(), "Li　Ming", checkin_code_shown(event)
    )  # an ideographic space: the one
    assert alike.status_code == 302
    present = set(Entry.objects.filter(event=event, present=True).values_list("player__name"))
    assert present == {("Li Ming",)}
    unsure = check_in(Client(), "li ming", checkin_code_shown(event))  # either of the two
    page = text(unsure)
    assert unsure.status_code == 400 and "more than one player" in page
    ja = check_in(Client(), "li ming", checkin_code_shown(event), language="ja")
    assert "と読める選手が複数います" in text(ja)


# --- Issue 44: a check-in that proves the player ------------------------------------------------

NOON = datetime(2026, 11, 25, 12, 0, 30, tzinfo=UTC)  # 30 s into a five-minute window


def minutes_after(minutes: float) -> datetime:
    return NOON + timedelta(minutes=minutes)


def stop_clock(monkeypatch, at: datetime) -> None:
    monkeypatch.setattr("tournament.selectors.checkin._now", lambda: at)


def test_the_code_shown_changes_every_five_minutes_and_the_one_before_still_works(event):
    now = checkin_code_shown(event, at=NOON)
    later = checkin_code_shown(event, at=minutes_after(5))
    after_that = checkin_code_shown(event, at=minutes_after(10))
    assert len({now, later, after_that}) == 3  # each window its own code
    assert checkin_code_shown(event, at=minutes_after(4)) == now  # the same within a window
    assert checkin_code_right(event, now, at=NOON)
    # Read just before the change, typed just after: still right.
    assert checkin_code_right(event, now, at=minutes_after(5))
    # A photo from two windows ago (or yesterday) is no key.
    assert not checkin_code_right(event, now, at=minutes_after(10))
    assert not checkin_code_right(event, now, at=minutes_after(24 * 60))


def test_a_code_typed_in_full_width_or_lower_case_folds(event):
    code = checkin_code_shown(event, at=NOON)
    wide = code.lower().translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})
    assert wide != code and checkin_code_right(event, f" {wide} ", at=minutes_after(6))


def test_the_door_takes_the_code_shown_now_and_the_one_before_never_an_older_one(
    monkeypatch, event
):
    code = checkin_code_shown(event, at=NOON)
    stop_clock(monkeypatch, minutes_after(10))  # two windows on
    old = check_in(Client(), EIGHT[0], code)
    assert old.status_code == 400 and "changes every 5 minutes" in text(old)
    assert not Entry.objects.get(event=event, player__name=EIGHT[0]).present
    stop_clock(monkeypatch, minutes_after(7))  # the window after the one it was read in
    assert check_in(Client(), EIGHT[0], code).status_code == 302
    assert Entry.objects.get(event=event, player__name=EIGHT[0]).present


def test_a_phone_checks_in_one_player_its_own(organizer, event):
    phone = Client()
    assert check_in(phone, EIGHT[0], checkin_code_shown(event)).status_code == 302
    page = text(phone.get("/events/door/checkin/"))
    assert f"This phone has checked in <strong>{EIGHT[0]}</strong>" in page
    assert 'name="code"' not in page  # no form to check in another
    # The same phone, another name (the stranger who checked the room in): refused, by name.
    second = check_in(phone, EIGHT[1], checkin_code_shown(event))
    assert second.status_code == 400
    assert f"this phone has checked in {EIGHT[0]} already" in text(second)
    assert not Entry.objects.get(event=event, player__name=EIGHT[1]).present
    ja = check_in(phone, EIGHT[1], checkin_code_shown(event), language="ja")
    assert f"このスマホでは {EIGHT[0]} さんの受付が済んでいます" in text(ja)
    # The same name again is no harm: still checked in.
    assert check_in(phone, EIGHT[0], checkin_code_shown(event)).status_code == 302
    # Another phone checks in its own player.
    assert check_in(Client(), EIGHT[1], checkin_code_shown(event)).status_code == 302
    assert Entry.objects.get(event=event, player__name=EIGHT[1]).present
    # The organizer undoes the first phone's check-in: it may check in the right player.
    first = Entry.objects.get(event=event, player__name=EIGHT[0])
    organizer.post(f"/events/door/manage/checkin/{first.pk}/", {"present": "0"})
    assert check_in(phone, EIGHT[2], checkin_code_shown(event)).status_code == 302
    assert Entry.objects.get(event=event, player__name=EIGHT[2]).present


def test_the_dashboard_says_how_each_player_checked_in_and_undoes_one(organizer, event):
    check_in(Client(), EIGHT[0], checkin_code_shown(event))
    ticked = Entry.objects.get(event=event, player__name=EIGHT[1])
    organizer.post(f"/events/door/manage/checkin/{ticked.pk}/", {"present": "1"})
    by = dict(Entry.objects.filter(event=event).values_list("player__name", "checked_in_by"))
    assert by[EIGHT[0]] == "phone" and by[EIGHT[1]] == "organizer" and by[EIGHT[2]] == ""
    page = text(organizer.get("/events/door/manage/"))
    assert page.count('data-by="phone"') == 1 and page.count('data-by="organizer"') == 1
    assert "✓ checked in on a phone" in page and "✓ checked in by an organizer" in page
    assert checkin_code_shown(event) in page
    ja = text(organizer.get("/events/door/manage/", headers={"accept-language": "ja"}))
    assert "本人のスマホで受付" in ja and "運営が受付" in ja
    # One tap undoes the phone's check-in; the log says it was made on a phone.
    phoned = Entry.objects.get(event=event, player__name=EIGHT[0])
    reply = organizer.post(
        f"/events/door/manage/checkin/{phoned.pk}/", {"present": "0"}, follow=True
    )
    assert f"{EIGHT[0]}&#x27;s check-in is undone" in text(reply)
    phoned.refresh_from_db()
    assert not phoned.present and phoned.checked_in_by == ""
    log = text(organizer.get("/events/door/manage/audit/"))
    assert f"{EIGHT[0]}: check-in undone (it was checked in on a phone)" in log


def test_undoing_a_check_in_is_the_event_s_organizers_alone(event):
    check_in(Client(), EIGHT[0], checkin_code_shown(event))
    entry = Entry.objects.get(event=event, player__name=EIGHT[0])
    address = f"/events/door/manage/checkin/{entry.pk}/"
    other = make_event(slug="other", players=EIGHT)
    assert (
        logged_in(organizer_for(other, "other")).post(address, {"present": "0"}).status_code == 403
    )
    anonymous = Client().post(address, {"present": "0"})
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    entry.refresh_from_db()
    assert entry.present and entry.checked_in_by == "phone"
    owner = logged_in(organizer_for(event, "owner"))
    assert owner.post(address, {"present": "0"}).status_code == 302
    entry.refresh_from_db()
    assert not entry.present


def test_the_venue_screen_draws_the_code_of_its_moment_though_its_body_is_cached(
    monkeypatch, client
):
    from tests.tournament.factories import baba_day

    event = baba_day(slug="moment", played=0, seat_next=True)
    checkin_require(event=event, required=True)
    stop_clock(monkeypatch, NOON)
    private = f"/events/moment/screen/?key={checkin_screen_key(event)}"
    first = text(client.get(private))
    assert checkin_code_shown(event, at=NOON) in first
    assert 'data-reload-in="270"' in first  # the page is drawn again when the code changes
    stop_clock(monkeypatch, minutes_after(5))
    second = text(client.get(private))
    assert checkin_code_shown(event, at=minutes_after(5)) in second
    assert checkin_code_shown(event, at=NOON) not in second


def test_the_public_screen_shows_no_check_in_code_the_private_link_and_the_organizer_do(
    monkeypatch,
):
    # Issue 63: /screen/ needs no log-in and showed the code of the moment: from another
    # address anyone checked the room in.
    from tests.tournament.factories import baba_day

    event = baba_day(slug="door", played=0, seat_next=True)
    checkin_require(event=event, required=True)
    stop_clock(monkeypatch, NOON)
    code = checkin_code_shown(event, at=NOON)
    public = text(Client().get("/events/door/screen/"))
    assert 'data-link="checkin"' in public  # the players are still told where to check in
    assert code not in public and "data-reload-in" not in public
    key = checkin_screen_key(event)
    for wrong in ("x", key[:-1] + ("1" if key.endswith("0") else "0"), "", key.upper()):
        answer = Client().get(f"/events/door/screen/?key={wrong}")
        assert answer.status_code == 200 and code not in text(answer)
    projector = Client()
    assert code in text(projector.get(f"/events/door/screen/?key={key}"))
    # A tab or a column clicked on the projector keeps the code (the session holds the key).
    assert code in text(projector.get("/events/door/screen/?stage="))
    owner = logged_in(organizer_for(event))
    assert code in text(owner.get("/events/door/screen/"))
    stranger = logged_in(get_user_model().objects.create_user("s", "s@example.com", "pw"))
    assert code not in text(stranger.get("/events/door/screen/"))
    # The dashboard gives the private link.
    dashboard = text(owner.get("/events/door/manage/"))
    assert f"/events/door/screen/?key={key}" in dashboard
    # Another event's key opens nothing here.
    other = baba_day(slug="other-door", played=0, seat_next=True)
    checkin_require(event=other, required=True)
    assert code not in text(Client().get(f"/events/door/screen/?key={checkin_screen_key(other)}"))


def test_too_few_checked_in_says_to_check_players_in_not_to_register_more(event):
    # Walked on 2026-11-29: one of eight checked in, and seating said "register more players".
    from tournament.services.errors import ServiceError

    Entry.objects.filter(event=event).update(present=False)
    Entry.objects.filter(event=event, player__name=EIGHT[0]).update(present=True)
    with pytest.raises(ServiceError) as refused:
        round_seat(event=event, rng=random.Random(1))
    assert refused.value.code == "round.too_few_present"
    assert refused.value.message.startswith("Only 1 checked in: a table of 4 needs more.")
