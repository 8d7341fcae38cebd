"""Issue 12, findings 4 and 8 in a browser: a game's tables (its result and the hand log) read
as words on a phone and on a desktop, in both languages — no cell narrower than its longest
word (the log's result column once stacked ツ/モ/後/藤 one character a line, the result table
東/馬/場); a chart's labels stay text-sized on a desktop."""

from __future__ import annotations

import pytest

from tournament.demo import demo_events
from tournament.models import Game
from tournament.services.imports import event_import

pytestmark = [pytest.mark.django_db(transaction=True)]

# Every word of a game table's cell whose glyphs sit on more than one line. A word: letters, kana,
# kanji and digits between spaces and punctuation (Japanese lines may break after 、 or ）).
BROKEN_WORDS = """async () => {
  await document.fonts.ready;
  const broken = [];
  for (const cell of document.querySelectorAll("table.seats th, table.seats td")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[^\\s、，,。（）()［］\\[\\]「」・:：]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`${word[0]} in ${cell.className}:${cell.clientWidth}px`);
      }
    }
  }
  return broken;
}"""

# An SVG's text is drawn in its own units and scales with the drawing: the size on screen.
RENDERED_FONT_SIZES = """ts => ts.map((t) => {
  const svg = t.ownerSVGElement;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return parseFloat(getComputedStyle(t).fontSize) * scale;
})"""


def _baba_hands_game() -> Game:
    for data in demo_events():
        if data["slug"] == "baba-demo":
            event_import(data)
    games = Game.objects.filter(round__event__slug="baba-demo", mode="hands")
    return games.order_by("round__number", "table").first()


def _page(browser, width: int, height: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    return context, context.new_page()


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)])
@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_no_game_table_cell_is_narrower_than_its_longest_word(live_server, browser, size, locale):
    from django.contrib.auth import get_user_model

    game = _baba_hands_game()
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context, page = _page(browser, *size, locale)
    page.goto(f"{live_server.url}/events/baba-demo/games/{game.pk}/")
    assert page.locator("table.log tbody tr").count() > 3
    assert page.evaluate(BROKEN_WORDS) == []
    page.goto(
        f"{live_server.url}/accounts/login/?next=/events/baba-demo/manage/games/{game.pk}/hands/"
    )
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    assert page.locator("table.log tbody tr").count() > 3  # the organizer's score sheet
    assert page.evaluate(BROKEN_WORDS) == []
    context.close()


def test_chart_labels_stay_text_sized_on_a_desktop(live_server, browser):
    game = _baba_hands_game()
    player = game.seats.first().player
    context, page = _page(browser, 1920, 1080, "en-GB")
    for path in (f"/events/baba-demo/games/{game.pk}/", f"/players/{player.pk}/"):
        page.goto(live_server.url + path)
        sizes = page.eval_on_selector_all("figure.chart text.tick", RENDERED_FONT_SIZES)
        assert sizes and max(sizes) <= 16, (path, max(sizes))
    context.close()


# Every element of the page's main part whose right edge passes the viewport's (cut off on a
# phone, or only reachable by scrolling sideways).
PAST_THE_EDGE = """() => Array.from(document.querySelectorAll("main *"))
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)"""


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_penalty_list_reads_on_a_phone_nothing_cut_off(live_server, browser, locale):
    # Issue 43: the report was a six-column table, its cancel buttons past a 390-px screen.
    from django.contrib.auth import get_user_model

    from tests.tournament.factories import make_event
    from tournament.services.penalties import penalty_cancel, penalty_give

    names = ["長谷川 真理子", "Alexandra Montgomery-Smith", "山田 太郎", "佐藤 一"]
    event = make_event(slug="fit", players=names)
    penalty_give(event=event, player=names[0], points=-10, reason="遅刻（開始に10分遅れた）")
    given = penalty_give(event=event, player=names[1], points=5, reason="best manners award")
    penalty_cancel(penalty=given)
    penalty_give(event=event, player=names[2], points=-20, reason="誤ツモ" * 12)
    get_user_model().objects.create_superuser("admin", "a@example.com", "pw-admin")
    context, page = _page(browser, 390, 844, locale)
    page.goto(f"{live_server.url}/accounts/login/?next=/events/fit/manage/penalties/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin")
    page.click("main button[type=submit]")
    page.wait_for_url("**/manage/penalties/")
    page.wait_for_load_state()  # the style sheet in: the layout measured is the one shown
    assert page.locator("table.penalties tbody tr").count() == 3
    assert page.evaluate(PAST_THE_EDGE) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for button in page.locator("table.penalties button").all():  # each cancel within reach
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_a_round_s_page_fits_a_phone_names_wrapping_between_words(live_server, browser, locale):
    """helper-50: a round's public page was 407 px wide on a 390-px phone in English — a
    table's cell of wind and name never wrapped, so its table stuck out of its card."""
    import random

    from tests.tournament.factories import make_event
    from tournament.services.rounds import round_seat

    names = ["Anna de Vries", "佐藤 花子", "Olaf Ødegård", "山本 さくら", "田中太郎"]
    names += ["鈴木 一郎", "Mary Ann Smith", "Jean-Luc Picard"]
    event = make_event(slug=f"fit-{locale[:2]}", players=names)
    round_seat(event=event, rng=random.Random(2))
    context, page = _page(browser, 390, 844, locale)
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    assert page.locator("table.seats td.player").count() == 8
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll(".table-card table.seats")).filter(
          (t) => t.getBoundingClientRect().right >
            t.closest(".table-card").getBoundingClientRect().right + 1).length"""
    )
    assert outside == 0
    assert page.evaluate(BROKEN_WORDS) == []
    context.close()
