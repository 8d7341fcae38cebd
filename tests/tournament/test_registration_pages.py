"""The sign-up pages and the entries API (issue 50, CONTRACT §8): the form in both languages and
at phone size, errors naming the field with what was typed kept, a closed registration, the
private link (confirm by opening it, see, withdraw with the box ticked), the rate limit that
never blocks a valid link, nothing typed making a 500, names only in the API."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from tests.tournament.factories import make_event, signed_up
from tournament.models import Entry, SignUp
from tournament.services.registration import registration_set, signup_create
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db

FORM = {"name": "Aoki Taro", "email": "aoki@example.org", "ema": "", "country": ""}


def _event(**settings):
    event = make_event(slug="su", players=[])
    registration_set(event=event, open=True, **settings)
    return event


def _post(client, data, lang="en"):
    return client.post("/events/su/register/", data, HTTP_ACCEPT_LANGUAGE=lang)


SENT = "/events/su/register/sent/"


def _mailed_link(email):
    """The private link the e-mail to `email` holds (the mailbox's owner reads it)."""
    return f"/events/su/register/{SignUp.objects.get(email=email, state='unconfirmed').token}/"


def _signed(client, data, lang="en"):
    """Sign up through the form, then open the link mailed (which confirms): the link."""
    answer = _post(client, data, lang)
    assert (answer.status_code, answer["Location"]) == (302, SENT)
    link = _mailed_link(data["email"])
    assert client.get(link, HTTP_ACCEPT_LANGUAGE=lang).status_code == 200
    return link


def test_form_in_both_languages_at_phone_size(client):
    _event(capacity=8)
    en = client.get("/events/su/register/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    ja = client.get("/events/su/register/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for page in (en, ja):
        assert 'name="name"' in page and 'name="email"' in page
        assert 'name="ema"' in page and 'name="country"' in page
        assert 'name="viewport"' in page and "width=device-width" in page
    assert "Sign up" in en and "8 places" in en
    assert "参加申込" in ja and "定員 8 名" in ja and "Sign up" not in ja


def test_the_standings_page_links_the_sign_up_while_it_is_open(client):
    """A player finds the form from the event's public page, and only while sign-ups are taken."""
    event = _event(capacity=8)
    link = 'href="/events/su/register/"'
    assert link in client.get("/events/su/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    registration_set(event=event, open=False)
    assert link not in client.get("/events/su/").content.decode()


def test_the_private_link_withdraws_an_entry_in_words_of_a_sign_up(client):
    """棄権 is a player dropping out of a tournament under way; a sign-up is 取り消す."""
    event = _event()
    signup = signed_up(event, "A", "a@example.org")
    page = client.get(f"/events/su/register/{signup.token}/", HTTP_ACCEPT_LANGUAGE="ja")
    text = page.content.decode()
    assert "申込を取り消す</button>" in text and "棄権" not in text


def test_sign_up_says_check_the_mail_and_its_link_confirms(
    client, django_capture_on_commit_callbacks
):
    """The form never leads to the private link (only the mailbox may open it): it says to
    check the mail; the link in the mail, opened, confirms, and the player is registered."""
    _event()
    with django_capture_on_commit_callbacks(execute=True):
        answer = _post(client, FORM)
    signup = SignUp.objects.get()
    assert (answer.status_code, answer["Location"]) == (302, SENT)
    assert signup.token not in answer["Location"]
    page = client.get(SENT).content.decode()
    assert "Check your e-mail" in page and "aoki@example.org" in page and signup.token not in page
    assert not Entry.objects.filter(player__name="Aoki Taro").exists()  # not yet: unconfirmed
    [sent] = mail.outbox
    link = f"/events/su/register/{signup.token}/"
    assert link in sent.body
    page = client.get(link).content.decode()
    assert "Your e-mail address is confirmed" in page and "You are registered." in page
    assert Entry.objects.filter(player__name="Aoki Taro").exists()


def test_japanese_mail_for_a_japanese_sign_up(client, django_capture_on_commit_callbacks):
    event = _event(capacity=1)
    signed_up(event, "A", "a@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        _post(client, FORM, lang="ja")
    body = mail.outbox[-1].body
    assert "1日以内" in body and "Aoki Taro 様" in body
    assert "申込を確定してください" in mail.outbox[-1].subject


def test_waiting_place_shown(client):
    _event(capacity=1)
    _signed(client, {**FORM, "name": "First", "email": "f@example.org"})
    link = _signed(client, FORM)
    page = client.get(link).content.decode()
    assert "number 1 on the waiting list" in page


def test_errors_name_the_field_and_keep_what_was_typed(client):
    _event()
    _signed(client, FORM)
    answer = _post(client, {**FORM, "name": "Someone Else", "email": "x", "ema": "04090012"})
    assert answer.status_code == 400
    form = answer.context["form"]
    assert list(form.errors) == ["email"]
    page = answer.content.decode()
    assert 'value="Someone Else"' in page and 'value="04090012"' in page
    answer = _post(client, {**FORM, "email": "other@example.org"})
    assert list(answer.context["form"].errors) == ["name"]
    answer = _post(client, {**FORM, "name": "X", "email": "y@example.org", "ema": "12"}, "ja")
    assert list(answer.context["form"].errors) == ["ema"]
    assert "EMA" in answer.content.decode()


def test_closed_registration_says_so(client):
    event = _event()
    registration_set(event=event, open=False)
    page = client.get("/events/su/register/")
    assert page.status_code == 200 and "does not take sign-ups" in page.content.decode()
    assert _post(client, FORM).status_code == 403
    assert not SignUp.objects.exists()
    make_event(slug="never", players=[])
    assert "does not take sign-ups" in client.get("/events/never/register/").content.decode()


def test_withdraw_needs_the_box_and_moves_the_list(client):
    _event(capacity=1)
    first = _signed(client, FORM)
    _signed(client, {**FORM, "name": "Baba", "email": "b@example.org"})
    assert client.post(first, {}).status_code == 400  # box not ticked
    assert SignUp.objects.get(name="Aoki Taro").state == "registered"
    assert client.post(first, {"confirm": "on"}).status_code == 302
    assert SignUp.objects.get(name="Aoki Taro").state == "withdrawn"
    assert SignUp.objects.get(name="Baba").state == "registered"
    assert "This entry is withdrawn." in client.get(first).content.decode()


def test_unknown_link_is_404_and_counted_but_valid_links_never(client, settings):
    _event()
    link = _signed(client, FORM)
    assert client.get("/events/su/register/" + "x" * 32 + "/").status_code == 404
    assert client.get("/events/other/register/" + "x" * 32 + "/").status_code == 404
    for _ in range(LIMITS["signup_link", "address"]):
        client.get("/events/su/register/" + "y" * 32 + "/")
    stopped = client.get("/events/su/register/" + "z" * 32 + "/")
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert client.get(link).status_code == 200  # a valid link is never stopped
    assert client.post(link, {"confirm": "on"}).status_code == 302


def test_sign_ups_rate_limited_per_address_but_refusals_give_back(monkeypatch):
    # The count, not its size (300: test_registration_confirm.py), is what this holds.
    monkeypatch.setitem(LIMITS, ("signup", "address"), 30)
    _event()
    one, other = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    for i in range(5):  # refused (bad e-mail, by the service): not counted
        assert _post(one, {**FORM, "name": f"N{i}", "email": "bad"}).status_code == 400
    limit = LIMITS["signup", "address"]
    for i in range(limit):
        assert _post(one, {**FORM, "name": f"P{i}", "email": f"p{i}@ex.org"}).status_code == 302
    answer = _post(one, {**FORM, "name": "Late", "email": "late@example.org"})
    assert answer.status_code == 429 and "Too many sign-ups" in answer.content.decode()
    assert 0 < int(answer["Retry-After"]) <= 15 * 60  # issue 63: every 429 says when
    assert _post(other, {**FORM, "name": "Late", "email": "late@example.org"}).status_code == 302


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"name": "\x00", "email": "a@b.c"},
        {"name": "A" * 5000, "email": "a@example.org"},
        {"name": "A", "email": "a@" + "b" * 400 + ".org"},
        {"name": "A", "email": "a@example.org", "ema": "１２３４５６７８"},
        {"name": "A", "email": "a@example.org", "country": "<script>"},
        {"name": "\u200b", "email": "a@example.org"},
        {"name": ["x", "y"], "email": "a@example.org"},
    ],
)
def test_nothing_typed_makes_a_500(client, data):
    _event()
    assert _post(client, data).status_code in (302, 400)


def test_api_lists_names_only_in_order(client):
    event = _event(capacity=2, approval=False)
    for name in ("Chiba", "Aoki", "Baba", "Doi"):
        signed_up(event, name, f"{name}@example.org")
    signup_create(event=event, name="Unconfirmed", email="un@example.org")
    registration_set(event=event, approval=True)
    signed_up(event, "Pending", "pend@example.org")
    answer = client.get("/api/v1/events/su/entries")
    assert answer.status_code == 200
    assert answer.json() == {"registered": ["Chiba", "Aoki"], "waiting": ["Baba", "Doi"]}
    assert "@" not in answer.content.decode()
    assert client.get("/api/v1/events/nope/entries").status_code == 404


def test_the_private_link_checks_a_registered_player_in_without_a_code(client):
    from tournament.services.checkin import checkin_require

    event = _event(capacity=1)
    link = _signed(client, FORM)
    waiting = _signed(client, {**FORM, "name": "Baba", "email": "b@example.org"})
    assert "Check in" not in client.get(link).content.decode()  # check-in not required yet
    checkin_require(event=event, required=True)
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "コードは不要" in page
    assert client.post(link, {"do": "checkin"}).status_code == 302
    entry = Entry.objects.get(event=event, player__name="Aoki Taro")
    assert entry.present and entry.checked_in_by == "phone"
    assert "You are checked in" in client.get(link).content.decode()
    client.post(waiting, {"do": "checkin"})  # waiting: no entry to check in
    assert not Entry.objects.filter(player__name="Baba").exists()


def test_the_private_link_shows_what_was_entered_and_the_venue(client):
    from tournament.models import Venue

    event = _event()
    data = {**FORM, "ema": "04000123", "country": "JP"}
    link = _signed(client, data)
    en = client.get(link, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for shown in ("Aoki Taro", "aoki@example.org", "04000123", "Japan", "Ask the organizer"):
        assert shown in en
    assert "data-venue" not in en and "data-find-seat" not in en  # no venue, no round yet
    event.venue = Venue.objects.create(name="Mahjong Baba", slug="baba-club", preset="baba")
    event.save(update_fields=["venue"])
    ja = client.get(link, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "申込内容" in ja and "日本" in ja and "会場" in ja and "Mahjong Baba" in ja


def test_the_private_link_finds_the_seat_once_a_round_is_seated(client):
    import random

    from tournament.services.events import event_register_players
    from tournament.services.rounds import round_seat

    event = _event()
    link = _signed(client, FORM)
    assert "data-find-seat" not in client.get(link).content.decode()
    event_register_players(event=event, names=["B", "C", "D"])
    round_seat(event=event, rng=random.Random(1))
    page = client.get(link).content.decode()
    assert 'href="/events/su/seat/?name=Aoki%20Taro"' in page


def test_withdrawing_from_the_link_mails_that_it_went_through(
    client, django_capture_on_commit_callbacks
):
    _event()
    link = _signed(client, FORM)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(link, {"confirm": "on"}).status_code == 302
    [sent] = mail.outbox
    assert sent.to == ["aoki@example.org"] and "withdrawn" in sent.subject
