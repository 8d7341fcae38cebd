"""Issue 47, confirmation that reads right: a phone that proved another seat confirms with one
tap; the phone that entered the result is told it waits and offered nothing it cannot use; both
read "confirmed" and the points once it counts. The trust rule (test_table_trust.py) stands."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.tournament.organize_support import text
from tests.tournament.test_table_trust import bust, in_standings, prove, seated
from tournament.models import AuditEntry
from tournament.templatetags.mahjong import points as points_filter

pytestmark = pytest.mark.django_db

TAP = {"do": "confirm"}  # what the one-tap button posts: no code


def points_cell(points) -> str:
    """A seat's points as the confirmed page's table shows them (the `points` filter)."""
    return f"<td><strong>{points_filter(points, False)}</strong></td>"


def entered_by_seat_1():
    event, game, link = seated()
    entering = Client()
    assert prove(entering, link, 1).status_code == 302
    assert bust(entering, link, game).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting" and game.submitted_seat == 1
    return event, game, link, entering


def test_a_phone_holding_another_seat_confirms_with_one_tap():
    event, game, link, _entering = entered_by_seat_1()
    other = Client()
    prove(other, link, 2)
    page = text(other.get(f"/t/{link.token}/"))
    # One button, no code field: the seat it proved is what confirms.
    assert (
        "data-confirm-seat" in page
        and 'name="code"' not in page.split("data-confirm-seat")[1].split("</form>")[0]
    )
    reply = other.post(f"/t/{link.token}/", TAP, follow=True)
    assert reply.status_code == 200 and "Result confirmed" in text(reply)
    game.refresh_from_db()
    assert game.finished and not game.confirmation and in_standings(event) == 4
    entry = AuditEntry.objects.get(action="game.confirm")
    assert entry.at_seat == 2


def test_the_entering_phone_waits_and_its_tap_is_refused():
    event, game, link, entering = entered_by_seat_1()
    page = text(entering.get(f"/t/{link.token}/"))
    assert "Waiting for another seat to confirm." in page
    assert 'name="do" value="confirm"' not in page  # no form it cannot use
    reply = entering.post(f"/t/{link.token}/", TAP)
    assert reply.status_code == 400 and "cannot confirm it" in text(reply)
    game.refresh_from_db()
    assert game.confirmation == "waiting" and in_standings(event) == 0


def test_the_entering_seat_on_another_phone_cannot_tap_its_own_result_through():
    event, game, link, _entering = entered_by_seat_1()
    same_seat = Client()
    prove(same_seat, link, 1)
    page = text(same_seat.get(f"/t/{link.token}/"))
    assert "data-confirm-seat" not in page  # asked for another seat's code instead
    assert same_seat.post(f"/t/{link.token}/", TAP).status_code == 400
    game.refresh_from_db()
    assert game.confirmation == "waiting" and in_standings(event) == 0


def test_a_tap_without_a_proved_seat_confirms_nothing():
    event, game, link, _entering = entered_by_seat_1()
    stranger = Client()
    page = text(stranger.get(f"/t/{link.token}/"))
    assert "data-confirm-seat" not in page and 'name="code"' in page
    assert stranger.post(f"/t/{link.token}/", TAP).status_code == 400  # the code is asked
    game.refresh_from_db()
    assert game.confirmation == "waiting" and in_standings(event) == 0
    assert not AuditEntry.objects.filter(action="game.confirm").exists()


def test_both_phones_read_confirmed_with_the_points_once_it_counts():
    _event, game, link, entering = entered_by_seat_1()
    other = Client()
    prove(other, link, 3)
    assert other.post(f"/t/{link.token}/", TAP).status_code == 302
    game.refresh_from_db()
    points = [points_cell(s.points) for s in game.seats.order_by("position")]
    for phone in (entering, other, other):  # the confirming phone's later visits too
        reply = phone.get(f"/t/{link.token}/")
        page = text(reply)
        assert reply.status_code == 200 and "Result confirmed" in page
        assert all(p in page for p in points), points
    # A phone that held no seat here reads the closed link, as before.
    assert Client().get(f"/t/{link.token}/").status_code == 410


def test_the_waiting_and_confirmed_lines_are_in_japanese():
    _event, _game, link, entering = entered_by_seat_1()
    other = Client()
    prove(other, link, 0)
    with translation.override("ja"):
        waiting = text(entering.get(f"/t/{link.token}/", HTTP_ACCEPT_LANGUAGE="ja"))
        tap = text(other.get(f"/t/{link.token}/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert "他の席の確認待ち" in waiting
    assert "として確認してください" in tap
