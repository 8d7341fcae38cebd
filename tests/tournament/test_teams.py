"""Issue 34 (first part): teams in the event file exactly as CONTRACT §2 adds them, written back
by export_event; the team standings by §2's rule from `export_standings --teams` and the API
(CONTRACT §4); a player in two teams, an unknown member or an empty team refused naming it."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from tests.tournament.factories import league_data
from tournament.models import Event, Team
from tournament.services.errors import ServiceError
from tournament.services.imports import event_export, event_import

pytestmark = pytest.mark.django_db


def league_with_teams(**teams: list[str]) -> dict:
    data = league_data(8, 2)
    data["slug"] = "teams"
    data["teams"] = teams or {
        "赤": ["Player 0000", "Player 0001", "Player 0002", "Player 0003"],
        "青": ["Player 0004", "Player 0005"],
    }
    return data


def test_teams_import_export_and_rank_by_the_sum_of_their_members(capsys):
    data = league_with_teams()
    event = event_import(data)
    assert list(Team.objects.filter(event=event).values_list("name", flat=True)) == ["赤", "青"]
    assert event_export(event)["teams"] == data["teams"]  # the round trip is lossless
    call_command("export_standings", "teams", "--teams", format="csv")
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["rank", "team", "total", "games", "members"]
    standings = json.loads(Client().get("/api/v1/events/teams/standings").content)
    totals = {r["player"]: r["total"] for r in standings["standings"]}
    for row in rows[1:]:
        members = row[4].split("; ")
        assert members == data["teams"][row[1]]  # in the order the file lists them
        assert float(row[2]) == pytest.approx(sum(totals[m] for m in members))
    assert [int(r[0]) for r in rows[1:]] == sorted(int(r[0]) for r in rows[1:])
    answer = json.loads(Client().get("/api/v1/events/teams/teams").content)
    assert [r["team"] for r in answer["results"]] == [r[1] for r in rows[1:]]
    assert answer["results"][0]["members"] == rows[1][4].split("; ")


@pytest.mark.parametrize(
    ("teams", "said"),
    [
        (
            {"赤": ["Player 0000"], "青": ["Player 0000"]},
            "Player 0000 is in team 赤 and in team 青",
        ),
        ({"赤": ["Player 0000", "Nobody"]}, "team 赤: Nobody is not a player of this event"),
        ({"赤": []}, "team 赤 has no members"),
    ],
)
def test_a_bad_team_is_refused_naming_it_and_nothing_is_kept(teams, said):
    with pytest.raises(ServiceError) as refused:
        event_import(league_with_teams(**teams))
    assert said in refused.value.message and refused.value.field.startswith("teams")
    assert not Event.objects.filter(slug="teams").exists()


def test_an_event_without_teams_has_an_empty_team_table():
    event_import({**league_data(8, 1), "slug": "solo"})
    assert json.loads(Client().get("/api/v1/events/solo/teams").content) == {"results": []}
    assert "teams" not in event_export(Event.objects.get(slug="solo"))


def test_the_team_answer_costs_the_same_queries_for_two_teams_or_twenty():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(slug: str, players: int) -> int:
        data = league_data(players, 2)
        data["slug"] = slug
        names = data["players"]
        data["teams"] = {f"T{k}": names[k : k + 4] for k in range(0, players, 4)}
        event_import(data)
        client = Client()
        client.get(f"/api/v1/events/{slug}/teams")  # the process's standings, once
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/api/v1/events/{slug}/teams").status_code == 200
        return len(captured.captured_queries)

    assert queries("two", 8) == queries("twenty", 80)
