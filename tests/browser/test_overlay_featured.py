"""Issue 68's featured table in a browser: the overlay with no `?round=&table=` (the address
added once to the streaming software) follows the table the organizer features — saying that
none is, then drawing one, switching to another without a reload and without saying that
table's last hand as if it had just been played, and back to none; the dashboard's buttons fit
a 390-px phone in both languages."""

from __future__ import annotations

import pytest

from tests.tournament.factories import baba_day
from tournament.models import Event, Game
from tournament.services.events import event_feature_game
from tournament.services.hands import game_hand_add

pytestmark = [pytest.mark.django_db(transaction=True)]

RON = {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 1, "han": 3, "fu": 40}]}}

NAMES_ARE = """want => [...document.querySelectorAll('.seat .name')]
    .map(s => s.textContent).join('|') === want"""


def _names(game: Game) -> str:
    return "|".join(s.player.name for s in game.seats.select_related("player").order_by("position"))


def test_the_overlay_follows_the_featured_table(live_server, browser):
    event = baba_day(slug="overlay-follows", played=4, seat_next=True)
    first, second = Game.objects.filter(round__event=event, round__number=5).order_by("table")[:2]
    game_hand_add(game=second, hand=RON, expected_version=second.version)  # a last hand to say
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live_server.url}/events/{event.slug}/overlay/?lang=en")
    hand, banner = page.locator("[data-hand]"), page.locator("[data-banner]")
    hand.filter(has_text="No table is on stream.").wait_for(timeout=5000)
    assert page.locator(".seat").count() == 0

    event_feature_game(event=event, game=first)
    hand.filter(has_text="East 1, 0 honba").wait_for(timeout=3000)
    page.wait_for_function(NAMES_ARE, arg=_names(first), timeout=3000)

    # Another table featured: drawn within the poll, its last hand not said as a new one.
    event_feature_game(event=event, game=second)
    page.wait_for_function(NAMES_ARE, arg=_names(second), timeout=3000)
    assert banner.is_hidden()
    page.wait_for_timeout(1500)  # a look or two more: still nothing said
    assert banner.is_hidden()
    # A hand there is said.
    second.refresh_from_db()
    game_hand_add(game=second, hand=RON, expected_version=second.version)
    banner.wait_for(state="visible", timeout=3000)

    # None featured: said, the bar emptied, and it goes on asking.
    event_feature_game(event=event, game=None)
    hand.filter(has_text="No table is on stream.").wait_for(timeout=3000)
    assert page.locator(".seat").count() == 0 and banner.is_hidden()
    event_feature_game(event=event, game=first)
    page.wait_for_function(NAMES_ARE, arg=_names(first), timeout=3000)
    assert problems == []
    context.close()


@pytest.mark.parametrize(
    ("locale", "button", "badge"),
    [
        ("en-GB", "Feature on stream", "On stream"),
        ("ja-JP", "配信卓にする", "配信中"),
    ],
)
def test_the_dashboard_s_stream_buttons_fit_a_phone(live_server, browser, locale, button, badge):
    from django.contrib.auth import get_user_model

    event = baba_day(slug=f"feature-{locale}", played=4, seat_next=True)
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.slug}/manage/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/events/{event.slug}/manage/")
    page.wait_for_load_state()
    buttons = page.locator("#table-states ul.table-states button", has_text=button)
    assert buttons.count() == Game.objects.filter(round__event=event, round__number=5).count()
    buttons.first.click()
    page.wait_for_load_state()
    page.locator("#table-states .badge.on-stream", has_text=badge).wait_for(timeout=3000)
    assert Event.objects.get(pk=event.pk).featured_game_id is not None
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for shown in page.locator("#table-states button, #table-states .address").all():
        box = shown.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    context.close()
