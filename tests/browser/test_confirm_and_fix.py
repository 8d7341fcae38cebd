"""Issue 47 in a browser: the phone that entered a result waits (no form), a phone holding
another seat confirms with one tap, both then read "confirmed" with the points; the organizer
corrects a past hand, is shown the hands the correction removes, and confirms. Screenshots go
to $SHOTS_DIR when it is set (390×844 phones, a 1920×1080 organizer), in English and Japanese."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.tournament.factories import make_event
from tournament.models import Game, Hand
from tournament.services.hands import game_hand_add
from tournament.services.rounds import round_seat

pytestmark = [pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def context(browser, base: str, language: str, width: int = 390, height: int = 844):
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    ctx.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = ctx.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return ctx, page


def language(ctx, base: str, value: str) -> None:
    ctx.add_cookies([{"name": "django_language", "value": value, "url": base}])


def test_one_tap_confirmation_and_both_phones_read_confirmed(live_server, browser):
    event = make_event(slug="tap", format="baba")
    event.table_entry = "tables"
    event.save()
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.get(round__event=event, table=1)
    link = game.links.get(revoked_at__isnull=True)
    base = live_server.url
    table = f"{base}/t/{link.token}/"

    a_ctx, a = context(browser, base, "en")
    a.goto(f"{table}seat/{link.seat_codes[0]}/")  # East's slip: the phone holds East
    a.check("input[name='wins_0_seat'][value='2']")
    a.check("input[name='discarder'][value='1']")
    a.locator("fieldset[data-for='ron'] details.rare > summary").first.click()
    a.check("input[name='wins_0_yakuman'][value='1']")
    a.click("button.primary")
    waiting = a.locator("[data-entered-here]")
    expect(waiting).to_contain_text("Waiting for another seat to confirm.")
    expect(a.locator("input[name='do'][value='confirm']")).to_have_count(0)
    shot(a, "table-waiting-en")
    language(a_ctx, base, "ja")
    a.reload()
    expect(waiting).to_contain_text("他の席の確認待ち")
    shot(a, "table-waiting-ja")

    b_ctx, b = context(browser, base, "ja")
    b.goto(f"{table}seat/{link.seat_codes[2]}/")  # West's slip, on another phone
    tap = b.locator("form[data-confirm-seat]")
    expect(tap).to_contain_text("として確認してください")
    expect(tap.locator("input[name='code']")).to_have_count(0)  # no code asked: one tap
    shot(b, "table-tap-ja")
    language(b_ctx, base, "en")
    b.reload()
    shot(b, "table-tap-en")
    tap.locator("button.primary").click()
    expect(b.locator("h1")).to_have_text("Result confirmed")
    shot(b, "table-confirmed-en")
    a.reload()  # the entering phone (ja): confirmed, with the points
    expect(a.locator("h1")).to_have_text("結果が確定しました")  # true for both phones
    expect(a.locator("table.result tbody tr")).to_have_count(4)
    shot(a, "table-confirmed-ja")
    game.refresh_from_db()
    assert game.finished
    assert not a.problems and not b.problems


def test_the_organizer_corrects_a_past_hand_and_confirms_the_hands_that_go(live_server, browser):
    from django.contrib.auth import get_user_model

    event = make_event(slug="fix", format="baba")
    user = get_user_model().objects.create_user("org", "org@example.com", "secret-pw")
    event.organizers.add(user)
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.get(round__event=event, table=1)
    small = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 2, "fu": 30}]}}
    draw = {"result": {"type": "draw", "tenpai": [0, 2]}}
    for hand in (small, draw, small, draw, small):
        game.refresh_from_db()
        game_hand_add(game=game, hand=hand, expected_version=game.version)
    base = live_server.url
    ctx, page = context(browser, base, "en", 1920, 1080)
    sheet = f"{base}/events/fix/manage/games/{game.pk}/hands/"
    page.goto(f"{base}/accounts/login/?next={sheet}?fix=2")
    page.fill("#id_username", "org")
    page.fill("#id_password", "secret-pw")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Correct hand 2")
    shot(page, "organizer-fix-en")
    # Hand 2 was a yakuman ron on West: a bust, so hands 3–5 go — asked first.
    page.check("input[name='type'][value='ron']")
    page.check("input[name='wins_0_seat'][value='0']")
    page.check("input[name='discarder'][value='2']")
    page.locator("fieldset[data-for='ron'] details.rare > summary").first.click()
    page.check("input[name='wins_0_yakuman'][value='1']")
    page.click("button.primary")
    going = page.locator("[data-going]")
    expect(going.locator("li")).to_have_count(3)
    expect(going).to_contain_text("This correction removes 3 later hands")
    shot(page, "organizer-fix-asks-en")
    language(ctx, base, "ja")
    page.reload()  # the POST again: still nothing written, now in Japanese
    shot(page, "organizer-fix-asks-ja")
    assert Hand.objects.filter(game=game).count() == 5
    page.locator("[data-going] button.danger").click()
    expect(page.locator("body")).to_contain_text("2局目を差し替えました")
    shot(page, "organizer-fixed-ja")
    assert Hand.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.finished
    assert not page.problems


def test_a_seat_opens_a_past_hands_correction_on_its_phone(live_server, browser):
    event = make_event(slug="tfix", format="baba")
    event.table_entry = "tables"
    event.save()
    round_seat(event=event, rng=random.Random(4))
    game = Game.objects.get(round__event=event, table=1)
    small = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 2, "fu": 30}]}}
    for hand in (small, {"result": {"type": "draw", "tenpai": [0, 2]}}, small):
        game.refresh_from_db()
        game_hand_add(game=game, hand=hand, expected_version=game.version)
    link = game.links.get(revoked_at__isnull=True)
    base = live_server.url
    for lang in ("en", "ja"):
        ctx, page = context(browser, base, lang)
        page.goto(f"{base}/t/{link.token}/seat/{link.seat_codes[3]}/")
        page.locator("form.fix button").first.click()  # hand 1's "Correct"
        expect(page.locator("input[name='do'][value='fix']")).to_have_count(1)
        expect(page.locator("input[name='wins_0_seat'][value='1']")).to_be_checked()
        shot(page, f"table-fix-{lang}")
        assert not page.problems
        ctx.close()
