"""Issue 29, part 6: nothing a person can type, upload or put in a URL answers 500. Each input
the attack found is a test named after it, run on SQLite and again on PostgreSQL (where a NUL
in text and integer overflows were the 500s)."""

from __future__ import annotations

import io
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.tournament.factories import make_event, scores_game
from tests.tournament.organize_support import logged_in, organizer_for, url
from tournament.models import Game, Penalty
from tournament.services.rounds import round_seat
from tournament.services.series import series_create

pytestmark = pytest.mark.django_db

HOSTILE_TENHOU = {
    "nested_brackets": "[" * 100_000,
    "infinity_in_scores": '{"name": ["a","b","c","d"], "log": [[[0,0,0],[Infinity,0,0,0]]]}',
    "1e400_in_scores": '{"name": ["a","b","c","d"], "log": [[[0,0,0],[1e400,0,0,0]]]}',
    "5000_digit_integer": '{"name": ["a","b","c","d"], "log": [[[0,0,0],[' + "9" * 5000 + "]]]}",
    "rule_a_list": '{"name": ["a","b","c","d"], "rule": [1], "log": [[[0,0,0],[0,0,0,0]]]}',
    "top_level_list": "[1, 2, 3]",
    "name_a_number": '{"name": 5, "log": []}',
}


@pytest.fixture
def event():
    return make_event(slug="e", players=[f"P{i}" for i in range(8)])


@pytest.mark.parametrize("name", sorted(HOSTILE_TENHOU))
def test_a_hostile_tenhou_json_upload_is_refused_naming_the_file(name, event):
    organizer = logged_in(organizer_for(event))
    upload = SimpleUploadedFile(f"{name}.json", HOSTILE_TENHOU[name].encode())
    reply = organizer.post(url("round-tenhou", event.slug, 1), {"round": "1", "logs": [upload]})
    assert reply.status_code == 400
    assert f"{name}.json" in reply.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("name", sorted(HOSTILE_TENHOU))
def test_import_tenhou_says_one_line_and_exits_2_for_a_hostile_log(name, event, tmp_path):
    path = tmp_path / f"{name}.json"
    path.write_text(HOSTILE_TENHOU[name])
    with pytest.raises(CommandError) as refused:
        call_command("import_tenhou", event.slug, "1", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    message = str(refused.value)
    assert "\n" not in message and f"{name}.json" in message and len(message) < 300


@pytest.mark.parametrize(
    "address",
    [
        "/api/v1/events/?page=100000000000000000000",
        "/api/v1/series/?page=100000000000000000000",
        "/api/v1/events/?page=-1",
        "/api/v1/events/?page=1e3",
    ],
)
def test_an_api_page_number_beyond_any_page_is_a_400(address, client):
    reply = client.get(address)
    assert reply.status_code == 400 and reply.json()["field"] == "page"


@pytest.mark.parametrize(
    "address",
    [
        "/t/%00/",
        "/t/%00/seat/%00/",
        "/series/%00/",
        "/series/%00/standings.csv",
        "/series/a%00b/manage/",
        "/events/%00/",
        "/players/%00/",
        "/api/v1/events/%00/standings",
        "/api/v1/series/%00/standings",
        "/events/e/?stage=%00",
        "/events/e/standings.csv?stage=%00",
        "/api/v1/events/e/standings?stage=%00",
    ],
)
def test_a_nul_in_the_address_is_refused_at_the_edge(address, client, event):
    reply = client.get(address)
    assert reply.status_code == 400, reply.status_code
    if address.startswith("/api/"):
        assert "NUL" in reply.json()["error"]


def test_a_nul_in_a_form_is_a_field_error_with_the_input_kept(event):
    organizer = logged_in(organizer_for(event))
    post = {"player": "P1", "kind": "penalty", "points": "1", "reason": "late\x00ness"}
    reply = organizer.post(url("penalties", event.slug), post)
    assert reply.status_code == 400 and "Null characters are not allowed" in reply.content.decode()


def test_a_penalty_for_round_32768_or_10_to_the_20_is_a_field_error(event):
    organizer = logged_in(organizer_for(event))
    for number in ("32768", str(10**20), "2147483648"):
        reply = organizer.post(
            url("penalties", event.slug),
            {
                "player": "P1",
                "kind": "penalty",
                "points": "10",
                "round_number": number,
                "reason": "late",
            },
        )
        assert reply.status_code == 400, number
    assert not Penalty.objects.exists()


def test_a_penalty_for_a_round_that_does_not_exist_names_the_round(event):
    scores_game(event, 1, 1, ["P0", "P1", "P2", "P3"])
    organizer = logged_in(organizer_for(event))
    post = {
        "player": "P1",
        "kind": "penalty",
        "points": "10",
        "round_number": "7",
        "reason": "late",
    }
    reply = organizer.post(url("penalties", event.slug), post)
    assert reply.status_code == 400 and "round 7" in reply.content.decode().lower()
    assert not Penalty.objects.exists()
    assert (
        organizer.post(url("penalties", event.slug), {**post, "round_number": "1"}).status_code
        == 302
    )


def test_the_274th_plus_120_minutes_is_refused_not_an_overflow(event):
    round_seat(event=event, rng=random.Random(1))
    game = Game.objects.filter(round__event=event).first()
    organizer = logged_in(organizer_for(event))
    statuses = {
        organizer.post(url("game-extra", event.slug, game.pk), {"minutes": "120"}).status_code
        for _ in range(300)
    }
    assert 500 not in statuses
    game.refresh_from_db()
    assert game.extra_minutes <= 24 * 60


@pytest.mark.parametrize("seat", ["²", "٣", "0" * 50, "-1", "99"])
def test_a_table_seat_that_is_no_seat_holds_nothing(seat, event):
    event.table_entry = "tables"
    event.save()
    round_seat(event=event, rng=random.Random(1))
    link = Game.objects.filter(round__event=event).first().links.get()
    phone = Client()
    reply = phone.post(f"/t/{link.token}/", {"do": "seat", "seat": seat, "code": seat})
    assert reply.status_code == 400
    assert "you are" not in phone.get(f"/t/{link.token}/").content.decode()


def test_a_series_address_nobody_made_is_a_404(client):
    series_create(name="Autumn", slug="autumn")
    assert client.get("/series/nope/").status_code == 404
    assert client.get("/series/autumn/").status_code == 200


def test_a_download_for_a_stage_the_event_does_not_have_is_a_404(client):
    event = make_event(slug="bb", format="baba", players=[f"P{i}" for i in range(16)])
    assert client.get(f"/events/{event.slug}/standings.csv?stage=qualifier").status_code == 200
    assert client.get(f"/events/{event.slug}/standings.csv?stage=nope").status_code == 404
    assert client.get(f"/events/{event.slug}/standings.xlsx?stage=" + "x" * 500).status_code == 404


def test_unseating_or_deleting_what_never_existed_is_a_404_and_a_second_tap_is_told(event):
    round_seat(event=event, rng=random.Random(1))
    organizer = logged_in(organizer_for(event))
    assert organizer.post(url("round-unseat", event.slug, 9)).status_code == 404
    game = Game.objects.filter(round__event=event).first()
    assert organizer.post(url("game-delete", event.slug, 10**6)).status_code == 404
    assert organizer.post(url("game-delete", event.slug, game.pk)).status_code == 302
    again = organizer.post(url("game-delete", event.slug, game.pk), follow=True)
    assert "That table is deleted." in again.content.decode()
    confirmed = {"confirmed": "1"}  # taking back asks first (test_organizer_day.py)
    assert organizer.post(url("round-unseat", event.slug, 1), confirmed).status_code == 302
    again = organizer.post(url("round-unseat", event.slug, 1), confirmed, follow=True)
    assert "The seating of round 1 is taken back." in again.content.decode()
