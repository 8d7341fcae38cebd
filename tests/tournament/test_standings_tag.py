"""The standings page's tag is what it shows (issue 67; selectors/published.py
`standings_shown`): a hand at a table that plays on leaves it — a phone polling gets 304 —
while a result, the first hand of a seated round (its column's marker: from "take your
seats" to in play) and, in a stage's last round, any hand (what each player needs) move it;
and the page a moved tag brings is the standings as they are."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from tests.tournament.factories import baba_day, make_event
from tests.tournament.organize_support import url
from tests.tournament.test_standings_rows_stamp import _leader
from tournament.models import Event, Game
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_add
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

DRAW = {"result": {"type": "draw", "tenpai": [0]}}


def _hand(game: Game) -> None:
    game.refresh_from_db()
    game_hand_add(game=game, hand=DRAW, expected_version=game.version)


def _finish(game: Game, scores: list[int]) -> None:
    game.refresh_from_db()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    data = {"round": game.round.number, "table": game.table, "seats": names, "scores": scores}
    game_correct(game=game, data=data, expected_version=game.version, replace_hands=True)


def _poll(client: Client, address: str, tag: str) -> tuple[int, str]:
    answer = client.get(address, HTTP_IF_NONE_MATCH=tag)
    return answer.status_code, answer.get("ETag", tag)


@pytest.mark.parametrize("name", ["event-detail", "standings-live"])
def test_a_hand_that_plays_on_is_304_a_result_is_the_new_standings(client, name) -> None:
    event = make_event(slug=f"tag-{name}", players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(4))
    first, second = Game.objects.filter(round__event=event).order_by("table")
    _hand(first)  # play has begun: the column's marker moved already
    address = url(name, event.slug)
    tag = client.get(address)["ETag"]
    _hand(second)
    _hand(first)
    assert _poll(client, address, tag)[0] == 304  # hands that play on: nothing it shows moved
    _finish(second, [90000, 10000, 0, 0])
    status, moved = _poll(client, address, tag)
    assert status == 200 and moved != tag
    winner = second.seats.select_related("player").get(position=0).player.name
    if name == "event-detail":
        assert _leader(client, Event.objects.get(pk=event.pk)) == winner  # 90,000 leads


def test_the_first_hand_of_a_seated_round_moves_the_tag(client) -> None:
    event = make_event(slug="tag-seated", players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(4))
    address = url("event-detail", event.slug)
    tag = client.get(address)["ETag"]
    _hand(Game.objects.filter(round__event=event).order_by("table").first())
    assert _poll(client, address, tag)[0] == 200  # "take your seats" is over


def test_in_a_stages_last_round_every_hand_moves_the_tag(client) -> None:
    """Round 6, the qualifier's last: the page shows what each player needs, which moves
    with every hand at its tables."""
    event = baba_day(slug="tag-deciding", played=5, seat_next=True)
    address = url("event-detail", event.slug)
    game = Game.objects.filter(round__event=event, round__number=6).order_by("table").first()
    _hand(game)
    tag = client.get(address)["ETag"]
    _hand(game)
    assert _poll(client, address, tag)[0] == 200
    assert Event.objects.get(pk=event.pk).stages.order_by("position").first().last_round == 6
