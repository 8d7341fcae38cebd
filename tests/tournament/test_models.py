"""Per-row rules are database constraints: bad rows are refused by the database itself."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.tournament.factories import make_event, scores_game
from tournament.models import Entry, Game, Hand, Player, Round, Seat, Stage

pytestmark = pytest.mark.django_db


def refused(make) -> str:
    with pytest.raises(IntegrityError) as err, transaction.atomic():
        make()
    return str(err.value)


def test_a_player_once_per_game_and_per_round_and_one_player_per_seat():
    event = make_event()
    game = scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    seat = game.seats.get(position=0)
    other = Player.objects.get(name="P05")
    refused(lambda: Seat.objects.create(game=game, round=game.round, position=0, player=other))
    refused(
        lambda: Seat.objects.create(game=game, round=game.round, position=4, player=seat.player)
    )
    second = Game.objects.create(round=game.round, table=2)
    refused(
        lambda: Seat.objects.create(game=second, round=game.round, position=0, player=seat.player)
    )


def test_one_game_per_table_and_round():
    event = make_event()
    game = scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    refused(lambda: Game.objects.create(round=game.round, table=1))


@pytest.mark.parametrize(
    "make",
    [
        lambda g: Game.objects.create(round=g.round, table=0),
        lambda g: Game.objects.create(round=g.round, table=9, mode="cards"),
        lambda g: Game.objects.create(round=g.round, table=9, version=0),
        lambda g: Seat.objects.create(
            game=g, round=g.round, position=5, player=Player.objects.get(name="P06")
        ),
        lambda g: Seat.objects.filter(game=g, position=0).update(rank=6),
        lambda g: Round.objects.create(event=g.round.event, number=0),
        lambda g: Round.objects.create(event=g.round.event, number=1),
        lambda g: Hand.objects.create(
            game=g,
            number=0,
            data={},
            label="E1-0",
            dealer=0,
            honba=0,
            deltas=[],
            scores=[],
            deposits=0,
        ),
        lambda g: Stage.objects.create(
            event=g.round.event, position=5, name="x", first_round=3, last_round=2
        ),
        lambda g: Stage.objects.create(event=g.round.event, position=0, name="again"),
        lambda g: Entry.objects.create(event=g.round.event, player=Player.objects.get(name="P00")),
    ],
    ids=[
        "table 0",
        "unknown mode",
        "version 0",
        "position 5",
        "rank 6",
        "round 0",
        "round twice",
        "hand 0",
        "stage rounds backwards",
        "stage position twice",
        "entry twice",
    ],
)
def test_impossible_rows_are_refused(make):
    event = make_event()
    game = scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    refused(lambda: make(game))


def test_constraints_have_names():
    names = {
        c.name for model in (Entry, Game, Hand, Round, Seat, Stage) for c in model._meta.constraints
    }
    assert "tournament_seat_unique_player_per_game" in names
    assert "tournament_seat_unique_player_per_round" in names
    assert all(n.startswith("tournament_") for n in names)
