"""Issue 49: the organizer's channels. A local HTTP server stands in for a chat service's
webhook: apprise's generic JSON service (json://127.0.0.1:PORT/path, which POSTs
{"title", "message", …}: github.com/caronc/apprise/wiki/Notify_Custom_JSON) posts to it, so
what a Discord room or a Telegram group would be sent is read here."""

from __future__ import annotations

import io
import random
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tests.tournament.stand_in import SECRET
from tests.tournament.test_push import Browser, closed_port, messages, subscribe
from tournament.models import ChannelPost, Event, Game, Notification, Seat, SitOut, Stage
from tournament.numbers import format_points
from tournament.selectors.standings import event_standings
from tournament.services.channel_send import TRIES, channel_posts_send
from tournament.services.channels import ChannelLinesError, channels_parse, channels_set
from tournament.services.games import game_correct
from tournament.services.rounds import round_seat
from tournament.services.stages import stage_close

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i:02d}" for i in range(8)]
WINDS = {"en": ("East", "South", "West", "North"), "ja": "東南西北"}  # issue 66: in words


@pytest.fixture
def event() -> Event:
    return make_event(slug="chan", players=PLAYERS)


def set_channels(event: Event, urls: list[str], language: str = "en") -> None:
    channels_set(event=event, urls=urls, language=language, site="http://testserver/")


def seating_lines(rnd, language: str) -> list[str]:
    """The round's tables as the database holds them, each seat by its wind."""
    lines = []
    for game in Game.objects.filter(round=rnd).order_by("table"):
        seats = Seat.objects.filter(game=game).select_related("player").order_by("position")
        said = " · ".join(f"{WINDS[language][s.position]} {s.player.name}" for s in seats)
        lines.append(
            f"Table {game.table}: {said}" if language == "en" else f"{game.table}卓目：{said}"
        )
    return lines


# --- the organizer's screen ---------------------------------------------------------------


def test_an_organizer_adds_channels_and_an_unknown_url_is_refused_naming_its_line(event, hook):
    organizer = logged_in(organizer_for(event))
    page = organizer.get(url("event-channels", event.slug))
    assert page.status_code == 200 and 'name="channels"' in text(page)
    typed = f"{hook.url('club')}\nfoo://nothing/{SECRET}"
    refused = organizer.post(
        url("event-channels", event.slug), {"channels": typed, "language": "en"}
    )
    assert refused.status_code == 400
    body = text(refused)
    assert "line 2: this is not a channel URL apprise knows" in body
    assert f"foo://nothing/{SECRET}</textarea>" in body  # what was typed stays in the box
    event.refresh_from_db()
    assert event.channels == {}  # nothing saved
    # An address apprise does not know as a service (a web page), in Japanese.
    japanese = organizer.post(
        url("event-channels", event.slug),
        {"channels": "https://example.com/hook", "language": "ja"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert japanese.status_code == 400
    assert "1行目：対応していないチャンネルURLです" in text(japanese)
    # A service apprise knows that posts to any address: not one this site posts to.
    form = organizer.post(
        url("event-channels", event.slug), {"channels": "form://127.0.0.1/x", "language": "en"}
    )
    assert form.status_code == 400
    assert "line 1: this site posts only to these services: discord, slack" in text(form)
    discord = f"https://discord.com/api/webhooks/1234567890/{SECRET}"
    saved = organizer.post(
        url("event-channels", event.slug),
        {"channels": f"{hook.url('club')}\n\n{discord}\n", "language": "ja"},
    )
    assert saved.status_code == 302
    event.refresh_from_db()
    assert event.channels == {
        "urls": [hook.url("club"), discord],
        "language": "ja",
        "site": "http://testserver",
    }
    again = organizer.get(url("event-channels", event.slug))
    assert discord in text(again)  # the organizer sees what they saved
    assert "private" in again["Cache-Control"] and "no-store" in again["Cache-Control"]


def test_every_bad_line_is_named_at_once_and_what_was_typed_stays(event, hook):
    organizer = logged_in(organizer_for(event))
    typed = f"foo://one/{SECRET}\n{hook.url('club')}\n\nform://127.0.0.1/x\nbar://three"
    for language, said in (
        ("en", ["line 1: this is not a channel URL", "line 4: this site posts only", "line 5: "]),
        # The examples once, with the first unknown line, not again with the next.
        ("ja", ["1行目：", "4行目：", "5行目："]),
    ):
        refused = organizer.post(
            url("event-channels", event.slug),
            {"channels": typed, "language": "en"},
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert refused.status_code == 400
        body = text(refused)
        assert all(line in body for line in said), body
        assert "line 2" not in body and "2行目" not in body  # the good line is not named
        assert body.count("discord://webhook_id/webhook_token") == 1  # the first error's alone
        assert 'rows="6"' in body  # every line typed in view: the errors name them by number
        assert f"{hook.url('club')}\n\nform://127.0.0.1/x\nbar://three</textarea>" in body
    event.refresh_from_db()
    assert event.channels == {}


def test_only_the_events_organizers_see_the_channels(event, hook):
    set_channels(event, [hook.url("club")])
    address = url("event-channels", event.slug)
    assert Client().get(address).status_code == 302  # to log in
    referee = make_user("ref")
    event.referees.add(referee)
    assert logged_in(referee).get(address).status_code == 403
    assert logged_in(make_user("someone")).get(address).status_code == 403
    round_seat(event=event, rng=random.Random(2))
    public = [
        url("event-detail", event.slug),
        url("round-detail", event.slug, 1),
        url("round-seating", event.slug, 1),
        url("find-seat", event.slug) + "?name=P01",
        url("standings-screen", event.slug),
        "/api/v1/events/",
        f"/api/v1/events/{event.slug}/standings",
    ]
    for address in public:
        reply = Client().get(address)
        assert reply.status_code == 200, address
        assert SECRET not in text(reply), address
    # The organizer's dashboard counts them, and does not show them either.
    organizer = logged_in(organizer_for(event))
    dashboard = text(organizer.get(url("event-manage", event.slug)))
    assert 'id="channels-h"' in dashboard and SECRET not in dashboard
    # The change log names the service, never the URL (referees read it too).
    log = text(logged_in(referee).get(url("event-audit", event.slug)))
    assert "Posted to: json" in log and SECRET not in log


# --- the posts ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_seated_round_is_posted_table_by_table_in_the_events_language(
    event, hook, language, django_capture_on_commit_callbacks
):
    set_channels(event, [hook.url("club")], language)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_seat(event=event, rng=random.Random(4))
    assert not ChannelPost.objects.exists()  # sent by the queue, gone from it
    [post] = hook.posts("club")
    title = "Event chan: round 1 seating" if language == "en" else "Event chan：第1回戦 組み合わせ"
    assert post["title"] == title
    assert post["message"].splitlines() == seating_lines(rnd, language)


def test_a_seated_rounds_byes_are_posted_after_its_tables(hook):
    event = make_event(slug="byes", players=[f"P{i:02d}" for i in range(9)])
    set_channels(event, [hook.url("club")], "ja")
    rnd = round_seat(event=event, shortfall="bye", rng=random.Random(2))
    assert channel_posts_send() == 1
    [post] = hook.posts("club")
    [bye] = SitOut.objects.filter(round=rnd, reason="bye").values_list("player__name", flat=True)
    assert post["message"].splitlines() == [*seating_lines(rnd, "ja"), f"抜け番：{bye}"]


def test_the_last_table_of_the_last_round_posts_the_results_and_the_final_standings(
    event, hook, django_capture_on_commit_callbacks
):
    Stage.objects.filter(event=event).update(last_round=1)  # a one-round event
    set_channels(event, [hook.url("club")])
    with django_capture_on_commit_callbacks(execute=True):
        round_seat(event=event, rng=random.Random(6))
    hook.received.clear()
    first, second = Game.objects.filter(round__event=event).order_by("table")
    scores = {first.pk: [40000, 30000, 20000, 10000], second.pk: [25000, 35000, 15000, 25000]}
    for game in (first, second):
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = {"round": 1, "table": game.table, "seats": names, "scores": scores[game.pk]}
        with django_capture_on_commit_callbacks(execute=True):
            game_correct(game=game, data=data, expected_version=game.version)
        if game is first:
            assert hook.received == {}  # a table of the round is still playing
    results, final = hook.posts("club")
    assert results["title"] == "Event chan: round 1 results"
    lines = results["message"].splitlines()
    for game, line in zip((first, second), lines, strict=False):
        seats = Seat.objects.filter(game=game).select_related("player").order_by("rank", "position")
        said = " · ".join(f"{s.player.name} {format_points(s.points, False)}" for s in seats)
        assert line == f"Table {game.table}: {said}"
    assert lines[-1] == "Standings: http://testserver/events/chan/"
    assert final["title"] == "Event chan: final standings"
    rows = event_standings(event).rows
    wanted = [f"{r.rank}. {r.player} {format_points(r.total, False)}" for r in rows[:8]]
    assert "+" not in results["message"]  # 42.0, as the standings page: not +42.0
    assert final["message"].splitlines() == [
        *wanted,
        "All standings: http://testserver/events/chan/",
    ]


def test_a_league_that_names_no_last_round_posts_its_final_standings_when_closed(event, hook):
    set_channels(event, [hook.url("club")])
    round_seat(event=event, rng=random.Random(6))
    scores = [[40000, 30000, 20000, 10000], [45000, 25000, 18000, 12000]]
    games = Game.objects.filter(round__event=event).order_by("table")
    for game, points in zip(games, scores, strict=True):
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = {"round": 1, "table": game.table, "seats": names, "scores": points}
        game_correct(game=game, data=data, expected_version=game.version)
    assert channel_posts_send() == 2  # the seating and the results: the league goes on
    assert [p["title"] for p in hook.posts("club")][-1] == "Event chan: round 1 results"
    stage_close(event=event, stage=Stage.objects.get(event=event))
    assert channel_posts_send() == 1
    final = hook.posts("club")[-1]
    assert final["title"] == "Event chan: final standings"
    rows = event_standings(event).rows
    assert final["message"].splitlines()[0] == f"1. {rows[0].player} {rows[0].total}"


def test_links_start_with_the_sites_address_when_it_is_set(event, hook, settings):
    settings.SITE_URL = "https://mahjong.example.org/"
    Stage.objects.filter(event=event).update(last_round=1)
    set_channels(event, [hook.url("club")])
    round_seat(event=event, rng=random.Random(8))
    for game in Game.objects.filter(round__event=event):
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = {"round": 1, "table": game.table, "seats": names, "scores": [25000] * 4}
        game_correct(game=game, data=data, expected_version=game.version)
    assert channel_posts_send() == 3  # the seating, the results, the final standings
    _seating, results, final = hook.posts("club")
    address = "https://mahjong.example.org/events/chan/"
    assert results["message"].splitlines()[-1] == f"Standings: {address}"
    assert final["message"].splitlines()[-1] == f"All standings: {address}"


def test_a_dead_channel_stops_neither_the_players_push_nor_the_organizers_request(
    event, hook, push_service, vapid, django_capture_on_commit_callbacks
):
    dead = f"json://127.0.0.1:{closed_port()}/dead/{SECRET}"
    set_channels(event, [dead, hook.url("alive")])
    browser = Browser(f"{push_service.base}/phone")
    assert subscribe(Client(), event, "P03", browser, "en").status_code == 201
    organizer = logged_in(organizer_for(event))
    with django_capture_on_commit_callbacks(execute=True):
        reply = organizer.post(url("round-new", event.slug), {"method": "random", "round": 1})
    assert reply.status_code == 302 and event.rounds.count() == 1
    assert len(messages(push_service, browser)) == 1  # the player's phone was told
    assert not Notification.objects.exists()
    assert len(hook.posts("alive")) == 1
    [waiting] = ChannelPost.objects.all()  # the dead one waits for its retry
    assert (waiting.url, waiting.attempts) == (dead, 1)
    assert waiting.due_at > timezone.now()


def test_a_failing_channel_is_tried_again_then_given_up_and_logged_once(event, hook, caplog):
    set_channels(event, [hook.url("failing")])
    hook.answers[f"/failing/{SECRET}"] = 500
    round_seat(event=event, rng=random.Random(1))  # queued; nothing sent in the test's transaction
    assert ChannelPost.objects.count() == 1
    for tries in range(1, TRIES + 1):
        ChannelPost.objects.update(due_at=timezone.now())  # the retry's time has come
        assert channel_posts_send() == 0
        assert len(hook.posts("failing")) == tries
    assert not ChannelPost.objects.exists()
    given_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(given_up) == 1
    said = given_up[0].getMessage()
    assert "json channel" in said and SECRET not in said  # the service, not its secret


def test_a_channel_removed_before_sending_is_not_posted_to(event, hook):
    set_channels(event, [hook.url("old"), hook.url("kept")])
    round_seat(event=event, rng=random.Random(3))
    assert ChannelPost.objects.count() == 2
    set_channels(event, [hook.url("kept")])
    assert ChannelPost.objects.count() == 1  # the removed URL's post went with it
    assert channel_posts_send() == 1
    assert hook.posts("old") == [] and len(hook.posts("kept")) == 1


def test_manage_py_notifications_once_posts_the_channels_too(event, hook, vapid):
    set_channels(event, [hook.url("club")])
    round_seat(event=event, rng=random.Random(5))
    out = io.StringIO()
    call_command("notifications", "--once", stdout=out)
    assert out.getvalue().strip() == "0 sent, 1 posted to channels"
    assert len(hook.posts("club")) == 1 and not ChannelPost.objects.exists()


def test_a_site_without_web_push_still_posts_to_its_channels(event, hook, settings):
    settings.VAPID_PRIVATE_KEY = ""  # no key: no Web Push, the channels all the same
    set_channels(event, [hook.url("club")])
    round_seat(event=event, rng=random.Random(5))
    out = io.StringIO()
    call_command("notifications", "--once", stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip() == "0 sent, 1 posted to channels"
    assert len(hook.posts("club")) == 1


def test_an_event_without_channels_queues_nothing(event, hook):
    round_seat(event=event, rng=random.Random(5))
    assert not ChannelPost.objects.exists()


# --- only the public services they name (issue 63, item 6) -------------------------------


class Listener:
    """A TCP port of this machine that counts who connects (and hangs up on them): a mail
    server, a metadata service or anything else of the server's own network."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    port = Listener()
    yield port
    port.close()


@pytest.fixture
def resolver(monkeypatch) -> dict[str, str]:
    """Names the test makes up, each to the address it says (`resolver[name] = address`),
    for the site's checks and for apprise's own connections alike; every other name as the
    system resolves it."""
    names: dict[str, str] = {}
    system = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list:
        if host not in names:
            return system(host, port, *args, **kwargs)
        address = names[host]
        if ":" in address:
            return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port or 0, 0, 0))]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names


def refused(typed: str) -> list[tuple[str, int]]:
    """Each line refused, as (code, line)."""
    with pytest.raises(ChannelLinesError) as caught:
        channels_parse(typed)
    return [(e.code, e.params.get("line")) for e in caught.value.errors]


HOSTILE = [
    # The issue's: a mail server at the metadata service, on the venue's network, a Discord
    # webhook "at" this machine.
    ("mailto://u:p@169.254.169.254:80?to=a@example.org", "channel.address"),
    ("mailtos://u:p@192.168.1.1:587?to=a@example.org", "channel.address"),
    ("discord://127.0.0.1:8151/webhook_token", "channel.address"),
    # The mail server named by the smtp= option, in every form of an address.
    ("mailtos://u:p@example.org?smtp=127.0.0.1", "channel.address"),
    ("mailtos://u:p@example.org?SMTP=10.0.0.5", "channel.address"),
    ("mailtos://u:p@example.org?smtp=2130706433", "channel.resolves"),
    ("mailtos://u:p@example.org?smtp=0x7f.1", "channel.resolves"),
    ("mailtos://u:p@example.org?smtp=017700000001", "channel.resolves"),
    ("mailtos://u:p@example.org?smtp=localhost", "channel.resolves"),
    ("mailtos://u:p@example.org?smtp=[::1]", "channel.address"),
    ("mailtos://u:p@example.org?smtp=::ffff:169.254.169.254", "channel.address"),
    ("mailtos://u:p@example.org?smtp=fd00:ec2::254", "channel.address"),
    ("mailtos://u:p@example.org?smtp=0.0.0.0", "channel.address"),
    ("mailtos://u:p@example.org?smtp=224.0.0.1", "channel.address"),
    ("mailtos://u:p@example.org?smtp=100.100.100.200", "channel.address"),
    ("mailtos://u:p@example.org?smtp=64:ff9b::a9fe:a9fe", "channel.address"),
    ("mailto://u:p@2130706433?to=a@example.org", "channel.resolves"),
    # The tests' own service (json://) is held to the same rule.
    ("json://[::1]:8000/x", "channel.address"),
    ("json://017700000001:8000/x", "channel.resolves"),
    # Options that have apprise read a file of the server or fetch another address.
    (f"discord://1234567890/{SECRET}?template=http://169.254.169.254/latest", "channel.option"),
    (
        f"https://discord.com/api/webhooks/1234567890/{SECRET}?Template=file:///etc/passwd",
        "channel.option",
    ),
    ("slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7?template=/etc/hostname", "channel.option"),
    ("tgram://123456789:abcdefg_hijklmnop/12345?template=http://10.0.0.5/", "channel.option"),
    ("mailtos://u:p@gmail.com?pgppub=/etc/passwd", "channel.option"),
    ("mailtos://u:p@gmail.com?to=a@127.0.0.1&wkd=yes", "channel.option"),
]


@pytest.mark.parametrize(("typed", "code"), HOSTILE)
def test_a_channel_that_reaches_a_machine_off_the_public_internet_is_refused(typed, code, settings):
    settings.CHANNEL_LOCAL = False  # production's
    assert refused(f"{typed}\n") == [(code, 1)]


def test_a_name_that_leads_to_an_address_off_the_public_internet_is_refused(resolver, settings):
    settings.CHANNEL_LOCAL = False
    resolver["metadata.google.internal"] = "169.254.169.254"
    resolver["mail.venue.example"] = "10.0.0.25"
    resolver["smtp.example.net"] = "93.184.215.14"
    typed = (
        "mailtos://u:p@metadata.google.internal?to=a@example.org\n"
        "mailtos://u:p@example.org?smtp=mail.venue.example\n"
        "mailtos://u:p@example.org?smtp=smtp.example.net\n"  # public: taken
        "mailtos://u:p@example.org?smtp=nowhere.invalid\n"
    )
    assert refused(typed) == [
        ("channel.resolves", 1),
        ("channel.resolves", 2),
        ("channel.no_address", 4),
    ]


def test_the_public_services_are_taken(resolver, settings):
    settings.CHANNEL_LOCAL = False
    resolver["smtp.gmail.com"] = "142.250.102.108"
    resolver["smtp.example.net"] = "2a00:1450:4001:82b::200e"
    typed = [
        f"https://discord.com/api/webhooks/4174216298/{SECRET}",  # no address looked up
        f"discord://4174216298/{SECRET}?avatar_url=https://example.org/a.png",
        "https://hooks.slack.com/services/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7",
        "tgram://123456789:abcdefg_hijklmnop/12345",
        "mailtos://user:password@gmail.com",  # apprise's provider: smtp.gmail.com
        "mailtos://user:password@example.org?smtp=smtp.example.net&to=club@example.org",
    ]
    assert channels_parse("\n".join(typed)) == typed


def test_the_tests_own_machine_is_the_only_one_they_open(settings):
    # Production opens none; the tests' settings open this machine only (their stand-ins).
    from tournament import settings as production

    assert production.CHANNEL_LOCAL is False
    assert settings.CHANNEL_LOCAL is True
    assert channels_parse("json://127.0.0.1:8000/x") == ["json://127.0.0.1:8000/x"]
    assert refused("json://192.168.1.1:8000/x\nmailto://u:p@169.254.169.254?to=a@b.org") == [
        ("channel.address", 1),
        ("channel.address", 2),
    ]


def test_the_organizer_is_told_which_line_and_why_in_their_language(event, settings):
    settings.CHANNEL_LOCAL = False
    organizer = logged_in(organizer_for(event))
    typed = (
        f"discord://1234567890/{SECRET}\n"
        "mailto://u:p@169.254.169.254:80?to=a@example.org\n"
        "mailtos://u:p@example.org?smtp=0x7f.1\n"
        f"discord://1234567890/{SECRET}?template=http://127.0.0.1/"
    )
    for language, said in (
        (
            "en",
            [
                "line 2: 169.254.169.254 is not on the public internet",
                "line 3: 0x7f.1 leads to 127.0.0.1, which is not on the public internet",
                "line 4: this site does not take apprise&#x27;s template= option",
            ],
        ),
        (
            "ja",
            [
                "2行目：169.254.169.254はインターネットに公開されたサーバーではありません",
                "3行目：0x7f.1の接続先127.0.0.1はインターネットに公開されたサーバーではありません",
                "4行目：appriseのtemplate=オプションは使えません",
            ],
        ),
    ):
        reply = organizer.post(
            url("event-channels", event.slug),
            {"channels": typed, "language": "en"},
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert reply.status_code == 400
        body = text(reply)
        assert all(line in body for line in said), body
        assert "line 1" not in body and "1行目" not in body
    event.refresh_from_db()
    assert event.channels == {}


def test_a_channel_saved_before_the_check_is_never_connected_to(
    event, hook, listener, settings, caplog
):
    settings.CHANNEL_LOCAL = False
    # Written as a site without the check kept them: a mail server on this machine (the
    # issue's listener saw EHLO), the metadata service, the stand-in webhook on 127.0.0.1.
    urls = [
        f"mailto://u:p@127.0.0.1:{listener.port}?to=a@example.org&from=club@example.org",
        f"mailto://u:p@example.org:{listener.port}?smtp=127.0.0.1&to=a@example.org",
        f"mailtos://u:p@example.org:{listener.port}?smtp=2130706433",
        f"discord://1234567890/{SECRET}?template=http://127.0.0.1:{listener.port}/",
        hook.url("club"),
    ]
    site = {"urls": urls, "language": "en", "site": "http://testserver"}
    Event.objects.filter(pk=event.pk).update(channels=site)
    event.refresh_from_db()
    round_seat(event=event, rng=random.Random(2))
    assert ChannelPost.objects.count() == len(urls)
    posted = channel_posts_send()
    assert listener.connections == 0 and hook.received == {}
    assert posted == 0
    assert not ChannelPost.objects.exists()  # settled at once, never tried again
    said = [r.getMessage() for r in caplog.records if "did not post" in r.getMessage()]
    assert len(said) == len(urls) and not any(SECRET in line for line in said)
    assert any("json channel: channel.address host=127.0.0.1" in line for line in said)
    assert any("mailto channel: channel.address host=127.0.0.1" in line for line in said)
    assert any("channel.option option=template" in line for line in said)


def test_a_name_that_leads_elsewhere_when_posting_is_not_posted_to(
    event, hook, resolver, settings, caplog
):
    settings.CHANNEL_LOCAL = False
    port = hook.address.rsplit(":", 1)[1]
    resolver["hooks.example.net"] = "93.184.215.14"  # public when saved
    typed = f"json://hooks.example.net:{port}/club/{SECRET}"
    set_channels(event, channels_parse(typed))
    round_seat(event=event, rng=random.Random(2))
    resolver["hooks.example.net"] = "127.0.0.1"  # this machine by the time it is sent
    assert channel_posts_send() == 0
    assert hook.received == {}  # apprise would have reached the stand-in through the name
    assert not ChannelPost.objects.exists()
    [said] = [r.getMessage() for r in caplog.records if "did not post" in r.getMessage()]
    assert "channel.resolves host=hooks.example.net address=127.0.0.1" in said


def test_a_channel_that_answers_with_a_redirect_is_not_followed(event, hook):
    # A service that answers "go to 127.0.0.1:…/elsewhere" would take the post to a host
    # nobody checked: apprise follows redirects unless told not to (and ?redirect=yes).
    target = f"http://{hook.address}/elsewhere/{SECRET}"

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(307)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        set_channels(event, [f"json://{address}/club/{SECRET}?redirect=yes"])
        round_seat(event=event, rng=random.Random(2))
        assert channel_posts_send() == 0  # failed: tried again later
    finally:
        server.shutdown()
        server.server_close()
    assert hook.received == {}
