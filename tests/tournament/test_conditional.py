"""Conditional requests: the pages phones poll carry an ETag made from the event's version; a
phone that sends it back with nothing new gets 304 for one small query and no standings work."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import league_data
from tests.tournament.organize_support import url
from tournament.models import Game, Player
from tournament.selectors.cache import clear_all
from tournament.services.games import game_correct, game_record
from tournament.services.imports import event_import

pytestmark = pytest.mark.django_db
NAMES = [f"Player {i:04d}" for i in range(4)]


def addresses(event) -> list[str]:
    game = Game.objects.filter(round__event=event).first()
    player = Player.objects.get(name=NAMES[0])
    return [
        url("event-detail", event.slug),
        url("standings-live", event.slug),
        f"/events/{event.slug}/standings.csv",
        f"/events/{event.slug}/stats.json",
        url("game-detail", event.slug, game.pk),
        url("player-detail", player.pk),
    ]


def test_a_phone_holding_the_current_version_gets_304_without_standings_work(client):
    event = event_import(league_data(8, 2))
    shown = {url("event-detail", event.slug), url("standings-live", event.slug)}
    for address in addresses(event):
        first = client.get(address)
        assert first.status_code == 200 and first["ETag"], address
        with CaptureQueriesContext(connection) as captured:
            again = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b"", address
        assert len(captured) == 1, [q["sql"] for q in captured.captured_queries]
        clear_all()  # nothing cached: a 304 still ranks nobody
        with CaptureQueriesContext(connection) as captured:
            again = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, address
        sql = [q["sql"] for q in captured.captured_queries]
        # The standings' tag is what they show (selectors/published.py `standings_shown`):
        # the event's row, then its rounds' progress and its stages' last rounds, shared
        # once made — never the entries.
        assert len(sql) <= (3 if address in shown else 1), sql
        assert address not in shown or not any("tournament_entry" in q for q in sql), sql


def test_a_write_changes_every_tag_and_the_next_poll_gets_the_new_page(client):
    """Every page of the event — but a finished game's sheet at another table, which shows
    nothing of the other tables (its own correction moves it: the next test)."""
    event = event_import(league_data(8, 2))
    sheet = addresses(event)[4]
    before = {a: client.get(a)["ETag"] for a in addresses(event)}
    game_record(
        event=event,
        data={"round": 3, "table": 1, "seats": NAMES, "scores": [10000, 20000, 30000, 40000]},
    )
    for address, tag in before.items():
        page = client.get(address, HTTP_IF_NONE_MATCH=tag)
        if address == sheet:
            assert page.status_code == 304, address
        else:
            assert page.status_code == 200 and page["ETag"] != tag, address
    live = client.get(url("standings-live", event.slug)).content.decode()
    assert ">R3<" in live.replace(" ", "").replace("\n", "")


def test_a_finished_game_s_sheet_moves_with_its_own_correction_and_its_players_names(client):
    event = event_import(league_data(8, 2))
    game = Game.objects.filter(round__event=event, round__number=1).first()
    address = url("game-detail", event.slug, game.pk)
    tag = client.get(address)["ETag"]
    seats = list(game.seats.order_by("position").values_list("player__name", flat=True))
    data = {"round": 1, "table": game.table, "seats": seats, "scores": [40000, 30000, 20000, 10000]}
    game_correct(game=game, data=data, expected_version=game.version)
    corrected = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert corrected.status_code == 200 and corrected["ETag"] != tag
    tag = corrected["ETag"]
    Player.objects.filter(name=seats[0]).update(name="Renamed")
    renamed = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert renamed.status_code == 200 and "Renamed" in renamed.content.decode()


def test_the_tag_differs_by_language_and_query(client):
    event = event_import(league_data(8, 1))
    address = url("event-detail", event.slug)
    english = client.get(address, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    japanese = client.get(address, HTTP_ACCEPT_LANGUAGE="ja")["ETag"]
    sorted_ = client.get(address + "?sort=total", HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    assert len({english, japanese, sorted_}) == 3
    reply = client.get(address, HTTP_ACCEPT_LANGUAGE="ja", HTTP_IF_NONE_MATCH=english)
    assert reply.status_code == 200 and "順位" in reply.content.decode()


def test_one_server_renders_the_table_the_others_serve_it(client, settings):
    """The rendered table and downloads go through Django's cache (Redis in production): a
    second process with an empty memory of its own reads them from there."""
    event = event_import(league_data(8, 2))
    client.get(url("event-detail", event.slug))
    client.get(f"/events/{event.slug}/standings.csv")
    from tournament.selectors.cache import _caches

    for stamped in _caches:  # another process: its own memory empty, the shared cache not
        stamped.clear()
    with CaptureQueriesContext(connection) as captured:
        csv = client.get(f"/events/{event.slug}/standings.csv")
    assert csv.status_code == 200
    assert not any("tournament_entry" in q["sql"] for q in captured.captured_queries)
    clear_all()
    with CaptureQueriesContext(connection) as captured:
        client.get(f"/events/{event.slug}/standings.csv")
    assert any("tournament_entry" in q["sql"] for q in captured.captured_queries)


def test_the_venue_screen_table_is_tagged_by_the_version_apart_from_its_page(client):
    """A projector fetches its table every interval: with nothing new, 304 for one query. The
    page around it draws the round's clock from the server's time and is not tagged by the
    version; the two share an address, so both say they vary with the fetch header."""
    event = event_import(league_data(8, 2))
    address = url("standings-screen", event.slug)
    fetched = {"HTTP_X_REQUESTED_WITH": "fetch"}
    page, table = client.get(address), client.get(address, **fetched)
    assert page.status_code == table.status_code == 200
    assert table["ETag"] != page.get("ETag")
    assert all("X-Requested-With" in r["Vary"] for r in (page, table))
    assert "<html" in page.content.decode() and "<html" not in table.content.decode()
    assert client.get(address, HTTP_IF_NONE_MATCH=table["ETag"]).status_code == 200
    clear_all()
    with CaptureQueriesContext(connection) as captured:
        again = client.get(address, HTTP_IF_NONE_MATCH=table["ETag"], **fetched)
    assert again.status_code == 304 and len(captured) == 1
    game_record(
        event=event,
        data={"round": 3, "table": 1, "seats": NAMES, "scores": [10000, 20000, 30000, 40000]},
    )
    after = client.get(address, HTTP_IF_NONE_MATCH=table["ETag"], **fetched)
    assert after.status_code == 200 and after["ETag"] != table["ETag"]
    assert ">R3<" in after.content.decode().replace(" ", "").replace("\n", "")


def test_the_api_s_answers_about_one_event_are_tagged_by_its_version(client):
    """The API's answers about one event carry the same kind of tag as the pages, made before
    the answer: 304 for one query; a write moves every tag on."""
    event = event_import(league_data(8, 2))
    game = Game.objects.filter(round__event=event).first()
    answers = [
        f"/api/v1/events/{event.slug}/standings",
        f"/api/v1/events/{event.slug}/teams",
        f"/api/v1/events/{event.slug}/stats",
        f"/api/v1/events/{event.slug}/games/{game.pk}",
        f"/api/v1/events/{event.slug}/games/{game.pk}/conditions",
    ]
    tags = {}
    for address in answers:
        first = client.get(address)
        assert first.status_code == 200 and first["ETag"], address
        tags[address] = first["ETag"]
        clear_all()
        with CaptureQueriesContext(connection) as captured:
            again = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b"", address
        assert len(captured) == 1, [q["sql"] for q in captured.captured_queries]
    assert len(set(tags.values())) == len(answers)  # each address its own
    assert client.get("/api/v1/events/nowhere/standings").status_code == 404
    game_record(
        event=event,
        data={"round": 3, "table": 1, "seats": NAMES, "scores": [10000, 20000, 30000, 40000]},
    )
    for address, tag in tags.items():
        answer = client.get(address, HTTP_IF_NONE_MATCH=tag)
        assert answer.status_code == 200 and answer["ETag"] != tag, address


def test_the_api_s_tag_is_everyones_and_an_error_asked_again_stays_an_error(client):
    """Found by the page diff of issue 45: the API's tag read the user (every answer then
    varied by cookie: a shared cache kept one per reader), and a 404 or 400 carried the tag,
    so asked again with it the error became an empty 304."""
    event = event_import(league_data(8, 2))
    standings = client.get(f"/api/v1/events/{event.slug}/standings")
    assert "cookie" not in standings.get("Vary", "").lower()
    for wrong in (
        f"/api/v1/events/{event.slug}/games/999999",
        f"/api/v1/events/{event.slug}/standings?stage=nowhere",
    ):
        error = client.get(wrong)
        assert error.status_code in (400, 404), wrong
        again = client.get(wrong, HTTP_IF_NONE_MATCH=error.get("ETag", '"none"'))
        assert again.status_code == error.status_code and again.json()["field"], wrong
