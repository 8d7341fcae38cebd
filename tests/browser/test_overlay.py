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
from tournament.services.hands import game_hand_add, game_hand_replace, game_hand_undo

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


def _open(browser, url: str, width: int, height: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return context, page, problems


# Two winners on one discard, both with a stick: jan-niki lets two win (ダブロン). Each size is
# read in the other language here than in the test above, so both sizes are read in both.
DOUBLE_RON = {
    "riichi": [1, 3],
    "result": {
        "type": "ron",
        "discarder": 0,
        "wins": [{"seat": 1, "han": 2, "fu": 30}, {"seat": 3, "han": 3, "fu": 30}],
    },
}


@pytest.mark.parametrize(
    ("width", "height", "locale", "lang"),
    [(1920, 1080, "en-GB", "en"), (1280, 720, "ja-JP", "ja")],
)
def test_a_double_ron_and_the_last_hands_conditions(
    live_server, browser, width, height, locale, lang
):
    """A double ron with two riichi: both winners and their values said, both sticks shown,
    the scores the engine's. Then the final of a Baba day entering its last hand: what each
    seat needs, cell by cell as the engine answers (scoring.conditions through the feed), in
    the table sheet's words; the seat above's gap with ?gap=above."""
    import random

    from django.utils import translation

    from tests.tournament.factories import make_event
    from tournament import i18n
    from tournament.selectors.conditions import conditions_of
    from tournament.services.rounds import round_seat

    event = make_event(slug=f"double-{lang}", ruleset="jan-niki")
    round_seat(event=event, rng=random.Random(2))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    context, page, problems = _open(
        browser,
        f"{live_server.url}/events/{event.slug}/overlay/?round=1&table={game.table}&lang={lang}",
        width,
        height,
        locale,
    )
    page.locator(".seat .score").first.wait_for(timeout=5000)
    game_hand_add(game=game, hand=DOUBLE_RON, expected_version=game.version)
    flow = GameFlow(event.rules, 4)
    flow.play(parse_hand(DOUBLE_RON, event.rules, 4, "hand"))
    page.wait_for_function(SCORES_ARE, arg=",".join(map(str, flow.scores)), timeout=3000)
    banner = page.locator("[data-banner]")
    assert banner.is_visible()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    said = banner.inner_text()
    for detail in flow.records[-1].outcome.details:
        assert names[detail["seat"]] in said and f"{detail['value']:,}" in said
    badges = [page.locator(".seat").nth(seat).locator(".badge.riichi").count() for seat in range(4)]
    assert badges == [0, 1, 0, 1]
    assert page.locator("[data-needs]").is_hidden()  # a league decides nothing at its last hand
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/overlay-double-ron-{lang}-{width}.png")
    # Corrected (one winner's hand was 4 han): said again, as corrected, with the new value.
    fixed = {
        **DOUBLE_RON,
        "result": {
            **DOUBLE_RON["result"],
            "wins": [DOUBLE_RON["result"]["wins"][0], {"seat": 3, "han": 4, "fu": 30}],
        },
    }
    game.refresh_from_db()
    game_hand_replace(game=game, hand=fixed, number=1, expected_version=game.version)
    again = GameFlow(event.rules, 4)
    again.play(parse_hand(fixed, event.rules, 4, "hand"))
    page.wait_for_function(SCORES_ARE, arg=",".join(map(str, again.scores)), timeout=3000)
    assert banner.inner_text().startswith("訂正：" if lang == "ja" else "Corrected:")
    assert f"{again.records[-1].outcome.details[1]['value']:,}" in banner.inner_text()
    # Taken back: nothing is said, and what was being said stops.
    game.refresh_from_db()
    game_hand_undo(game=game, expected_version=game.version)
    page.wait_for_function(SCORES_ARE, arg=",".join([str(event.rules.start)] * 4), timeout=3000)
    assert banner.is_hidden()
    assert problems == []
    context.close()

    # The final at South 3; a draw with nobody tenpai passes the deal to South 4, its last hand.
    event = baba_day(slug=f"oorasu-{lang}", played=8, undo=4)
    game = Game.objects.get(round__event=event, round__number=8)
    context, page, problems = _open(
        browser,
        f"{live_server.url}/events/{event.slug}/overlay/?round=8&table=1&lang={lang}&gap=above",
        width,
        height,
        locale,
    )
    page.locator(".seat .score").first.wait_for(timeout=5000)
    assert page.locator("[data-needs]").is_hidden()  # South 3 is not the last hand
    game_hand_add(
        game=game, hand={"result": {"type": "draw", "tenpai": []}}, expected_version=game.version
    )
    needs = page.locator("[data-needs]")
    needs.wait_for(timeout=3000)
    game.refresh_from_db()
    answer = conditions_of(event, game)
    assert answer is not None
    rows = needs.locator("tr")
    assert rows.count() == 5  # the heads and a row per seat
    with translation.override(lang):
        for seat, need in enumerate(answer["seats"]):
            cells = rows.nth(seat + 1).locator("th, td").all_inner_texts()
            assert cells[0] == need["player"]
            assert str(need["now"]) in cells[1]
            ways = [need["tsumo"]] + [
                need["ron"][str(other)] if other != seat else None for other in range(4)
            ]
            for text, way in zip(cells[2:], ways, strict=True):
                if way is None:
                    assert text == "—"
                    continue
                assert text.startswith(i18n.win_text(way))
                if isinstance(way, dict):
                    assert text.endswith(f"{way['points']:,}")
    # The seat above's gap: each seat but the top says how far the next score up is.
    page.locator("[data-banner]").wait_for(state="hidden", timeout=10000)
    scores = _scores(page)
    for seat, text in enumerate(page.locator(".seat .diff").all_inner_texts()):
        above = [s for s in scores if s > scores[seat]]
        if above:
            assert f"{min(above) - scores[seat]:,}" in text
    box = needs.bounding_box()
    assert box["y"] >= 0 and box["x"] + box["width"] <= width
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/overlay-conditions-{lang}-{width}.png")
    assert problems == []
    context.close()


def test_the_full_layout_marks_the_tables_players_in_the_standings(live_server, browser):
    """?layout=full at 1280×720: the standings at the top right, ten rows, the final's four
    players marked, clear of the "before the last game" panel above the bar."""
    long = "Maximilian Oberhuber-Schmidt"  # set smaller to fit, not cut
    event = baba_day(
        slug="overlay-full", played=7, close_qualifier=True, seat_next=True, names={"青木": long}
    )
    game = Game.objects.get(round__event=event, round__number=8)
    names = {s.player.name for s in game.seats.select_related("player")}
    context, page, problems = _open(
        browser,
        f"{live_server.url}/events/{event.slug}/overlay/?round=8&table=1&lang=en&layout=full",
        1280,
        720,
        "en-GB",
    )
    panel = page.locator("[data-standings-panel]")
    panel.wait_for(timeout=5000)
    page.locator("[data-needs]").wait_for(timeout=5000)  # the final not begun: "before"
    page.wait_for_function(
        "document.querySelectorAll('[data-standings-panel] tr.playing').length === 4",
        timeout=5000,
    )
    rows = panel.locator("tr")
    assert rows.count() == 10
    marked = {r.locator("td.who").inner_text() for r in panel.locator("tr.playing").all()}
    assert marked == names
    whole = "e => e.scrollWidth <= e.clientWidth"
    assert panel.locator("td.who", has_text=long).evaluate(whole)
    assert page.locator(".needs tr", has_text=long).locator("th").first.evaluate(whole)
    standings = panel.bounding_box()
    needs = page.locator("[data-needs]").bounding_box()
    assert standings["y"] + standings["height"] <= needs["y"]
    assert standings["x"] + standings["width"] <= 1280
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/overlay-full-en-1280.png")
    assert problems == []
    context.close()
