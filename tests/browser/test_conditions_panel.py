"""Issue 35 in a browser: at the last hand of the demo's Baba final, the venue screen shows what
each player needs — a card per seat, every one inside the screen — in both languages; the
public game sheet shows the same panel on a phone without sideways scrolling."""

from __future__ import annotations

import pytest

from tests.browser.test_venue_screen import SMALLEST_TEXT, _baba, _page
from tournament.models import Game
from tournament.services.hands import game_hand_undo

pytestmark = [pytest.mark.django_db(transaction=True)]


def _final_at_last_hand() -> Game:
    _baba()
    game = Game.objects.get(round__event__slug="baba-demo", round__number=8)
    game_hand_undo(game=game, expected_version=game.version)  # back to South 4, 2 honba
    return game


HEADINGS = {"en-GB": "What each player needs to win", "ja-JP": "オーラス条件（優勝）"}


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_venue_screen_shows_the_panel_at_the_final_last_hand(live_server, browser, locale):
    game = _final_at_last_hand()
    context, page = _page(browser, 1920, 1080, locale)
    page.goto(f"{live_server.url}/events/baba-demo/screen/")
    panel = page.locator("section.conditions")
    panel.wait_for()
    assert HEADINGS[locale] in panel.locator("h2").inner_text()
    cards = panel.locator(".condition-seats > li")
    assert cards.count() == 4
    names = [s.player.name for s in game.seats.order_by("position")]
    right = page.evaluate("() => document.documentElement.clientWidth")
    for i in range(4):
        card = cards.nth(i)
        assert names[i] in card.inner_text()
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right
        # Tsumo and a ron from each of the three others.
        assert card.locator(".ways > li").count() == 4
    smallest, where = page.evaluate(SMALLEST_TEXT)
    assert smallest >= 32, where  # the room's type (issue 32), the panel's too
    assert page.problems == []
    context.close()


def test_the_game_sheet_panel_fits_a_phone(live_server, browser):
    game = _final_at_last_hand()
    context, page = _page(browser, 390, 844, "ja-JP")
    page.goto(f"{live_server.url}/events/baba-demo/games/{game.pk}/")
    panel = page.locator("section.conditions")
    panel.wait_for()
    assert "ツモ" in panel.inner_text()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390
    assert page.problems == []
    context.close()
