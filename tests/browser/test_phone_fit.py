"""Issue 66, finding 1 in a browser: every page a player or organizer opens on a phone fits
390 px with the longest names seen (長谷川・クリスティーナ・美智子・ローズマリー, "Maria
Papadopoulou Georgiou Anastasia"), in both languages — the standings (their status column was
pushed off the screen), the panels before the last game (its 1st–4th answers past the right
edge) and at the last hand, the table's phone (its scores' header four lines of a broken name,
its seat picker cutting a name, its preview 456 px wide over Save) and the confirmation.
Names wrap between their words (a space or ・), numbers and statuses stay on the screen."""

from __future__ import annotations

import os
import random

import pytest

from tests.browser.test_venue_screen import _page
from tests.tournament.factories import baba_day, make_event
from tournament.models import Game
from tournament.services.events import event_table_entry_set
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SHOTS")  # a folder: the screenshots are kept there
WIDTH, HEIGHT = 390, 844
JA_LONG = "長谷川・クリスティーナ・美智子・ローズマリー"
EN_LONG = "Maria Papadopoulou Georgiou Anastasia"
# Two of the demo day's finalists (at the final's table and round 6's first) renamed.
LONG = {"原田": JA_LONG, "西村": EN_LONG}
TABLE = [JA_LONG, EN_LONG, "山本 さくら", "Anna de Vries"]

# Every word of the elements matched whose glyphs sit on more than one line. A word: what
# lies between spaces, ・ and punctuation (a Japanese name may break after its ・).
BROKEN = """async (selector) => {
  await document.fonts.ready;
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility()) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[^\\s、，,。（）()［］\\[\\]「」・:：]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""

# The elements matched (shown) that reach past the screen's left or right edge.
OFF_SCREEN = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter((el) => el.checkVisibility())
  .filter((el) => { const r = el.getBoundingClientRect();
    return r.left < -0.5 || r.right > window.innerWidth + 0.5; })
  .map((el) => el.textContent.trim().slice(0, 40))"""

WIDE = "document.documentElement.scrollWidth"

# A name cut in a picker: a <select> whose chosen name is wider than its box (it cannot wrap).
CUT_PICKS = """() => Array.from(document.querySelectorAll("select[name^=seat_]")).filter((s) => {
  const style = getComputedStyle(s);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  return ctx.measureText(s.selectedOptions[0].text).width > room;
}).map((s) => s.selectedOptions[0].text)"""

# An element covered where it shows once scrolled into view (the preview over Save).
COVERED = """(el) => {
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !el.contains(hit);
}"""


def _shot(page, name: str, locale: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}-{locale[:2]}.png", full_page=True)


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_standings_keep_every_status_and_number_on_a_phone(live_server, browser, locale):
    event = baba_day(slug=f"stand-{locale[:2]}", played=5, names=LONG)
    context, page = _page(browser, WIDTH, HEIGHT, locale)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 16
    assert page.locator("td.status .badge").count() >= 4  # where the cut falls now
    _shot(page, "standings", locale)
    assert page.evaluate(WIDE) <= WIDTH
    for row in rows.all():
        rank, total = row.locator("td").nth(0), row.locator("td").nth(2)
        status = row.locator("td.status")
        boxes = [c.bounding_box() for c in (rank, total, status)]
        for box in boxes:
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, row.inner_text()
        assert boxes[1]["x"] + boxes[1]["width"] <= boxes[2]["x"] + 0.5  # not under it
    assert page.evaluate(BROKEN, "#standings-table td.player") == []
    assert page.problems == []
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_panel_before_the_last_game_fits_a_phone(live_server, browser, locale):
    event = baba_day(slug=f"before-{locale[:2]}", played=5, seat_next=True, names=LONG)
    context, page = _page(browser, WIDTH, HEIGHT, locale)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    panel = page.locator("section.before-last")
    assert panel.locator("tbody tr").count() == 16
    _shot(page, "before-last", locale)
    assert page.evaluate(WIDE) <= WIDTH
    # Every cell — each place's answer — on the screen, without a sideways swipe.
    assert page.evaluate(OFF_SCREEN, ".before-last th, .before-last td") == []
    assert page.evaluate(BROKEN, ".before-last td") == []
    assert page.problems == []
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_last_hand_panel_fits_a_phone(live_server, browser, locale):
    event = baba_day(slug=f"last-{locale[:2]}", played=8, undo=1, names=LONG)
    game = Game.objects.get(round__event=event, round__number=8)
    context, page = _page(browser, WIDTH, HEIGHT, locale)
    for path in (f"/events/{event.slug}/", f"/events/{event.slug}/games/{game.pk}/"):
        page.goto(live_server.url + path)
        page.locator("section.conditions").wait_for()
        assert JA_LONG in page.locator("section.conditions").inner_text()
        _shot(page, "conditions" if path.count("/") == 3 else "conditions-sheet", locale)
        assert page.evaluate(WIDE) <= WIDTH
        assert page.evaluate(OFF_SCREEN, "section.conditions *") == []
        assert page.evaluate(BROKEN, "section.conditions") == []
    assert page.problems == []
    context.close()


def _table(mode: str, slug: str) -> Game:
    event = make_event(slug=slug, players=TABLE)
    event_table_entry_set(event=event, table_entry="tables", table_mode=mode)
    round_seat(event=event, rng=random.Random(3))
    return Game.objects.get(round__event=event)


def _seat(browser, url: str, code: str, locale: str):
    context, page = _page(browser, WIDTH, HEIGHT, locale)
    page.goto(url)
    page.fill("#id_code", code)
    page.click("main button.primary")
    page.locator(".crumbs").wait_for()
    return context, page


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_table_s_phone_fits_its_header_and_hand_form(live_server, browser, locale):
    game = _table("hands", f"hands-{locale[:2]}")
    link = game.links.get(revoked_at__isnull=True)
    seat = next(s.position for s in game.seats.select_related("player") if s.player.name == JA_LONG)
    url = f"{live_server.url}/t/{link.token}/"
    context, page = _seat(browser, url, link.seat_codes[seat], locale)
    _shot(page, "table-hands", locale)
    assert JA_LONG in page.locator(".crumbs").inner_text()  # "you are South 南 長谷川・…"
    assert page.evaluate(WIDE) <= WIDTH
    assert page.evaluate(OFF_SCREEN, "table.running th, table.running td, label.chip") == []
    for where in (".crumbs", "table.running th", "label.chip"):
        assert page.evaluate(BROKEN, where) == [], where
    # The scores' header: the longest name on at most three lines, not four or five.
    lines = page.evaluate(
        """() => Math.max(...Array.from(document.querySelectorAll("table.running th"),
          (th) => Math.round(th.getBoundingClientRect().height /
            parseFloat(getComputedStyle(th).lineHeight))))"""
    )
    assert lines <= 3
    assert page.problems == []
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_final_score_entry_and_its_confirmation_fit_a_phone(live_server, browser, locale):
    game = _table("scores", f"scores-{locale[:2]}")
    link = game.links.get(revoked_at__isnull=True)
    url = f"{live_server.url}/t/{link.token}/"
    context, page = _seat(browser, url, link.seat_codes[0], locale)
    # The seat picker shows each name whole.
    assert page.evaluate(CUT_PICKS) == []
    assert page.evaluate(OFF_SCREEN, "form[data-scores] label") == []
    assert page.evaluate(BROKEN, "form[data-scores] label") == []
    for i, score in enumerate([40000, 30000, 20000, 10000]):
        page.fill(f"#id_score_{i}", str(score))
    with page.expect_navigation():
        page.click("button[name=preview]")
    preview = page.locator(".preview table")
    preview.wait_for()
    _shot(page, "table-preview", locale)
    assert page.evaluate(WIDE) <= WIDTH
    assert page.evaluate(OFF_SCREEN, ".preview td, .preview th, form[data-scores] label") == []
    assert page.evaluate(BROKEN, ".preview td, form[data-scores] label") == []
    save = page.locator("form[data-scores] button.primary")
    assert not save.evaluate(COVERED)
    box = save.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH
    with page.expect_navigation():
        save.click()
    context.close()

    # Another phone: the result entered, to confirm with its seat's code.
    context, page = _page(browser, WIDTH, HEIGHT, locale)
    page.goto(url)
    page.locator("table[data-entered]").wait_for()
    _shot(page, "table-confirm", locale)
    assert page.evaluate(WIDE) <= WIDTH
    assert page.evaluate(OFF_SCREEN, "table[data-entered] td, main .card, main button") == []
    assert page.locator("main button.primary").is_visible()  # Confirm the result
    assert page.evaluate(BROKEN, "table[data-entered] td") == []
    assert page.problems == []
    context.close()
