"""Issue 29, part 1: a seat proves itself. Whoever holds one seat's code and the table's link —
with as many phones as they like — cannot get a result into the standings; two seats on two
phones can. The round sheet hands each seat its own code on a slip."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import AuditEntry, Game, TableLink
from tournament.selectors.standings import event_standings
from tournament.services.rounds import round_seat
from tournament.services.throttle import LIMITS

pytestmark = pytest.mark.django_db

MINE = 1  # the one seat whose code the attacker holds


def seated(mode: str = "hands"):
    event = make_event(slug="trust", players=[f"P{i:02d}" for i in range(4)])
    event.table_entry, event.table_mode = "tables", mode
    event.save()
    round_seat(event=event, rng=random.Random(5))
    game = Game.objects.get(round__event=event)
    return event, game, game.links.get(revoked_at__isnull=True)


def in_standings(event) -> int:
    return sum(r.games for r in event_standings(event).rows)


def version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


def bust(phone: Client, link: TableLink, game: Game):
    """A yakuman ron that ends the game (seat 2 deals into seat 3)."""
    post = {"do": "hand", "version": version(game), "number": game.hands.count() + 1}
    post.update({"type": "ron", "discarder": "2", "wins_0_seat": "3", "wins_0_yakuman": "1"})
    return phone.post(f"/t/{link.token}/", post)


def final_scores(phone: Client, link: TableLink, game: Game):
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    post = {"do": "scores", "version": version(game), "deposits": "0"}
    for i, (name, score) in enumerate(zip(names, [40000, 30000, 20000, 10000], strict=True)):
        post.update({f"seat_{i}": name, f"score_{i}": str(score)})
    return phone.post(f"/t/{link.token}/", post)


def prove(phone: Client, link: TableLink, seat: int):
    return phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[seat]})


def test_a_phone_without_a_code_acts_for_no_seat():
    _event, game, link = seated()
    phone = Client()
    page = text(phone.get(f"/t/{link.token}/"))
    assert "Which seat are you?" in page and 'name="type"' not in page
    # The old route: a seat picked by its number, no code. It holds nothing.
    phone.post(f"/t/{link.token}/", {"do": "seat", "seat": "0"})
    assert bust(phone, link, game).status_code == 302  # sent back to the page, nothing written
    assert game.hands.count() == 0
    wrong = phone.post(f"/t/{link.token}/", {"do": "seat", "code": "AAAAAA"})
    assert wrong.status_code == 400 and "not the code of a seat" in text(wrong)
    assert bust(phone, link, game).status_code == 302 and game.hands.count() == 0


def test_one_seat_code_and_the_link_cannot_make_a_result_final_by_any_route():
    event, game, link = seated()
    mine = link.seat_codes[MINE]
    phones = [Client() for _ in range(4)]
    # Enter the result as my seat (typed code on phone 0) …
    assert prove(phones[0], link, MINE).status_code == 302
    assert bust(phones[0], link, game).status_code == 302
    game.refresh_from_db()
    assert game.confirmation == "waiting" and game.submitted_seat == MINE
    # … then try every way of confirming it with what I hold.
    token = f"/t/{link.token}/"
    attempts = [
        (phones[0], {"do": "confirm", "code": mine}),  # same phone, same seat
        (phones[1], {"do": "confirm", "code": mine}),  # another phone, same seat
        (phones[2], {"do": "confirm", "code": mine.lower()}),  # spelled otherwise
        (phones[2], {"do": "confirm", "code": f" {mine[:3]}-{mine[3:]} "}),
    ]
    for phone, post in attempts:
        assert phone.post(token, post).status_code == 400
    # The seat's own QR on another phone, then confirming there.
    assert phones[3].get(f"{token}seat/{mine}/").status_code == 302
    assert phones[3].post(token, {"do": "confirm", "code": mine}).status_code == 400
    # Hand-by-hand: undo and enter again, replace, final scores over it: still waiting.
    assert phones[3].post(token, {"do": "undo", "version": version(game)}).status_code == 302
    assert final_scores(phones[3], link, game).status_code == 302
    # A dispute sends it to the organizer; it does not finish it.
    dispute = {"do": "dispute", "code": mine, "reason": "it is right, really"}
    assert phones[1].post(token, dispute).status_code == 302
    # The organizer's routes want a log-in.
    for name in ("game-approve", "game-scores", "game-hands"):
        assert Client().post(url(name, event.slug, game.pk)).status_code == 302
    game.refresh_from_db()
    assert not game.finished and in_standings(event) == 0
    assert not AuditEntry.objects.filter(action__in=["game.confirm", "game.approve"]).exists()


def test_a_seat_that_entered_confirms_nothing_on_another_phone_with_another_code():
    """The entering phone types another seat's code (seen over a shoulder): refused there;
    typed by that seat on its own phone, it counts."""
    event, game, link = seated(mode="scores")
    entering, theirs = Client(), Client()
    prove(entering, link, 0)
    assert final_scores(entering, link, game).status_code == 302
    other = link.seat_codes[2]
    reply = entering.post(f"/t/{link.token}/", {"do": "confirm", "code": other})
    assert reply.status_code == 400 and in_standings(event) == 0
    assert theirs.post(f"/t/{link.token}/", {"do": "confirm", "code": other}).status_code == 302
    game.refresh_from_db()
    assert game.finished and in_standings(event) == 4
    entry = AuditEntry.objects.get(action="game.confirm")
    assert entry.at_seat == 2


def test_a_phone_holds_one_seat_at_a_time():
    _event, game, link = seated()
    phone = Client()
    prove(phone, link, 0)
    prove(phone, link, 2)
    assert "you are West 西" in text(phone.get(f"/t/{link.token}/"))
    post = {"do": "hand", "version": version(game), "number": 1, "type": "draw"}
    phone.post(f"/t/{link.token}/", post)
    assert AuditEntry.objects.get(action="game.hand").at_seat == 2


def test_a_seats_qr_code_proves_that_seat_and_a_wrong_one_is_a_guess():
    _event, _game, link = seated()
    phone = Client()
    reply = phone.get(f"/t/{link.token}/seat/{link.seat_codes[3]}/")
    assert reply.status_code == 302 and reply["Location"] == f"/t/{link.token}/"
    assert "you are North 北" in text(phone.get(f"/t/{link.token}/"))
    guesser = Client()
    for _ in range(LIMITS["seat", "phone"]):
        assert guesser.get(f"/t/{link.token}/seat/ZZZZZZ/").status_code == 400
    stopped = guesser.get(f"/t/{link.token}/seat/{link.seat_codes[0]}/")
    assert stopped.status_code == 429 and "15 minutes" in text(stopped)


def test_someone_elses_wrong_seat_codes_never_stop_the_real_confirmer():
    event, game, link = seated()
    entering = Client()
    prove(entering, link, 0)
    bust(entering, link, game)
    guesser = Client()
    for _ in range(LIMITS["seat", "phone"] + 5):
        guesser.post(f"/t/{link.token}/", {"do": "confirm", "code": "ZZZZZZ"})
    stopped = guesser.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[1]})
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    # Same address, another phone: the table's real confirmer gets through.
    confirmer = Client()
    assert (
        confirmer.post(
            f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[1]}
        ).status_code
        == 302
    )
    assert in_standings(event) == 4


def test_the_round_sheet_prints_a_slip_per_seat_and_the_tables_qr_holds_no_seat():
    event, _game, link = seated()
    organizer = logged_in(organizer_for(event))
    sheet = organizer.get(url("round-sheet", event.slug, 1))
    page = text(sheet)
    assert page.count('class="slip"') == 4
    for code in link.seat_codes:
        assert page.count(code) == 1  # once, on its own slip
    # Only slips carry a seat's code; the table's page link carries none.
    assert f"/t/{link.token}/seat/" not in page.split('class="slips"')[0]
    assert "private" in sheet["Cache-Control"] and "no-store" in sheet["Cache-Control"]
