"""Issue 49 in a browser: the organizer's channels screen on a phone, in both languages — a
refused URL is marked with its line and kept in the box, a good one saved and counted on the
dashboard, nothing past a 390-px screen."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.django_db(transaction=True)]

WIDTH = 390
TOKEN = "JHMHI8qBe7bk2ZwO5U711o3dV_js-a-long-webhook-token-that-does-not-wrap"
DISCORD = f"https://discord.com/api/webhooks/4174216298/{TOKEN}"


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    for element in page.locator("main form textarea, main form select, main form button").all():
        box = element.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH


@pytest.mark.parametrize(
    ("locale", "refused", "heading"),
    [
        ("en-GB", "line 2: this is not a channel URL apprise knows", "Channels"),
        ("ja-JP", "2行目：対応していないチャンネルURLです", "チャンネル"),
    ],
)
def test_an_organizer_adds_a_channel_on_a_phone(live_server, browser, locale, refused, heading):
    from django.contrib.auth import get_user_model

    from tests.tournament.factories import make_event
    from tournament.models import Event

    make_event(slug="chan", players=[f"P{i}" for i in range(8)])
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/events/chan/manage/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    page.wait_for_url("**/manage/")
    page.locator("a[href$='/manage/channels/']").click()
    page.wait_for_url("**/channels/")
    assert page.locator("h1").inner_text() == heading
    page.fill("#id_channels", f"{DISCORD}\nhttps://example.com/not-a-service")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert refused in page.locator("main").inner_text()
    assert "not-a-service" in page.input_value("#id_channels")  # kept as typed
    _fits(page)
    page.screenshot(path=f"/tmp/h49c/refused-{locale}.png", full_page=True)
    page.fill("#id_channels", DISCORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/manage/channels/$"))
    page.wait_for_load_state()
    assert Event.objects.get(slug="chan").channels["urls"] == [DISCORD]
    _fits(page)
    page.goto(f"{live_server.url}/events/chan/manage/")
    assert "(1)" in page.locator("#channels-h").inner_text()
    assert TOKEN not in page.content()  # the dashboard counts them, shows none
    context.close()
