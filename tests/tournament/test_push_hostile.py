"""Issue 63, items 4 and 5: what one anonymous POST can do to Web Push (CONTRACT §7).

An endpoint is read as the sender will connect (pywebpush posts with requests, which reads a
URL with urllib3), keys are refused when no message could be made for them, one row that the
library refuses never holds up, repeats or mails its batch, and no request that does not know
a browser's endpoint removes or displaces that browser's subscription."""

from __future__ import annotations

import itertools
import json
import logging
import random

import pytest
import requests
from django.test import Client
from django.utils import timezone
from py_vapid import VapidException
from pywebpush import WebPusher
from urllib3.util import parse_url

from tests.tournament.factories import make_event
from tests.tournament.organize_support import url
from tests.tournament.test_push import PLAYERS, Browser, _good, _post, messages, player_id
from tournament.models import Notification, PushSubscription
from tournament.push_keys import b64url
from tournament.services import push_send
from tournament.services.outboxes import outboxes_send
from tournament.services.push import _endpoint_allowed
from tournament.services.push_send import notifications_send
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

ATTACK = "https://127.0.0.1:8150\\@fcm.googleapis.com/x"  # the issue's, as sent


@pytest.fixture
def event():
    return make_event(slug="hostile", players=PLAYERS)


def _with_endpoint(event, endpoint: str) -> dict:
    body = _good(event)
    return {**body, "subscription": {**body["subscription"], "endpoint": endpoint}}


REFUSED = [
    ATTACK,
    "https://127.0.0.1:8150\\@fcm.googleapis.com:443/x",
    "https://fcm.googleapis.com\\@127.0.0.1/x",
    "https://fcm.googleapis.com/x\\y",  # a backslash anywhere
    "https://fcm.googleapis.com@127.0.0.1/",
    "https://u:p@fcm.googleapis.com/x",  # a user part, even before the right host
    "https://@fcm.googleapis.com/x",
    "https://127.0.0.1#@fcm.googleapis.com/",
    "https://fcm.googleapis.com/x#frag",
    "https://fcm.googleapis.com:8443/x",
    "https://fcm.googleapis.com:0/x",
    "https://fcm.googleapis.com:443:443/x",
    "https://fcm.googleapis.com:/x",
    "http://fcm.googleapis.com/x",
    "HTTPS://fcm.googleapis.com/x",
    "ftp://fcm.googleapis.com/x",
    "https:fcm.googleapis.com/x",
    "https:///fcm.googleapis.com/x",
    "//fcm.googleapis.com/x",
    "https://fcm.googleapis.com\t/x",
    "https://fcm.goo\ngleapis.com/x",
    "https://fcm.googleapis.com/x\n",
    "https://fcm.googleapis.com /x",
    " https://fcm.googleapis.com/x",
    "https://FCM.googleapis.com/x",
    "https://fcm.googleapis.com./x",
    "https://fcm%2Egoogleapis.com/x",
    "https://fcm.googleapis\uff0ecom/x",  # a full-width dot, which IDNA reads as "."
    "https://ｆcm.googleapis.com/x",
    "https://notfcm.googleapis.com/x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://evil.example/fcm.googleapis.com",
    "https://2130706433/x",
    "https://0x7f.1/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[fcm.googleapis.com]/x",
]
# This machine, named plainly: refused in production; the tests' stand-in lives there.
LOOPBACK = [
    "https://127.0.0.1/x",
    "https://127.0.0.1?@fcm.googleapis.com/",
    "https://[::1]/x",
    "https://localhost/x",
    "http://localhost:8150/x",
]
TAKEN = [
    "https://fcm.googleapis.com/fcm/send/cXyZ:APA91bE-x_y",
    "https://fcm.googleapis.com:443/fcm/send/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-x_y",
    "https://web.push.apple.com/QGx-abc_def",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bx%3d",
]


@pytest.mark.parametrize(
    ("local", "endpoint"),
    [(False, e) for e in REFUSED + LOOPBACK] + [(True, e) for e in REFUSED],
    ids=[f"production-{e!r}" for e in REFUSED + LOOPBACK] + [f"tests-{e!r}" for e in REFUSED],
)
def test_an_endpoint_the_sender_would_read_otherwise_is_a_400_naming_it(
    event, vapid, settings, local, endpoint
):
    # As production runs (no stand-in allowed), and as the tests do (http on 127.0.0.1 is).
    settings.WEB_PUSH_LOCAL = local
    status, answer = _post(Client(), event, _with_endpoint(event, endpoint))
    assert status == 400, answer
    assert answer["field"] == "subscription.endpoint" and answer["error"]
    assert not PushSubscription.objects.exists()


def test_the_issues_endpoint_would_have_reached_the_machine_it_hides():
    # Why urlsplit alone was wrong: it reads the host after the backslash; requests does not.
    sent = requests.Request("POST", ATTACK).prepare().url
    assert parse_url(sent).host == "127.0.0.1" and parse_url(sent).port == 8150


@pytest.mark.parametrize("endpoint", TAKEN)
def test_the_push_services_real_endpoints_are_taken(event, vapid, settings, endpoint):
    settings.WEB_PUSH_LOCAL = False
    status, answer = _post(Client(), event, _with_endpoint(event, endpoint))
    assert status == 201, answer
    assert PushSubscription.objects.get().endpoint == endpoint


# Every URL made of a scheme, two hosts (an allowed one, a machine of ours) and the characters
# that urlsplit and urllib3 read differently between and after them — 21,000 in all: each one
# the allow list takes must be one that requests sends to an allowed host, https on 443.
SCHEMES = ("https://", "http://", "HTTPS://")
HOSTS = (
    "fcm.googleapis.com",
    "fcm.googleapis.com:443",
    "FCM.googleapis.com",
    "fcm.googleapis.com.",
    "127.0.0.1",
    "127.0.0.1:8150",
    "[::1]",
)
BETWEEN = ("\\", "@", "\\@", "#", "#@", "?", "?@", "/", ":", "%40", "\t", "")


def test_whatever_the_allow_list_takes_requests_sends_to_an_allowed_host(settings):
    settings.WEB_PUSH_LOCAL = False
    taken = []
    for scheme, first, between, second, after in itertools.product(
        SCHEMES, HOSTS, BETWEEN, HOSTS, BETWEEN
    ):
        endpoint = f"{scheme}{first}{between}{second}{after}x"
        if not _endpoint_allowed(endpoint):
            continue
        taken.append(endpoint)
        sent = parse_url(requests.Request("POST", endpoint).prepare().url)
        assert (sent.scheme, sent.auth, sent.port in (None, 443)) == ("https", None, True)
        assert sent.host == "fcm.googleapis.com" or sent.host.endswith(".fcm.googleapis.com")
    assert "https://fcm.googleapis.com/fcm.googleapis.com/x" in taken  # the check checks


# --- keys: refused when no message could be made for them ---------------------------------


def _point(first: int, rest: bytes) -> str:
    return b64url(bytes([first]) + rest)


@pytest.mark.parametrize(
    ("keys", "field_name"),
    [
        ({"p256dh": _point(4, bytes(64))}, "p256dh"),  # 65 bytes, but not a point of P-256
        ({"p256dh": _point(4, b"\x01" * 64)}, "p256dh"),
        ({"p256dh": _point(2, bytes(32))}, "p256dh"),  # compressed: not what browsers send
        ({"p256dh": "QUJD"}, "p256dh"),  # 3 bytes
        ({"p256dh": "A"}, "p256dh"),  # not base64 at all
        ({"p256dh": "BNcR dreA"}, "p256dh"),
        ({"p256dh": "BNcR+dreA/"}, "p256dh"),  # base64, not base64url
        ({"auth": b64url(bytes(15))}, "auth"),
        ({"auth": b64url(bytes(17))}, "auth"),
        ({"auth": "!!!!"}, "auth"),
        ({"auth": "tBHItJI5svbpez7KI4CCX"}, "auth"),  # one character short
    ],
)
def test_keys_the_library_could_not_use_are_a_400_naming_the_key(event, vapid, keys, field_name):
    body = _good(event)
    body["subscription"]["keys"].update(keys)
    status, answer = _post(Client(), event, body)
    assert status == 400, answer
    assert answer["field"] == f"subscription.keys.{field_name}" and answer["error"]
    assert not PushSubscription.objects.exists()


def test_keys_a_browser_makes_are_taken_padded_or_not_and_the_library_encrypts_to_them(
    event, vapid
):
    for n, pad in enumerate(("", "=")):
        browser = Browser(f"http://127.0.0.1:9/pad{n}")
        body = {**_good(event), "subscription": browser.subscription()}
        keys = body["subscription"]["keys"]
        keys["p256dh"] += pad  # 87 characters: one "=" pads it
        keys["auth"] += pad * 2
        assert _post(Client(), event, body)[0] == 201
        # What was taken, pywebpush encrypts to (nothing sent), and the phone reads.
        sealed = WebPusher(body["subscription"]).encode(b'{"x":1}', "aes128gcm")["body"]
        assert browser.read(sealed) == {"x": 1}


def test_a_bad_key_is_named_in_japanese_too(event, vapid):
    body = _good(event)
    body["subscription"]["keys"]["auth"] = b64url(bytes(3))
    reply = Client(HTTP_ACCEPT_LANGUAGE="ja").post(
        url("push-subscribe", event.slug), json.dumps(body), content_type="application/json"
    )
    assert reply.status_code == 400 and reply.json()["field"] == "subscription.keys.auth"
    assert "browser makes" not in reply.json()["error"]


# --- sending: one bad row is its own ------------------------------------------------------


def _subscribed(event, service, names: list[str]) -> dict[str, Browser]:
    browsers = {name: Browser(f"{service.base}/{name}") for name in names}
    for name, browser in browsers.items():
        body = {"player": player_id(name), "subscription": browser.subscription(), "language": "en"}
        reply = Client().post(
            url("push-subscribe", event.slug), json.dumps(body), "application/json"
        )
        assert reply.status_code == 201
    return browsers


def _written_by_hand(event, name: str, endpoint: str, **keys: str) -> PushSubscription:
    """A row no POST would take now: from before the checks, or written straight into the
    database."""
    good = Browser(endpoint).subscription()["keys"]
    return PushSubscription.objects.create(
        event=event,
        player_id=player_id(name),
        endpoint=endpoint,
        p256dh=keys.get("p256dh", good["p256dh"]),
        auth=keys.get("auth", good["auth"]),
        language="en",
    )


@pytest.mark.parametrize(
    ("endpoint", "keys"),
    [
        (ATTACK, {}),  # the issue's: pywebpush raised VapidException for the whole batch
        ("https://fcm.googleapis.com@127.0.0.1:8150/x", {}),
        ("http://127.0.0.1:9/k", {"p256dh": "k", "auth": "a"}),  # the library's ValueError
    ],
    ids=["backslash", "user-part", "bad-keys"],
)
def test_a_row_the_site_refuses_is_ended_once_and_the_batch_is_sent(
    event, push_service, vapid, caplog, endpoint, keys
):
    browsers = _subscribed(event, push_service, PLAYERS[:7])
    bad = _written_by_hand(event, PLAYERS[7], endpoint, **keys)
    round_seat(event=event, rng=random.Random(4))  # the test's transaction: nothing sent yet
    assert Notification.objects.count() == 8
    with caplog.at_level(logging.INFO, logger="tournament"):
        run = outboxes_send()
    assert run.failed == [] and run.sent["push"] == 7  # the kind did not raise: no mail
    for browser in browsers.values():
        [message] = messages(push_service, browser)
        assert message["body"].startswith("Round 1: table ")
    assert not Notification.objects.exists()  # every row settled, none left leased
    assert not PushSubscription.objects.filter(pk=bad.pk).exists()
    told = [r for r in caplog.records if f"subscription {bad.pk}" in r.getMessage()]
    assert len(told) == 1 and told[0].levelno == logging.WARNING  # once, and not mailed
    assert outboxes_send().sent["push"] == 0  # a second run has nothing to try again
    assert sum(len(v) for v in push_service.received.values()) == 7


@pytest.mark.parametrize(
    "raised",
    [
        VapidException("Missing 'aud' from claims"),
        ValueError("Invalid EC key"),
        KeyError("p256dh"),
        requests.exceptions.InvalidURL("no host"),
    ],
    ids=["VapidException", "ValueError", "KeyError", "InvalidURL"],
)
def test_whatever_one_send_raises_is_that_rows_alone_given_up_once(
    event, push_service, vapid, caplog, monkeypatch, raised
):
    browsers = _subscribed(event, push_service, PLAYERS)
    doomed = browsers["P05"].endpoint
    library = push_send.webpush
    tried: list[str] = []

    def webpush(info, *args, **kwargs):
        tried.append(info["endpoint"])
        if info["endpoint"] == doomed:
            raise raised
        return library(info, *args, **kwargs)

    monkeypatch.setattr(push_send, "webpush", webpush)
    round_seat(event=event, rng=random.Random(6))
    with caplog.at_level(logging.INFO, logger="tournament"):
        assert notifications_send() == 7
    assert not Notification.objects.exists()  # the doomed one given up at once, not retried
    for name, browser in browsers.items():
        assert len(messages(push_service, browser)) == (0 if name == "P05" else 1)
    given_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(given_up) == 1 and type(raised).__name__ in given_up[0].getMessage()
    assert given_up[0].levelno == logging.WARNING
    assert PushSubscription.objects.count() == 8  # the library's refusal ends no phone
    Notification.objects.update(due_at=timezone.now())  # whatever is left, due now
    assert notifications_send() == 0 and tried.count(doomed) == 1  # never tried again


def test_a_vapid_subject_the_library_refuses_keeps_the_messages_and_says_so(
    event, push_service, vapid, settings
):
    _subscribed(event, push_service, PLAYERS[:2])
    round_seat(event=event, rng=random.Random(6))
    settings.VAPID_SUBJECT = "organizer at example.org"  # no mailto: py_vapid refuses it
    run = outboxes_send()
    assert run.failed == ["push"] and Notification.objects.count() == 2  # kept, not given up
    assert push_service.received == {}


# --- item 5: nobody displaces a browser they do not hold ----------------------------------


def test_made_up_subscriptions_for_a_player_leave_their_phone_subscribed(
    event, push_service, vapid, django_capture_on_commit_callbacks
):
    phone = Browser(f"{push_service.base}/phone")
    body = {"player": player_id("P00"), "subscription": phone.subscription(), "language": "en"}
    hall = Client(REMOTE_ADDR="203.0.113.9")
    assert _post(hall, event, body)[0] == 201
    script = Client(REMOTE_ADDR="198.51.100.66")  # player ids are public: anyone may try
    for n in range(7):
        made_up = {**body, "subscription": Browser(f"{push_service.base}/fake{n}").subscription()}
        assert _post(script, event, made_up)[0] == 201
    mine = PushSubscription.objects.filter(player_id=player_id("P00"))
    assert mine.count() == 8 and mine.filter(endpoint=phone.endpoint).exists()
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_seat(event=event, rng=random.Random(2))
    [message] = messages(push_service, phone)
    assert message["body"].startswith(f"Round {rnd.number}: table ")


def test_only_the_exact_endpoint_stops_a_subscription(event, vapid, push_service):
    phone = Browser(f"{push_service.base}/Phone-Secret")
    body = {"player": player_id("P00"), "subscription": phone.subscription(), "language": "en"}
    assert _post(Client(), event, body)[0] == 201
    other = make_event(slug="elsewhere", players=["Other"])
    near_misses = [
        phone.endpoint.lower(),
        phone.endpoint.upper(),
        phone.endpoint[:-1],
        phone.endpoint + "/",
        phone.endpoint + " ",
        push_service.base + "/",
        "%",
        "*",
    ]
    for slug, endpoint in [(event.slug, e) for e in near_misses] + [(other.slug, phone.endpoint)]:
        reply = Client().post(
            url("push-stop", slug), json.dumps({"endpoint": endpoint}), "application/json"
        )
        assert reply.status_code == 204  # the same answer as a stop that ended one
    assert PushSubscription.objects.filter(endpoint=phone.endpoint).exists()
    # A request that does not know the endpoint cannot replace its keys either: another
    # endpoint is another row.
    assert _post(Client(), event, {**_good(event, phone.endpoint + "x")})[0] == 201
    assert (
        PushSubscription.objects.get(endpoint=phone.endpoint).p256dh
        == (phone.subscription()["keys"]["p256dh"])
    )
