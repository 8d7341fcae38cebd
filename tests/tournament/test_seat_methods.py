"""Issue 33: seating the next round by Swiss or interval from the organizer's form, and every
method seating each player at the wind they have had least."""

from __future__ import annotations

import random

import pytest

from tests.tournament.factories import make_event
from tests.tournament.test_tournament_day import finish
from tournament.models import Seat
from tournament.selectors.standings import event_standings
from tournament.services.errors import ServiceError
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i:02d}" for i in range(16)]
SCORES = {t: [45000, 30000, 15000, 10000] for t in range(1, 5)}


def tables(event, number: int) -> list[list[str]]:
    seats = Seat.objects.filter(round__event=event, round__number=number).order_by(
        "game__table", "position"
    )
    out: dict[int, list[str]] = {}
    for table, name in seats.values_list("game__table", "player__name"):
        out.setdefault(table, []).append(name)
    return list(out.values())


@pytest.mark.parametrize("method", ["swiss", "interval"])
def test_a_ranked_method_waits_for_every_result_then_seats_by_the_standings(method):
    event = make_event(slug=method, players=PLAYERS)
    round_seat(event=event, rng=random.Random(1))
    with pytest.raises(ServiceError) as refused:
        round_seat(event=event, method=method, number=2)
    assert refused.value.code == "round.unfinished"
    finish(event, 1, SCORES)
    round_seat(event=event, method=method, number=2, rng=random.Random(2))
    order = [str(r.player) for r in event_standings(event).rows]
    second = tables(event, 2)
    where = {p: i for i, t in enumerate(second) for p in t}
    if method == "interval":
        # Each table one player from each quarter of the standings.
        for t in second:
            assert sorted(order.index(p) // 4 for p in t) == [0, 1, 2, 3]
    else:
        # Swiss: the 1st–4th of the standings stay within a table of the top one, and no pair
        # of round 1 meets again (one table up or down is room enough here).
        assert all(abs(where[p] - order.index(p) // 4) <= 1 for p in order)
        first = [set(t) for t in tables(event, 1)]
        assert not [t for t in second for f in first if len(set(t) & f) > 1]


def test_every_method_seats_each_player_at_the_wind_they_have_had_least():
    event = make_event(slug="winds", players=PLAYERS)
    for number in range(1, 5):
        round_seat(event=event, number=number, rng=random.Random(number))
        finish(event, number, SCORES)
    winds: dict[str, list[int]] = {p: [0, 0, 0, 0] for p in PLAYERS}
    for name, position in Seat.objects.filter(round__event=event).values_list(
        "player__name", "position"
    ):
        winds[name][position] += 1
    # Four rounds, four winds: nobody sat the same wind three times; most sat each once.
    assert max(max(c) for c in winds.values()) <= 2
    assert sum(c == [1, 1, 1, 1] for c in winds.values()) >= 10
