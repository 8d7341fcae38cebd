"""The standings table is kept by what its rows are (selectors/published.py `rows_stamp`),
not by every version of the event: a hand recounts nobody and leaves it, a result, a correction or a
penalty moves it — and the kept table is always the standings of the event as it is now."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text, url
from tournament.models import Event, Game
from tournament.selectors.published import published
from tournament.selectors.standings import (
    event_standings,
)
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_add
from tournament.services.penalties import penalty_give
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

DRAW = {"result": {"type": "draw", "tenpai": [0]}}


def _now(event: Event) -> Event:
    return Event.objects.get(pk=event.pk)


def _same_as_exact(event: Event) -> None:
    shown = [(r.player, r.total, r.rank) for r in published(event).standings.rows]
    exact = [(r.player, r.total, r.rank) for r in event_standings(event).rows]
    assert shown == exact


def _finish(game: Game, scores: list[int]) -> None:
    game.refresh_from_db()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    data = {"round": game.round.number, "table": game.table, "seats": names, "scores": scores}
    game_correct(game=game, data=data, expected_version=game.version, replace_hands=True)


def _leader(client: Client, event: Event) -> str:
    html = text(client.get(url("event-detail", event.slug)))
    body = html[html.index('id="standings-table"') :]
    return re.search(r"<tbody[^>]*>.*?<a [^>]*>([^<]+)</a>", body, re.S).group(1)


def test_a_hand_leaves_the_rows_stamp_a_result_and_a_penalty_move_it(client):
    event = make_event(slug="rows", players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(4))
    first, second = Game.objects.filter(round__event=event).order_by("table")
    _finish(first, [10000, 20000, 30000, 40000])
    event = _now(event)
    before = published(event).rows_stamp
    leader = _leader(client, event)
    # A hand at the other table: a new version of the event, the same rows and table.
    game_hand_add(game=second, hand=DRAW, expected_version=second.version)
    event = _now(event)
    assert published(event).rows_stamp == before
    _same_as_exact(event)
    assert _leader(client, event) == leader
    # That table's result: the rows move, and the page's table with them.
    _finish(second, [90000, 10000, 0, 0])
    event = _now(event)
    after = published(event).rows_stamp
    assert after != before
    _same_as_exact(event)
    names = [s.player.name for s in second.seats.select_related("player").order_by("position")]
    assert _leader(client, event) == names[0]
    # A penalty is not a game's result, and moves them too.
    penalty_give(event=event, player=names[0], points=-200, reason="late")
    event = _now(event)
    assert published(event).rows_stamp != after
    _same_as_exact(event)
    assert _leader(client, event) != names[0]
