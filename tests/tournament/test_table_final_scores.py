"""A table that enters its final scores (not hand by hand), as a Baba day's tester found it:
the seats that must confirm the result read the result itself — never the starting 25,000 ×4
— the phone that entered it is told to wait instead of shown a form it cannot use, the
confirming phone is told it worked; the organizer reads a disputed result on the scores
page, approves it as entered (only as the page showed it) or corrects it."""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, make_user, organizer_for, text, url
from tournament.models import AuditEntry, Game, TableLink
from tournament.selectors.standings import event_standings
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

# The tester's second table: 1,000 left on the table (a riichi stick nobody won).
SCORES, DEPOSITS = [35000, 22000, 27000, 15000], 1000
WINDS = ("East", "South", "West", "North")  # an English page says them in words (issue 66)


def seated() -> tuple[object, Game, TableLink]:
    event = make_event(slug="final-scores", players=[f"P{i:02d}" for i in range(4)])
    event.table_entry, event.table_mode = "tables", "scores"
    event.save()
    round_seat(event=event, rng=random.Random(7))
    game = Game.objects.get(round__event=event)
    return event, game, game.links.get(revoked_at__isnull=True)


def names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def prove(phone: Client, link: TableLink, seat: int) -> None:
    assert (
        phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[seat]}).status_code
        == 302
    )


def enter(phone: Client, link: TableLink, game: Game) -> None:
    game.refresh_from_db()
    post = {"do": "scores", "version": game.version, "deposits": str(DEPOSITS)}
    for i, (name, score) in enumerate(zip(names(game), SCORES, strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    assert phone.post(f"/t/{link.token}/", post).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting"


def entered_rows(page: str) -> list[list[str]]:
    """The cells of the entered result's table, row by row, tags stripped."""
    table = page[page.index("data-entered") :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


def in_standings(event) -> int:
    return sum(r.games for r in event_standings(event).rows)


def test_the_waiting_page_shows_the_entered_scores_on_both_phones_not_the_starting_ones():
    event, game, link = seated()
    entering, confirming = Client(), Client()
    prove(entering, link, 0)
    enter(entering, link, game)
    seated_names = names(game)
    pages = {
        "entering": text(entering.get(f"/t/{link.token}/")),
        "confirming": text(confirming.get(f"/t/{link.token}/")),
    }
    shown = {}
    for phone, page in pages.items():
        rows = entered_rows(page)
        # Each seat by wind and name, with the score as entered, in seat order.
        assert [(r[0], int(r[1])) for r in rows] == [
            (f"{WINDS[i]} {seated_names[i]}", SCORES[i]) for i in range(4)
        ], phone
        assert f"Deposits left on the table: {DEPOSITS}" in page, phone
        # Not the running line of a game not begun: no 25000s, no dealer badge.
        assert "25000" not in page and 'class="badge">dealer' not in page, phone
        assert "waits for another seat" in page, phone
        shown[phone] = {r[0]: (int(r[2]), r[3]) for r in rows}
    assert shown["entering"] == shown["confirming"]
    # The entering phone is told to wait; the other is asked for its code.
    assert "data-entered-here" in pages["entering"]
    assert 'name="do" value="confirm"' not in pages["entering"]
    assert 'name="do" value="confirm"' in pages["confirming"]
    assert "data-entered-here" not in pages["confirming"]
    # The ranks and points read before confirming are what the game settles to.
    reply = confirming.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[2]})
    assert reply.status_code == 302
    for seat in game.seats.select_related("player"):
        rank, points = shown["confirming"][f"{WINDS[seat.position]} {seat.player.name}"]
        assert (rank, Decimal(points)) == (seat.rank, seat.points)
    assert in_standings(event) == 4


def test_the_entering_phone_trying_to_confirm_anyway_is_told_why():
    _event, game, link = seated()
    entering = Client()
    prove(entering, link, 0)
    enter(entering, link, game)
    reply = entering.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[1]})
    assert reply.status_code == 400 and "another seat&#x27;s own phone" in text(reply)
    game.refresh_from_db()
    assert game.confirmation == "waiting" and not game.finished


def test_the_confirming_phone_is_told_it_worked_and_the_link_closes_after():
    _event, game, link = seated()
    entering, confirming = Client(), Client()
    prove(entering, link, 0)
    enter(entering, link, game)
    reply = confirming.post(
        f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[3]}, follow=True
    )
    page = text(reply)
    assert reply.status_code == 200 and "Result confirmed" in page
    assert "final and in the standings" in page
    for name, score in zip(names(game), SCORES, strict=True):
        assert name in page and f"<td>{score}</td>" in page
    assert f"Deposits left on the table: {DEPOSITS}" in page
    # Later visits of this phone (it typed a code, held no seat): the closed link's answer,
    # with the result. The entering phone held a seat here: it reads "confirmed" (issue 47).
    again = confirming.get(f"/t/{link.token}/")
    assert again.status_code == 410 and "Result confirmed" not in text(again)
    other = entering.get(f"/t/{link.token}/")
    assert other.status_code == 200 and "Result confirmed" in text(other)
    assert f"<td>{SCORES[0]}</td>" in text(other)


def disputed(reason: str = "South had 32000, not 22000"):
    event, game, link = seated()
    entering = Client()
    prove(entering, link, 1)
    enter(entering, link, game)
    dispute = {"do": "dispute", "code": link.seat_codes[2], "reason": reason}
    assert Client().post(f"/t/{link.token}/", dispute).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "disputed"
    return event, game, link


def field_value(page: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    if found is None:
        return None
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def test_the_dashboard_sends_the_organizer_to_the_disputed_scores_which_show_it_all():
    event, game, _link = disputed()
    organizer = logged_in(organizer_for(event))
    dashboard = text(organizer.get(url("event-manage", event.slug)))
    assert f'href="{url("game-scores", event.slug, game.pk)}"' in dashboard
    assert f'href="{url("game-hands", event.slug, game.pk)}"' not in dashboard
    page = text(organizer.get(url("game-scores", event.slug, game.pk)))
    assert "South had 32000, not 22000" in page
    assert f"Entered by South 南 {names(game)[1]}." in page
    assert [int(r[1]) for r in entered_rows(page)] == SCORES
    assert f"Deposits left on the table: {DEPOSITS}" in page
    assert "Approve as entered" in page
    # The correction form holds the whole result as entered: every score and the deposits.
    assert [field_value(page, f"score_{i}") for i in range(4)] == [str(s) for s in SCORES]
    assert field_value(page, "deposits") == str(DEPOSITS)
    assert field_value(page, "version") == str(game.version)
    # The score sheet of a final-scores game offers no hand to enter, nor 25000s.
    hands = text(organizer.get(url("game-hands", event.slug, game.pk)))
    assert 'name="type"' not in hands and "25000" not in hands
    assert "South had 32000, not 22000" in hands


def test_a_fresh_tables_scores_page_is_empty_not_half_filled():
    event, game, _link = seated()
    organizer = logged_in(organizer_for(event))
    page = text(organizer.get(url("game-scores", event.slug, game.pk)))
    assert [field_value(page, f"score_{i}") for i in range(4)] == [""] * 4
    assert field_value(page, "deposits") == "0"  # the field's own default, no table's
    assert "Approve as entered" not in page


def test_approving_as_entered_makes_it_final_and_logs_it_once():
    event, game, _link = disputed()
    user = organizer_for(event)
    organizer = logged_in(user)
    approve = url("game-approve", event.slug, game.pk)
    reply = organizer.post(approve, {"version": game.version})
    assert reply.status_code == 302 and reply["Location"] == url("round-sheet", event.slug, 1)
    game.refresh_from_db()
    assert game.finished and game.confirmation == "" and in_standings(event) == 4
    assert [s.score for s in game.seats.order_by("position")] == SCORES
    entry = AuditEntry.objects.get(event=event, action="game.approve")
    assert entry.user == user and entry.before["confirmation"] == "disputed"
    # A second tap (its answer lost): said to be final already, nothing approved twice.
    again = organizer.post(approve, {"version": game.version - 1}, follow=True)
    assert "result is final already" in text(again)
    assert AuditEntry.objects.filter(event=event, action="game.approve").count() == 1


def test_a_stale_approval_is_refused():
    event, game, link = disputed()
    organizer = logged_in(organizer_for(event))
    seen = game.version  # the page the organizer loaded
    # Meanwhile another seat adds its own dispute: the result on the page is not the one now.
    second = {"do": "dispute", "code": link.seat_codes[3], "reason": "West had 17000"}
    assert Client().post(f"/t/{link.token}/", second).status_code == 302
    reply = organizer.post(url("game-approve", event.slug, game.pk), {"version": seen}, follow=True)
    assert "nothing was approved" in text(reply) and "West had 17000" in text(reply)
    game.refresh_from_db()
    assert not game.finished and game.confirmation == "disputed" and in_standings(event) == 0
    assert not AuditEntry.objects.filter(event=event, action="game.approve").exists()


def test_correcting_the_disputed_scores_makes_the_corrected_result_final():
    event, game, _link = disputed()
    organizer = logged_in(organizer_for(event))
    page = text(organizer.get(url("game-scores", event.slug, game.pk)))
    post = {"version": field_value(page, "version"), "deposits": field_value(page, "deposits")}
    for i, name in enumerate(names(game)):
        post.update({f"seat_{i}": name, f"score_{i}": field_value(page, f"score_{i}")})
    post.update({"score_1": "32000", "score_3": "5000"})  # as the dispute said, and the rest
    assert organizer.post(url("game-scores", event.slug, game.pk), post).status_code == 302
    game.refresh_from_db()
    assert game.finished and game.confirmation == "" and game.dispute == ""
    assert [s.score for s in game.seats.order_by("position")] == [35000, 32000, 27000, 5000]
    assert in_standings(event) == 4


def test_only_the_events_organizers_see_or_approve_a_disputed_result():
    event, game, _link = disputed()
    stranger = logged_in(make_user("stranger"))
    anonymous = Client()
    for address in (
        url("game-scores", event.slug, game.pk),
        url("game-approve", event.slug, game.pk),
    ):
        assert stranger.post(address, {"version": game.version}).status_code == 403
        refused = anonymous.post(address, {"version": game.version})
        assert refused.status_code == 302 and refused["Location"].startswith("/accounts/login/")
    assert stranger.get(url("game-scores", event.slug, game.pk)).status_code == 403
    game.refresh_from_db()
    assert not game.finished and game.confirmation == "disputed"


def test_the_phone_asks_a_score_under_each_seated_name_the_seats_folded_below():
    """Issue 66: a seat picker per seat (now a button per player, a long name wrapping) made
    sixteen buttons above four scores. Each score is asked under its seat's wind and seated
    name; who sat where is folded, still sent, and opens where a seat is wrong."""
    _event, game, link = seated()
    phone = Client()
    prove(phone, link, 0)
    page = text(phone.get(f"/t/{link.token}/"))
    seated_names = names(game)
    for i, wind in enumerate(("East", "South", "West", "North")):
        assert f'<label for="id_score_{i}">{wind} {seated_names[i]}:</label>' in page
    assert '<details class="seats-who">' in page  # folded: every seat as seated
    post = {"do": "scores", "version": game.version, "deposits": "0", "seat_0": "Nobody"}
    post.update({f"score_{i}": "25000" for i in range(4)})
    post.update({f"seat_{i}": seated_names[i] for i in range(1, 4)})
    refused = phone.post(f"/t/{link.token}/", post)
    assert refused.status_code == 400
    assert '<details class="seats-who" open>' in text(refused)  # the wrong seat shown
    enter(phone, link, game)  # the folded seats are sent as seated
