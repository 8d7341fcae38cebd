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


# --- the organizer's screen, the pages, the screen, the downloads (issue 34) -----------------


@pytest.fixture
def organizer():
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.create_superuser("o", "o@example.com", "pw"))
    return client


def test_teams_set_on_the_organizer_screen_and_shown_before_any_game(organizer):
    event_import({**league_data(8, 0), "slug": "early"})
    page = organizer.get("/events/early/manage/teams/")
    assert page.status_code == 200
    answer = organizer.post(
        "/events/early/manage/teams/",
        {"teams": "赤：Player 0000、Player 0001\nBlue: Player 0002, Player 0003", "rule": "sum"},
    )
    assert answer.status_code == 302
    event = Event.objects.get(slug="early")
    from tournament.selectors.teams import event_teams

    assert event_teams(event) == {
        "赤": ["Player 0000", "Player 0001"],
        "Blue": ["Player 0002", "Player 0003"],
    }
    # Before any game: the tab on the standings, and every team listed sharing the first place.
    standings = Client().get("/events/early/").content.decode()
    assert 'href="/events/early/teams/"' in standings
    teams = Client().get("/events/early/teams/").content.decode()
    assert "赤" in teams and "Blue" in teams and teams.count('<td class="num">1</td>') == 2
    # The box keeps the teams as lines to edit.
    assert (
        "赤: Player 0000, Player 0001"
        in organizer.get("/events/early/manage/teams/").content.decode()
    )
    # Emptied: no teams, no tab.
    organizer.post("/events/early/manage/teams/", {"teams": "", "rule": "sum"})
    assert not Team.objects.filter(event=event).exists()
    assert Client().get("/events/early/teams/").status_code == 404
    assert 'href="/events/early/teams/"' not in Client().get("/events/early/").content.decode()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("赤 Player 0000", "Line 1: write the team's name, a colon, then its members."),
        ("赤: Player 0000\n赤: Player 0001", "Line 2: team 赤 is listed twice."),
        ("赤: Player 0000\n青: Player 0000", "Player 0000 is in team 赤 and in team 青"),
        ("赤: Nobody", "team 赤: Nobody is not a player of this event"),
        ("赤:", "team 赤 has no members"),
    ],
)
def test_a_bad_team_on_the_screen_is_named_and_what_was_typed_stays(organizer, typed, said):
    event_import({**league_data(8, 0), "slug": "typo"})
    answer = organizer.post("/events/typo/manage/teams/", {"teams": typed, "rule": "sum"})
    html = answer.content.decode()
    assert answer.status_code == 400
    assert said.replace("'", "&#x27;") in html
    assert typed.split("\n")[0] in html  # kept in the box
    assert not Team.objects.exists()


def test_a_bad_team_is_said_in_japanese(organizer):
    event_import({**league_data(8, 0), "slug": "ja"})
    answer = organizer.post(
        "/events/ja/manage/teams/",
        {"teams": "赤: Nobody", "rule": "sum"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    html = answer.content.decode()
    assert answer.status_code == 400 and "Nobody" in html and "not a player" not in html


def test_the_best_members_rule_counts_the_best_and_says_so(organizer):
    event_import(league_with_teams())
    answer = organizer.post(
        "/events/teams/manage/teams/",
        {"teams": "赤: Player 0000, Player 0001, Player 0002, Player 0003", "rule": "best"},
    )
    assert answer.status_code == 400  # how many count is asked for
    organizer.post(
        "/events/teams/manage/teams/",
        {
            "teams": "赤: Player 0000, Player 0001, Player 0002, Player 0003",
            "rule": "best",
            "best": "2",
        },
    )
    event = Event.objects.get(slug="teams")
    assert (event.team_rule, event.team_best) == ("best", 2)
    standings = json.loads(Client().get("/api/v1/events/teams/standings").content)["standings"]
    totals = sorted((r["total"] for r in standings if r["player"] in data_red()), reverse=True)
    page = Client().get("/events/teams/teams/").content.decode()
    assert "best 2 members" in page
    answer = json.loads(Client().get("/api/v1/events/teams/teams").content)
    assert answer["results"][0]["total"] == pytest.approx(totals[0] + totals[1])
    # Written back by export_event, and read again.
    assert event_export(event)["team_rule"] == {"rule": "best", "best": 2}


def data_red() -> list[str]:
    return ["Player 0000", "Player 0001", "Player 0002", "Player 0003"]


def test_the_team_page_lists_members_games_and_a_chart():
    event = event_import(league_with_teams())
    red = Team.objects.get(event=event, name="赤")
    page = Client().get(f"/events/teams/teams/{red.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert all(name in html for name in data_red())
    assert "<svg" in html and "<polyline" in html
    assert html.count("/games/") >= 4  # each member's games link to their sheets
    assert Client().get("/events/teams/teams/999999/").status_code == 404
    other = event_import({**league_with_teams(), "slug": "other"})
    other_red = Team.objects.get(event=other, name="赤")
    assert Client().get(f"/events/teams/teams/{other_red.pk}/").status_code == 404


def test_the_venue_screen_team_view_and_the_downloads():
    event_import(league_with_teams())
    screen = Client().get("/events/teams/teams/screen/")
    assert screen.status_code == 200 and b"data-screen" in screen.content
    body = Client().get("/events/teams/teams/screen/", HTTP_X_REQUESTED_WITH="fetch")
    assert b"<table" in body.content and b"<html" not in body.content
    assert b'href="/events/teams/teams/screen/"' in Client().get("/events/teams/screen/").content
    for fmt in ("csv", "json", "xlsx"):
        got = Client().get(f"/events/teams/teams.{fmt}")
        assert got.status_code == 200 and "teams" in got["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(Client().get("/events/teams/teams.csv").content.decode())))
    assert rows[0] == ["rank", "team", "total", "games", "members"] and len(rows) == 3


def test_seating_by_standings_keeps_teammates_apart():
    from tournament.models import Seat
    from tournament.services.rounds import round_seat

    data = league_data(16, 0)
    data["slug"] = "apart"
    names = data["players"]
    data["teams"] = {f"T{k}": names[k * 4 : k * 4 + 4] for k in range(4)}  # 1–4, 5–8, …
    event = event_import(data)
    round_seat(event=event, method="standings", number=1)
    team_of = {n: k // 4 for k, n in enumerate(names)}
    tables: dict[int, list[str]] = {}
    for table, name in Seat.objects.filter(round__event=event).values_list(
        "game__table", "player__name"
    ):
        tables.setdefault(table, []).append(name)
    for table in tables.values():
        assert len({team_of[n] for n in table}) == 4  # one of each team at every table


def test_a_series_ranks_its_teams_by_every_event_or_the_best_n():
    from tournament.selectors.teams import series_teams
    from tournament.services.series import series_add_event, series_create, series_set_rule

    red = ["Player 0000", "Player 0001"]
    blue = ["Player 0002", "Player 0003"]
    for k in (1, 2, 3):
        data = league_data(8, k)  # more rounds, more points to share
        data["slug"] = f"night-{k}"
        data["teams"] = {"Red": red, "Blue": blue}
        event_import(data)
    season = series_create(name="Season", slug="season")
    for k in (1, 2, 3):
        series_add_event(series=season, slug=f"night-{k}")
    every = series_teams(season)
    per_event = [
        {
            r["team"]: r["total"]
            for r in json.loads(Client().get(f"/api/v1/events/night-{k}/teams").content)["results"]
        }
        for k in (1, 2, 3)
    ]
    totals = {row.player: float(row.total) for row in every.rows}
    for team in ("Red", "Blue"):
        assert totals[team] == pytest.approx(sum(e[team] for e in per_event))
    series_set_rule(series=season, rule="best", best_of=2, min_games=0)
    best = {row.player: float(row.total) for row in series_teams(season).rows}
    for team in ("Red", "Blue"):
        assert best[team] == pytest.approx(sum(sorted(e[team] for e in per_event)[-2:]))
    page = Client().get("/series/season/").content.decode()
    assert "Team league" in page and "Red" in page and "<s " in page  # one event struck out


def test_every_team_page_costs_the_same_queries_for_two_teams_or_twenty():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.selectors.cache import clear_all

    def queries(slug: str, players: int) -> tuple[int, ...]:
        data = league_data(players, 3)
        data["slug"] = slug
        names = data["players"]
        data["teams"] = {f"T{k}": names[k : k + 4] for k in range(0, players, 4)}
        event = event_import(data)
        team = Team.objects.filter(event=event).first()
        counts = []
        for address in (
            f"/events/{slug}/teams/",
            f"/events/{slug}/teams/{team.pk}/",
            f"/events/{slug}/teams/screen/",
            f"/events/{slug}/teams.csv",
        ):
            clear_all()  # nothing shared: what a page costs when it is made
            Client().get(address)  # the process's standings, once (as every page)
            clear_all()
            with CaptureQueriesContext(connection) as captured:
                assert Client().get(address).status_code == 200, address
            counts.append(len(captured.captured_queries))
        return tuple(counts)

    # Made from nothing shared, the process holding the standings: the team table, the team's
    # page (members, their games, the chart), the screen, the file — the same for any size.
    # (The table, the page and the file are tagged from the event's stamps and read its whole
    # row when answered: one query more than the screen's own read.)
    assert queries("two", 8) == queries("twenty", 80) == (8, 8, 7, 6)
