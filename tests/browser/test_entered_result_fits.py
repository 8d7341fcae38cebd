"""helper-52 on a phone: the result a table entered (what a second seat confirms) and the final
result were 635 px wide in a 358-px box with a long name — the score, rank and points off to
the right. The seat wraps between its words; the numbers stay on the screen."""

from __future__ import annotations

import random

import pytest

from tests.browser.test_live_pages import _reader
from tests.tournament.factories import make_event
from tournament.models import Game
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

NAMES = ["Maximilian Alexander Fischer von Hohenzollern", "勅使河原 寿限無五劫の擦り切れ"]
NAMES += ["Anna de Vries", "山本 さくら"]


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_entered_result_stays_on_a_phone_s_screen(live_server, browser, locale):
    event = make_event(slug=f"entered-{locale[:2]}", players=NAMES)
    event.table_entry, event.table_mode = "tables", "hands"
    event.save()
    round_seat(event=event, rng=random.Random(5))
    game = Game.objects.get(round__event=event)
    link = game.links.get(revoked_at__isnull=True)
    context, page = _reader(browser, f"{live_server.url}/t/{link.token}/", locale)
    page.fill("#id_code", link.seat_codes[0])
    page.click("main button.primary")
    # A yakuman ron from South to West: South busts, the game ends and waits for a second seat.
    page.check("input[name='type'][value='ron']")
    page.check("input[name='discarder'][value='1']")
    page.check("input[name='wins_0_seat'][value='2']")
    page.locator("details:has(input[name='wins_0_yakuman'])").first.evaluate("d => d.open = true")
    page.check("input[name='wins_0_yakuman'][value='1']")
    page.locator("form[data-hand] button[type=submit]").last.click()
    table = page.locator("table[data-entered]")
    table.wait_for()
    right = page.evaluate("() => document.documentElement.clientWidth")
    for cell in table.locator("tbody td").all():
        box = cell.bounding_box()
        assert box["x"] + box["width"] <= right, cell.inner_text()
    assert page.problems == []
    context.close()
