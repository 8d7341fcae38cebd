"""Issue 32: the venue screen follows the round. Seated and nobody playing yet: who sits where
(each table, its players by wind). Play begun (the clock, or a table's first hand): the
standings, names as plain text, the clock. Every table done: the clock stops. A player's phone
finds their seat by part of their name."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tests.tournament.test_tournament_day import finish
from tournament.models import Game, Round
from tournament.selectors.tables import round_phase, round_seating
from tournament.services.clock import round_clock_start
from tournament.services.games import game_correct
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
    assert "第1回戦：席に着いてください" in page and "/events/haru/seat/" in page
    assert 'id="standings-table"' not in page and "data-clock" not in page
    assert 'data-phase="seating:1"' in page and 'data-phase-now="seating:1"' in page


def test_play_begins_with_the_clock_or_a_first_result_and_ends_with_the_last(client, seated):
    seated.round_minutes = 60
    seated.save()
    rnd = Round.objects.get(event=seated, number=1)
    round_clock_start(rnd=rnd)
    seated.refresh_from_db()
    page = screen(client, seated)
    assert 'data-phase="play:1"' in page and "data-clock" in page
    assert 'id="standings-table"' in page and "seat-card" not in page
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
    page = text(client.get(f"/events/{event.slug}/seat/?name=山田"))
    assert "No round is seated yet" in page


def test_the_csv_link_sends_excel_users_to_the_xlsx(client, seated):
    page = text(client.get("/events/haru/", headers={"accept-language": "ja"}))
    assert re.search(r">CSV</a>\s*<span class=\"meta\">\(Excel では XLSX を\)</span>", page)
