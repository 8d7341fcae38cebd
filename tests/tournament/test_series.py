"""Seasons: events ranked together — the engine's rule (every event, the best N of M, a
minimum of games), the standings page with a column per event, the downloads, the organizer's
screens and the API."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest

from scoring.errors import ScoringError
from scoring.series import EventResult, SeriesRule, rank_series
from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, text
from tournament.exports.series import export_series
from tournament.models import Series
from tournament.selectors.series import series_standings
from tournament.services.errors import ServiceError
from tournament.services.games import game_record
from tournament.services.series import series_add_event, series_create, series_set_rule

pytestmark = pytest.mark.django_db

R = EventResult


def night(**totals: float) -> dict[str, EventResult]:
    return {name: R(Decimal(str(total)), 1) for name, total in totals.items()}


# --- the rule (engine) ---------------------------------------------------------------------


def test_every_event_counts():
    rows = rank_series(SeriesRule(), [night(A=10, B=-10), night(A=-30, B=30)])
    assert [(r.player, r.total, r.rank) for r in rows] == [("B", 20, 1), ("A", -20, 2)]


def test_the_best_n_of_m_events_count():
    events = [night(A=50, B=10), night(A=-40, B=10), night(A=5, B=10)]
    rows = rank_series(SeriesRule("best", 2), events)
    a = next(r for r in rows if r.player == "A")
    assert a.total == 55 and a.counted == {0, 2}  # the −40 does not count
    assert [r.player for r in rows] == ["A", "B"]


def test_a_minimum_of_games_sets_players_apart_unranked():
    events = [night(A=10, B=5, C=99), night(A=1, B=1)]
    rows = rank_series(SeriesRule(min_games=2), events)
    assert [(r.player, r.rank) for r in rows] == [("A", 1), ("B", 2), ("C", None)]


def test_equal_totals_share_a_rank():
    rows = rank_series(SeriesRule(), [night(A=10, B=10, C=-20)])
    assert [(r.rank, r.status) for r in rows] == [(1, "tie"), (1, "tie"), (3, "")]


@pytest.mark.parametrize(
    ("rule", "field"), [(("best", None), "best_of"), (("best", 0), "best_of"), (("x", 1), "rule")]
)
def test_a_bad_rule_names_its_field(rule, field):
    with pytest.raises(ScoringError) as caught:
        SeriesRule(*rule)
    assert caught.value.field == field


# --- in the app --------------------------------------------------------------------------


def two_nights():
    players = ["Aoki", "Baba", "Chiba", "Doi"]
    first = make_event(slug="n1", players=players)
    second = make_event(slug="n2", players=players)
    for event, scores in (
        (first, [40000, 30000, 20000, 10000]),
        (second, [10000, 20000, 30000, 40000]),
    ):
        game_record(event=event, data={"round": 1, "table": 1, "seats": players, "scores": scores})
    series = series_create(name="Club season", slug="season", rule="best", best_of=1)
    series_add_event(series=series, slug="n1")
    series_add_event(series=series, slug="n2")
    return series


def test_the_standings_take_each_players_best_night():
    result = series_standings(two_nights())
    rows = {r.player: r for r in result.rows}
    # Baba at Baba's rules (uma 10-5): 30000 → +5.0 (2nd) on night 1, 20000 → −15.0 on night 2.
    assert rows["Baba"].total == Decimal("5.0") and rows["Baba"].counted == {0}
    assert rows["Aoki"].total == rows["Doi"].total  # each won one night
    assert rows["Aoki"].rank == rows["Doi"].rank == 1 and rows["Aoki"].status == "tie"


def test_the_public_page_has_a_column_per_event(client):
    series = two_nights()
    html = text(client.get(f"/series/{series.slug}/"))
    assert "Event n1" in html and "Event n2" in html and "<s " in html  # a night not counted
    assert "Club season" in text(client.get("/"))


def test_the_downloads(client):
    series = two_nights()
    rows = list(csv.reader(io.StringIO(export_series(series_standings(series), "csv").decode())))
    assert rows[0] == [
        "rank",
        "player",
        "total",
        "games",
        "e1",
        "e2",
        "status",
        "events",
        "counted",
    ]
    baba = next(r for r in rows if r[1] == "Baba")
    assert baba[2] == "5.0" and baba[4] == "5.0" and baba[5] == "-15.0" and baba[8] == "1"
    body = json.loads(client.get(f"/series/{series.slug}/standings.json").content)
    assert body["event"] == "season" and len(body["standings"]) == 4
    assert client.get(f"/series/{series.slug}/standings.xlsx").content[:2] == b"PK"
    assert client.get(f"/series/{series.slug}/standings.pdf").status_code == 404


def test_the_api_lists_and_ranks_series(client):
    series = two_nights()
    listed = client.get("/api/v1/series/").json()
    assert listed["results"][0]["slug"] == "season" and listed["results"][0]["best_of"] == 1
    body = client.get(f"/api/v1/series/{series.slug}/standings").json()
    assert body["events"] == ["n1", "n2"] and body["standings"][0]["rank"] == 1
    missing = client.get("/api/v1/series/nope/standings")
    assert missing.status_code == 404 and missing.json()["field"] == "slug"


def test_an_organizer_makes_and_fills_a_series(client):
    make_event(slug="n1")
    user = make_user("maker", is_superuser=True)
    client = logged_in(user)
    response = client.post(
        "/series/new/", {"name": "Spring league", "rule": "best", "best_of": 3, "min_games": 4}
    )
    series = Series.objects.get(name="Spring league")
    assert response["Location"] == f"/series/{series.slug}/manage/"
    assert series.best_of == 3 and series.organizers.filter(pk=user.pk).exists()
    client.post(f"/series/{series.slug}/manage/", {"action": "add", "event": "n1"})
    assert list(series.events.values_list("slug", flat=True)) == ["n1"]
    again = client.post(f"/series/{series.slug}/manage/", {"action": "add", "event": "n1"})
    assert again.status_code == 400  # n1 is in already; not offered, refused next to the field
    response = client.post(
        f"/series/{series.slug}/manage/",
        {"action": "rule", "rule": "best", "best_of": "", "min_games": 0},
    )
    assert response.status_code == 400 and "how many events count" in text(response)
    series.refresh_from_db()
    assert series.best_of == 3  # nothing saved


def test_a_bad_series_is_refused_and_keeps_what_was_typed(client):
    client = logged_in(make_user("maker", is_superuser=True))
    response = client.post(
        "/series/new/", {"name": "Autumn", "slug": "bad slug!", "rule": "all", "min_games": 0}
    )
    assert response.status_code == 400 and 'value="Autumn"' in text(response)
    assert not Series.objects.exists()


def test_only_its_organizers_change_a_series(client):
    series = two_nights()
    stranger = logged_in(make_user("stranger"))
    assert stranger.get(f"/series/{series.slug}/manage/").status_code == 403
    assert client.get(f"/series/{series.slug}/manage/").status_code == 302  # log in first


def test_services_check_before_writing():
    series = two_nights()
    with pytest.raises(ServiceError) as caught:
        series_add_event(series=series, slug="nowhere")
    assert caught.value.field == "event"
    with pytest.raises(ServiceError):
        series_set_rule(series=series, rule="best", best_of=0, min_games=0)
    with pytest.raises(ServiceError) as caught:
        series_create(name="Again", slug="season")
    assert caught.value.code == "series.slug_taken"


def test_the_manage_screen_shows_the_series_rule():
    series = two_nights()
    user = make_user("org")
    series.organizers.add(user)
    html = text(logged_in(user).get(f"/series/{series.slug}/manage/"))
    assert '<option value="best" selected>' in html and 'name="best_of" value="1"' in html


@pytest.mark.django_db
def test_series_writes_are_in_the_change_log():
    from tournament.models import AuditEntry
    from tournament.services.series import series_remove_event

    user = make_user("keeper")
    event = make_event(slug="s-log")
    series = series_create(name="Log season", slug="log-season", user=user)
    series_set_rule(series=series, rule="best", best_of=2, min_games=1, user=user)
    series_add_event(series=series, slug=event.slug, user=user)
    series_remove_event(series=series, event_id=event.pk, user=user)
    series_remove_event(series=series, event_id=event.pk, user=user)  # not a member: no change
    logged = list(
        AuditEntry.objects.filter(summary="log-season")
        .order_by("pk")
        .values_list("action", "user__username", "before", "after")
    )
    assert [row[0] for row in logged] == [
        "series.create",
        "series.rule",
        "series.add_event",
        "series.remove_event",
    ]
    assert {row[1] for row in logged} == {"keeper"}
    assert logged[1][2]["rule"] == "all" and logged[1][3] == {
        "rule": "best",
        "best_of": 2,
        "min_games": 1,
    }
    assert logged[3][2] == {"event": "s-log"}
