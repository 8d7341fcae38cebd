"""Services: record, correct and remove games; validated first, atomic, audited."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournament.factories import make_event, scores_game
from tournament.models import AuditEntry, Game, Hand, Round, Seat
from tournament.selectors.standings import event_standings
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.game_data import game_to_data
from tournament.services.games import game_correct, game_record, game_remove

pytestmark = pytest.mark.django_db
SEATS = ["P00", "P01", "P02", "P03"]


def counts() -> tuple[int, ...]:
    return (Game.objects.count(), Seat.objects.count(), Hand.objects.count(), Round.objects.count())


def test_recording_final_scores_stores_the_derived_results():
    event = make_event()
    game = scores_game(event, 1, 1, SEATS, [43200, 31000, 18100, 7700])
    seats = list(game.seats.order_by("position"))
    assert [s.rank for s in seats] == [1, 2, 3, 4]
    assert [s.points for s in seats] == [
        Decimal("43.2"),
        Decimal("6.0"),
        Decimal("-16.9"),
        Decimal("-32.3"),
    ]
    assert seats[0].breakdown["oka"] == 20.0
    assert AuditEntry.objects.filter(action="game.record").count() == 1


def test_recording_hand_by_hand_derives_everything():
    event = make_event(ruleset="jan-niki")
    hands = [
        {"riichi": [1], "result": {"type": "tsumo", "winner": 1, "han": 3, "fu": 40}},
        {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 2, "yakuman": 1}]}},
    ]
    game = game_record(event=event, data={"round": 1, "table": 1, "seats": SEATS, "hands": hands})
    assert game.mode == "hands" and game.finished
    assert list(game.hands.values_list("label", flat=True)) == ["E1-0", "E2-0"]
    seats = list(game.seats.order_by("position"))
    assert seats[2].breakdown["bust"] == 10.0 and seats[2].breakdown["shugi"] == 30.0
    assert sum(s.points for s in seats) == 0


def test_an_unfinished_hand_by_hand_game_is_stored_but_not_ranked():
    event = make_event()
    hands = [{"result": {"type": "draw", "tenpai": [0]}}]
    game = game_record(event=event, data={"round": 1, "table": 1, "seats": SEATS, "hands": hands})
    assert not game.finished
    assert set(game.seats.values_list("rank", flat=True)) == {None}
    assert all(row.games == 0 for row in event_standings(event).rows)


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({"scores": [30000, 30000, 30000, 30000]}, "scores", "sum to 120000"),
        ({"seats": ["P00", "P01", "P02", "Nobody"]}, "seats[3]", "not registered"),
        ({"seats": ["P00", "P01", "P02", "P00"]}, "seats[3]", "twice"),
        ({"seats": ["P00", "P01", "P02"], "scores": [40000, 40000, 20000]}, "seats", "4 players"),
        (
            {
                "scores": None,
                "hands": [
                    {
                        "result": {
                            "type": "ron",
                            "discarder": 1,
                            "wins": [{"seat": 2, "han": 1, "fu": 35}],
                        }
                    }
                ],
            },
            "hands[0].result.wins[0].fu",
            "35",
        ),
        ({"round": 0}, "round", "at least 1"),
    ],
)
def test_bad_games_are_refused_naming_the_field_and_nothing_is_written(data, field, says):
    event = make_event()
    before = counts()
    game = {"round": 1, "table": 1, "seats": SEATS, "scores": [40000, 30000, 20000, 10000]}
    game.update(data)
    game = {k: v for k, v in game.items() if v is not None}
    with pytest.raises(ServiceError) as err:
        game_record(event=event, data=game)
    assert err.value.field == field and says in err.value.message
    assert counts() == before


def test_a_player_twice_in_a_round_is_refused():
    event = make_event()
    scores_game(event, 1, 1, SEATS)
    with pytest.raises(ServiceError) as err:
        scores_game(event, 1, 2, ["P04", "P05", "P06", "P02"])
    assert err.value.field == "seats[3]" and "already plays round 1 at table 1" in err.value.message
    with pytest.raises(ServiceError, match="recorded already"):
        scores_game(event, 1, 1, ["P04", "P05", "P06", "P07"])


def test_correcting_a_game_re_derives_it_and_keeps_before_and_after():
    event = make_event()
    game = scores_game(event, 1, 1, SEATS)
    data = game_to_data(game)
    data["scores"] = [10000, 20000, 30000, 40000]
    game = game_correct(game=game, data=data, expected_version=1)
    assert game.version == 2
    assert list(game.seats.order_by("position").values_list("rank", flat=True)) == [4, 3, 2, 1]
    entry = AuditEntry.objects.get(action="game.correct")
    assert entry.before["scores"] == [40000, 30000, 20000, 10000]
    assert entry.after["scores"] == [10000, 20000, 30000, 40000]


def test_a_correction_from_an_old_version_is_a_conflict_and_changes_nothing():
    event = make_event()
    game = scores_game(event, 1, 1, SEATS)
    data = game_to_data(game)
    game_correct(
        game=game, data={**data, "scores": [20000, 40000, 30000, 10000]}, expected_version=1
    )
    with pytest.raises(ConflictError):
        game_correct(
            game=game, data={**data, "scores": [10000, 20000, 30000, 40000]}, expected_version=1
        )
    assert list(Seat.objects.order_by("position").values_list("score", flat=True)) == [
        20000,
        40000,
        30000,
        10000,
    ]


def test_a_bad_correction_leaves_the_game_as_it_was():
    event = make_event()
    game = scores_game(event, 1, 1, SEATS)
    with pytest.raises(ServiceError):
        game_correct(
            game=game, data={**game_to_data(game), "scores": [1, 2, 3, 4]}, expected_version=1
        )
    game.refresh_from_db()
    assert game.version == 1 and game.seats.count() == 4


def test_removing_a_game_updates_the_standings_and_is_audited():
    event = make_event()
    game = scores_game(event, 1, 1, SEATS)
    assert event_standings(event).rows[0].games == 1
    game_remove(game=game)
    assert event_standings(event).rows[0].games == 0
    assert AuditEntry.objects.get(action="game.remove").before["seats"] == SEATS


def test_a_venue_ruleset_is_validated_by_the_engine():
    from django.core.exceptions import ValidationError

    from tournament.models import Venue

    venue = Venue(name="Club", slug="club", preset="baba", overrides={"uma": [20, 10, -10]})
    with pytest.raises(ValidationError) as err:
        venue.full_clean()
    assert "ruleset.uma.4: needs 4 values" in str(err.value)
    Venue(
        name="Club", slug="club", preset="baba", overrides={"uma": [20, 10, -10, -20]}
    ).full_clean()


def test_later_changes_to_a_venue_never_change_an_events_results():
    from tournament.models import Venue
    from tournament.services.events import event_create

    venue = Venue.objects.create(
        name="Club", slug="club", preset="baba", overrides={"uma": [20, 10, -10, -20]}
    )
    event = event_create(name="Night", slug="night", venue=venue, players=SEATS)
    venue.overrides = {"uma": [30, 10, -10, -30]}
    venue.save()
    game = scores_game(event, 1, 1, SEATS, [40000, 30000, 20000, 10000])
    assert game.seats.get(position=0).breakdown["uma"] == 20.0


def test_five_players_at_an_emperor_table():
    names = [f"P{i:02d}" for i in range(5)]
    event = make_event(ruleset="emperor", players=names)
    hands = [{"result": {"type": "draw", "tenpai": [0, 1]}}] * 15
    game = game_record(event=event, data={"round": 1, "table": 1, "seats": names, "hands": hands})
    assert game.finished and game.seats.count() == 5
    assert list(game.seats.order_by("position").values_list("score", flat=True))[:3] == [
        25000 + 15 * 1800,
        25000 + 15 * 1800,
        25000 - 15 * 1200,
    ]


def test_a_hand_played_on_writes_one_row_and_the_log_keeps_just_that_hand(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tournament.organize_support import text, url
    from tournament.services.hands import game_hand_add, game_hand_undo

    event = make_event()
    small = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 1, "fu": 30}]}}
    data = {"round": 1, "table": 1, "seats": SEATS, "hands": [small]}
    game = game_record(event=event, data=data)
    for _ in range(5):
        with CaptureQueriesContext(connection) as captured:
            game = game_hand_add(game=game, hand=small, expected_version=game.version)
        writes = [q["sql"].split()[0] for q in captured.captured_queries]
        writes = [w for w in writes if w in ("INSERT", "UPDATE", "DELETE")]
        # the hand · the game's version · the event's version · the change log
        assert sorted(writes) == ["INSERT", "INSERT", "UPDATE", "UPDATE"], writes
    assert Hand.objects.filter(game=game).count() == 6
    log = AuditEntry.objects.filter(action="game.hand").latest("pk")
    assert log.after["number"] == 6 and log.after["hand"] == small and "hands" not in log.after
    # The seats get their scores when the game ends; until then pages show the last hand's.
    assert set(game.seats.values_list("score", flat=True)) == {None}
    last = Hand.objects.filter(game=game).latest("number").scores
    for page in (url("round-detail", event.slug, 1), url("game-detail", event.slug, game.pk)):
        shown = text(client.get(page))
        assert all(f"<td>{score}</td>" in shown for score in last), page
    taken_back = game_hand_undo(game=game, expected_version=game.version)
    assert taken_back["number"] == 6 and taken_back["hand"] == small
    game.refresh_from_db()
    assert Hand.objects.filter(game=game).count() == 5
    bust = {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 0, "yakuman": 1}]}}
    game = game_hand_add(game=game, hand=bust, expected_version=game.version)
    game.refresh_from_db()
    assert game.finished
    seats = list(game.seats.order_by("position"))
    final = Hand.objects.filter(game=game).latest("number").scores
    assert [s.score for s in seats] == final and all(s.rank for s in seats)
    assert event_standings(event).rows[0].games == 1
