"""Issue 68 in a browser: the overlay (CONTRACT §9) at 1920×1080 and 1280×720 in both
languages follows hands saved at the table — a riichi tsumo, a draw with a stick left — with
no reload, and every number on the bar is the engine's (scoring.GameFlow on the same hands).
SHOTS=<folder> keeps the screenshots."""

from __future__ import annotations

import os

import pytest

from scoring import GameFlow
from scoring.hand_parse import parse_hand
from tests.tournament.factories import baba_day
from tournament.models import Game
from tournament.services.hands import game_hand_add

pytestmark = [pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SHOTS")
RIICHI_TSUMO = {"riichi": [0], "result": {"type": "tsumo", "winner": 0, "han": 2, "fu": 30}}
DRAW_STICK = {"riichi": [2], "result": {"type": "draw", "tenpai": [1, 2]}}
# With 2 honba and a stick on the table: the winner gains more than the hand's value.
RON = {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 1, "han": 3, "fu": 40}]}}


SCORES_ARE = """want => [...document.querySelectorAll('.seat .score')]
    .map(s => s.textContent.replace(/,/g, '')).join() === want"""


def _scores(page) -> list[int]:
    texts = page.locator(".seat .score").all_inner_texts()
    return [int(t.replace(",", "")) for t in texts]


@pytest.mark.parametrize(
    ("width", "height", "locale", "lang"),
    [(1920, 1080, "ja-JP", "ja"), (1280, 720, "en-GB", "en")],
)
def test_the_bar_follows_the_tables_hands(live_server, browser, width, height, locale, lang):
    event = baba_day(slug=f"overlay-{lang}", played=4, seat_next=True)
    game = Game.objects.filter(round__event=event, round__number=5).order_by("table").first()
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(
        f"{live_server.url}/events/{event.slug}/overlay/?round=5&table={game.table}&lang={lang}"
    )
    first = "東1局 0本場" if lang == "ja" else "East 1, 0 honba"
    page.locator("[data-hand]").filter(has_text=first).wait_for(timeout=5000)
    assert _scores(page) == [event.rules.start] * 4
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"

    flow = GameFlow(event.rules, 4)
    for hand in (RIICHI_TSUMO, DRAW_STICK, RON):
        game.refresh_from_db()
        game_hand_add(game=game, hand=hand, expected_version=game.version)
        flow.play(parse_hand(hand, event.rules, 4, "hand"))
        coming = flow.next()
        wind = {"E": "東", "S": "南"}[coming["label"][0]] if lang == "ja" else "East"
        number, honba = coming["label"][1:].split("-")
        label = (
            f"{wind}{number}局 {honba}本場" if lang == "ja" else f"{wind} {number}, {honba} honba"
        )
        page.locator("[data-hand]").filter(has_text=label).wait_for(timeout=3000)  # ≤ 2 s + slack
        page.wait_for_function(
            SCORES_ARE,
            arg=",".join(map(str, flow.scores)),
            timeout=3000,
        )
        assert page.locator(".seat.dealer").count() == 1
        dealer = page.locator(".seat").nth(coming["dealer"])
        assert "dealer" in (dealer.get_attribute("class") or "")
        banner = page.locator("[data-banner]")
        assert banner.is_visible()
        if hand is not DRAW_STICK:  # the hand's value as the engine priced it
            record = flow.records[-1]
            value, gain = record.outcome.details[0]["value"], max(record.deltas)
            assert f"{value:,}" in banner.inner_text()
            assert hand is RIICHI_TSUMO or f"{gain:,}" not in banner.inner_text()
        if hand is DRAW_STICK:
            assert page.locator("[data-sticks]").inner_text().endswith(f"×{flow.deposits // 1000}")
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/overlay-{lang}-{width}-{len(flow.records)}.png")
    # Once the hand has been said, each seat's gap to the top, in words (never a bare ±).
    page.locator("[data-banner]").wait_for(state="hidden", timeout=10000)
    gaps = page.locator(".seat .diff").all_inner_texts()
    assert len(gaps) == 4 and all(
        ("トップ" if lang == "ja" else "top") in g or "2着" in g or "leads" in g for g in gaps
    )
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/overlay-{lang}-{width}-gaps.png")
    # Nothing past the screen's edges.
    box = page.locator(".bar").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["y"] >= 0 and box["y"] + box["height"] <= height
    assert problems == []
    context.close()
