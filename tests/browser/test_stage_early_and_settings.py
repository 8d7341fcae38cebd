"""Issue 66 (6, 7) in a browser, on a phone and a desktop, in both languages: the dashboard's
"close the qualifier now, after round 5" asks first and says what follows, and closing it
moves the final to rounds 6–7; the date-and-rules page keeps a refused knob as typed, its
error beside it. Neither page is wider than the screen. SHOTS=<folder> keeps screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.tournament.factories import baba_day, make_event
from tournament.models import Stage

pytestmark = [pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1920, 1080)}


def _shot(part, name: str) -> None:
    """A screenshot of `part` (a page's part, or the page in view) into SHOTS, if set."""
    folder = os.environ.get("SHOTS")
    if folder:
        part.screenshot(path=str(Path(folder) / f"{name}.png"))


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_close_early_and_the_settings_page(live_server, browser, locale, size):
    event = baba_day(slug=f"early-{locale[:2]}-{size}", played=5)
    user = get_user_model().objects.create_user("desk", "desk@example.com", "secret-pw")
    event.organizers.add(user)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    base = f"/events/{event.slug}/manage/"
    page.goto(f"{live_server.url}/accounts/login/?next={base}")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "secret-pw")
    page.click("main button[type=submit]")
    ask = page.locator("details[data-close-early]")
    ask.locator("summary").click()
    question = "予選を第5回戦で締め切りますか？" if locale == "ja-JP" else "after round 5?"
    expect(ask).to_contain_text(question)
    expect(ask).to_contain_text("第6–7回戦" if locale == "ja-JP" else "rounds 6–7")
    ask.scroll_into_view_if_needed()
    _fits(page)
    stages = page.locator("section[aria-labelledby=stages-h]")
    _shot(stages, f"dashboard-ask-{locale}-{size}")
    ask.locator("button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("#stages-h")).to_be_visible()
    assert list(Stage.objects.filter(event=event).values_list("last_round", "closed")) == [
        (5, True),
        (7, False),
    ]
    _fits(page)
    _shot(page, f"dashboard-top-{locale}-{size}")  # the message said
    _shot(stages, f"dashboard-closed-{locale}-{size}")
    page.goto(f"{live_server.url}{base}settings/")  # rounds seated: the knobs shown, fixed
    expect(page.locator("#id_overrides")).to_be_disabled()
    expect(page.locator("[data-rules-fixed]")).to_be_visible()
    _fits(page)
    _shot(page, f"settings-fixed-{locale}-{size}")
    fresh = make_event(slug=f"fresh-{locale[:2]}-{size}", players=["A", "B", "C", "D"])
    fresh.organizers.add(user)
    page.goto(f"{live_server.url}/events/{fresh.slug}/manage/settings/")
    page.fill("#id_held_on", "2026-12-06")
    page.fill("#id_overrides", '{"rounding": "sideways"}')
    page.click("main button[type=submit].primary")
    expect(page.locator("#id_overrides")).to_have_value('{"rounding": "sideways"}')
    expect(page.locator(".field.invalid")).to_contain_text("rounding:")
    _fits(page)
    _shot(page, f"settings-refused-{locale}-{size}")
    context.close()
