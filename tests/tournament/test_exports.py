"""Standings exports: CONTRACT §2 columns, one pipeline, formula-safe, fixed query count."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.tournament.factories import league_data, make_event, scores_game
from tournament.exports.standings import export_standings
from tournament.services.imports import event_import

pytestmark = pytest.mark.django_db


def rows(event) -> list[list[str]]:
    return list(csv.reader(io.StringIO(export_standings(event, "csv").decode())))


def test_csv_columns_in_contract_order():
    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"], [43200, 31000, 18100, 7700])
    scores_game(event, 2, 1, ["P00", "P01", "P02", "P03"], [25000, 25000, 25000, 25000])
    table = rows(event)
    contract = ["rank", "player", "total", "games", "top_rate", "r1", "r2", "status"]
    # After status, as CONTRACT §2 allows: the average rank, the count of each place, and
    # the penalties (already in the total).
    places = ["rank_1", "rank_2", "rank_3", "rank_4"]
    assert table[0] == [*contract, "average_rank", *places, "penalties"]
    # Round 2 is an all-25000 tie: seat order ranks it (1st: -5 + 10 uma + 20 oka = 25.0).
    assert table[1] == [
        "1",
        "P00",
        "68.2",
        "2",
        "1.000",
        "43.2",
        "25.0",
        "",
        "1.00",
        "2",
        "0",
        "0",
        "0",
        "0.0",
    ]
    assert table[2] == [
        "2",
        "P01",
        "6.0",
        "2",
        "0.000",
        "6.0",
        "0.0",
        "",
        "2.00",
        "0",
        "2",
        "0",
        "0",
        "0.0",
    ]
    # Registered players without a game share a rank on 0, with no status: nothing has
    # decided their place (issue 66).
    assert table[3] == [
        "3",
        "P04",
        "0.0",
        "0",
        "0.000",
        "",
        "",
        "",
        "",
        "0",
        "0",
        "0",
        "0",
        "0.0",
    ]
    assert table[-1] == [
        "8",
        "P03",
        "-47.3",
        "2",
        "0.000",
        "-32.3",
        "-15.0",
        "",
        "4.00",
        "0",
        "0",
        "0",
        "2",
        "0.0",
    ]


def test_whole_point_rulesets_show_no_decimal():
    event = make_event(ruleset="jan-niki")
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"], [38500, 30600, 20500, 10400])
    assert rows(event)[1][:3] == ["1", "P00", "59"]


def test_cells_that_would_start_a_formula_are_neutralised():
    event = make_event(players=["=HYPERLINK(1)", "+A", "-B", "@C"])
    scores_game(event, 1, 1, ["=HYPERLINK(1)", "+A", "-B", "@C"])
    names = [r[1] for r in rows(event)[1:]]
    assert names == ["'=HYPERLINK(1)", "'+A", "'-B", "'@C"]
    negative = rows(event)[-1][2]
    assert negative.startswith("-")  # numbers stay numbers


def test_json_and_xlsx_carry_the_same_rows():
    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"], [43200, 31000, 18100, 7700])
    data = json.loads(export_standings(event, "json"))
    assert data["standings"][0] == {
        "rank": 1,
        "player": "P00",
        "total": 43.2,
        "games": 1,
        "top_rate": 1.0,
        "r1": 43.2,
        "status": "",
        "average_rank": 1.0,
        "rank_1": 1,
        "rank_2": 0,
        "rank_3": 0,
        "rank_4": 0,
        "penalties": 0.0,
    }
    from openpyxl import load_workbook

    with translation.override("en"):  # headings in the reader's words (issue 32)
        sheet = load_workbook(io.BytesIO(export_standings(event, "xlsx"))).active
    assert [c.value for c in sheet[1]] == [
        *("Rank", "Player", "Total", "Games", "Top rate", "R1", "Status", "Avg. rank"),
        *("1st", "2nd", "3rd", "4th", "Penalties"),
    ]
    assert [c.value for c in sheet[2]][:4] == [1, "P00", 43.2, 1]


def test_the_command_writes_each_format(tmp_path, capsys):
    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    call_command("export_standings", event.slug, format="csv")
    assert capsys.readouterr().out.startswith("rank,player,total,games,top_rate,r1,status,")
    call_command("export_standings", event.slug, format="xlsx", output=str(tmp_path / "s.xlsx"))
    assert (tmp_path / "s.xlsx").read_bytes()[:2] == b"PK"


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_exporting_standings_costs_the_same_queries_for_any_number_of_players(fmt):
    small = event_import(league_data(8, 2))
    large = event_import(league_data(64, 4))
    # Expect 3 queries whatever the size (no seat is read: each entry holds its figures):
    # * the event's ruleset is already loaded; stages of the event
    # * registered players, with their figures
    # * the penalties that count
    # * (the event itself is passed in)
    with CaptureQueriesContext(connection) as few:
        export_standings(small, fmt)
    with CaptureQueriesContext(connection) as many:
        export_standings(large, fmt)
    assert len(few) == len(many) == 3, [q["sql"] for q in many.captured_queries]


def test_each_table_declares_its_columns_once_for_files_and_api():
    """The API's answer for a row is typed from the same columns as the files."""
    from tournament.exports import ratings, statistics, teams

    for table, schema in (
        (teams, teams.TeamOut),
        (ratings, ratings.RatingOut),
        (statistics, statistics.PlayerStatisticsOut),
    ):
        assert list(schema.model_fields) == [c.key for c in table.COLUMNS]


def test_a_seating_plan_csv_goes_through_the_pipeline_neutralised():
    from scoring.plans import Plan, PlannedRound
    from tournament.exports.plans import export_plan

    event = make_event(players=["=A", "B", "C", "D", "+E"])
    plan = Plan((PlannedRound((("=A", "B", "C", "D"),), ("+E",)),), ("=A", "B", "C", "D", "+E"), 4)
    assert export_plan(event, plan, "csv").decode().splitlines() == [
        "round,table,east,south,west,north",
        "1,1,'=A,B,C,D",
        "1,bye,'+E",
    ]
    assert json.loads(export_plan(event, plan, "json")) == plan.to_json()
