"""CONTRACT §9's feed: `GET /api/v1/events/<slug>/tables/<round>/<table>/live` — a table as a
stream shows it, every number the engine's (scoring.GameFlow replayed here on the same hands)."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import GameFlow
from scoring.hand_parse import parse_hand
from tests.tournament.factories import baba_day
from tournament.models import Game
from tournament.services.hands import game_hand_add

pytestmark = pytest.mark.django_db

RIICHI_TSUMO = {"riichi": [0], "result": {"type": "tsumo", "winner": 0, "han": 2, "fu": 30}}
DRAW_STICK = {"riichi": [2], "result": {"type": "draw", "tenpai": [1, 2]}}
RON = {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 1, "han": 3, "fu": 40}]}}


def _live(event, round_number: int, table: int, **headers):
    return Client().get(
        f"/api/v1/events/{event.slug}/tables/{round_number}/{table}/live", **headers
    )


def _table(event) -> Game:
    return Game.objects.filter(round__event=event, round__number=5).order_by("table").first()


def test_the_feed_follows_each_hand_as_the_engine_plays_it() -> None:
    event = baba_day(slug="live-feed", played=4, seat_next=True)  # round 5 seated
    game = _table(event)
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    first = _live(event, 5, game.table).json()
    assert (first["label"], first["honba"], first["dealer"], first["riichi_sticks"]) == (
        "E1-0",
        0,
        0,
        0,
    )
    assert [s["wind"] for s in first["seats"]] == ["E", "S", "W", "N"]
    assert [s["player"] for s in first["seats"]] == names
    assert first["last"] is None and not first["finished"] and not first["confirmed"]

    flow = GameFlow(event.rules, 4)
    for number, hand in enumerate([RIICHI_TSUMO, DRAW_STICK, RON], start=1):
        game.refresh_from_db()
        game_hand_add(game=game, hand=hand, expected_version=game.version)
        flow.play(parse_hand(hand, event.rules, 4, "hand"))
        answer = _live(event, 5, game.table).json()
        coming = flow.next()
        assert (answer["label"], answer["honba"], answer["dealer"]) == (
            coming["label"],
            coming["honba"],
            coming["dealer"],
        )
        assert answer["riichi_sticks"] == flow.deposits // 1000
        assert [s["score"] for s in answer["seats"]] == flow.scores
        assert answer["last"]["number"] == number
        assert answer["last"]["deltas"] == flow.records[-1].deltas
        assert [s["riichi"] for s in answer["seats"]] == [
            seat in hand.get("riichi", []) for seat in range(4)
        ]
        dealer = coming["dealer"]
        assert answer["seats"][dealer]["wind"] == "E"
        assert answer["seats"][(dealer + 1) % 4]["wind"] == "S"
    # A draw with South and West tenpai and West's stick: the dealer kept, the stick stays.
    assert sum(s["score"] for s in answer["seats"]) + 1000 * answer["riichi_sticks"] == 4 * (
        event.rules.start
    )


def test_an_etag_answers_304_until_the_table_moves() -> None:
    event = baba_day(slug="live-etag", played=4, seat_next=True)
    game, other = Game.objects.filter(round__event=event, round__number=5).order_by("table")[:2]
    first = _live(event, 5, game.table)
    tag = first["ETag"]
    assert _live(event, 5, game.table, HTTP_IF_NONE_MATCH=tag).status_code == 304
    game_hand_add(game=other, hand=RON, expected_version=other.version)  # another table
    assert _live(event, 5, game.table, HTTP_IF_NONE_MATCH=tag).status_code == 304
    game_hand_add(game=game, hand=RON, expected_version=game.version)
    moved = _live(event, 5, game.table, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["last"]["number"] == 1


@pytest.mark.parametrize("where", [(5, 99), (99, 1), (0, 1), (5, 2**40), (-1, 1)])
def test_a_table_that_is_not_there_is_a_json_404(where) -> None:
    event = baba_day(slug="live-none", played=4, seat_next=True)
    answer = _live(event, *where)
    assert answer.status_code == 404 and "error" in answer.json()


def test_an_unknown_event_and_a_bad_number_are_json_errors() -> None:
    assert Client().get("/api/v1/events/nope/tables/1/1/live").status_code == 404
    bad = Client().get("/api/v1/events/nope/tables/one/1/live")
    assert bad.status_code in (400, 404, 422) and "error" in bad.json()


def test_the_feed_is_in_the_openapi_schema() -> None:
    schema = Client().get("/api/v1/openapi.json")
    if schema.status_code == 404:
        schema = Client().get("/api/v1/schema/")
    assert "/api/v1/events/{slug}/tables/{round_number}/{table}/live" in schema.json()["paths"]
