"""Issue 12, finding 5 in a browser: the hand form at 390×844, tapped as a person would — each
tap lands on a button already in sight (the page never scrolls), and counted. A plain ron is
at most 6 taps with Record in sight; a tsumo with riichi and a draw are as short. In both
languages, and without JavaScript too (plain radios)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from tests.tournament.factories import make_event
from tournament.i18n import hand_label
from tournament.models import Game
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


class Table:
    """The hand form of one table, and the taps made on it."""

    def __init__(self, page, url: str, language: str) -> None:
        self.page = page
        self.url = url
        self.language = language
        self.taps = 0

    def next_label(self) -> str:
        """The next hand's label as the engine writes it (E2-1), read off the page in either
        language (東2局 1本場)."""
        shown = self.page.locator(".next .label").inner_text()
        for engine in (f"{w}{h}-{b}" for w in "ESWN" for h in range(1, 5) for b in range(9)):
            with translation.override(self.language):
                if hand_label(engine) == shown:
                    return engine
        raise AssertionError(f"{shown!r} is no hand label in {self.language}")

    def tap(self, selector: str) -> None:
        """Tap the button (a chip's label, or a real button) holding `selector`, where it is
        on the screen now: no scrolling, and nothing may cover it (the sticky Record bar)."""
        page = self.page
        target = page.locator(f"label:has({selector})").or_(page.locator(f"button{selector}"))
        box = target.first.bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert page.evaluate("() => window.scrollY") == 0, "the page scrolled"
        assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, f"{selector} is off screen"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = target.first.evaluate(
            "(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y]
        )
        assert hit, f"{selector} is covered"
        page.mouse.click(x, y)
        self.taps += 1

    def record(self) -> None:
        with self.page.expect_navigation():
            self.tap(".primary")
        assert self.page.locator(".errors").count() == 0, self.page.locator(".errors").inner_text()
        self.taps_done, self.taps = self.taps, 0


@pytest.fixture
def table(live_server, browser, request):
    from django.contrib.auth import get_user_model

    locale, script, ruleset = request.param
    event = make_event(slug="fast", ruleset=ruleset)
    user = get_user_model().objects.create_user("org", "org@example.com", "secret-pw")
    event.organizers.add(user)
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, locale=locale, java_script_enabled=script
    )
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.goto(f"{live_server.url}/accounts/login/?next=/events/fast/manage/games/{game.pk}/hands/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "secret-pw")
    page.click("main button[type=submit]")
    yield Table(page, page.url, locale[:2]), game
    assert page.problems == []
    context.close()


# jan-niki: three ron winners may win at once, so two more winner blocks wait below the first.
@pytest.mark.parametrize(
    "table", [("en-GB", True, "jan-niki"), ("ja-JP", True, "baba")], indirect=True
)
def test_a_ron_a_tsumo_with_riichi_and_a_draw_in_few_taps_on_a_phone(table):
    table, game = table
    assert table.next_label() == "E1-0"

    # A plain ron: winner, dealt in, han, fu, Record (Ron is chosen at first).
    table.tap("input[name='wins_0_seat'][value='2']")
    table.tap("input[name='discarder'][value='1']")
    table.tap("input[name='wins_0_han'][value='3']")
    table.tap("input[name='wins_0_fu'][value='40']")
    table.record()
    assert table.taps_done <= 6
    assert table.next_label() == "E2-0"
    assert game.hands.count() == 1

    # A tsumo with riichi: result, riichi, winner, han, fu, Record.
    table.tap("input[name='type'][value='tsumo']")
    table.tap("input[name='riichi'][value='1']")
    table.tap("input[name='winner'][value='1']")
    table.tap("input[name='han'][value='2']")
    table.tap("input[name='fu'][value='30']")
    table.record()
    assert table.taps_done <= 6
    assert table.next_label() == "E2-1"  # the dealer won: renchan

    # A draw with two tenpai: result, tenpai, tenpai, Record.
    table.tap("input[name='type'][value='draw']")
    table.tap("input[name='tenpai'][value='0']")
    table.tap("input[name='tenpai'][value='3']")
    table.record()
    assert table.taps_done <= 4
    hands = [h.data["result"] for h in game.hands.order_by("number")]
    assert hands[0]["wins"] == [{"seat": 2, "han": 3, "fu": 40}] and hands[0]["discarder"] == 1
    assert hands[1] == {"type": "tsumo", "winner": 1, "han": 2, "fu": 30}
    assert hands[2] == {"type": "draw", "tenpai": [0, 3]}
    assert game.hands.order_by("number")[1].data["riichi"] == [1]


@pytest.mark.parametrize("table", [("ja-JP", False, "baba")], indirect=True)
def test_without_javascript_the_buttons_are_plain_radios_and_a_ron_still_records(table):
    table, game = table
    page = table.page
    # Every result's fields show (nothing hides them); the ron is pressed and recorded.
    assert page.locator("fieldset[data-for='draw']").is_visible()
    for selector in (
        "input[name='wins_0_seat'][value='3']",
        "input[name='discarder'][value='0']",
        "input[name='wins_0_han'][value='2']",
        "input[name='wins_0_fu'][value='30']",
    ):
        page.check(selector)
    with page.expect_navigation():
        page.click("button.primary")
    assert table.next_label() == "E2-0"
    assert game.hands.get().data["result"]["wins"] == [{"seat": 3, "han": 2, "fu": 30}]
