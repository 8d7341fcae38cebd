"""Every kind of page passes axe-core's WCAG 2 A and AA rules (contrast, labels, names, …) at
phone width, in both languages, with no console errors."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tournament.demo import demo_events
from tournament.models import Event, Game
from tournament.services.imports import event_import
from tournament.services.rounds import round_seat
from tournament.services.series import series_add_event, series_create

pytestmark = [pytest.mark.django_db(transaction=True)]


def violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}})
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['html'][:100]}"
        for v in result.response["violations"]
    ]


def test_public_and_organizer_pages_pass_axe(live_server, phone):
    from django.contrib.auth import get_user_model

    for data in demo_events():
        if data["slug"] in ("baba-demo", "jan-niki-league", "emperor-series"):
            imported = event_import(data)
            if data["slug"] == "emperor-series":
                event = imported
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    emperor_game = Game.objects.filter(round__event=event).order_by("round__number").first()
    round_seat(event=event, rng=random.Random(1))
    open_game = Game.objects.filter(round__event=event, finished=False).first()
    hand_game = Game.objects.get(round__event__slug="baba-demo", round__number=1, table=1)
    league = Event.objects.get(slug="jan-niki-league")
    round_seat(event=league, rng=random.Random(1))
    riichi_game = Game.objects.filter(round__event=league, finished=False).first()
    riichi_hands = f"/events/jan-niki-league/manage/games/{riichi_game.pk}/hands/"
    season = series_create(name="Season", slug="season", rule="best", best_of=1)
    series_add_event(series=season, slug="baba-demo")
    series_add_event(series=season, slug="jan-niki-league")
    public = [
        "/",
        "/events/baba-demo/",
        "/events/baba-demo/?stage=qualifier",
        "/events/baba-demo/screen/",
        "/events/baba-demo/rounds/1/",
        f"/events/baba-demo/games/{hand_game.pk}/",
        f"/players/{hand_game.seats.first().player.name}/",
        f"/events/emperor-series/games/{emperor_game.pk}/",
        "/events/baba-demo/stats/?min=0",
        "/series/season/",
        "/accounts/login/",
    ]
    organizer = [
        "/events/new/",
        "/events/baba-demo/manage/",
        "/events/baba-demo/manage/rounds/1/",
        f"/events/emperor-series/manage/games/{open_game.pk}/scores/",
        f"/events/emperor-series/manage/games/{open_game.pk}/hands/",
        f"/events/baba-demo/manage/games/{hand_game.pk}/hands/",
        riichi_hands,
        "/events/baba-demo/manage/audit/",
        "/events/baba-demo/manage/rounds/9/tenhou/",
        "/series/new/",
        "/series/season/manage/",
    ]
    page = phone
    found: dict[str, list[str]] = {}
    for language in ("en", "ja"):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        for path in public:
            assert page.goto(live_server.url + path).status == 200, path
            found[f"{language} {path}"] = violations(page)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("button.primary")
    for path in organizer:
        assert page.goto(live_server.url + path).status == 200, path
        found[path] = violations(page)
    # A form with its errors shown is checked too.
    page.goto(f"{live_server.url}/events/emperor-series/manage/games/{open_game.pk}/scores/")
    page.click("button.primary")
    # The form posts and the page comes back with its errors: wait for it, not a snapshot.
    expect(page.locator(".errors")).to_be_visible()
    found["scores form with errors"] = violations(page)
    page.goto(live_server.url + riichi_hands)
    page.click("button.primary")  # a ron with nothing pressed
    expect(page.locator(".errors")).to_be_visible()
    found["hand form with errors"] = violations(page)
    assert {k: v for k, v in found.items() if v} == {}
    assert page.problems == []
