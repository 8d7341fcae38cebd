"""The read-only JSON API (CONTRACT §4): shapes, errors as JSON, ETags and 304s, CORS, the
OpenAPI schema, and a fixed number of queries per answer (and for the statistics page) at two
sizes."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.test_statistics import small_event
from tournament import api
from tournament.exports.standings import export_standings
from tournament.models import Event, Game, Player
from tournament.services.games import game_record
from tournament.services.series import series_add_event, series_create

pytestmark = pytest.mark.django_db


def get(client, path, **headers):
    response = client.get(path, **headers)
    assert response["Content-Type"].startswith("application/json"), path
    return response


def test_events_newest_first_and_paginated(client, monkeypatch):
    monkeypatch.setattr(api, "PAGE_SIZE", 2)
    for slug in ("a", "b", "c"):
        make_event(slug=slug)
    first = get(client, "/api/v1/events/").json()
    assert [e["slug"] for e in first["results"]] == ["c", "b"]
    assert first["results"][0] == {
        "slug": "c",
        "name": "Event c",
        "ruleset": "baba",
        "format": "league",
        "players": 8,
    }
    assert first["next"].endswith("/api/v1/events/?page=2")
    second = get(client, first["next"]).json()
    assert [e["slug"] for e in second["results"]] == ["a"] and second["next"] is None


def test_standings_are_the_json_download(client):
    event = small_event()
    body = get(client, f"/api/v1/events/{event.slug}/standings").json()
    assert body == json.loads(export_standings(event, "json"))
    assert body["standings"][0]["player"] and "total" in body["standings"][0]


def test_a_stage_standings_and_a_bad_stage(client):
    event = make_event(slug="bb", format="baba", players=PLAYERS[:8])
    ok = get(client, f"/api/v1/events/{event.slug}/standings?stage=qualifier")
    assert ok.status_code == 200
    bad = get(client, f"/api/v1/events/{event.slug}/standings?stage=nope")
    assert bad.status_code == 400
    assert bad.json()["field"] == "stage" and "qualifier" in bad.json()["error"]


def test_a_game_with_its_hands_and_result(client):
    event = small_event()
    game = Game.objects.get(round__event=event, table=1)
    body = get(client, f"/api/v1/events/{event.slug}/games/{game.pk}").json()
    assert body["seats"] == ["Aoki", "Baba", "Chiba", "Doi"]
    assert len(body["hands"]) == 9 and body["hands"][0]["riichi"] == [0]
    seats = list(game.seats.order_by("position"))
    assert [p["points"] for p in body["result"]["players"]] == [float(s.points) for s in seats]
    assert [p["rank"] for p in body["result"]["players"]] == [s.rank for s in seats]
    scores_game = Game.objects.get(round__event=event, table=2)
    body = get(client, f"/api/v1/events/{event.slug}/games/{scores_game.pk}").json()
    assert body["hands"] is None and body["scores"] == [40000, 30000, 20000, 10000]


def test_event_statistics_and_a_player(client):
    event = small_event()
    stats = get(client, f"/api/v1/events/{event.slug}/stats").json()
    baba = next(p for p in stats["players"] if p["player"] == "Baba")
    assert baba["deal_ins"] == 2 and baba["deal_in_rate"] == 0.222
    player = Player.objects.get(name="Baba")
    body = get(client, f"/api/v1/players/{player.pk}").json()
    assert body["name"] == "Baba" and body["statistics"]["average_deal_in"] == 3400
    assert body["events"][0]["slug"] == event.slug and body["events"][0]["games"] == 1


@pytest.mark.parametrize(
    ("path", "status", "field"),
    [
        ("/api/v1/events/nope/standings", 404, "slug"),
        ("/api/v1/events/nope/stats", 404, "slug"),
        ("/api/v1/events/st/games/999999", 404, "game_id"),
        ("/api/v1/players/999999", 404, "player_id"),
        ("/api/v1/players/abc", 400, "player_id"),
        ("/api/v1/events/?page=abc", 400, "page"),
        ("/api/v1/events/?page=0", 400, "page"),
        ("/api/v1/nothing/here", 404, "path"),
        ("/api/v2/events/", 404, "path"),
    ],
)
def test_errors_are_json_naming_the_parameter(client, path, status, field):
    small_event()
    response = get(client, path)
    assert response.status_code == status
    assert response.json()["field"] == field and response.json()["error"]


def test_a_write_is_refused_as_json(client):
    response = client.post("/api/v1/events/")
    assert response.status_code == 405 and response.json()["error"] == "method not allowed"
    assert response["Allow"] == "GET"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/",
        "/api/v1/events/st/standings",
        "/api/v1/events/st/stats",
        "/api/v1/schema/",
    ],
)
def test_every_answer_has_an_etag_and_a_match_gets_304(client, path):
    small_event()
    first = client.get(path)
    etag = first["ETag"]
    again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert client.get(path, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_the_etag_changes_when_the_event_does(client):
    event = small_event()
    path = f"/api/v1/events/{event.slug}/standings"
    before = client.get(path)["ETag"]
    game_record(
        event=event,
        data={"round": 2, "table": 1, "seats": ["Aoki", "Baba", "Chiba", "Doi"],
              "scores": [20000, 30000, 40000, 10000]},
    )  # fmt: skip
    assert client.get(path, HTTP_IF_NONE_MATCH=before).status_code == 200


def test_cors_lets_any_site_read(client):
    small_event()
    response = client.get("/api/v1/events/", HTTP_ORIGIN="https://club.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    # …the API only: the organizer's pages stay same-origin.
    assert "Access-Control-Allow-Origin" not in client.get("/", HTTP_ORIGIN="https://x.example")


def test_the_openapi_schema_lists_every_endpoint(client):
    schema = get(client, "/api/v1/schema/").json()
    assert schema["openapi"].startswith("3.")
    for path in (
        "/api/v1/events/",
        "/api/v1/events/{slug}/standings",
        "/api/v1/events/{slug}/games/{game_id}",
        "/api/v1/events/{slug}/stats",
        "/api/v1/players/{player_id}",
    ):
        assert path in schema["paths"], path


def count(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/",
        "/api/v1/events/{slug}/standings",
        "/api/v1/events/{slug}/games/{game}",
        "/api/v1/events/{slug}/stats",
        "/api/v1/players/{player}",
        "/api/v1/series/",
        "/api/v1/series/{series}/standings",
        "/events/{slug}/stats/",
    ],
)
def test_a_fixed_number_of_queries_at_two_sizes(client, path):
    counts = []
    for extra in (0, 3):
        Event.objects.all().delete()  # entries go with their games: the figures stay in step
        event = small_event(slug=f"q{extra}", extra_games=extra)
        series = series_create(name=f"Season {extra}", slug=f"season-{extra}")
        series_add_event(series=series, slug=event.slug)
        game = Game.objects.filter(round__event=event, mode="hands").first()
        player = Player.objects.get(name="Baba")
        url = path.format(slug=event.slug, game=game.pk, player=player.pk, series=series.slug)
        counts.append(count(client, url))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize(
    ("ruleset", "lost"),
    [("wrc", 1000), ("baba", 0)],  # WRC leaves a stick to nobody; Baba gives it to the top
)
def test_a_game_reports_the_deposits_the_engine_says_were_lost(client, ruleset, lost):
    """Issue 45 found the API's result always said `"deposits_lost": 0`."""
    from tests.tournament.factories import make_event, scores_game

    event = make_event(slug=f"sticks-{ruleset}", ruleset=ruleset)
    names = [p.player.name for p in event.entries.select_related("player")[:4]]
    start = event.rules.start
    scores = [start + 15000, start + 5000, start - 5000, start - 16000]
    game = scores_game(event, 1, 1, names, scores, deposits=1000)
    answer = client.get(f"/api/v1/events/{event.slug}/games/{game.pk}").json()
    assert answer["result"]["deposits_lost"] == lost
