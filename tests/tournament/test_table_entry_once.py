"""Issue 47, first part (CONTRACT §3 "Entry survives a lost connection"): a hand a table's
phone sends with its own `entry_id` and `number` is written at most once per entry and game,
however often and late it comes; a number another entry filled is a conflict (409) and is
not written; a hand without them (an old page) is entered as before."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tournament.models import Game, Hand, TableLink
from tournament.selectors.standings import event_standings
from tournament.services import hands as hand_services
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

# A 1 han 30 fu ron (seat 2 deals into seat 3): the game plays on.
SMALL = {"type": "ron", "discarder": "2", "wins_0_seat": "3", "wins_0_han": "1", "wins_0_fu": "30"}
# A yakuman ron: seat 2 busts, the game ends (and waits for another seat to confirm).
BUST = {"type": "ron", "discarder": "2", "wins_0_seat": "3", "wins_0_yakuman": "1"}


def seated() -> tuple[Any, Game, TableLink]:
    event = make_event(slug="once", players=[f"P{i:02d}" for i in range(4)])
    event.table_entry, event.table_mode = "tables", "hands"
    event.save()
    round_seat(event=event, rng=random.Random(5))
    game = Game.objects.get(round__event=event)
    return event, game, game.links.get(revoked_at__isnull=True)


def phone_at(link: TableLink, seat: int) -> Client:
    phone = Client()
    proved = phone.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[seat]})
    assert proved.status_code == 302
    return phone


def version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


def send(
    phone: Client,
    link: TableLink,
    *,
    entry: uuid.UUID | str | None,
    number: int,
    seen: int,
    hand: dict[str, str] = SMALL,
) -> Any:
    """A hand as the table's page posts it: `seen`, the version the phone saw."""
    post = {"do": "hand", "version": seen, "number": number, **hand}
    if entry is not None:
        post["entry_id"] = str(entry)
    return phone.post(f"/t/{link.token}/", post)


def saved(response: Any, link: TableLink) -> bool:
    """Answered as a fresh save is: the redirect to the table's page."""
    return response.status_code == 302 and response["Location"] == f"/t/{link.token}/"


def test_the_same_entry_sent_again_is_one_hand_answered_as_saved():
    _event, game, link = seated()
    phone, entry = phone_at(link, 0), uuid.uuid4()
    first = send(phone, link, entry=entry, number=1, seen=version(game))
    assert saved(first, link)
    moved = version(game)
    for _ in range(3):  # a retry whose answer was lost, a double tap, the outbox again
        assert saved(send(phone, link, entry=entry, number=1, seen=0), link)
    assert list(game.hands.values_list("number", "entry_id")) == [(1, entry)]
    assert version(game) == moved  # nothing written, nothing logged


def test_a_late_copy_after_later_hands_writes_nothing():
    _event, game, link = seated()
    phone = phone_at(link, 0)
    first, second = uuid.uuid4(), uuid.uuid4()
    assert saved(send(phone, link, entry=first, number=1, seen=version(game)), link)
    assert saved(send(phone, link, entry=second, number=2, seen=version(game)), link)
    # Hand 1's copy arrives last (out of order): answered as saved, not a conflict.
    late = send(Client(), link, entry=first, number=1, seen=0)  # even from a phone with no seat
    assert saved(late, link)
    assert list(game.hands.values_list("number", "entry_id")) == [(1, first), (2, second)]


def test_hands_queued_offline_carry_one_version_and_are_written_in_order():
    _event, game, link = seated()
    phone, seen = phone_at(link, 0), version(game)
    entries = [uuid.uuid4() for _ in range(3)]
    for number, entry in enumerate(entries, start=1):
        assert saved(send(phone, link, entry=entry, number=number, seen=seen), link)
    assert list(game.hands.values_list("entry_id", flat=True)) == entries
    assert version(game) == seen + 3


def test_a_number_another_entry_filled_is_a_conflict_and_is_not_written():
    _event, game, link = seated()
    mine, theirs = phone_at(link, 0), phone_at(link, 1)
    seen = version(game)
    assert saved(send(theirs, link, entry=uuid.uuid4(), number=1, seen=seen), link)
    refused = send(mine, link, entry=uuid.uuid4(), number=1, seen=seen, hand=BUST)
    assert refused.status_code == 409
    page = text(refused)
    assert "Another phone saved this table first" in page
    assert "Replace hand 1 with mine" in page  # the choice, for the hand it was for
    assert game.hands.count() == 1 and version(game) == seen + 1


def test_a_number_past_the_next_is_a_conflict_and_is_not_written():
    """The table was taken back meanwhile (or an earlier queued hand was refused): a hand for
    number 3 of a table with one hand is never written as hand 2."""
    _event, game, link = seated()
    phone = phone_at(link, 0)
    assert saved(send(phone, link, entry=uuid.uuid4(), number=1, seen=version(game)), link)
    refused = send(phone, link, entry=uuid.uuid4(), number=3, seen=version(game))
    assert refused.status_code == 409 and "The table has moved on" in text(refused)
    assert game.hands.count() == 1


def test_a_hand_without_an_entry_id_is_entered_as_before():
    _event, game, link = seated()
    phone, seen = phone_at(link, 0), version(game)
    assert saved(send(phone, link, entry=None, number=1, seen=seen), link)
    # The same tap again (its answer lost): the version check finds it saved, one hand.
    assert saved(send(phone, link, entry=None, number=1, seen=seen), link)
    assert game.hands.count() == 1
    # A form loaded before another phone's save is refused, by its version, as ever.
    stale = send(phone, link, entry=None, number=2, seen=seen - 1)
    assert stale.status_code == 409 and game.hands.count() == 1
    assert game.hands.get().entry_id is None


def test_a_bad_entry_id_is_400_and_nothing_is_written():
    _event, game, link = seated()
    phone = phone_at(link, 0)
    assert send(phone, link, entry="not-a-uuid", number=1, seen=version(game)).status_code == 400
    no_number = {"do": "hand", "version": version(game), "entry_id": str(uuid.uuid4()), **SMALL}
    assert phone.post(f"/t/{link.token}/", no_number).status_code == 400
    assert game.hands.count() == 0


def test_entries_survive_the_hand_that_ends_the_game_and_a_late_copy_is_saved():
    event, game, link = seated()
    phone, seen = phone_at(link, 0), version(game)
    first, last = uuid.uuid4(), uuid.uuid4()
    assert saved(send(phone, link, entry=first, number=1, seen=seen), link)
    assert saved(send(phone, link, entry=last, number=2, seen=seen, hand=BUST), link)
    game.refresh_from_db()
    assert game.confirmation == "waiting"  # the game ended: every hand was written anew
    assert list(game.hands.values_list("entry_id", flat=True)) == [first, last]
    moved = version(game)
    for entry, number in ((first, 1), (last, 2)):  # late copies, while it waits
        assert saved(send(phone, link, entry=entry, number=number, seen=seen), link)
    # Another entry for the game that ended without it: a conflict, not a reload that would
    # tell the outbox it was saved.
    other = send(phone_at(link, 2), link, entry=uuid.uuid4(), number=3, seen=seen)
    assert other.status_code == 409
    assert game.hands.count() == 2 and version(game) == moved
    assert sum(r.games for r in event_standings(event).rows) == 0  # still waiting


def test_entries_survive_the_confirmation_and_a_late_copy_after_it_is_saved():
    """Issue 66: a finished table's hands lost their entry ids when another seat confirmed
    the result (9 ids → none), so a late copy from an outbox was no longer known."""
    event, game, link = seated()
    phone, seen = phone_at(link, 0), version(game)
    first, last = uuid.uuid4(), uuid.uuid4()
    assert saved(send(phone, link, entry=first, number=1, seen=seen), link)
    assert saved(send(phone, link, entry=last, number=2, seen=seen, hand=BUST), link)
    other = phone_at(link, 1)
    confirmed = other.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[1]})
    assert confirmed.status_code == 302
    game.refresh_from_db()
    assert game.finished and not game.confirmation
    assert list(game.hands.values_list("entry_id", flat=True)) == [first, last]
    final = version(game)
    for entry, number in ((first, 1), (last, 2)):  # an outbox's late copies, the game final
        assert saved(send(phone, link, entry=entry, number=number, seen=seen), link)
    assert game.hands.count() == 2 and version(game) == final
    assert sum(r.games for r in event_standings(event).rows) == 4


def test_a_late_copy_of_a_hand_final_scores_replaced_is_saved_and_written_nowhere():
    """The organizer enters final scores over a table's hands (the sheet, not the phones):
    the hands' rows go, and a late copy of one of them is answered as saved, not written as
    a hand of a game kept by its final scores."""
    from tournament.services.games import game_correct

    _event, game, link = seated()
    phone, seen = phone_at(link, 0), version(game)
    entry = uuid.uuid4()
    assert saved(send(phone, link, entry=entry, number=1, seen=seen), link)
    game.refresh_from_db()
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    data = {"round": 1, "table": game.table, "seats": names, "scores": [40000, 30000, 20000, 10000]}
    game_correct(game=game, data=data, expected_version=game.version, replace_hands=True)
    game.refresh_from_db()
    assert game.mode == "scores" and game.hands.count() == 0
    final = version(game)
    assert saved(send(phone, link, entry=entry, number=1, seen=seen), link)
    assert game.hands.count() == 0 and version(game) == final


def test_trust_one_seats_phone_cannot_make_its_entry_final():
    """An entry goes through the same door as any hand: a phone with no seat writes nothing
    (403: the outbox keeps the hand until a seat is proved again), and the phone that ended
    the game cannot confirm it."""
    event, game, link = seated()
    nobody = Client()
    assert send(nobody, link, entry=uuid.uuid4(), number=1, seen=version(game)).status_code == 403
    assert game.hands.count() == 0
    mine = phone_at(link, 1)
    entry = uuid.uuid4()
    assert saved(send(mine, link, entry=entry, number=1, seen=version(game), hand=BUST), link)
    confirm = mine.post(f"/t/{link.token}/", {"do": "confirm", "code": link.seat_codes[1]})
    assert confirm.status_code == 400
    assert saved(send(mine, link, entry=entry, number=1, seen=0, hand=BUST), link)
    game.refresh_from_db()
    assert not game.finished and game.confirmation == "waiting"
    assert sum(r.games for r in event_standings(event).rows) == 0


def test_replace_from_the_conflict_screen_keeps_the_phones_entry():
    _event, game, link = seated()
    mine, theirs = phone_at(link, 0), phone_at(link, 1)
    seen, entry = version(game), uuid.uuid4()
    assert saved(send(theirs, link, entry=uuid.uuid4(), number=1, seen=seen), link)
    assert send(mine, link, entry=entry, number=1, seen=seen, hand=BUST).status_code == 409
    # The conflict screen's "replace": what it posts (the typed fields, the entry with them).
    post = {"do": "replace", "version": version(game), "number": 1, "entry_id": str(entry)}
    assert saved(mine.post(f"/t/{link.token}/", {**post, **BUST}), link)
    assert list(game.hands.values_list("entry_id", flat=True)) == [entry]
    # The outbox's copy of that hand, arriving late: saved.
    assert saved(send(mine, link, entry=entry, number=1, seen=seen, hand=BUST), link)
    assert game.hands.count() == 1


def test_a_late_copy_of_a_hand_taken_back_is_not_written_again():
    """Saved, its answer lost, then undone at the table: the outbox's copy arriving after the
    undo is answered as saved and the hand stays taken back."""
    _event, game, link = seated()
    phone, entry = phone_at(link, 0), uuid.uuid4()
    assert saved(send(phone, link, entry=entry, number=1, seen=version(game)), link)
    undo = phone.post(f"/t/{link.token}/", {"do": "undo", "version": version(game)})
    assert saved(undo, link) and game.hands.count() == 0
    moved = version(game)
    assert saved(send(phone, link, entry=entry, number=1, seen=0), link)
    assert game.hands.count() == 0 and version(game) == moved
    # Another entry for that number is written as ever.
    assert saved(send(phone, link, entry=uuid.uuid4(), number=1, seen=0), link)
    assert game.hands.count() == 1


def test_a_late_copy_of_a_hand_replaced_from_the_conflict_screen_is_answered_as_saved():
    _event, game, link = seated()
    mine, theirs = phone_at(link, 0), phone_at(link, 1)
    seen, their_entry, my_entry = version(game), uuid.uuid4(), uuid.uuid4()
    assert saved(send(theirs, link, entry=their_entry, number=1, seen=seen), link)
    assert send(mine, link, entry=my_entry, number=1, seen=seen).status_code == 409
    post = {"do": "replace", "version": version(game), "number": 1, "entry_id": str(my_entry)}
    assert saved(mine.post(f"/t/{link.token}/", {**post, **SMALL}), link)
    # Their outbox's copy (its answer lost before the replace): saved, not a conflict.
    assert saved(send(theirs, link, entry=their_entry, number=1, seen=seen), link)
    assert list(game.hands.values_list("entry_id", flat=True)) == [my_entry]


def test_the_constraint_allows_one_hand_per_entry_and_game():
    _event, game, link = seated()
    entry = uuid.uuid4()
    assert saved(send(phone_at(link, 0), link, entry=entry, number=1, seen=version(game)), link)
    row = game.hands.get()
    row.pk, row.number = None, 2
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()
    row.entry_id = None  # hands without an entry (old pages, the organizer) are not limited
    row.save()
    assert Hand.objects.filter(game=game).count() == 2


def test_a_copy_the_constraint_stops_is_answered_as_saved(monkeypatch):
    """Were two copies ever to pass the check together, the constraint lets one through and
    the other is answered as saved: the check made to miss the entry once."""
    _event, game, link = seated()
    phone, entry = phone_at(link, 0), uuid.uuid4()
    assert saved(send(phone, link, entry=entry, number=1, seen=version(game)), link)
    read = hand_services.hands_data

    def missed(locked: Game) -> Any:
        data, _entries = read(locked)
        data["hands"].pop()  # as the table stood before the copy that won
        return data, {}

    monkeypatch.setattr(hand_services, "hands_data", missed)
    assert saved(send(phone, link, entry=entry, number=1, seen=0), link)
    assert game.hands.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL runs writers at once")
def test_two_copies_at_once_are_one_hand(monkeypatch):
    from tests.tournament.test_concurrency import race

    _event, game, link = seated()
    phone, entry, seen = phone_at(link, 0), uuid.uuid4(), version(game)
    codes = race(monkeypatch, lambda: send(phone, link, entry=entry, number=1, seen=seen))
    assert codes == [302, 302]
    assert list(game.hands.values_list("entry_id", flat=True)) == [entry]


def test_the_worker_keeps_the_shell_from_our_own_static_files():
    worker = Client().get("/t/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    body = text(worker)
    assert 'importScripts("/static/vendor/workbox-7.4.1/workbox-core.prod.js"' in body
    assert "https://" not in body  # no CDN
    for shell in ("css/site.css", "js/outbox.js", "js/entry.js", "vendor/idb-8.0.4/umd.js"):
        assert f'url: "/static/{shell}", revision: "' in body
    assert 'revision: ""' not in body  # every file found, so each has its content's hash
    assert Client().post("/t/sw.js").status_code == 405


def test_the_manifest_opens_this_table_named_in_the_pages_language(django_assert_num_queries):
    _event, game, link = seated()
    # Expect 1 query: the link, with its game, round and event.
    with django_assert_num_queries(1):
        answer = Client().get(f"/t/{link.token}/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == f"{game.table}卓 · {game.round.event.name}"
    assert manifest["start_url"] == f"/t/{link.token}/" and manifest["scope"] == "/t/"
    assert manifest["icons"][0]["type"] == "image/svg+xml"
    english = Client().get(f"/t/{link.token}/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["name"].startswith(f"Table {game.table} · ")
    assert Client().get("/t/nope/manifest.webmanifest").status_code == 404


def test_the_table_page_links_its_manifest_and_outbox():
    _event, _game, link = seated()
    page = text(phone_at(link, 0).get(f"/t/{link.token}/"))
    assert f'href="/t/{link.token}/manifest.webmanifest"' in page
    assert "js/outbox.js" in page and 'data-sw="/t/sw.js"' in page
    assert 'data-one="{n} hand waiting to send"' in page
    ja = Client(HTTP_ACCEPT_LANGUAGE="ja")
    ja.post(f"/t/{link.token}/", {"do": "seat", "code": link.seat_codes[0]})
    assert 'data-one="未送信 {n}局"' in text(ja.get(f"/t/{link.token}/"))
