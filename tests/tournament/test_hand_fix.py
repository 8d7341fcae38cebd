"""Issue 47: a past hand corrected in place (services/hand_fix.py) — later hands replayed by the
engine and kept where they fit, the ones that no longer fit named and removed only when
confirmed, one change, the version moved on, entry ids kept."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.auditlog import entry_sentence
from tournament.models import AuditEntry, Game, Hand
from tournament.selectors.standings import event_standings
from tournament.services.errors import ConflictError
from tournament.services.game_data import game_evaluate
from tournament.services.games import game_record
from tournament.services.hand_fix import HandsWouldGo, game_hand_fix
from tournament.services.hands import game_hand_add, game_hand_enter

pytestmark = pytest.mark.django_db

SEATS = PLAYERS[:4]


def ron(winner: int, discarder: int, han: int = 1, fu: int = 30) -> dict:
    return {
        "result": {
            "type": "ron",
            "discarder": discarder,
            "wins": [{"seat": winner, "han": han, "fu": fu}],
        }
    }


DRAW = {"result": {"type": "draw", "tenpai": [0]}}
YAKUMAN_ON_3 = {"result": {"type": "ron", "discarder": 3, "wins": [{"seat": 0, "yakuman": 1}]}}


def played(hands: list[dict]) -> tuple[Game, list[uuid.UUID]]:
    """A game in play with `hands`, each sent by a phone with its own entry id."""
    event = make_event(players=SEATS)
    game = game_record(
        event=event, data={"round": 1, "table": 1, "seats": SEATS, "hands": hands[:1]}
    )
    ids = [uuid.uuid4() for _ in hands]
    Hand.objects.filter(game=game, number=1).update(entry_id=ids[0])
    for number, (hand, entry) in enumerate(zip(hands[1:], ids[1:], strict=True), 2):
        game.refresh_from_db()
        assert game_hand_enter(game=game, hand=hand, entry_id=entry, number=number)
    game.refresh_from_db()
    return game, ids


def stored(game: Game) -> list[Hand]:
    return list(Hand.objects.filter(game=game).order_by("number"))


def test_a_past_hand_replaced_replays_every_later_hand_as_the_engine_says():
    # East 1 a non-dealer ron; the later hands follow from who deals.
    hands = [ron(1, 2), ron(2, 3), ron(3, 0), DRAW]
    game, ids = played(hands)
    before = stored(game)
    version = game.version
    # Hand 1 becomes a dealer's ron: the dealer keeps the deal, so every later hand is played
    # one honba on, a different dealer paying and paid.
    fixed = game_hand_fix(game=game, number=1, hand=ron(0, 2), expected_version=version)
    assert fixed.replayed == [2, 3, 4] and fixed.removed == []
    after = stored(game)
    expected = game_evaluate(
        game.round.event.rules,
        {"round": 1, "table": 1, "seats": SEATS, "hands": [ron(0, 2), *hands[1:]]},
    )
    assert [h.data for h in after] == [ron(0, 2), *hands[1:]]
    assert [h.deltas for h in after] == [h["deltas"] for h in expected.hands]
    assert [h.label for h in after] == [h["label"] for h in expected.hands]
    assert [h.deltas for h in after[1:]] != [h.deltas for h in before[1:]]  # they did move
    assert [h.entry_id for h in after] == ids  # each hand keeps its phone's entry id
    game.refresh_from_db()
    assert game.version == version + 1 and not game.finished
    log = AuditEntry.objects.get(action="game.hand_fix")
    assert (
        log.summary == f"round 1 table 1: hand 1 ({before[0].label}) replaced; hands 2–4 replayed"
    )
    assert log.before["hand"] == hands[0] and log.after["hand"] == ron(0, 2)
    assert entry_sentence(log).endswith("hands replayed: 2, 3, 4")


def test_a_correction_that_ends_the_game_asks_names_the_hands_then_removes_them():
    hands = [ron(1, 2), DRAW, ron(2, 3), DRAW]
    game, ids = played(hands)
    version = game.version
    labels = [h.label for h in stored(game)]
    # Hand 2 becomes a yakuman dealt in by seat 3: a bust, the game is over after it.
    with pytest.raises(HandsWouldGo) as asked:
        game_hand_fix(game=game, number=2, hand=YAKUMAN_ON_3, expected_version=version)
    assert [(h.number, h.label) for h in asked.value.hands] == [(3, labels[2]), (4, labels[3])]
    game.refresh_from_db()
    assert game.version == version and len(stored(game)) == 4  # nothing written yet
    # The wrong list confirmed (a page older than the game): asked again.
    with pytest.raises(HandsWouldGo):
        game_hand_fix(
            game=game, number=2, hand=YAKUMAN_ON_3, expected_version=version, dropping=[4]
        )
    fixed = game_hand_fix(
        game=game, number=2, hand=YAKUMAN_ON_3, expected_version=version, dropping=[3, 4]
    )
    assert fixed.removed == [3, 4] and fixed.replayed == []
    game.refresh_from_db()
    assert game.finished and [h.number for h in stored(game)] == [1, 2]
    assert [h.entry_id for h in stored(game)] == ids[:2]
    assert event_standings(game.round.event).rows[0].games == 1
    log = AuditEntry.objects.get(action="game.hand_fix")
    assert log.summary.endswith("hand 2 (" + labels[1] + ") replaced; hands 3–4 removed")


def test_a_stale_correction_is_refused_and_writes_nothing():
    game, _ids = played([ron(1, 2), DRAW, DRAW])
    stale = game.version
    game_hand_add(game=game, hand=DRAW, expected_version=stale)
    with pytest.raises(ConflictError):
        game_hand_fix(game=game, number=1, hand=ron(0, 2), expected_version=stale)
    assert [h.data for h in stored(game)] == [ron(1, 2), DRAW, DRAW, DRAW]
    assert not AuditEntry.objects.filter(action="game.hand_fix").exists()


def test_a_hand_sent_twice_is_still_one_hand():
    hands = [ron(1, 2), DRAW, ron(2, 3), DRAW]
    game, ids = played(hands)
    version = game.version
    for _ in range(2):  # the correction's answer lost, sent again: one change
        game_hand_fix(
            game=game, number=2, hand=YAKUMAN_ON_3, expected_version=version, dropping=[3, 4]
        )
    assert AuditEntry.objects.filter(action="game.hand_fix").count() == 1
    game.refresh_from_db()
    # Late copies from the phones' outboxes: the replaced hand's, and a removed hand's — each
    # answered as saved, none written again.
    assert not game_hand_enter(game=game, hand=DRAW, entry_id=ids[1], number=2)
    assert not game_hand_enter(game=game, hand=ron(2, 3), entry_id=ids[2], number=3)
    assert [h.number for h in stored(game)] == [1, 2]


def test_a_later_hand_made_impossible_goes_with_those_after_it():
    # Hand 3 is seat 1's riichi: corrected so seat 1 busts in hand 2 — where busting does
    # not end the game the riichi cannot be paid; where it does, the game ends. Either way
    # hand 3 and 4 go and are named, the game as the engine leaves it.
    riichi = {"riichi": [1], "result": {"type": "draw", "tenpai": [1]}}
    game, _ids = played([ron(2, 3), DRAW, riichi, DRAW])
    bust_1 = {"result": {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "yakuman": 1}]}}
    with pytest.raises(HandsWouldGo) as asked:
        game_hand_fix(game=game, number=2, hand=bust_1, expected_version=game.version)
    assert [h.number for h in asked.value.hands] == [3, 4]


# --- the organizer's screen -----------------------------------------------------------------


def sheet_url(game: Game) -> str:
    return url("game-hands", game.round.event.slug, game.pk)


def test_the_organizer_corrects_hand_1_from_the_sheet_and_later_hands_replay():
    game, ids = played([ron(1, 2), ron(2, 3), DRAW])
    client = logged_in(organizer_for(game.round.event))
    sheet = text(client.get(sheet_url(game)))
    assert f'href="{sheet_url(game)}?fix=1"' in sheet  # each hand offers its correction
    page = client.get(f"{sheet_url(game)}?fix=1")
    html = text(page)
    assert page.status_code == 200 and "Correct hand 1" in html
    # The form opens as the hand was entered: seat 1 ron from seat 2, 1 han 30 fu.
    assert re.search(r'name="wins_0_seat" value="1"[^>]*checked', html)
    assert re.search(r'name="discarder" value="2"[^>]*checked', html)
    post = {"fix": "1", "version": game.version, "number": "1", "type": "ron"}
    post.update({"discarder": "2", "wins_0_seat": "0", "wins_0_han": "1", "wins_0_fu": "30"})
    reply = client.post(f"{sheet_url(game)}?fix=1", post, follow=True)
    assert reply.status_code == 200 and "Hand 1 replaced. Hands 2–3 replayed." in text(reply)
    assert [h.data for h in stored(game)] == [ron(0, 2), ron(2, 3), DRAW]
    assert [h.entry_id for h in stored(game)] == ids
    # The same form sent again (an old tab): stale, refused, nothing written twice.
    again = client.post(f"{sheet_url(game)}?fix=1", {**post, "wins_0_han": "2"}, follow=True)
    assert "nothing was saved" in text(again)
    assert AuditEntry.objects.filter(action="game.hand_fix").count() == 1


def test_the_organizers_screen_names_the_hands_that_would_go_and_asks_first():
    game, _ids = played([ron(1, 2), DRAW, ron(2, 3), DRAW])
    client = logged_in(organizer_for(game.round.event))
    post = {"fix": "2", "version": game.version, "number": "2", "type": "ron"}
    post.update({"discarder": "3", "wins_0_seat": "0", "wins_0_yakuman": "1"})
    asked = client.post(f"{sheet_url(game)}?fix=2", post)
    page = text(asked)
    assert asked.status_code == 409 and "This correction removes 2 later hands" in page
    labels = [h.label for h in stored(game)]
    assert f"Hand 3 ({labels[2]})" in page and f"Hand 4 ({labels[3]})" in page
    assert len(stored(game)) == 4  # nothing removed before the answer
    # The confirm step sends the same correction with the hands it removes.
    confirm = dict(
        re.findall(
            r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.split("data-going")[1]
        )
    )
    assert confirm["dropping"] in ("3", "4")
    sent = {**post, "dropping": ["3", "4"]}
    done = client.post(f"{sheet_url(game)}?fix=2", sent, follow=True)
    assert "Hands 3–4 removed." in text(done)
    game.refresh_from_db()
    assert game.finished and [h.number for h in stored(game)] == [1, 2]


def test_only_the_events_own_staff_correct_a_hand():
    game, _ids = played([ron(1, 2), DRAW])
    other = make_event(slug="other", players=SEATS)
    outsider = logged_in(organizer_for(other, username="someone"))
    post = {"fix": "1", "version": game.version, "number": "1", "type": "draw", "tenpai": ["0"]}
    assert outsider.post(f"{sheet_url(game)}?fix=1", post).status_code in (403, 404)
    anonymous = Client().post(f"{sheet_url(game)}?fix=1", post)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert [h.data for h in stored(game)] == [ron(1, 2), DRAW]


@pytest.mark.parametrize("fix", ["0", "99", "x", "", "１"])
def test_a_fix_naming_no_hand_is_the_sheet_not_a_server_error(fix):
    game, _ids = played([ron(1, 2), DRAW])
    client = logged_in(organizer_for(game.round.event))
    assert client.get(f"{sheet_url(game)}?fix={fix}").status_code in (200, 302)
    assert client.post(f"{sheet_url(game)}?fix={fix}", {"fix": fix}).status_code in (200, 302, 400)


# --- a table's own correction, under the two-seat rule -----------------------------------------


def at_table(hands: list[dict]):
    """A table-entry event's game in play with `hands`, its live link."""
    from tests.tournament.test_table_trust import seated

    event, game, link = seated()
    for hand in hands:
        game.refresh_from_db()
        game_hand_add(game=game, hand=hand, expected_version=game.version)
    game.refresh_from_db()
    return event, game, link


def seat_phone(link, seat: int) -> Client:
    phone = Client()
    assert phone.get(f"/t/{link.token}/seat/{link.seat_codes[seat]}/").status_code == 302
    return phone


def fix_post(game: Game, number: int, **fields) -> dict:
    game.refresh_from_db()
    return {
        "do": "fix",
        "fix": str(number),
        "version": game.version,
        "number": str(number),
        **fields,
    }


def test_a_seat_corrects_a_past_hand_at_the_table_and_later_hands_replay():
    _event, game, link = at_table([ron(1, 2), ron(2, 3), DRAW])
    phone = seat_phone(link, 3)
    opened = phone.post(f"/t/{link.token}/", {"do": "fix_open", "fix": "1"})
    assert opened.status_code == 200 and 'name="do" value="fix"' in text(opened)
    post = fix_post(
        game, 1, type="ron", discarder="2", wins_0_seat="0", wins_0_han="1", wins_0_fu="30"
    )
    assert phone.post(f"/t/{link.token}/", post).status_code == 302
    assert [h.data for h in stored(game)] == [ron(0, 2), ron(2, 3), DRAW]
    entry = AuditEntry.objects.get(action="game.hand_fix")
    assert entry.at_seat == 3
    game.refresh_from_db()
    assert not game.finished and not game.confirmation  # still in play


def test_a_table_correction_that_ends_the_game_waits_for_another_seat():
    event, game, link = at_table([ron(1, 2), DRAW, ron(2, 3)])
    fixer = seat_phone(link, 0)
    post = fix_post(game, 2, type="ron", discarder="3", wins_0_seat="0", wins_0_yakuman="1")
    asked = fixer.post(f"/t/{link.token}/", post)
    assert asked.status_code == 409 and "This correction removes a later hand" in text(asked)
    assert fixer.post(f"/t/{link.token}/", {**post, "dropping": ["3"]}).status_code == 302
    game.refresh_from_db()
    # One seat's correction ended the game: it waits for another seat, as a result does.
    assert game.confirmation == "waiting" and game.submitted_seat == 0 and not game.finished
    assert event_standings(event).rows[0].games == 0
    assert fixer.post(f"/t/{link.token}/", {"do": "confirm"}).status_code == 400
    other = seat_phone(link, 2)
    assert other.post(f"/t/{link.token}/", {"do": "confirm"}).status_code == 302
    game.refresh_from_db()
    assert game.finished and [h.number for h in stored(game)] == [1, 2]


def test_a_phone_without_a_seat_corrects_nothing():
    _event, game, link = at_table([ron(1, 2), DRAW])
    stranger = Client()
    post = fix_post(game, 1, type="draw", tenpai=["0"])
    assert stranger.post(f"/t/{link.token}/", post).status_code == 302  # the page, reloaded
    assert [h.data for h in stored(game)] == [ron(1, 2), DRAW]
    assert not AuditEntry.objects.filter(action="game.hand_fix").exists()
