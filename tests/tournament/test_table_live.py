"""CONTRACT §9's feed: `GET /api/v1/events/<slug>/tables/<round>/<table>/live` — a table as a
stream shows it, every number the engine's (scoring.GameFlow replayed here on the same hands) —
and `GET /api/v1/events/<slug>/featured/live`, the same for the table the organizer features."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import GameFlow
from scoring.hand_parse import parse_hand
from tests.tournament.factories import baba_day
from tournament.models import Game
from tournament.services.events import event_feature_game
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
    assert "/api/v1/events/{slug}/featured/live" in schema.json()["paths"]


def test_at_the_deciding_last_hand_the_feed_says_what_each_seat_needs() -> None:
    """The final's last hand (CONTRACT §6): `conditions` is the answer the table's sheet and
    the conditions API give, seat by seat; nothing "before" once the game has begun."""
    from tournament.selectors.conditions import conditions_of

    event = baba_day(slug="live-oorasu", played=8, undo=1)
    game = Game.objects.get(round__event=event, round__number=8)
    answer = _live(event, 8, game.table).json()
    expected = conditions_of(event, game)
    assert expected is not None and answer["before"] is None
    conditions = answer["conditions"]
    assert (conditions["stage"], conditions["target"], conditions["last_stage"]) == (
        "final",
        1,
        True,
    )
    assert [s.pop("seat") for s in conditions["seats"]] == [0, 1, 2, 3]
    assert conditions["seats"] == expected["seats"]
    assert [s["player"] for s in conditions["seats"]] == [s["player"] for s in answer["seats"]]


def test_not_at_the_last_hand_nor_in_a_deciding_round_there_are_no_conditions() -> None:
    event = baba_day(slug="live-no-oorasu", played=8, undo=4)  # the final at South 3
    game = Game.objects.get(round__event=event, round__number=8)
    answer = _live(event, 8, game.table).json()
    assert answer["label"] == "S3-0"
    assert answer["conditions"] is None and answer["before"] is None
    early = baba_day(slug="live-early", played=4, seat_next=True)  # round 5 decides nothing
    first = _live(early, 5, _table(early).table).json()
    assert first["conditions"] is None and first["before"] is None


def test_before_the_last_game_the_feed_gives_each_place_the_table_needs() -> None:
    """The final seated, its game not begun: `before` holds the standings panel's rows for
    this table's players, in seat order; the first hand entered ends it."""
    from tournament.selectors.conditions import event_panels

    event = baba_day(slug="live-before", played=7, close_qualifier=True, seat_next=True)
    game = Game.objects.get(round__event=event, round__number=8)
    answer = _live(event, 8, game.table).json()
    before = answer["before"]
    assert answer["conditions"] is None and before is not None
    panel = event_panels(event)["before"]
    assert before["target"] == panel["target"] == 1 and before["places"] == [1, 2, 3, 4]
    assert [r["player"] for r in before["rows"]] == [s["player"] for s in answer["seats"]]
    by_name = {row["player"]: row for row in panel["rows"]}
    for seat, row in enumerate(before["rows"]):
        assert row["seat"] == seat
        theirs = by_name[row["player"]]
        assert row["places"] == theirs["places"] and row["now"] == theirs["now"]
        assert row["total"] == float(theirs["total"])
        assert row["to_lead"] == float(theirs["to_lead"])
    assert sorted(r["now"] for r in before["rows"]) == [1, 2, 3, 4]
    game_hand_add(game=game, hand=RON, expected_version=game.version)
    assert _live(event, 8, game.table).json()["before"] is None


def test_a_result_changed_at_another_table_moves_the_tag() -> None:
    """What each seat needs moves with the standings' rows, so the tag does; another table's
    hand in play leaves it (the test above)."""
    from tournament.services.hands import game_hand_undo

    event = baba_day(slug="live-rows", played=4, seat_next=True)
    tag = _live(event, 5, _table(event).table)["ETag"]
    done = Game.objects.filter(round__event=event, round__number=4, mode="hands").first()
    game_hand_undo(game=done, expected_version=done.version)  # its result is no longer final
    assert _live(event, 5, _table(event).table, HTTP_IF_NONE_MATCH=tag).status_code == 200


# --- the featured table's feed ---------------------------------------------------------------


def _featured(event, **headers):
    return Client().get(f"/api/v1/events/{event.slug}/featured/live", **headers)


def test_the_featured_feed_is_the_featured_table_s_feed() -> None:
    event = baba_day(slug="live-featured", played=4, seat_next=True)
    game, other = Game.objects.filter(round__event=event, round__number=5).order_by("table")[:2]
    game_hand_add(game=game, hand=RIICHI_TSUMO, expected_version=game.version)
    event_feature_game(event=event, game=game)
    featured = _featured(event)
    table = _live(event, 5, game.table)
    assert featured.status_code == 200 and featured["Content-Type"].startswith("application/json")
    assert featured.json() == table.json()  # the same keys, the same values
    assert (featured.json()["round"], featured.json()["table"]) == (5, game.table)
    event_feature_game(event=event, game=other)
    assert _featured(event).json() == _live(event, 5, other.table).json()


def test_the_featured_feed_s_tag_moves_with_the_choice_and_with_the_table() -> None:
    event = baba_day(slug="live-featured-tag", played=4, seat_next=True)
    game, other, third = Game.objects.filter(round__event=event, round__number=5).order_by("table")[
        :3
    ]
    event_feature_game(event=event, game=game)
    tag = _featured(event)["ETag"]
    with CaptureQueriesContext(connection) as captured:
        assert tag and _featured(event, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # Expect 1 query: the featured game's stamp, found through the event's address.
    assert len(captured) == 1, [q["sql"] for q in captured]
    # Another table's hand: the featured one has not moved.
    game_hand_add(game=third, hand=RON, expected_version=third.version)
    assert _featured(event, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # A hand at the featured table.
    game.refresh_from_db()
    game_hand_add(game=game, hand=RON, expected_version=game.version)
    moved = _featured(event, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["last"]["number"] == 1
    tag = moved["ETag"]
    assert tag and _featured(event, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # Another table featured.
    event_feature_game(event=event, game=other)
    switched = _featured(event, HTTP_IF_NONE_MATCH=tag)
    assert switched.status_code == 200 and switched.json()["table"] == other.table
    assert switched["ETag"] not in (tag, None)


def test_with_no_table_featured_the_feed_is_a_json_404_never_304() -> None:
    event = baba_day(slug="live-featured-none", played=4, seat_next=True)
    answer = _featured(event)
    assert answer.status_code == 404
    assert answer.json()["field"] == "table" and "featured" in answer.json()["error"]
    # Not tagged as an answer is: asked again with whatever tag it carries, a 404 still.
    again = _featured(event, HTTP_IF_NONE_MATCH=answer.get("ETag", '"x"'))
    assert again.status_code == 404 and again.json() == answer.json()
    # Featured, then stopped: 404 again, whatever tag the reader holds.
    game = Game.objects.filter(round__event=event, round__number=5).first()
    event_feature_game(event=event, game=game)
    tag = _featured(event)["ETag"]
    event_feature_game(event=event, game=None)
    assert _featured(event, HTTP_IF_NONE_MATCH=tag).status_code == 404
    unknown = Client().get("/api/v1/events/nope/featured/live")
    assert unknown.status_code == 404 and unknown.json()["field"] == "slug"
