"""Issue 47 in a browser (CONTRACT §3): a phone whose connection drops keeps the hands it
records in its outbox, says so, and sends each once when the connection is back; a phone
reloaded with no connection still opens its table, in its seat, from its service worker."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest
from django.db import OperationalError
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Game
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SHOTS")  # a folder: the waiting state's screenshots are kept there


def _table() -> tuple[Game, str, list[str]]:
    event = make_event(slug="drop", players=[f"P{i:02d}" for i in range(4)])
    event.table_entry, event.table_mode = "tables", "hands"
    event.save()
    round_seat(event=event, rng=random.Random(5))
    game = Game.objects.get(round__event=event)
    link = game.links.get(revoked_at__isnull=True)
    return game, f"/t/{link.token}/", link.seat_codes


def _phone(browser: Any, base: str, page_path: str, code: str, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.goto(base + page_path)
    page.fill("#id_code", code)
    page.click("main button.primary")
    expect(page.locator("form[data-hand]")).to_be_visible()
    # The worker installed and this table's page kept on the phone.
    kept = """async (path) => {
        await navigator.serviceWorker.ready;
        return !!(await (await caches.open("tables-pages")).match(path, { ignoreVary: true }));
    }"""
    for _ in range(100):
        if page.evaluate(kept, page_path):
            break
        time.sleep(0.2)
    else:
        pytest.fail("the table's page was never kept on the phone")
    return context, page


def _record(page: Any) -> None:
    """A 1 han 30 fu tsumo by the dealer: the game plays on."""
    page.check("input[name='type'][value='tsumo']")
    page.check("input[name='winner'][value='0']")
    page.check("input[name='han'][value='1']")
    page.check("input[name='fu'][value='30']")
    page.locator("form[data-hand] button[type=submit]").last.click()


def test_hands_recorded_offline_wait_then_arrive_once_in_order(live_server, browser):
    game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0])
    # Another seat's phone at the same table, online all along, never reloaded.
    other_context, other = _phone(browser, live_server.url, path, codes[1])
    context.set_offline(True)
    _record(page)
    waiting = page.locator("[data-outbox] [data-count]")
    expect(waiting).to_have_text("1 hand waiting to send")
    expect(page.locator("[data-outbox] [data-why]")).to_contain_text("No connection")
    _record(page)
    expect(waiting).to_have_text("2 hands waiting to send")
    _record(page)
    expect(waiting).to_have_text("3 hands waiting to send")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/offline-waiting-en.png", full_page=True)
    assert game.hands.count() == 0
    context.set_offline(False)
    # Sent by itself, in order, each once; the page then shows the table as it is.
    expect(page.locator(".next .label")).to_have_text("E1-3", timeout=20_000)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    sent = time.monotonic()
    # The other phone shows them within 5 s of their arrival, without a reload (live.js).
    expect(other.locator(".next .label")).to_have_text("E1-3", timeout=5_000)
    assert time.monotonic() - sent <= 5
    time.sleep(1)  # a later tick of the timer sends nothing again
    rows = list(game.hands.order_by("number").values_list("number", "entry_id"))
    assert [n for n, _ in rows] == [1, 2, 3] and len({e for _, e in rows}) == 3
    assert all(e is not None for _, e in rows)
    # Each hand said recorded; "Undo" beside the last only (the one it would take back).
    assert page.locator(".messages a.undo-link").count() <= 1
    assert page.problems == [] and other.problems == []
    context.close()
    other_context.close()


def test_a_phone_reloaded_offline_still_opens_its_table_in_its_seat(live_server, browser):
    game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0], locale="ja-JP")
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1.sheet-title")).to_contain_text("1卓")
    expect(page.locator(".crumbs")).to_contain_text("東")  # still this seat
    # "This phone is 東 at this table" was said once, when the seat was proved: not again.
    expect(page.locator(".messages")).to_have_count(0)
    _record(page)  # and it still records, into the outbox
    expect(page.locator("[data-outbox] [data-count]")).to_have_text("未送信 1局")
    # Reloaded again while hand 1 waits: the next hand is hand 2, as the outbox says.
    page.reload()
    expect(page.locator("[data-outbox] [data-count]")).to_have_text("未送信 1局")
    record = page.locator("form[data-hand] .record button[type=submit]")
    expect(record).to_have_text("2局目を記録")
    assert page.locator("form[data-hand] input[name=number]").input_value() == "2"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/offline-waiting-ja.png", full_page=True)
    context.set_offline(False)
    back_online(page)
    expect(page.locator(".next .label")).to_have_text("東1局 1本場", timeout=20_000)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert game.hands.count() == 1
    assert page.problems == []
    context.close()


def test_a_page_reopened_offline_does_not_say_its_one_time_message_again(live_server, browser):
    """helper-48: a phone reloaded with no connection said "Hand 1 recorded" again — the kept
    copy was the page as answered after that hand, its message in it."""
    _game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0])
    _record(page)  # online: saved, the page after it says so once
    expect(page.locator(".messages")).to_contain_text("recorded")
    expect(page.locator(".next .label")).to_have_text("E1-1")
    context.set_offline(True)
    page.reload()
    expect(page.locator(".next .label")).to_have_text("E1-1")  # the kept copy, after hand 1
    expect(page.locator(".messages")).to_have_count(0)
    assert page.problems == []
    context.close()


def test_a_page_reopened_offline_counts_the_round_s_time_left_from_now(live_server, browser):
    """helper-48: reopened with no connection, the clock counted from the time its copy was
    made — minutes left that had gone by."""
    from datetime import timedelta

    from django.utils import timezone

    from tournament.models import Round

    game, path, codes = _table()
    game.round.event.round_minutes = 30
    game.round.event.save()
    started = timezone.now() - timedelta(minutes=5)
    Round.objects.filter(pk=game.round_id).update(clock_started_at=started)
    context, page = _phone(browser, live_server.url, path, codes[0])
    page.reload()  # online, through the worker: the copy it keeps
    expect(page.locator("[data-clock] [data-left]")).to_be_visible()
    time.sleep(8)  # the copy grows old
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1.sheet-title")).to_contain_text("table 1")
    page.wait_for_timeout(1500)  # a tick of clock.js
    minutes, seconds = page.locator("[data-clock] [data-left]").inner_text().split(":")
    shown = int(minutes) * 60 + int(seconds)
    left = (started + timedelta(minutes=30) - timezone.now()).total_seconds()
    assert abs(shown - left) <= 3, (shown, left)
    assert page.problems == []
    context.close()


def back_online(page: Any) -> None:
    """Tell the page its connection is back, as the browser's `online` event does. Chromium may
    have fired its own already and the outbox sent and reloaded the page: then the page this
    ran in is gone, and there is nothing more to tell."""
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as gone:
        if "Execution context was destroyed" not in str(gone):
            raise


def test_a_conflict_found_while_sending_opens_and_holds_the_later_hands(live_server, browser):
    from django.test import Client

    game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0])
    context.set_offline(True)
    _record(page)
    waiting = page.locator("[data-outbox] [data-count]")
    expect(waiting).to_have_text("1 hand waiting to send")
    _record(page)
    expect(waiting).to_have_text("2 hands waiting to send")
    # Meanwhile another seat's phone, online, saves hand 1.
    other = Client()
    assert other.post(path, {"do": "seat", "code": codes[1]}).status_code == 302
    theirs = {"do": "hand", "version": game.version, "number": 1, "type": "draw"}
    assert other.post(path, {**theirs, "tenpai": ["1"]}).status_code == 302
    context.set_offline(False)
    back_online(page)
    conflict = page.locator(".conflict")
    expect(conflict).to_contain_text("Another phone saved this table first", timeout=20_000)
    expect(page.locator("[data-outbox] [data-count]")).to_have_text("1 hand waiting to send")
    expect(page.locator("[data-outbox] [data-why]")).to_contain_text(
        "Choose first what this hand should be"
    )
    time.sleep(1)
    assert game.hands.count() == 1  # the later hand waits for the choice
    conflict.get_by_role("link", name="Keep theirs").click()
    # Chosen: the waiting hand goes on as hand 2, once. (The new page's outbox line is hidden
    # for an instant before it reads the outbox: its arrival is waited for, not that.)
    for _ in range(200):
        if _hands_now(game) == 2:
            break
        time.sleep(0.1)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=20_000)
    rows = list(game.hands.order_by("number").values_list("number", "entry_id"))
    assert [n for n, _ in rows] == [1, 2] and rows[0][1] is None and rows[1][1] is not None
    assert page.problems == []
    context.close()


def test_offline_the_undo_goes_and_what_needs_the_server_says_so(live_server, browser):
    game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0])
    _record(page)  # online: saved, and the undo offers it
    expect(page.locator(".next .label")).to_have_text("E1-1", timeout=20_000)
    undo = page.locator("details.undo")
    expect(undo).to_be_visible()
    context.set_offline(True)
    _record(page)
    expect(page.locator("[data-outbox] [data-count]")).to_have_text("1 hand waiting to send")
    # "The last hand" is the server's, not the one waiting here: no undo while hands wait.
    expect(undo).to_be_hidden()
    expect(page.locator("[data-undo-link]")).to_be_hidden()
    address = page.url
    page.evaluate("document.querySelector('details.undo form').requestSubmit()")
    expect(page.locator("[data-outbox] [data-why]")).to_contain_text("This needs the connection")
    assert page.url == address  # not the browser's no-internet page
    assert game.hands.count() == 1
    context.set_offline(False)
    back_online(page)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=20_000)
    expect(undo).to_be_visible()
    assert game.hands.count() == 2
    context.close()


def test_the_next_hand_offline_starts_clean_not_as_the_last_hand_left_it(live_server, browser):
    """A hand kept in the outbox empties the form for the next one: its winner's "Dealt in"
    button is on again, and the fu that a mangan hid are shown — as on a page just loaded."""
    game, path, codes = _table()
    context, page = _phone(browser, live_server.url, path, codes[0])
    context.set_offline(True)
    page.check("input[name='type'][value='ron']")
    page.check("input[name='wins_0_seat'][value='1']")
    page.check("input[name='discarder'][value='2']")
    page.check("input[name='wins_0_han'][value='5']")  # mangan: the fu go
    fu = page.locator("[data-win]").first.locator("[data-fu]")
    expect(fu).to_be_hidden()
    expect(page.locator("input[name='discarder'][value='1']")).to_be_disabled()
    page.locator("form[data-hand] button[type=submit]").last.click()
    expect(page.locator("[data-outbox] [data-count]")).to_have_text("1 hand waiting to send")
    expect(page.locator("input[name='discarder'][value='1']")).to_be_enabled()
    expect(fu).to_be_visible()
    context.set_offline(False)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=20_000)  # sent, once
    assert game.hands.count() == 1 and page.problems == []
    context.close()


def _hands_now(game) -> int | None:
    """The game's hands as the test's thread reads them while the live server writes: on the
    test's in-memory SQLite (one shared cache) a read that meets the writer's table lock is
    refused at once ("database table is locked"), not made to wait — asked again next time."""
    try:
        return game.hands.count()
    except OperationalError:
        return None
