"""Issue 49, CONTRACT §7: Web Push to players. A local HTTP server stands in for the browsers'
push service (the `push_service` fixture, tests/tournament/stand_in.py); each test's browser
keys are made here (cryptography), so a message that arrives is decrypted as the phone would
(http_ece, RFC 8291 aes128gcm) and its words read."""

from __future__ import annotations

import base64
import io
import json
import os
import random
import socket
from dataclasses import dataclass, field
from datetime import timedelta

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, url
from tests.tournament.stand_in import PushService
from tournament.i18n import rank_text
from tournament.models import Game, Notification, Player, PushSubscription, Seat
from tournament.numbers import format_points
from tournament.push_keys import b64url, vapid_of
from tournament.selectors.standings import event_standings
from tournament.services.games import game_correct
from tournament.services.push_send import TRIES, notifications_send
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i:02d}" for i in range(8)]
WINDS_JA = "東南西北"
WINDS_EN = ("East", "South", "West", "North")  # issue 66: "Round 1: table 1, West", never 西


@dataclass
class Browser:
    """A browser's subscription keys (RFC 8291 §3: the user agent's P-256 pair and a 16-byte
    auth secret), made here so the test can read what it is sent."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def subscribe(client: Client, event, name: str, browser: Browser, language: str):
    body = {"player": player_id(name), "subscription": browser.subscription(), "language": language}
    return client.post(
        url("push-subscribe", event.slug), json.dumps(body), content_type="application/json"
    )


def closed_port() -> int:
    """A port nobody listens on: a push service that is down."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def messages(service: PushService, browser: Browser) -> list[dict]:
    path = browser.endpoint.removeprefix(service.base)
    return [browser.read(body) for _headers, body in service.received.get(path, [])]


@pytest.fixture
def event():
    return make_event(slug="push", players=PLAYERS)


def test_seating_a_round_sends_each_subscriber_their_table_and_wind_in_their_language(
    event, push_service, vapid, django_capture_on_commit_callbacks
):
    client = Client()
    ja, en = Browser(f"{push_service.base}/ja"), Browser(f"{push_service.base}/en")
    assert subscribe(client, event, "P00", ja, "ja").status_code == 201
    assert subscribe(client, event, "P05", en, "en").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_seat(event=event, rng=random.Random(7))
    assert not Notification.objects.exists()  # sent, and gone from the queue
    for name, browser, language in (("P00", ja, "ja"), ("P05", en, "en")):
        seat = Seat.objects.select_related("game").get(round=rnd, player__name=name)
        [message] = messages(push_service, browser)
        if language == "ja":
            wanted = f"第1回戦 {seat.game.table}卓目 {WINDS_JA[seat.position]}家"
        else:
            wanted = f"Round 1: table {seat.game.table}, {WINDS_EN[seat.position]}"
        assert message["body"] == wanted
        assert message["title"] == event.name
        token = seat.game.links.get(revoked_at__isnull=True).token
        assert message["url"] == f"/t/{token}/"
    # Signed with the site's VAPID key (RFC 8292 §3: "vapid t=<JWT>, k=<public key>").
    headers, _body = push_service.received["/ja"][0]
    assert headers["content-encoding"] == "aes128gcm"
    assert f"k={vapid_of(vapid)[1]}" in headers["authorization"]
    assert int(headers["ttl"]) > 0


def test_a_410_ends_the_subscription_and_a_dead_service_stops_nobody_else(
    event, push_service, vapid, django_capture_on_commit_callbacks
):
    client = Client()
    gone = Browser(f"{push_service.base}/gone")
    dead = Browser(f"http://127.0.0.1:{closed_port()}/dead")
    failing = Browser(f"{push_service.base}/failing")
    alive = Browser(f"{push_service.base}/alive")
    push_service.answers.update({"/gone": 410, "/failing": 503})
    for name, browser in zip(PLAYERS, (gone, dead, failing, alive), strict=False):
        assert subscribe(client, event, name, browser, "en").status_code == 201
    organizer = logged_in(organizer_for(event))
    with django_capture_on_commit_callbacks(execute=True):
        reply = organizer.post(url("round-new", event.slug), {"method": "random", "round": 1})
    assert reply.status_code == 302  # the organizer's request neither failed nor waited
    assert event.rounds.count() == 1
    assert len(messages(push_service, alive)) == 1
    assert not PushSubscription.objects.filter(endpoint=gone.endpoint).exists()
    waiting = Notification.objects.order_by("subscription__endpoint")
    assert [(n.subscription.endpoint, n.attempts) for n in waiting] == sorted(
        [(dead.endpoint, 1), (failing.endpoint, 1)]
    )


def test_a_failure_is_tried_again_then_given_up_and_logged_once(event, push_service, vapid, caplog):
    client = Client()
    failing = Browser(f"{push_service.base}/failing")
    push_service.answers["/failing"] = 500
    assert subscribe(client, event, "P00", failing, "ja").status_code == 201
    round_seat(event=event, rng=random.Random(1))  # queued; nothing sent in the test's transaction
    assert Notification.objects.count() == 1
    for tries in range(1, TRIES + 1):
        Notification.objects.update(due_at=timezone.now())  # the retry's time has come
        assert notifications_send() == 0
        assert len(push_service.received["/failing"]) == tries
    assert not Notification.objects.exists()
    given_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(given_up) == 1 and "HTTP 500" in given_up[0].getMessage()
    assert PushSubscription.objects.count() == 1  # a failing service is not a gone subscription


def test_a_result_waiting_tells_the_other_seats_and_the_last_table_tells_everyone_their_place(
    event, push_service, vapid, django_capture_on_commit_callbacks
):
    client = Client()
    browsers = {name: Browser(f"{push_service.base}/{name}") for name in PLAYERS}
    for name, browser in browsers.items():
        assert subscribe(client, event, name, browser, "en").status_code == 201
    event.table_entry, event.table_mode = "tables", "scores"
    event.save()
    with django_capture_on_commit_callbacks(execute=True):
        round_seat(event=event, rng=random.Random(3))
    push_service.received.clear()
    first, second = Game.objects.filter(round__event=event).order_by("table")
    link = first.links.get(revoked_at__isnull=True)
    phone = Client()
    phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
    names = [s.player.name for s in first.seats.select_related("player").order_by("position")]
    post = {"do": "scores", "version": first.version, "deposits": "0"}
    for i, (name, score) in enumerate(zip(names, [40000, 30000, 20000, 10000], strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    with django_capture_on_commit_callbacks(execute=True):
        reply = phone.post(f"/t/{link.token}/", post)
    assert reply.status_code in (200, 302), reply.status_code
    first.refresh_from_db()
    assert first.confirmation == "waiting" and first.submitted_seat == 0
    told = {name for name in PLAYERS if push_service.received.get(f"/{name}")}
    assert told == set(names[1:])  # the seat that entered it is not asked
    for name in names[1:]:
        [message] = messages(push_service, browsers[name])
        assert message["body"] == (
            "Round 1, table 1: a result waits for your confirmation. Check it and confirm it "
            "with the code on your seat's slip."
        )
        assert message["url"] == f"/t/{link.token}/"
    push_service.received.clear()
    # The organizer approves the first table (no round over yet) and enters the second's.
    organizer = organizer_for(event)
    from tournament.services.tables import game_approve

    with django_capture_on_commit_callbacks(execute=True):
        game_approve(game=first, user=organizer)
    assert push_service.received == {}
    other = [s.player.name for s in second.seats.select_related("player").order_by("position")]
    data = {"round": 1, "table": 2, "seats": other, "scores": [25000, 35000, 15000, 25000]}
    with django_capture_on_commit_callbacks(execute=True):
        game_correct(game=second, data=data, expected_version=second.version)
    rows = {row.player: row for row in event_standings(event).rows}
    for name, browser in browsers.items():
        [message] = messages(push_service, browser)
        row = rows[name]
        assert message["body"] == (
            f"Round 1 is over: you are {rank_text(row.rank)} of {len(rows)}, "
            f"total {format_points(row.total, False)}"
        )
        assert message["url"] == f"/players/{player_id(name)}/"


def test_manage_py_notifications_once_sends_what_is_queued_and_exits(event, push_service, vapid):
    browser = Browser(f"{push_service.base}/once")
    assert subscribe(Client(), event, "P03", browser, "ja").status_code == 201
    round_seat(event=event, rng=random.Random(5))  # the test's transaction: no task ran
    assert Notification.objects.count() == 1
    out = io.StringIO()
    call_command("notifications", "--once", stdout=out)
    assert out.getvalue().strip() == "1 sent"
    [message] = messages(push_service, browser)
    assert message["body"].startswith("第1回戦 ")
    assert not Notification.objects.exists()


def test_manage_py_notifications_without_a_key_says_so_and_sends_no_push(settings, event):
    settings.VAPID_PRIVATE_KEY = ""
    out, err = io.StringIO(), io.StringIO()
    call_command("notifications", "--once", stdout=out, stderr=err)
    assert "VAPID" in err.getvalue() and out.getvalue().strip() == "0 sent"


def test_a_seating_taken_back_before_sending_takes_its_messages_with_it(event, vapid, push_service):
    browser = Browser(f"{push_service.base}/back")
    assert subscribe(Client(), event, "P01", browser, "en").status_code == 201
    from tournament.services.rounds import round_unseat

    rnd = round_seat(event=event, rng=random.Random(5))
    round_unseat(rnd=rnd)
    assert not Notification.objects.exists()


# --- the POST: 201, 400 naming the field, never 500 ---------------------------------------


def _post(client: Client, event, body) -> tuple[int, dict]:
    raw = body if isinstance(body, bytes | str) else json.dumps(body)
    reply = client.post(url("push-subscribe", event.slug), raw, content_type="application/json")
    return reply.status_code, reply.json() if reply.content else {}


def _good(event, endpoint: str = "http://127.0.0.1:9/x") -> dict:
    return {
        "player": player_id("P00"),
        "subscription": Browser(endpoint).subscription(),
        "language": "ja",
    }


@pytest.mark.parametrize(
    ("change", "field_name"),
    [
        (lambda b: b"{not json", ""),
        (lambda b: b"\xff\xfe", ""),
        (lambda b: "[1, 2]", ""),
        (lambda b: "[" * 100_000, ""),
        (lambda b: {**b, "player": 10**30}, "player"),
        (lambda b: {**b, "player": "P00"}, "player"),
        (lambda b: {**b, "player": True}, "player"),
        (lambda b: {k: v for k, v in b.items() if k != "player"}, "player"),
        (lambda b: {**b, "subscription": "x"}, "subscription"),
        (
            lambda b: {**b, "subscription": {"keys": b["subscription"]["keys"]}},
            "subscription.endpoint",
        ),
        (
            lambda b: {
                **b,
                "subscription": {**b["subscription"], "endpoint": "http://fcm.googleapis.com/x"},
            },
            "subscription.endpoint",
        ),
        (
            lambda b: {
                **b,
                "subscription": {**b["subscription"], "endpoint": "https://10.0.0.1/x"},
            },
            "subscription.endpoint",
        ),
        (
            lambda b: {
                **b,
                "subscription": {
                    **b["subscription"],
                    "endpoint": "https://x.evil/fcm.googleapis.com",
                },
            },
            "subscription.endpoint",
        ),
        (
            lambda b: {**b, "subscription": {**b["subscription"], "endpoint": "https://[::1"}},
            "subscription.endpoint",
        ),
        (
            lambda b: {**b, "subscription": {"endpoint": b["subscription"]["endpoint"]}},
            "subscription.keys",
        ),
        (
            lambda b: {**b, "subscription": {**b["subscription"], "keys": {"auth": "a"}}},
            "subscription.keys.p256dh",
        ),
        (
            lambda b: {
                **b,
                "subscription": {**b["subscription"], "keys": {"p256dh": "a", "auth": 5}},
            },
            "subscription.keys.auth",
        ),
        (
            lambda b: {
                **b,
                "subscription": {**b["subscription"], "endpoint": "http://127.0.0.1/\x00"},
            },
            "subscription.endpoint",
        ),
        (
            lambda b: {
                **b,
                "subscription": {**b["subscription"], "keys": {"p256dh": "a\x00", "auth": "b"}},
            },
            "subscription.keys.p256dh",
        ),
        (lambda b: {**b, "language": "fr"}, "language"),
        (lambda b: {k: v for k, v in b.items() if k != "language"}, "language"),
    ],
)
def test_a_bad_subscription_is_a_400_naming_its_field(event, vapid, change, field_name):
    status, answer = _post(Client(), event, change(_good(event)))
    assert status == 400, answer
    assert answer["field"] == field_name and answer["error"]
    assert not PushSubscription.objects.exists()


def test_a_player_of_another_event_is_refused(event, vapid):
    make_event(slug="other", players=["Stranger"])
    body = {**_good(event), "player": player_id("Stranger")}
    status, answer = _post(Client(), event, body)
    assert status == 400 and answer["field"] == "player"


def test_the_errors_are_in_japanese_for_a_japanese_page(event, vapid):
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    status, answer = _post(client, event, {**_good(event), "language": "xx"})
    assert status == 400 and answer["field"] == "language"
    assert "language must be" not in answer["error"]


def test_a_known_push_service_is_taken(event, vapid):
    body = _good(event, "https://fcm.googleapis.com/fcm/send/abc:def")
    assert _post(Client(), event, body)[0] == 201
    body = _good(event, "https://web.push.apple.com/QGx")
    assert _post(Client(), event, body)[0] == 201
    assert PushSubscription.objects.count() == 2


def test_the_same_browser_again_replaces_its_row(event, vapid):
    client = Client()
    endpoint = "http://127.0.0.1:9/same"
    assert _post(client, event, _good(event, endpoint))[0] == 201
    again = {**_good(event, endpoint), "player": player_id("P01"), "language": "en"}
    assert _post(client, event, again)[0] == 201
    [row] = PushSubscription.objects.all()
    assert row.player.name == "P01" and row.language == "en"
    # Other browsers for one player are rows of their own, none pushed out by the next
    # (issue 63: test_push_hostile.py).
    for i in range(7):
        assert _post(client, event, _good(event, f"http://127.0.0.1:9/{i}"))[0] == 201
    assert PushSubscription.objects.filter(player__name="P00").count() == 7


def test_stop_ends_the_subscription(event, vapid):
    client = Client()
    endpoint = "http://127.0.0.1:9/stop"
    assert _post(client, event, _good(event, endpoint))[0] == 201
    stop = url("push-stop", event.slug)
    reply = client.post(stop, json.dumps({"endpoint": endpoint}), content_type="application/json")
    assert reply.status_code == 204 and not PushSubscription.objects.exists()
    reply = client.post(stop, json.dumps({"endpoint": endpoint}), content_type="application/json")
    assert reply.status_code == 204  # stopped already: the same answer
    reply = client.post(stop, json.dumps({"endpoint": 5}), content_type="application/json")
    assert reply.status_code == 400 and reply.json()["field"] == "endpoint"
    reply = client.post(stop, "nope", content_type="application/json")
    assert reply.status_code == 400
    nul = json.dumps({"endpoint": "http://127.0.0.1:9/\x00"})
    reply = client.post(stop, nul, content_type="application/json")
    assert reply.status_code == 400 and reply.json()["field"] == "endpoint"


def test_an_unknown_event_is_a_404_and_a_site_without_a_key_a_503(event, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client = Client()
    reply = client.post("/events/nope/push/", "{}", content_type="application/json")
    assert reply.status_code == 404
    status, answer = _post(client, event, _good(event))
    assert status == 503 and answer["error"]
    assert client.get(url("push-subscribe", event.slug)).status_code == 405


def test_the_worker_is_served_under_its_own_scope():
    reply = Client().get("/push/sw.js")
    assert reply.status_code == 200 and reply["Content-Type"].startswith("text/javascript")
    script = reply.content.decode()
    assert 'addEventListener("push"' in script and "openWindow" in script
    assert "no-cache" in reply["Cache-Control"] or "max-age=0" in reply["Cache-Control"]


def test_keys_are_base64url_p256(vapid):
    _signer, public = vapid_of(vapid)
    point = base64.urlsafe_b64decode(public + "=")
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point
    with pytest.raises(ValueError):
        vapid_of("not a key")


def test_a_retry_is_due_later_not_at_once(event, push_service, vapid):
    failing = Browser(f"{push_service.base}/later")
    push_service.answers["/later"] = 502
    assert subscribe(Client(), event, "P00", failing, "en").status_code == 201
    round_seat(event=event, rng=random.Random(1))
    notifications_send()
    [row] = Notification.objects.all()
    assert row.attempts == 1 and row.due_at > timezone.now() + timedelta(seconds=10)
    assert notifications_send() == 0 and len(push_service.received["/later"]) == 1


# --- the player page: "Notify me" under each event still being played ---------------------


def test_the_player_page_offers_notifications_for_events_still_played(event, vapid, settings):
    rnd = round_seat(event=event, rng=random.Random(2))
    for game in Game.objects.filter(round=rnd).prefetch_related("seats__player"):
        names = [s.player.name for s in game.seats.order_by("position")]
        data = {
            "round": 1,
            "table": game.table,
            "seats": names,
            "scores": [40000, 30000, 20000, 10000],
        }
        game_correct(game=game, data=data, expected_version=game.version)
    page = f"/players/{player_id('P00')}/"
    shown = Client().get(page).content.decode()
    assert f'data-url="/events/{event.slug}/push/"' in shown and "Notify me" in shown
    assert f'data-player="{player_id("P00")}"' in shown
    # A day long past: the event is over, nothing offered (and the page's tag moved).
    event.held_on = timezone.localdate() - timedelta(days=3)
    event.save(update_fields=["held_on"])
    assert "data-push " not in Client().get(page).content.decode()
    # On its day again, but every stage closed: over too.
    event.held_on = timezone.localdate()
    event.save(update_fields=["held_on"])
    assert "data-push " in Client().get(page).content.decode()
    assert event.stages.update(closed=True) == 1  # the league's one stage
    assert "data-push " not in Client().get(page).content.decode()
    # A site without a key offers nothing anywhere.
    settings.VAPID_PRIVATE_KEY = ""
    event.stages.update(closed=False)
    assert "data-push " not in Client().get(page).content.decode()


# --- what queueing costs the organizer's request ------------------------------------------


def _seating_queries(slug: str, subscribed: int) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    names = [f"{slug}{i:03d}" for i in range(64)]
    event = make_event(slug=slug, players=names)
    for name in names[:subscribed]:
        endpoint = f"http://127.0.0.1:9/{slug}/{name}"
        PushSubscription.objects.create(
            event=event,
            player_id=player_id(name),
            endpoint=endpoint,
            p256dh="k",
            auth="a",
            language="en",
        )
    with CaptureQueriesContext(connection) as captured:
        round_seat(event=event, rng=random.Random(1))
    return [q["sql"] for q in captured.captured_queries]


def test_seating_queues_every_subscriber_in_two_queries_whatever_their_number(vapid):
    nobody = _seating_queries("a", 0)
    everyone = _seating_queries("b", 64)
    # Expect the same queries and one more: the messages' INSERT (one statement for 64 rows).
    # The event's subscriptions are read in both (one SELECT), never one query per player.
    assert len(everyone) == len(nobody) + 1
    added = [q for q in everyone if "tournament_notification" in q]
    assert len(added) == 1 and added[0].startswith("INSERT")
    assert Notification.objects.filter(round__event__slug="b").count() == 64


def test_a_site_without_a_key_queues_nothing_and_reads_no_subscription(settings):
    settings.VAPID_PRIVATE_KEY = ""
    queries = _seating_queries("c", 64)
    assert not any("tournament_pushsubscription" in q for q in queries)
    assert not Notification.objects.exists()
