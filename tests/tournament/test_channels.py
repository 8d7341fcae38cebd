"""Issue 49: the organizer's channels. A local HTTP server stands in for a chat service's
webhook: apprise's generic JSON service (json://127.0.0.1:PORT/path, which POSTs
{"title", "message", …}: github.com/caronc/apprise/wiki/Notify_Custom_JSON) posts to it, so
what a Discord room or a Telegram group would be sent is read here."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tests.tournament.stand_in import SECRET
from tests.tournament.test_push import Browser, closed_port, messages, subscribe
from tournament.exports.formats import format_points
from tournament.models import ChannelPost, Event, Game, Notification, Seat, SitOut, Stage
from tournament.selectors.standings import event_standings
from tournament.services.channel_send import TRIES, channel_posts_send
from tournament.services.channels import channels_set
from tournament.services.games import game_correct
from tournament.services.rounds import round_seat
from tournament.services.stages import stage_close

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i:02d}" for i in range(8)]
WINDS = {"en": "東南西北", "ja": "東南西北"}  # the kanji in both (i18n.SEAT_WINDS)


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
