"""Issue 32: the venue screen follows the round. Seated and nobody playing yet: who sits where
(each table, its players by wind). Play begun (the clock, or a table's first hand): the
standings, names as plain text, the clock. Every table done: the clock stops. A player's phone
finds their seat by part of their name."""

from __future__ import annotations

import random
import re
from urllib.parse import quote

import pytest
import segno
from django.test import Client
from django.utils import timezone

from tests.tournament.factories import baba_day, make_event
from tests.tournament.organize_support import text
from tests.tournament.test_tournament_day import finish
from tournament.models import Game, Round
from tournament.selectors.checkin import checkin_code_shown, checkin_screen_key
from tournament.selectors.tables import round_phase, round_seating, stage_in_play
from tournament.services.clock import round_clock_start
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_add, game_hand_undo
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

NAMES = [
    "山田 一郎",
    "佐藤 花子",
    "鈴木 健",
    "高橋 真央",
    "田中 翔",
    "伊藤 咲",
    "渡辺 蓮",
    "中村 陽",
]


def screen(client: Client, event) -> str:
    return text(client.get(f"/events/{event.slug}/screen/", headers={"accept-language": "ja"}))


def body(client: Client, event) -> str:
    reply = client.get(f"/events/{event.slug}/screen/", headers={"X-Requested-With": "fetch"})
    return text(reply)


@pytest.fixture
def seated():
    event = make_event(slug="haru", ruleset="tenhou", players=NAMES)
    round_seat(event=event, rng=random.Random(1))
    return event


def test_a_seated_round_shows_each_table_and_its_players_by_wind(client, seated):
    page = screen(client, seated)
    assert round_phase(seated).phase == "seating"
    seating = round_seating(seated, 1)
    assert [t.table for t in seating] == [1, 2]
    cards = re.findall(r'<li class="seat-card".*?</li>\s*</ol>', page, re.S)
    assert len(cards) == 2
    for card, table in zip(cards, seating, strict=True):
        assert f"{table.table}卓目" in card
        shown = re.findall(r'<span class="wind">(.)</span> <span class="name">([^<]+)</span>', card)
        assert shown == list(zip("東南西北", table.players, strict=True))
    assert "第1回戦：席に着いてください" in page
    assert "http://testserver/events/haru/seat/" in page.replace("<wbr>", "")
    assert 'id="standings-table"' not in page and "data-clock" not in page
    assert 'data-phase="seating:1"' in page and 'data-phase-now="seating:1"' in page


def test_the_standings_say_take_your_seats_until_play_begins(client, seated):
    """helper-49's walk: the standings said 第1回戦 対局中 as soon as the round was seated,
    while the venue screen said 席に着いてください. Both say "take your seats" until play
    begins (the clock, or a table's first result), then "in progress"; the seated round's
    column waits for its play too."""

    def standings(language: str) -> str:
        reply = client.get(f"/events/{seated.slug}/", headers={"accept-language": language})
        return text(reply)

    ja, en = standings("ja"), standings("en")
    assert "第1回戦：席に着いてください" in ja and "対局中" not in ja
    assert "Round 1: take your seats" in en and "in progress" not in en
    assert "Find your seat" in en  # the link a seated player needs
    # A table's first hand begins play …
    games = list(Game.objects.filter(round__event=seated).order_by("table"))
    game_hand_add(
        game=games[1],
        hand={"result": {"type": "draw", "tenpai": [0]}},
        expected_version=games[1].version,
    )
    assert "Round 1 in progress" in standings("en")
    games[1].refresh_from_db()
    game_hand_undo(game=games[1], expected_version=games[1].version)  # seated only again
    assert "Round 1: take your seats" in standings("en")
    # … and so does a table's first result.
    game = games[0]
    names = [s.player.name for s in game.seats.order_by("position")]
    game_correct(
        game=game,
        data={
            "round": 1,
            "table": game.table,
            "seats": names,
            "scores": [40000, 30000, 20000, 10000],
        },
        expected_version=game.version,
    )
    ja, en = standings("ja"), standings("en")
    assert "席に着いてください" not in ja and "対局中" in ja
    assert "Round 1 in progress" in en and "take your seats" not in en


def test_play_begins_with_the_clock_or_a_first_result_and_ends_with_the_last(client, seated):
    seated.round_minutes = 60
    seated.save()
    rnd = Round.objects.get(event=seated, number=1)
    round_clock_start(rnd=rnd)
    seated.refresh_from_db()
    page = screen(client, seated)
    assert 'data-phase="play:1"' in page and "data-clock" in page
    assert 'id="standings-table"' in page and "seat-card" not in page
    # Said as the other phases are, a capital in English: "Round 1: take your seats".
    english = text(client.get(f"/events/{seated.slug}/screen/", headers={"accept-language": "en"}))
    assert "第1回戦 対局中" in page and "Round 1 in progress" in english
    # Names on the room's screen are plain text: nobody clicks a projector.
    names = re.findall(r'<td class="player">(.*?)</td>', page)
    assert len(names) == len(NAMES) and not [n for n in names if "<a" in n]
    # The fetched body says its phase: a screen drawn in another reloads itself.
    assert 'data-phase-now="play:1"' in body(client, seated)
    finish(seated, 1, {table: [40000, 30000, 20000, 10000] for table in (1, 2)})
    seated.refresh_from_db()
    page = screen(client, seated)
    assert round_phase(seated).phase == "done"
    assert "第1回戦：全卓終了" in page and "data-clock" not in page  # the clock stops


def test_without_a_clock_the_first_result_starts_play(client, seated):
    game = Game.objects.filter(round__event=seated).order_by("table").first()
    seats = [s.player.name for s in game.seats.order_by("position")]
    data = {"round": 1, "table": game.table, "seats": seats, "scores": [40000, 30000, 20000, 10000]}
    game_correct(game=game, data=data, expected_version=game.version)
    seated.refresh_from_db()
    assert round_phase(seated).phase == "play"
    assert 'data-phase-now="play:1"' in body(client, seated)


def test_the_screen_and_the_standings_agree_when_play_began(seated):
    """One rule (`round_begun`) decides whether a round has begun for the venue screen and
    for the standings: seated → both "take your seats"; the clock started (even on an event
    whose minutes were set back to none, where no clock is shown) → both in play."""
    from tournament.selectors.published import round_progress

    assert round_phase(seated).phase == "seating" and round_progress(seated).seating
    Round.objects.filter(event=seated, number=1).update(clock_started_at=timezone.now())
    seated.round_minutes = 0
    seated.save(update_fields=["round_minutes"])
    phase = round_phase(seated)
    assert (phase.phase, phase.clock) == ("play", None)
    assert round_progress(seated).playing == 1 and not round_progress(seated).seating


def test_find_your_seat_by_part_of_a_name(client, seated):
    seating = round_seating(seated, 1)
    where = {name: (t.table, i) for t in seating for i, name in enumerate(t.players)}
    page = text(client.get("/events/haru/seat/?name=佐藤", headers={"accept-language": "ja"}))
    table, position = where["佐藤 花子"]
    assert f"{table}卓目 · {'東南西北'[position]}" in page and "佐藤 花子" in page
    # Without the space, full-width, in another case: the same player.
    page = text(client.get("/events/haru/seat/?name=佐藤花子"))
    assert "佐藤 花子" in page
    page = text(client.get("/events/haru/seat/?name=木村", headers={"accept-language": "ja"}))
    assert "「木村」という選手はいません" in page
    # Anything typed answers a page, never a 500; an unknown parameter is dropped.
    assert client.get("/events/haru/seat/?name=" + "x" * 5000).status_code == 200
    assert client.get("/events/haru/seat/?name=a&x=1").status_code == 302


def test_find_your_seat_before_any_round(client):
    event = make_event(slug="early", players=NAMES)
    page = text(client.get(f"/events/{event.slug}/seat/"))
    assert "No round is seated yet" in page
    # A name is found all the same (issue 49: "Notify me" before round 1, where the site sends).
    page = text(client.get(f"/events/{event.slug}/seat/?name=山田"))
    assert "山田" in page and "Round 1 is not seated yet" in page


def test_the_csv_link_sends_excel_users_to_the_xlsx(client, seated):
    page = text(client.get("/events/haru/", headers={"accept-language": "ja"}))
    assert re.search(r">CSV</a>\s*<span class=\"meta\">\(Excel では XLSX を\)</span>", page)


# --- the stage in play first; the addresses as words and QR codes (issue 43) ---------------


def current_tab(page: str) -> str:
    return re.findall(r'<a href="[^"]*" aria-current="page">([^<]+)</a>', page)[0]


def rows(page: str) -> int:
    return page.count('<td class="player">')


@pytest.mark.parametrize(
    ("moment", "tab", "shown"),
    [
        ({"played": 0}, "予選", 16),  # before any game: the qualifier
        ({"played": 5, "undo": 2}, "予選", 16),  # round 5 in play
        ({"played": 6}, "予選", 16),  # between stages: who goes through
        ({"played": 8, "undo": 4}, "決勝", 4),  # the final in play: what the room watches
        ({"played": 8}, "決勝", 4),  # the day over: the champion
    ],
)
def test_the_screen_opens_on_the_stage_being_played(client, moment, tab, shown):
    """A Baba day in Japanese: the screen's plain address shows the stage of the latest round,
    its tab marked, and its body fetched by the screen follows it; the Overall tab (`?stage=`)
    stays on every stage, and so does the body it fetches."""
    event = baba_day(**moment)
    page = screen(client, event)
    assert current_tab(page) == tab and rows(page) == shown
    assert rows(body(client, event)) == shown
    # The Overall tab leads to every stage, and its screen keeps fetching every stage.
    assert re.search(r'<a href="\?stage=">総合</a>', page)
    overall = text(
        client.get(f"/events/{event.slug}/screen/?stage=", headers={"accept-language": "ja"})
    )
    assert current_tab(overall) == "総合" and rows(overall) == 16
    assert f'data-screen="/events/{event.slug}/screen/?stage="' in overall
    fetched = client.get(
        f"/events/{event.slug}/screen/?stage=", headers={"X-Requested-With": "fetch"}
    )
    assert rows(text(fetched)) == 16


def test_an_event_of_one_stage_shows_every_row_as_before(client, seated):
    assert stage_in_play(seated, 1) == ""
    round_clock_start_at(seated)
    page = screen(client, seated)
    assert rows(page) == len(NAMES) and "aria-current" not in page  # no tabs: one stage


def round_clock_start_at(event) -> None:
    event.round_minutes = 60
    event.save()
    round_clock_start(rnd=Round.objects.get(event=event, number=1))


def test_the_addresses_read_as_words_and_as_qr_codes(client):
    """An event named in Japanese: the check-in and find-your-seat addresses on the screen read
    as typed (/events/秋の大会/seat/, not %E7%A7%8B…), whole and absolute; each QR code holds
    the address a phone opens."""
    event = baba_day(slug="秋の大会", played=0, seat_next=True)
    event.checkin_required, event.checkin_code = True, "AB12CD"
    event.save()
    page = screen(client, event)
    links = re.findall(r'<figure class="screen-link" data-link="(\w+)">(.*?)</figure>', page, re.S)
    assert [kind for kind, _ in links] == ["checkin", "seat"]
    for path, html in links:  # each link's kind is its route's last word
        address = re.search(r'<span class="address">(.*?)</span>', html).group(1)
        assert address.replace("<wbr>", "") == f"http://testserver/events/秋の大会/{path}/"
        assert "%" not in address
        sent = f"http://testserver/events/{quote('秋の大会')}/{path}/"
        qr = segno.make(sent, error="m").svg_inline(omitsize=True)
        assert qr in html  # the code of the address as sent, drawn here (no image fetched)
    assert checkin_code_shown(event) not in page  # the public screen: no code (issue 63)
    private = client.get(
        f"/events/{event.slug}/screen/?key={checkin_screen_key(event)}",
        headers={"accept-language": "ja"},
    )
    assert "コード" in text(private) and checkin_code_shown(event) in text(private)
    # Play begun: the check-in and the seat finder give way to the standings.
    round_clock_start_at(event)
    assert "screen-link" not in screen(client, event)


def test_the_stage_in_play_before_any_round_is_the_first():
    event = baba_day(played=0)
    assert stage_in_play(event, None) == "qualifier"
    assert stage_in_play(event, 7) == "final"


def test_by_the_final_the_screen_no_longer_asks_anyone_to_check_in(client):
    """Issue 43 (a whole day walked): while the final was seated the screen still showed the
    check-in code nobody could use, and its heading said only 「第7回戦：席に着いてください」."""
    event = baba_day(slug="決勝の日", played=6, close_qualifier=True, seat_next=True)
    event.checkin_required, event.checkin_code = True, "AB12CD"
    event.save()
    page = screen(client, event)
    kinds = re.findall(r'<figure class="screen-link" data-link="(\w+)">', page)
    assert kinds == ["seat"]
    assert checkin_code_shown(event) not in page
    assert "決勝 · 第7回戦" in page
