"""Sign-up and the waiting list, the services (issue 50, CONTRACT §8): capacity and order, the
list moving on a withdrawal and on a capacity raise, approval, a name taken refused naming the
field, the e-mails queued. Each sign-up here is confirmed as its player would (the link
opened); test_registration_confirm.py holds what happens before that."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from tests.tournament.factories import make_event, signed_up
from tournament.models import AuditEntry, Entry, SignUp
from tournament.services.errors import ServiceError
from tournament.services.registration import (
    registration_set,
    signup_approve,
    signup_confirm,
    signup_create,
    signup_refuse,
    signup_withdraw,
    waiting_place,
)
from tournament.services.registration_mail import mail_text

pytestmark = pytest.mark.django_db


def _event(capacity=None, approval=False, players=None):
    event = make_event(slug="su", players=players or [])
    registration_set(event=event, open=True, capacity=capacity, approval=approval)
    return event


def _sign(event, name, email=None, **more):
    return signed_up(event, name, email or f"{name.lower()}@example.org", **more)


def _entered(event):
    return sorted(
        Entry.objects.filter(event=event, withdrawn=False).values_list("player__name", flat=True)
    )


def test_closed_registration_refuses():
    event = make_event(slug="closed", players=[])
    with pytest.raises(ServiceError) as exc:
        _sign(event, "Aoki")
    assert exc.value.code == "signup.closed"


def test_capacity_then_waiting_in_order():
    event = _event(capacity=2)
    a, b, c, d = (_sign(event, n) for n in ("Aoki", "Baba", "Chiba", "Doi"))
    assert [s.state for s in (a, b, c, d)] == ["registered", "registered", "waiting", "waiting"]
    assert waiting_place(c) == 1 and waiting_place(d) == 2 and waiting_place(a) is None
    assert _entered(event) == ["Aoki", "Baba"]


def test_names_normalised_and_a_name_taken_refused_naming_field():
    event = _event()
    first = _sign(event, "  Ａｏｋｉ   Taro ", email="Taro@Example.org")
    assert first.name == "Aoki Taro" and first.email == "taro@example.org"
    # The address again, in other case: no new sign-up (its owner is told: CONTRACT §8).
    assert _sign(event, "Other", email="TARO@example.org").pk == first.pk
    assert SignUp.objects.count() == 1
    with pytest.raises(ServiceError) as exc:
        _sign(event, "Aoki  Taro", email="x@example.org")
    assert (exc.value.code, exc.value.field) == ("signup.name_taken", "name")


def test_a_name_the_organizer_pasted_is_taken():
    event = _event(players=["Aoki"])
    with pytest.raises(ServiceError) as exc:
        _sign(event, "Aoki")
    assert exc.value.field == "name"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"email": "not-an-address"}, "email"),
        ({"email": ""}, "email"),
        ({"ema": "123"}, "ema"),
        ({"country": "ZZ"}, "country"),
    ],
)
def test_bad_fields_named(fields, field):
    event = _event()
    args = {"name": "Aoki", "email": "a@example.org", **fields}
    with pytest.raises(ServiceError) as exc:
        signup_create(event=event, **args)
    assert exc.value.field == field
    assert not SignUp.objects.exists()


def test_empty_name_named():
    with pytest.raises(ServiceError) as exc:
        _sign(_event(), "   ", email="a@example.org")
    assert exc.value.field == "name"


def test_profile_kept_on_the_entry():
    event = _event()
    _sign(event, "Aoki", ema="04090012", country="fr")
    entry = Entry.objects.get(event=event, player__name="Aoki")
    assert (entry.ema_number, entry.country.code) == ("04090012", "FR")


def test_withdrawal_moves_the_first_waiting_up():
    event = _event(capacity=2)
    a, _b, c, d = (_sign(event, n) for n in ("Aoki", "Baba", "Chiba", "Doi"))
    moved = signup_withdraw(signup=a)
    assert [s.name for s in moved] == ["Chiba"]
    c.refresh_from_db()
    d.refresh_from_db()
    assert (c.state, d.state) == ("registered", "waiting")
    assert waiting_place(d) == 1
    assert _entered(event) == ["Baba", "Chiba"]
    assert signup_withdraw(signup=a) == []  # a second tap changes nothing
    log = AuditEntry.objects.filter(event=event, action="signup.withdraw").get()
    assert "Chiba moved up" in log.summary


def test_a_waiting_withdrawal_moves_nobody():
    event = _event(capacity=1)
    _a, b, c = (_sign(event, n) for n in ("Aoki", "Baba", "Chiba"))
    assert signup_withdraw(signup=b) == []
    assert waiting_place(SignUp.objects.get(pk=c.pk)) == 1
    assert _entered(event) == ["Aoki"]


def test_capacity_raise_moves_the_list_and_lowering_is_refused_naming_count():
    event = _event(capacity=1)
    for n in ("Aoki", "Baba", "Chiba", "Doi"):
        _sign(event, n)
    _settings, moved = registration_set(event=event, capacity=3)
    assert [s.name for s in moved] == ["Baba", "Chiba"]
    assert _entered(event) == ["Aoki", "Baba", "Chiba"]
    with pytest.raises(ServiceError) as exc:
        registration_set(event=event, capacity=2)
    assert (exc.value.code, exc.value.field, exc.value.params) == (
        "signup.capacity_below",
        "capacity",
        {"count": 3},
    )
    _settings, moved = registration_set(event=event, capacity="")  # no limit
    assert [s.name for s in moved] == ["Doi"]


def test_capacity_counts_pasted_names():
    event = _event(capacity=2, players=["Aoki"])
    assert _sign(event, "Baba").state == "registered"
    assert _sign(event, "Chiba").state == "waiting"


def test_approval_pending_then_yes_or_no():
    event = _event(capacity=1, approval=True)
    a, b, c = (_sign(event, n) for n in ("Aoki", "Baba", "Chiba"))
    assert {s.state for s in (a, b, c)} == {"pending"}
    assert _entered(event) == []  # pending counts toward nothing
    signup_approve(event=event, signups=[b])
    assert SignUp.objects.get(pk=b.pk).state == "registered"
    assert signup_refuse(signup=a)
    assert SignUp.objects.get(pk=a.pk).state == "refused"
    approved = signup_approve(event=event)  # all
    assert [s.name for s in approved] == ["Chiba"]
    assert SignUp.objects.get(pk=c.pk).state == "waiting"
    assert _entered(event) == ["Baba"]
    with pytest.raises(ServiceError):
        signup_refuse(signup=SignUp.objects.get(pk=b.pk))  # registered: withdraw instead


def test_refused_name_may_sign_up_again():
    event = _event(approval=True)
    a = _sign(event, "Aoki")
    signup_refuse(signup=a)
    assert _sign(event, "Aoki").state == "pending"


def test_withdrawn_then_again_is_taken_back():
    event = _event()
    a = _sign(event, "Aoki")
    signup_withdraw(signup=a)
    assert _entered(event) == []
    assert not Entry.objects.filter(event=event).exists()  # no seat yet: the entry goes
    assert _sign(event, "Aoki").state == "registered"
    assert _entered(event) == ["Aoki"]


def test_tokens_are_long_and_distinct():
    event = _event()
    tokens = {_sign(event, f"P{i}").token for i in range(20)}
    assert len(tokens) == 20
    assert all(len(t) >= 32 for t in tokens)  # 24 bytes of urlsafe base64: 192 bits


def test_mails_sent_after_commit(django_capture_on_commit_callbacks):
    event = _event(capacity=1)
    with django_capture_on_commit_callbacks(execute=True):
        a = signup_create(
            event=event,
            name="Aoki",
            email="aoki@example.org",
            language="ja",
            site="http://testserver",
        )
        b = signup_create(event=event, name="Baba", email="baba@example.org")
    assert [m.to for m in mail.outbox] == [["aoki@example.org"], ["baba@example.org"]]
    assert a.token in mail.outbox[0].body
    assert "http://testserver/events/su/register/" in mail.outbox[0].body
    assert "1日以内" in mail.outbox[0].body  # in Japanese: open it within a day to confirm
    assert "within a day" in mail.outbox[1].body and "ignore this e-mail" in mail.outbox[1].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        signup_confirm(signup=a)
        signup_confirm(signup=b)
    assert mail.outbox == []  # the page the link opened says where they stand
    with django_capture_on_commit_callbacks(execute=True):
        signup_withdraw(signup=a)
    # Baba moves up; Aoki, who withdrew from her link, is told it went through (in Japanese).
    assert [m.to for m in mail.outbox] == [["baba@example.org"], ["aoki@example.org"]]
    assert "A place came free" in mail.outbox[0].body
    assert "取り消しました" in mail.outbox[1].subject + mail.outbox[1].body


def test_an_organizer_removing_a_sign_up_sends_no_withdrawal_mail(
    django_capture_on_commit_callbacks,
):
    from tests.tournament.organize_support import organizer_for

    event = _event()
    a = _sign(event, "Aoki")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        signup_withdraw(signup=a, user=organizer_for(event))
    assert mail.outbox == []


def test_the_mails_name_the_venue_and_join_japanese_sentences_without_a_space():
    from tournament.models import Venue

    event = _event()
    a = _sign(event, "Aoki", language="ja")
    with translation.override("ja"):
        # The thank-you as a sign-up confirmed before its mail went (queued late) reads it.
        _subject, body = mail_text(SignUp.objects.get(pk=a.pk), "signed")
    assert "ありがとうございます。参加登録が完了しました" in body  # no ASCII space between
    assert "会場" not in body  # the event names no venue
    event.venue = Venue.objects.create(name="Mahjong Baba", slug="baba-club", preset="baba")
    event.save(update_fields=["venue"])
    with translation.override("en"):
        _subject, body = mail_text(SignUp.objects.select_related("event").get(pk=a.pk), "signed")
    assert "Venue: Mahjong Baba" in body


def test_refusal_mail_is_polite(django_capture_on_commit_callbacks):
    event = _event(approval=True)
    a = _sign(event, "Aoki")
    with django_capture_on_commit_callbacks(execute=True):
        signup_refuse(signup=a)
    assert len(mail.outbox) == 1
    assert "sorry" in mail.outbox[0].body and "Aoki" in mail.outbox[0].body


def test_a_late_sign_up_mail_says_the_entry_is_withdrawn():
    """The queue writes the mail when it sends it: withdrawn before then, the thank-you says so
    (it had no sentence for where the entry stands)."""
    event = _event()
    a = _sign(event, "Aoki")
    signup_withdraw(signup=a)
    _subject, body = mail_text(SignUp.objects.get(pk=a.pk), "signed")
    assert "This entry is withdrawn." in body


def test_approval_turned_off_counts_those_pending_in_order():
    event = _event(capacity=1, approval=True)
    a, b = _sign(event, "Aoki"), _sign(event, "Baba")
    registration_set(event=event, approval=False)
    assert SignUp.objects.get(pk=a.pk).state == "registered"
    assert SignUp.objects.get(pk=b.pk).state == "waiting"


def test_the_players_page_withdrawal_moves_the_list_too():
    from tournament.services.events import entry_withdraw

    event = _event(capacity=1)
    _sign(event, "Aoki")
    _sign(event, "Baba")
    entry_withdraw(entry=Entry.objects.get(event=event, player__name="Aoki"))
    states = dict(SignUp.objects.values_list("name", "state"))
    assert states == {"Aoki": "withdrawn", "Baba": "registered"}
    assert _entered(event) == ["Baba"]
