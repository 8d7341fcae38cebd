"""Issue 48 in a browser: a player's profile on a phone, in both languages — the dashboard's
list with each player's country, EMA number and "Profile" within reach, and the profile page
filled in and saved, nothing past a 390-px screen."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.django_db(transaction=True)]

WIDTH = 390


def _within(page, selector: str) -> None:
    for element in page.locator(selector).all():
        box = element.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, selector


@pytest.mark.parametrize(("locale", "country"), [("en-GB", "France"), ("ja-JP", "フランス")])
def test_a_profile_is_set_and_shown_on_a_phone(live_server, browser, locale, country):
    from django.contrib.auth import get_user_model

    from tests.tournament.factories import make_event
    from tournament.models import Entry

    names = ["長谷川 真理子", "Alexandra Montgomery-Smith", "山田 太郎", "佐藤 一"]
    event = make_event(slug="prof", players=names)
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/events/prof/manage/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    page.wait_for_url("**/manage/")
    page.locator("ul.players li").nth(1).locator("a[href$='/profile/']").click()
    page.wait_for_url("**/profile/")
    page.wait_for_load_state()
    page.fill("#id_ema", "04090012")
    page.select_option("#id_country", "FR")
    page.fill("#id_tenhou", "monty")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    _within(page, "main form input:not([type=hidden]), main form select, main form button")
    page.screenshot(path=f"/tmp/h48/profile-{locale}.png", full_page=True)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/manage/#players-h$"))
    page.wait_for_load_state()
    entry = Entry.objects.get(event=event, player__name=names[1])
    assert (entry.ema_number, entry.country.code, entry.tenhou_name) == ("04090012", "FR", "monty")
    row = page.locator("ul.players li").nth(1)
    assert f"{country} · EMA 04090012" in row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    _within(page, "ul.players a.button, ul.players button")
    page.locator("#players-h").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/h48/dashboard-{locale}.png")
    context.close()
