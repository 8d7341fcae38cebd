"""Issue 43, CONTRACT §2: a status is a decision, never a forecast. After round 1 of Baba's
six-round qualifier nobody is a finalist or out — not on the standings, the venue screen, the
downloads or the API; the pages say where the cut falls now, in words that say so. Once the
qualifier's six rounds are played the cut decides."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.factories import baba_day

pytestmark = pytest.mark.django_db

DECIDED_JA = ("決勝進出", "予選敗退")
DECIDED_EN = ("Finalist", "Out at the cut")


def _pages(client: Client, slug: str, language: str) -> dict[str, str]:
    headers = {"accept-language": language}
    names = {
        "standings": reverse("event-detail", args=[slug]),
        "qualifier": reverse("event-detail", args=[slug]) + "?stage=qualifier",
        "screen": reverse("standings-screen", args=[slug]),
        "live": reverse("standings-live", args=[slug]),
    }
    out = {}
    for name, url in names.items():
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        out[name] = response.content.decode()
    return out


def _csv_statuses(client: Client, slug: str) -> dict[str, str]:
    response = client.get(reverse("standings-export", args=[slug, "csv"]))
    rows = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    return {row["player"]: row["status"] for row in rows}


def test_after_round_1_nobody_is_through_or_out_anywhere():
    event = baba_day(played=1)
    client = Client()
    for name, html in _pages(client, event.slug, "ja").items():
        for word in DECIDED_JA:
            assert word not in html, (name, word)
    pages = _pages(client, event.slug, "ja")
    # Where the cut falls now, said as such: the top four of round 1 "in the cut now".
    assert pages["standings"].count("現在 圏内") == 4
    assert pages["qualifier"].count("現在 圏内") == 4
    for name, html in _pages(client, event.slug, "en").items():
        for word in DECIDED_EN:
            assert f">{word}<" not in html, (name, word)
    assert set(_csv_statuses(client, event.slug).values()) == {""}
    download = client.get(reverse("standings-export", args=[event.slug, "json"]))
    assert {row["status"] for row in json.loads(download.content)["standings"]} == {""}
    api = client.get(f"/api/v1/events/{event.slug}/standings").json()
    assert {row["status"] for row in api["standings"]} == {""}


def test_once_the_qualifier_is_played_the_cut_decides():
    event = baba_day(played=6)
    client = Client()
    statuses = _csv_statuses(client, event.slug)
    assert sorted(statuses.values()).count("finalist") == 4
    assert sorted(statuses.values()).count("qualifier") == 12
    pages = _pages(client, event.slug, "ja")
    assert pages["standings"].count("決勝進出") == 4
    assert "現在 圏内" not in pages["standings"]


def test_no_tie_to_settle_before_anyone_plays():
    from scoring.standings import standings

    result = standings([], "baba", players=[f"P{i}" for i in range(16)])
    assert all(s.to_settle == [] for s in result.stages)
    assert {r.status for r in result.rows} == {""}
    # Nor is anyone "in the cut now", or tied at it, with nothing played.
    assert {result.stages[0].now_of(r.player) for r in result.rows} == {""}


def test_after_the_cut_the_dashboard_counts_those_through():
    from django.contrib.auth import get_user_model

    event = baba_day(slug="cut-count", played=6, close_qualifier=True)
    organizer = get_user_model().objects.create_user("org", password="pw")
    event.organizers.add(organizer)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/events/{event.slug}/manage/", headers={"accept-language": "ja"})
    assert "予選を通過した 4 人を 4 人卓で組み合わせます。" in page.content.decode()
    before = baba_day(slug="cut-count-before", played=5)
    before.organizers.add(organizer)
    page = client.get(f"/events/{before.slug}/manage/", headers={"accept-language": "ja"})
    assert "通過した" not in page.content.decode()
