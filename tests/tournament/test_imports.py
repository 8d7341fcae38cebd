"""Event files (CONTRACT §2): import all or nothing, export, and a lossless round trip."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.tournament.factories import league_data
from tournament.demo import demo_events
from tournament.models import AuditEntry, Entry, Event, Game, Hand, Player, Seat
from tournament.services.imports import event_export, event_import

pytestmark = pytest.mark.django_db


def nothing_written() -> bool:
    return not any(m.objects.exists() for m in (Event, Game, Seat, Hand, Entry, Player, AuditEntry))


def write(tmp_path, data) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_import_creates_the_event_with_its_games(tmp_path, capsys):
    call_command("import_event", write(tmp_path, league_data(8, 2)))
    event = Event.objects.get(slug="league-8-2")
    assert event.entries.count() == 8 and Game.objects.count() == 4
    assert "imported league-8-2: 8 players, 4 games" in capsys.readouterr().out


def planner_rows(table: str) -> int:
    """How many rows the database's planner believes `table` holds (its statistics)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
            return int(cursor.fetchone()[0])
        cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = %s", [table])
        found = cursor.fetchone()  # none before the first ANALYZE
        return int(found[0].split()[0]) if found else 0


def test_an_import_leaves_the_planner_knowing_the_tables_it_filled(
    django_capture_on_commit_callbacks,
):
    """Once the import commits, the planner's statistics hold the imported rows: a big event
    is not read with plans made for the empty tables (autovacuum would catch up minutes later)."""
    with django_capture_on_commit_callbacks(execute=True):
        event_import(league_data(16, 3))
    assert planner_rows(Game._meta.db_table) == Game.objects.count() == 12
    assert planner_rows(Seat._meta.db_table) == Seat.objects.count() == 48


BAD_GAMES = [
    (
        "unknown player",
        lambda g, d: g.update(seats=[*g["seats"][:3], "Stranger"]),
        "round 2 table 1: seats[3]: Stranger is not registered",
    ),
    (
        "a player twice in a round",
        lambda g, d: g.update(seats=[d["games"][3]["seats"][0], *g["seats"][1:]]),
        "round 2 table 2: seats[0]: Player 0002 already plays round 2 at table 1",
    ),
    (
        "scores that do not sum",
        lambda g, d: g.update(scores=[40000, 30000, 20000, 20000]),
        "round 2 table 1: scores: sum to 110000",
    ),
    (
        "an impossible hand",
        lambda g, d: (
            g.pop("scores"),
            g.update(hands=[{"result": {"type": "tsumo", "winner": 0, "han": 1, "fu": 25}}]),
        ),
        "round 2 table 1: hands[0].result.fu: 25 fu needs at least 2 han",
    ),
]


@pytest.mark.parametrize(("case", "spoil", "message"), BAD_GAMES, ids=[b[0] for b in BAD_GAMES])
def test_one_bad_game_rejects_the_whole_file_and_writes_nothing(tmp_path, case, spoil, message):
    data = league_data(8, 2)
    spoil(data["games"][2], data)
    with pytest.raises(CommandError) as err:
        call_command("import_event", write(tmp_path, data))
    assert str(err.value).startswith(message), str(err.value)
    assert err.value.returncode == 2
    assert nothing_written()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ruleset": "m-league-2099"}, "ruleset: unknown preset"),
        ({"format": "swiss"}, "format: 'swiss' is not one of"),
        ({"players": ["A", "A"]}, "players[1]: A is listed twice"),
        ({"slug": None}, "slug: is required"),
        ({"extra": 1}, "extra: unknown key"),
    ],
)
def test_bad_event_fields_are_rejected_naming_the_field(tmp_path, change, message):
    data = {**league_data(4, 1), **change}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(CommandError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        call_command("import_event", write(tmp_path, data))
    assert nothing_written()


def test_a_file_that_is_not_json_is_rejected(tmp_path):
    path = tmp_path / "event.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not a JSON event file"):
        call_command("import_event", str(path))


def test_the_same_slug_twice_is_refused_unless_replace(tmp_path):
    path = write(tmp_path, league_data(4, 1))
    call_command("import_event", path)
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_event", path)
    call_command("import_event", path, replace=True)
    assert Event.objects.count() == 1 and Game.objects.count() == 1


@pytest.mark.parametrize("index", range(5), ids=["baba", "jan-niki", "hyper", "sanma", "emperor"])
def test_export_then_import_round_trips_an_event_exactly(index, tmp_path):
    data = demo_events()[index]
    event = event_import(data)
    exported = event_export(event)
    assert exported == json.loads(json.dumps(data, ensure_ascii=False))
    call_command("export_event", event.slug, output=str(tmp_path / "out.json"))
    again = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    event_import(again, replace=True)
    assert event_export(Event.objects.get(slug=event.slug)) == again


def test_a_venue_ruleset_round_trips_with_its_changed_knobs():
    data = {**league_data(4, 1), "ruleset": {"preset": "baba", "uma": {"4": [20, 10, -10, -20]}}}
    event = event_import(data)
    assert event_export(event)["ruleset"] == {"preset": "baba", "uma": {"4": [20, 10, -10, -20]}}
    assert event.rules.uma[4] == (20, 10, -10, -20)


def test_a_renamed_venue_ruleset_round_trips_with_every_knob():
    spec = {"preset": "jan-niki", "slug": "my-club", "name": "My club", "uma": [20, 10, -10, -20]}
    event = event_import({**league_data(4, 1), "ruleset": spec})
    exported = event_export(event)
    assert exported["ruleset"]["slug"] == "my-club"
    again = event_import({**exported, "slug": "copy"})
    assert again.rules == event.rules
    assert again.rules.rounding == "gosha_rokunyu" and again.rules.uma[4] == (20, 10, -10, -20)


def test_an_event_exported_while_a_round_is_seated_imports_again_seated_with_its_links():
    """A backup taken with a round seated and nothing entered (its scores are not zeros):
    the file holds the tables' seats alone, and the event comes back seated, each table with
    a link for its phones."""
    import random

    from tests.tournament.factories import make_event
    from tournament.models import Game
    from tournament.services.imports import event_export
    from tournament.services.rounds import round_seat

    event = make_event(slug="seated-file", players=[f"P{i:02d}" for i in range(8)])
    round_seat(event=event, rng=random.Random(1))
    data = event_export(event)
    assert data["games"][0].keys() == {"round", "table", "seats"}
    again = event_import(data, replace=True)
    games = Game.objects.filter(round__event=again).order_by("table")
    assert [g.table for g in games] == [1, 2] and not any(g.finished for g in games)
    assert all(g.seats.count() == 4 and g.links.count() == 1 for g in games)
    assert event_export(again)["games"] == data["games"]
