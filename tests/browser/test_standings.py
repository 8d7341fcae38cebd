"""A player's phone: the demo Baba standings, the four finalists above the cut line, the
language switched, the CSV downloaded."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tournament.demo import demo_events
from tournament.services.imports import event_import

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_demo_baba_standings_on_a_phone(live_server, phone):
    for data in demo_events():
        if data["slug"] == "baba-demo":
            event_import(data)
    page = phone
    page.goto(f"{live_server.url}/events/baba-demo/")
    assert page.viewport_size["width"] == 375
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 16
    cut = page.locator("#standings-table tbody tr.cut")
    assert cut.count() == 1
    # The line is drawn under the 4th row, and the four above it are the finalists.
    assert rows.nth(3).get_attribute("class") == cut.get_attribute("class")
    above = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)]
    for i in range(4):
        assert rows.nth(i).locator(".badge").inner_text() in ("Finalist", "Champion")
    for i in range(4, 16):
        assert rows.nth(i).locator(".badge").inner_text() == "Out at the cut"
    border = cut.locator("td").first.evaluate("td => getComputedStyle(td).borderBottomWidth")
    assert border == "3px"

    # Japanese, from the switcher; the same page, the same order.
    page.select_option("#language", "ja")
    page.click("form.lang button")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert "順位" in page.locator("#standings-table thead").inner_text()
    again = page.locator("#standings-table tbody tr")
    assert [again.nth(i).locator("td").nth(1).inner_text() for i in range(4)] == above

    with page.expect_download() as download:
        page.click("text=CSV")
    body = Path(download.value.path()).read_text(encoding="utf-8")
    table = list(csv.reader(io.StringIO(body)))
    assert table[0][:5] == ["rank", "player", "total", "games", "top_rate"]
    assert [r[1] for r in table[1:5]] == above
    assert page.problems == []
