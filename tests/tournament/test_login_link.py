"""Issue 63, item 3: the organizer can always get in — a log-in link by e-mail (Django's
password reset, throttled per network and per address) opens whatever wrong passwords closed."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings

from tests.tournament.organize_support import make_user, url
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db


def locked_out(network: str) -> None:
    make_user("organizer")
    for _ in range(LIMITS["login", "account"]):
        Client().post(url("login"), {"username": "organizer", "password": "x"}, REMOTE_ADDR=network)


def test_a_locked_out_organizer_gets_in_through_the_link_mailed():
    locked_out("203.0.113.7")
    phone = Client(REMOTE_ADDR="203.0.113.7")
    refused = phone.post(url("login"), {"username": "organizer", "password": "pw"})
    assert refused.status_code == 429
    assert url("password_reset") in refused.text  # the page says where the way in is

    sent = phone.post(url("password_reset"), {"email": "organizer@example.com"}, follow=True)
    assert sent.redirect_chain[-1][0] == url("password_reset_done")
    (message,) = mail.outbox
    assert message.subject == "A log-in link for testserver"
    assert "asked for a log-in link for the account organizer" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body).group(1)
    form = phone.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.text
    new = "a-long-new-pass-phrase-9"
    done = phone.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert done.redirect_chain[-1][0] == url("password_reset_complete")
    assert done.context["user"].username == "organizer"  # logged in, from the locked network
    # The link works once.
    assert "new_password1" not in Client().get(link, follow=True).text
    # The lock this network earned is lifted: the new password logs in here next time too.
    phone.post(url("logout"))
    again = phone.post(url("login"), {"username": "organizer", "password": new})
    assert again.status_code == 302


def test_the_mail_is_in_the_readers_language():
    make_user("organizer")
    Client().post(
        url("password_reset"), {"email": "organizer@example.com"}, HTTP_ACCEPT_LANGUAGE="ja"
    )
    (message,) = mail.outbox
    assert "ログインリンク" in message.subject and "新しいパスワード" in message.body


def test_the_answer_is_the_same_for_an_address_with_no_account():
    make_user("organizer")
    known = Client().post(url("password_reset"), {"email": "organizer@example.com"})
    unknown = Client().post(url("password_reset"), {"email": "nobody@example.com"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mail.outbox] == [["organizer@example.com"]]


def test_mails_to_one_address_and_asks_from_one_network_are_counted():
    make_user("organizer")
    for n in range(LIMITS["reset", "account"] + 2):
        answer = Client(REMOTE_ADDR=f"198.51.100.{n}").post(
            url("password_reset"), {"email": "organizer@example.com"}
        )
        assert answer.status_code == 302  # answered as sent …
    assert len(mail.outbox) == LIMITS["reset", "account"]  # … but no mail past its share
    network = Client(REMOTE_ADDR="2001:db8:7::1")
    for n in range(LIMITS["reset", "address"]):
        network.post(
            url("password_reset"), {"email": f"x{n}@example.com"}, REMOTE_ADDR=f"2001:db8:7::{n:x}"
        )
    stopped = network.post(url("password_reset"), {"email": "y@example.com"})
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert "Too many log-in links asked from this network" in stopped.text


class RefusingBackend:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError(111, "Connection refused")


@override_settings(EMAIL_BACKEND=f"{__name__}.RefusingBackend")
def test_a_mail_server_that_refuses_is_no_500_and_says_nothing_of_the_account():
    make_user("organizer")
    answer = Client().post(url("password_reset"), {"email": "organizer@example.com"})
    assert answer.status_code == 302 and answer["Location"] == url("password_reset_done")


def test_the_admin_log_in_links_to_it():
    assert "/admin/password_reset/" in Client().get("/admin/login/").text
    assert Client().get("/admin/password_reset/")["Location"] == url("password_reset")
