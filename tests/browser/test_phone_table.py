"""Issue 32 in a browser: a table's own page on a phone (390×844), as a Japanese venue used it.
All four seats' names and scores show without a sideways swipe; the hand log has every seat's
column; no button stops under the sticky Record bar; names wrap between words, never inside
one; Record says what it wrote, with an Undo that asks first and says what it took back."""

from __future__ import annotations

import random

import pytest

from tournament.models import Game
from tournament.services.events import event_create, event_table_entry_set
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844
# Names as a Japanese venue writes them: family and given name, a space between; one long.
NAMES = ["山口 真央", "長谷川 美奈子", "佐々木 健太郎", "高橋 健"]

# Where an element's text moves to a new line other than at a space: "口|真" is 山口 真 / 央.
BROKEN_INSIDE_A_WORD = """(el) => {
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      chars.push([node.data[i], rect ? rect.top : null]);
    }
  }
  const broken = [];
  let before = null;
  chars.forEach(([c, top], i) => {
    if (!c.trim() || top === null) return;
    const spaced = i > 0 && !chars[i - 1][0].trim();
    if (before && top > before.top + 2 && !spaced) broken.push(before.c + "|" + c);
    before = { c, top };
  });
  return broken;
}"""

# An element covered where it is shown once scrolled into view the way a browser does it.
COVERED_WHEN_SCROLLED_TO = """(el) => {
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !el.contains(hit);
}"""


@pytest.fixture
def phone(live_server, browser, request):
    event = event_create(name="春の天鳳杯", slug="haru", ruleset="tenhou", players=NAMES)
    event_table_entry_set(event=event, table_entry="tables", table_mode="hands")
    round_seat(event=event, rng=random.Random(3))
    game = Game.objects.get(round__event=event)
    link = game.links.get(revoked_at__isnull=True)
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale=request.param)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{link.token}/")
    page.fill("#id_code", link.seat_codes[0])
    page.click("button.primary")
    page.seats = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    yield page
    context.close()


def _fits_across(page, selector: str) -> list[str]:
    """Cells of `selector` that reach past the screen's right edge, and a scroller that does."""
    return page.evaluate(
        """(selector) => {
          const out = [];
          for (const cell of document.querySelectorAll(selector)) {
            const r = cell.getBoundingClientRect();
            if (r.right > window.innerWidth || r.left < 0) out.push(cell.textContent.trim());
          }
          const table = document.querySelector(selector)?.closest(".scroll");
          if (table && table.scrollWidth > table.clientWidth) out.push("the table scrolls");
          return out;
        }""",
        selector,
    )


def _ron(page, winner: int, discarder: int, han: int, fu: int) -> None:
    for selector in (
        "input[name='type'][value='ron']",
        f"input[name='wins_0_seat'][value='{winner}']",
        f"input[name='discarder'][value='{discarder}']",
        f"input[name='wins_0_han'][value='{han}']",
        f"input[name='wins_0_fu'][value='{fu}']",
    ):
        page.locator(f"label:has({selector})").click()
    with page.expect_navigation():
        page.locator(".hand-form .record button").click()


@pytest.mark.parametrize("phone", ["ja-JP", "en-GB"], indirect=True)
def test_the_table_page_fits_a_phone_and_says_what_it_recorded(phone):
    page = phone
    japanese = page.evaluate("document.documentElement.lang") == "ja"
    # Two hands, so the log has rows to show.
    _ron(page, winner=1, discarder=0, han=3, fu=30)
    message = page.locator(".messages li.recorded")
    said = message.inner_text()
    label = "東1局 0本場" if japanese else "E1-0"
    assert label in said and f"{page.seats[1]} +3,900" in said, said
    assert message.locator("a.undo-link").count() == 1
    _ron(page, winner=2, discarder=3, han=1, fu=30)

    # All four seats' names and scores, no sideways swipe.
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert _fits_across(page, "table.running th, table.running td") == []
    assert page.locator("table.running th").count() == 4
    # The hand log: every seat's column on the screen.
    assert _fits_across(page, "table.log thead th, table.log tbody td") == []
    assert page.locator("table.log thead th").count() == 4
    # Names wrap between words only: buttons, the scores' heads, the log's heads.
    for selector in ("label.chip", "table.running th", "table.log thead th"):
        for element in page.locator(selector).all():
            if element.is_visible():
                assert element.evaluate(BROKEN_INSIDE_A_WORD) == [], element.inner_text()
    # No button of the hand form stops under the sticky Record bar (fu 70–110 did).
    page.locator("label:has(input[name='type'][value='ron'])").click()
    page.locator("label:has(input[name='wins_0_han'][value='1'])").click()
    chips = [c for c in page.locator(".hand-form label.chip").all() if c.is_visible()]
    assert len(chips) > 30
    covered = [c.inner_text() for c in chips if c.evaluate(COVERED_WHEN_SCROLLED_TO)]
    assert covered == []

    # Undo beside the message asks first, then says what it took back.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(".messages a.undo-link").click()
    confirm = page.locator("details#undo button.danger")
    assert confirm.is_visible()  # the question, not yet the deed
    assert page.locator("table.log tbody.hand").count() == 2
    with page.expect_navigation():
        confirm.click()
    said = page.locator(".messages li").first.inner_text()
    assert ("東2局 0本場" if japanese else "E2-0") in said, said
    assert page.locator("table.log tbody.hand").count() == 1
