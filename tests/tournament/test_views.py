"""Pages: the home page lists events, the admin works for every model."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournament.factories import make_event, scores_game

pytestmark = pytest.mark.django_db


def test_home_lists_events_and_offers_both_languages(client):
    make_event(slug="autumn")
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Event autumn" in html and reverse("event-detail", args=["autumn"]) in html
    assert 'value="ja"' in html and 'value="en"' in html


def test_japanese_from_the_browser(client):
    page = client.get("/", headers={"accept-language": "ja"})
    html = page.content.decode()
    assert 'lang="ja"' in html and "大会・リーグ" in html and "言語" in html
    english = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert "Events" in english and "大会・リーグ" not in english


def test_the_switcher_sets_the_language(client):
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    assert "大会・リーグ" in client.get("/").content.decode()


def test_event_page_shows_standings(client):
    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    page = client.get(reverse("event-detail", args=[event.slug]))
    assert page.status_code == 200 and "P00" in page.content.decode()
    assert client.get(reverse("event-detail", args=["nope"])).status_code == 404


def test_every_model_has_a_working_admin(client):
    event = make_event()
    scores_game(event, 1, 1, ["P00", "P01", "P02", "P03"])
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    for model in admin.site._registry:
        if model._meta.app_label != "tournament":
            continue
        name = f"admin:tournament_{model._meta.model_name}_changelist"
        assert client.get(reverse(name)).status_code == 200, name
        assert client.get(reverse(name), {"q": "P0"}).status_code == 200, name
