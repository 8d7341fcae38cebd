"""Issue 46: the venue screen sends a screenful of rows at a time, sliced from the ranked
standings (its page the first window, its fetched body the window asked for), never 500 for
a window nobody can show; the API's standings are the standings.json download's bytes, made
once per version."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.test import Client

from tests.tournament.factories import league_data
from tournament.models import Event
from tournament.selectors.published import published
from tournament.services.imports import event_import

pytestmark = pytest.mark.django_db

FETCH = {"X-Requested-With": "fetch"}


@pytest.fixture
def field() -> Event:
    """120 players, two rounds played: more rows than one answer sends (100)."""
    event_import(league_data(120, 2))
    return Event.objects.get(slug="league-120-2")


def _rows(html: str) -> list[tuple[str, str]]:
    """(rank, player) of each standings row, as the table holds them."""
    body = html[html.index("<tbody") : html.index("</tbody>")]
    rows = re.findall(r'<tr[^>]*><td[^>]*>([^<]*)</td><td class="player">([^<]*)</td>', body)
    assert len(rows) == body.count("<tr")
    return rows


def _marker(html: str) -> tuple[int, int]:
    found = re.search(r'data-rows-from="(\d+)" data-rows-total="(\d+)"', html)
    assert found, "no window marker"
    return int(found[1]), int(found[2])


def test_a_window_holds_only_its_rows_in_the_ranking_s_order(field):
    expected = [(str(r.rank), r.player) for r in published(field).standings.rows]
    response = Client().get(f"/events/{field.slug}/screen/?from=20&rows=20", headers=FETCH)
    html = response.content.decode()
    assert response.status_code == 200
    assert _rows(html) == expected[20:40]
    assert _marker(html) == (20, 120)


def test_the_page_holds_the_first_window_and_links_the_next(field):
    response = Client().get(f"/events/{field.slug}/screen/")
    html = response.content.decode()
    assert response.status_code == 200
    assert len(_rows(html)) == 100 and _marker(html) == (0, 120)
    assert "Rows 1–100 of 120" in html
    # Without JavaScript the refresh moves on to the next window (and from the last, back).
    assert re.search(r'content="5;url=\?from=100"', html)
    last = Client().get(f"/events/{field.slug}/screen/?from=100").content.decode()
    assert len(_rows(last)) == 100 and _marker(last) == (20, 120)  # the last 100 rows
    assert "Rows 21–120 of 120" in last and re.search(r'content="5;url=\?from=0"', last)


def test_a_small_field_is_sent_whole_without_a_next_link():
    event_import(league_data(16, 2))
    html = Client().get("/events/league-16-2/screen/").content.decode()
    assert len(_rows(html)) == 16 and _marker(html) == (0, 16)
    assert "data-screen-more" not in html and 'content="5"' in html


@pytest.mark.parametrize(
    "query",
    ["from=abc", "rows=0", "rows=-5", "from=-1", "from=1e3", "rows=１０", "from=" + "9" * 40,
     "from=1&from=2", "rows=2&rows=3", "rows="],
)  # fmt: skip
def test_a_window_nobody_can_show_is_400_never_500(field, query):
    for headers in ({}, FETCH):
        response = Client().get(f"/events/{field.slug}/screen/?{query}", headers=headers)
        assert response.status_code == 400, (query, headers)


def test_too_many_rows_are_the_most_one_answer_sends(field):
    html = Client().get(f"/events/{field.slug}/screen/?rows=100000", headers=FETCH)
    assert len(_rows(html.content.decode())) == 100
    far = Client().get(f"/events/{field.slug}/screen/?from=999999999&rows=7", headers=FETCH)
    assert _marker(far.content.decode()) == (113, 120) and len(_rows(far.content.decode())) == 7


def test_a_window_is_tagged_by_the_version_and_its_rows(field):
    client = Client()
    address = f"/events/{field.slug}/screen/?from=20&rows=20"
    first = client.get(address, headers=FETCH)
    again = client.get(address, headers=FETCH, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    other = client.get(f"/events/{field.slug}/screen/?from=40&rows=20", headers=FETCH)
    assert other["ETag"] != first["ETag"]
    assert client.get(
        f"/events/{field.slug}/screen/?from=40&rows=20", headers=FETCH,
        HTTP_IF_NONE_MATCH=first["ETag"],
    ).status_code == 200  # fmt: skip


def test_a_stage_window_counts_the_stage_s_rows():
    from tests.tournament.factories import baba_day

    event = baba_day(played=8)  # a qualifier of 16, a final of 4
    html = Client().get(f"/events/{event.slug}/screen/?stage=final&rows=3", headers=FETCH)
    text = html.content.decode()
    assert _marker(text) == (0, 4) and len(_rows(text)) == 3


# --- the API ----------------------------------------------------------------------------------


def test_the_api_standings_are_the_download_s_bytes_made_once_a_version(field):
    from tournament.exports import files

    client = Client()
    made = mock.Mock(wraps=files.export_standings)
    with mock.patch.object(files, "export_standings", made):
        api = client.get(f"/api/v1/events/{field.slug}/standings")
        again = client.get(f"/api/v1/events/{field.slug}/standings", HTTP_ACCEPT_LANGUAGE="ja")
        download = client.get(f"/events/{field.slug}/standings.json")
    assert api.status_code == again.status_code == download.status_code == 200
    assert api.content == again.content == download.content
    assert api["Content-Type"] == "application/json; charset=utf-8"
    assert made.call_count == 1  # one version, one making, whoever asks in whatever language
    # A result later, the next version is made once more.
    from tournament.services.games import game_record

    names = [f"Player {i:04d}" for i in range(4)]
    game_record(
        event=field,
        data={"round": 3, "table": 1, "seats": names, "scores": [40000, 30000, 20000, 10000]},
    )
    with mock.patch.object(files, "export_standings", made):
        later = client.get(f"/api/v1/events/{field.slug}/standings")
    assert made.call_count == 2 and later.content != api.content


def test_the_api_standings_take_no_page(field):
    """Decided in the README (The API): /standings is one document; `?page=` is not read."""
    client = Client()
    plain = client.get(f"/api/v1/events/{field.slug}/standings")
    paged = client.get(f"/api/v1/events/{field.slug}/standings?page=2")
    assert paged.status_code == 200 and paged.json() == plain.json()
    assert set(plain.json()) == {"event", "name", "standings"}
    assert len(plain.json()["standings"]) == 120
