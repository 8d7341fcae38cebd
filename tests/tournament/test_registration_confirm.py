"""A sign-up counts once its address is confirmed (issue 63, CONTRACT §8): unconfirmed it holds
no place, no number and no name, and is in no list; opening the link mailed to it confirms it,
in confirmation order, and opening it again changes nothing; a day unconfirmed, it expires and
its link says so; a second sign-up with an address already used answers as a first and mails
the address's owner; a network's crowd signs up past the old cap of 30, and a script's
sign-ups fill nothing; the dashboard names the limit a network reached."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import make_event, signed_up
from tests.tournament.organize_support import logged_in, organizer_for
from tournament.models import AuditEntry, Entry, Event, SignUp
from tournament.services.events import event_register_players
from tournament.services.registration import (
    registration_set,
    signup_approve,
    signup_confirm,
    signup_create,
    signup_withdraw,
)
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db

FORM = {"name": "Aoki Taro", "email": "aoki@example.org", "ema": "", "country": ""}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _page(answer) -> str:
    """A page's text without its CSRF token (random per visitor, whatever they typed)."""
    return CSRF.sub("", answer.content.decode())


def _event(players=None, **settings):
    event = make_event(slug="su", players=players or [])
    registration_set(event=event, open=True, **settings)
    return event


def _new(event, name, email=None, **more):
    """A sign-up made, its link not opened (unconfirmed)."""
    email = email or f"{name.lower()}@example.org"
    return signup_create(event=event, name=name, email=email, **more)


def _link(signup):
    return f"/events/{signup.event.slug}/register/{signup.token}/"


def _lists(client=None):
    return (client or Client()).get("/api/v1/events/su/entries").json()


def _age(signup, hours):
    SignUp.objects.filter(pk=signup.pk).update(created_at=timezone.now() - timedelta(hours=hours))


def test_an_unconfirmed_sign_up_holds_nothing_and_is_in_no_list():
    event = _event(capacity=1)
    signup = _new(event, "Aoki")
    assert signup.state == "unconfirmed"
    assert not Entry.objects.filter(event=event).exists()
    assert _lists() == {"registered": [], "waiting": []}
    form = Client().get("/events/su/register/").content.decode()
    assert 'data-room="1"' in form  # its place is still free
    assert not AuditEntry.objects.filter(action__startswith="signup.create").exists()
    # The organizer sees how many await confirmation, never who (anyone may type a name).
    organizer = logged_in(organizer_for(event))
    page = organizer.get("/events/su/manage/signups/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-unconfirmed="1"' in page and "1 sign-up awaits the confirmation" in page
    assert "aoki@example.org" not in page
    ja = organizer.get("/events/su/manage/signups/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "確認待ちの申込が 1 件" in ja
    entrants = organizer.get("/events/su/manage/entrants.csv").content.decode("utf-8-sig")
    assert "aoki@example.org" not in entrants
    # A name held by nobody but an unconfirmed sign-up is free: a script cannot squat it.
    other = _new(event, "Aoki", "real.aoki@example.org")
    assert signup_confirm(signup=other) == "confirmed"
    assert _lists() == {"registered": ["Aoki"], "waiting": []}


def test_confirmation_order_decides_the_waiting_list_not_sign_up_order():
    event = _event(capacity=1)
    a, b, c, d = (_new(event, n) for n in ("Aoki", "Baba", "Chiba", "Doi"))
    for signup in (c, a, d, b):  # the order the links are opened
        assert Client().get(_link(signup)).status_code == 200
    assert _lists() == {"registered": ["Chiba"], "waiting": ["Aoki", "Doi", "Baba"]}
    page = Client().get(_link(d), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "number 2 on the waiting list" in page
    # Logged once each, when it counted.
    logged = AuditEntry.objects.filter(action="signup.create").order_by("pk")
    assert [e.after["player"] for e in logged] == ["Chiba", "Aoki", "Doi", "Baba"]


def test_opening_the_link_again_changes_nothing():
    event = _event(capacity=1)
    _a, b = signed_up(event, "Aoki"), _new(event, "Baba")
    client = Client()
    first = client.get(_link(b), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your e-mail address is confirmed" in first and "number 1 on the waiting list" in first
    b.refresh_from_db()
    version = Event.objects.get(pk=event.pk).version
    logged = AuditEntry.objects.count()
    for _ in range(3):  # a reload, a mail scanner, a second device
        again = Client().get(_link(b), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "number 1 on the waiting list" in again and "is confirmed" not in again
    assert signup_confirm(signup=SignUp.objects.get(pk=b.pk)) == "unchanged"
    assert SignUp.objects.get(pk=b.pk).position == b.position
    assert Event.objects.get(pk=event.pk).version == version
    assert AuditEntry.objects.count() == logged
    # Withdrawn, the link opened again withdraws nothing back in.
    signup_withdraw(signup=b)
    Client().get(_link(b))
    assert SignUp.objects.get(pk=b.pk).state == "withdrawn"


def test_a_head_request_confirms_nothing():
    """Link checkers that only ask HEAD are told no (405); only opening the page confirms."""
    signup = _new(_event(), "Aoki")
    assert Client().head(_link(signup)).status_code == 405
    assert SignUp.objects.get(pk=signup.pk).state == "unconfirmed"


def test_a_day_unconfirmed_expires_holds_nothing_and_its_link_says_so():
    event = _event(capacity=1)
    late = _new(event, "Aoki")
    _age(late, 23)
    assert signup_confirm(signup=SignUp.objects.get(pk=late.pk)) == "confirmed"  # within its day
    stale = _new(event, "Baba")
    _age(stale, 25)
    answer = Client().get(_link(stale), HTTP_ACCEPT_LANGUAGE="en")
    page = answer.content.decode()
    assert answer.status_code == 410
    assert "This sign-up has expired" in page and 'href="/events/su/register/"' in page
    assert "data-sign-up-again" in page
    stale.refresh_from_db()
    assert (stale.state, stale.email) == ("expired", "")  # the address forgotten
    assert _lists() == {"registered": ["Aoki"], "waiting": []}
    ja = Client().get(_link(stale), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "期限切れ" in ja and "もう一度申し込む" in ja
    # Signing up again with that address and name is a new sign-up, which counts once confirmed.
    again = _new(event, "Baba")
    assert again.pk != stale.pk
    assert Client().get(_link(again)).status_code == 200
    assert _lists() == {"registered": ["Aoki"], "waiting": ["Baba"]}


def test_expired_ones_are_marked_lazily_and_free_their_address():
    """No scheduled job: the next sign-up in the event marks those past their day."""
    event = _event()
    stale = _new(event, "Aoki")
    _age(stale, 30)
    assert SignUp.objects.get(pk=stale.pk).state == "unconfirmed"  # nothing ran yet
    organizer = logged_in(organizer_for(event))
    page = organizer.get("/events/su/manage/signups/").content.decode()
    assert "data-unconfirmed" not in page  # past its day it is not awaited
    fresh = _new(event, "Aoki Again", "aoki@example.org")  # the same address: not "used"
    assert fresh.pk != stale.pk and fresh.state == "unconfirmed"
    assert SignUp.objects.get(pk=stale.pk).state == "expired"


def test_a_second_sign_up_with_an_address_answers_as_a_first_and_mails_its_owner(
    django_capture_on_commit_callbacks,
):
    _event(capacity=4)

    def sign_up(data, lang="en"):
        client = Client()
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post("/events/su/register/", data, HTTP_ACCEPT_LANGUAGE=lang)
        page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE=lang)
        return answer.status_code, answer["Location"], page.status_code, _page(page)

    first = sign_up(FORM, lang="ja")
    owner = SignUp.objects.get()
    [confirm] = mail.outbox
    assert _link(owner) in confirm.body
    Client().get(_link(owner))  # the owner confirms: registered
    mail.outbox.clear()
    # A stranger types the owner's address, with another name and in another language.
    second = sign_up({**FORM, "name": "Mallory"}, lang="ja")
    assert second == first  # the same redirect, the same page, word for word
    assert first[:3] == (302, "/events/su/register/sent/", 200)
    assert "Mallory" not in second[3] and "Aoki" not in second[3]
    assert SignUp.objects.count() == 1  # no second sign-up
    [told] = mail.outbox
    assert told.to == ["aoki@example.org"]
    # In the owner's language (they signed up in Japanese), with their own link and standing.
    assert "再度申込" in told.subject and _link(owner) in told.body
    assert "参加登録が完了しました" in told.body and "Mallory" not in told.body
    # A script repeating the address: the same answer, but the owner is told once per 15 min.
    assert sign_up({**FORM, "name": "Mallory"}, lang="ja") == first
    assert len(mail.outbox) == 1
    SignUp.objects.filter(pk=owner.pk).update(told_again_at=timezone.now() - timedelta(minutes=16))
    assert sign_up({**FORM, "name": "Mallory"}, lang="ja") == first
    assert len(mail.outbox) == 2  # 15 minutes on: told again
    assert _lists() == {"registered": ["Aoki Taro"], "waiting": []}


def test_a_second_sign_up_before_the_first_is_confirmed_mails_the_link_that_confirms(
    django_capture_on_commit_callbacks,
):
    event = _event()
    with django_capture_on_commit_callbacks(execute=True):
        first = _new(event, "Aoki", language="en")
        again = _new(event, "Aoki Two", "AOKI@example.org")
    assert again.pk == first.pk and SignUp.objects.count() == 1
    signed, told = mail.outbox
    assert "confirm your sign-up" in signed.subject and "signed up again" in told.subject
    assert _link(first) in told.body and "within a day" in told.body
    assert SignUp.objects.get().state == "unconfirmed"  # telling confirms nothing


def test_the_answer_names_no_field_for_an_address_used():
    """Only what was typed decides the answer: the same name with a fresh address and with an
    address already used get the same refusal (the name is taken), never an e-mail error."""
    event = _event()
    signed_up(event, "Aoki", "aoki@example.org")
    signed_up(event, "Baba", "baba@example.org")
    used = Client().post("/events/su/register/", {"name": "Aoki", "email": "baba@example.org"})
    fresh = Client().post("/events/su/register/", {"name": "Aoki", "email": "new@example.org"})
    assert used.status_code == fresh.status_code == 400
    assert list(used.context["form"].errors) == list(fresh.context["form"].errors) == ["name"]
    assert _page(used).replace("baba@", "new@") == _page(fresh)


def test_withdrawing_moves_the_first_confirmed_up_and_tells_them(
    django_capture_on_commit_callbacks,
):
    event = _event(capacity=1)
    a, b = signed_up(event, "Aoki"), signed_up(event, "Baba")
    c = _new(event, "Chiba")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        moved = signup_withdraw(signup=a)
    assert [s.name for s in moved] == ["Baba"]
    assert [m.to for m in mail.outbox] == [["baba@example.org"], ["aoki@example.org"]]
    assert "A place came free" in mail.outbox[0].body
    assert SignUp.objects.get(pk=c.pk).state == "unconfirmed"  # never moved up unconfirmed
    assert _lists() == {"registered": ["Baba"], "waiting": []}
    # The organizer removes Baba: nobody confirmed waits, so nobody moves; Chiba confirms now.
    signup_withdraw(signup=SignUp.objects.get(pk=b.pk), user=organizer_for(event))
    assert _lists() == {"registered": [], "waiting": []}
    assert Client().get(_link(c)).status_code == 200
    assert _lists() == {"registered": ["Chiba"], "waiting": []}


def test_an_unconfirmed_sign_up_withdrawn_from_its_link_is_gone_quietly(
    django_capture_on_commit_callbacks,
):
    signup = _new(_event(), "Aoki")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert Client().post(_link(signup), {"confirm": "on"}).status_code == 302
    assert SignUp.objects.get(pk=signup.pk).state == "withdrawn"
    assert mail.outbox == [] and not AuditEntry.objects.filter(action="signup.withdraw").exists()


def test_with_approval_a_confirmed_sign_up_waits_for_the_organizer():
    event = _event(approval=True)
    signup = _new(event, "Aoki")
    organizer = logged_in(organizer_for(event))
    page = organizer.get("/events/su/manage/signups/").content.decode()
    assert "aoki@example.org" not in page  # not pending yet: unconfirmed
    assert signup_approve(event=event) == []  # approve-all passes it by
    Client().get(_link(signup))
    assert SignUp.objects.get(pk=signup.pk).state == "pending"
    assert "aoki@example.org" in organizer.get("/events/su/manage/signups/").content.decode()
    assert _lists() == {"registered": [], "waiting": []}
    signup_approve(event=event)
    assert _lists() == {"registered": ["Aoki"], "waiting": []}


def test_the_organizer_adds_players_without_any_confirmation():
    event = _event(capacity=2)
    pending = _new(event, "Chiba")
    event_register_players(event=event, names=["Aoki", "Baba"])
    assert _lists() == {"registered": ["Aoki", "Baba"], "waiting": []}
    Client().get(_link(pending))  # confirmed once the organizer has filled the places
    assert _lists() == {"registered": ["Aoki", "Baba"], "waiting": ["Chiba"]}


def test_an_imported_events_players_count_and_its_sign_ups_wait_for_confirmation():
    from tournament.services.imports import event_export, event_import

    data = {"name": "Open cup", "slug": "su", "players": ["Aoki", "Baba"]}
    event = event_import({**data, "registration": {"open": True, "capacity": 3}})
    assert _lists() == {"registered": ["Aoki", "Baba"], "waiting": []}
    chiba = _new(event, "Chiba")
    assert _lists() == {"registered": ["Aoki", "Baba"], "waiting": []}
    assert "@" not in str(event_export(event))  # no sign-up's address in a file
    Client().get(_link(chiba))
    assert _lists() == {"registered": ["Aoki", "Baba", "Chiba"], "waiting": []}


def test_registration_closed_leaves_it_unconfirmed_until_it_opens_again():
    event = _event()
    signup = _new(event, "Aoki")
    registration_set(event=event, open=False)
    page = Client().get(_link(signup), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "not confirmed" in page.content.decode()
    assert SignUp.objects.get(pk=signup.pk).state == "unconfirmed"
    registration_set(event=event, open=True)
    Client().get(_link(signup))
    assert _lists() == {"registered": ["Aoki"], "waiting": []}


def test_a_name_confirmed_by_another_first_ends_the_later_one_and_frees_its_address():
    event = _event()
    first, second = _new(event, "Aoki"), _new(event, "aoki", "other@example.org")
    Client().get(_link(first))
    answer = Client().get(_link(second), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 410
    assert "Another player has taken the name aoki" in answer.content.decode()
    assert SignUp.objects.get(pk=second.pk).state == "expired"
    # Its address may sign up again, told apart.
    again = _new(event, "Aoki B", "other@example.org")
    assert again.pk != second.pk
    Client().get(_link(again))
    assert _lists() == {"registered": ["Aoki", "Aoki B"], "waiting": []}


def test_a_venues_crowd_signs_up_past_the_old_cap_and_a_script_fills_nothing():
    """Issue 63: 30 sign-ups from one address filled a 4-place event and refused the 31st
    person at the venue. Now a script's 40 fill nothing, and a player on the same Wi-Fi
    after them signs up and, confirming, takes the first place."""
    assert LIMITS["signup", "address"] >= 256  # a big day's whole field on one network
    _event(capacity=4)
    venue = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(40):
        data = {**FORM, "name": f"Bot {i}", "email": f"bot{i}@example.org"}
        assert venue.post("/events/su/register/", data).status_code == 302
    assert _lists() == {"registered": [], "waiting": []}
    assert venue.post("/events/su/register/", FORM).status_code == 302
    Client().get(_link(SignUp.objects.get(email="aoki@example.org")))
    assert _lists() == {"registered": ["Aoki Taro"], "waiting": []}


def test_the_dashboard_names_the_sign_up_limit_a_network_reached(monkeypatch):
    monkeypatch.setitem(LIMITS, ("signup", "address"), 2)
    event = _event(players=["Aoki"])
    venue = Client(REMOTE_ADDR="203.0.113.10")
    answers = [
        venue.post("/events/su/register/", {**FORM, "name": f"P{i}", "email": f"p{i}@ex.org"})
        for i in range(4)
    ]
    assert [a.status_code for a in answers] == [302, 302, 429, 429]
    organizer = logged_in(organizer_for(event))
    page = organizer.get("/events/su/manage/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Too many sign-ups from the venue's network (203.0.113.10)" in page
    assert "wrong codes" not in page and 'data-network-limit="signups"' in page
    ja = organizer.get("/events/su/manage/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "会場のネットワーク（203.0.113.10）からの参加申込が上限に達し" in ja
    assert "誤入力" not in ja
    # "Lift it" lifts it: that network signs up again.
    organizer.post("/events/su/manage/network/release/", {"address": "203.0.113.10"})
    data = {**FORM, "name": "Late", "email": "late@example.org"}
    assert venue.post("/events/su/register/", data).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_sign_up_made_before_as_it_counted():
    """Sign-ups made before issue 63 were counted without a confirmation: the migration that
    brings confirmation in rewrites none of them (a registered player stays registered, the
    waiting list keeps its order), and their address stays theirs."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    event = _event(capacity=1)
    made = [signed_up(event, n) for n in ("Aoki", "Baba", "Chiba")]
    signup_withdraw(signup=made[2])
    rows = list(SignUp.objects.order_by("pk").values_list("name", "state", "position", "email"))
    before = [("tournament", "0031_guesslock_network")]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    executor = MigrationExecutor(connection)  # the graph as it is now
    executor.migrate(leaves)
    assert (
        list(SignUp.objects.order_by("pk").values_list("name", "state", "position", "email"))
        == rows
    )
    assert _lists() == {"registered": ["Aoki"], "waiting": ["Baba"]}
    assert signup_create(event=event, name="X", email="baba@example.org").pk == made[1].pk
