"""Issue 47: pages that keep themselves current (static/js/live.js). A table's page, the
organizer's dashboard and round sheet and a public game sheet are asked again every few
seconds with the tag of what they show: 304 while nothing moved, for a fixed number of small
queries; the new page (or the dashboard's tables alone) once something did. Rights as the
pages' own; a bad header or address never answers 500."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournament.factories import make_event
from tournament.models import Event, Game
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_add
from tournament.services.rounds import round_seat

pytestmark = pytest.mark.django_db

FETCH = {"X-Requested-With": "fetch"}
FINAL = [40000, 30000, 20000, 10000]


@pytest.fixture
def seated() -> tuple[Event, Game, str]:
    event = make_event(slug="live", players=[f"P{i:02d}" for i in range(8)])
    event.table_entry, event.table_mode = "tables", "hands"
    event.save()
    round_seat(event=event, rng=random.Random(3))
    game = Game.objects.filter(round__event=event).order_by("table").first()
    link = game.links.get(revoked_at__isnull=True)
    return event, game, f"/t/{link.token}/"


def _owner(event: Event) -> Client:
    user = get_user_model().objects.create_user("owner", "o@example.com", "pw")
    event.organizers.add(user)
    client = Client()
    client.force_login(user)
    return client


def _move(game: Game) -> None:
    """Another phone's write: the game's version and the event's move on."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    Event.objects.filter(pk=game.round.event_id).update(version=F("version") + 1)


def test_a_table_page_is_304_while_its_game_stands_and_new_once_it_moves(seated):
    _event, game, path = seated
    phone = Client()
    code = game.links.get(revoked_at__isnull=True).seat_codes[0]
    assert phone.post(path, {"do": "seat", "code": code}).status_code == 302  # its seat
    page = phone.get(path)
    assert page.status_code == 200
    tag = page["ETag"]
    assert f'data-tag="{tag.strip(chr(34))}"' in page.content.decode()  # the first poll's tag
    # Expect 2 queries for a poll with nothing new:
    # * the link, with its game, round and event
    # * the phone's session (its seat, and whether it entered the waiting result)
    with CaptureQueriesContext(connection) as captured:
        quiet = phone.get(path, headers={**FETCH, "If-None-Match": tag})
    assert quiet.status_code == 304 and quiet.content == b""
    assert len(captured) == 2, [q["sql"] for q in captured]
    # Another table's game moving changes nothing here.
    other = Game.objects.filter(round__event=game.round.event).exclude(pk=game.pk).first()
    Game.objects.filter(pk=other.pk).update(version=F("version") + 1)
    assert phone.get(path, headers={**FETCH, "If-None-Match": tag}).status_code == 304
    _move(game)
    moved = phone.get(path, headers={**FETCH, "If-None-Match": tag})
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert 'id="table-live"' in moved.content.decode()


def test_a_table_page_s_tag_is_the_phone_s_own(seated):
    """A phone that proves its seat sees forms another does not: its tag is not another's."""
    _event, game, path = seated
    first, second = Client(), Client()
    tag = first.get(path)["ETag"]
    assert second.get(path, headers={**FETCH, "If-None-Match": tag}).status_code == 304
    code = game.links.get(revoked_at__isnull=True).seat_codes[0]
    assert first.post(path, {"do": "seat", "code": code}).status_code == 302
    assert first.get(path, headers={**FETCH, "If-None-Match": tag}).status_code == 200


@pytest.mark.parametrize(
    "header", ['"nonsense"', "*", "W/", '""', "x" * 5000, "\u3042", '"a", "b", garbage']
)
def test_a_bad_tag_never_answers_500(seated, header):
    event, game, path = seated
    owner = _owner(event)
    for client, address in [
        (Client(), path),
        (owner, f"/events/{event.slug}/manage/"),
        (owner, f"/events/{event.slug}/manage/rounds/1/"),
        (Client(), f"/events/{event.slug}/games/{game.pk}/"),
        (Client(), f"/events/{event.slug}/rounds/1/"),
    ]:
        answer = client.get(address, headers={**FETCH, "If-None-Match": header})
        assert answer.status_code in (200, 304), (address, header, answer.status_code)


def test_a_closed_or_unknown_table_says_so_to_its_poll(seated):
    _event, game, path = seated
    assert Client().get("/t/nosuchtoken/", headers=FETCH).status_code == 404
    game.links.update(revoked_at=game.created_at)
    assert Client().get(path, headers=FETCH).status_code == 410


def test_the_dashboard_s_tables_alone_for_the_organizer_304_while_the_event_stands(seated):
    event, game, _path = seated
    address = f"/events/{event.slug}/manage/"
    anonymous = Client().get(address, headers=FETCH)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("other", "x@example.com", "pw"))
    assert stranger.get(address, headers=FETCH).status_code == 403
    owner = _owner(event)
    page = owner.get(address)
    assert page.status_code == 200 and "X-Requested-With" in page["Vary"]
    part = owner.get(address, headers=FETCH)
    assert part.status_code == 200 and b"<main" not in part.content
    assert b'class="table-states"' in part.content
    tag = part["ETag"]
    assert f'data-tag="{tag.strip(chr(34))}"' in page.content.decode()
    # Expect 4 queries for a poll with nothing new — the rights check every organizer page
    # makes, nothing after it:
    # * the event (with its venue) * the session * the user * is an organizer (exists)
    with CaptureQueriesContext(connection) as captured:
        quiet = owner.get(address, headers={**FETCH, "If-None-Match": tag})
    assert quiet.status_code == 304
    assert len(captured) == 4, [q["sql"][:70] for q in captured]
    _move(game)
    assert owner.get(address, headers={**FETCH, "If-None-Match": tag}).status_code == 200


def test_the_round_sheet_for_the_organizer_304_while_the_event_stands(seated):
    event, game, _path = seated
    address = f"/events/{event.slug}/manage/rounds/1/"
    assert Client().get(address, headers=FETCH).status_code == 302
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("other", "x@example.com", "pw"))
    assert stranger.get(address, headers=FETCH).status_code == 403
    owner = _owner(event)
    page = owner.get(address)
    assert page.status_code == 200 and 'id="round-live"' in page.content.decode()
    tag = page["ETag"]
    # Expect 4 queries, as the dashboard's: the event, the session, the user, the rights.
    with CaptureQueriesContext(connection) as captured:
        quiet = owner.get(address, headers={**FETCH, "If-None-Match": tag})
    assert quiet.status_code == 304
    assert len(captured) == 4, [q["sql"][:70] for q in captured]
    _move(game)
    assert owner.get(address, headers={**FETCH, "If-None-Match": tag}).status_code == 200
    assert owner.get(f"/events/{event.slug}/manage/rounds/9/", headers=FETCH).status_code == 404


def test_a_game_sheet_follows_its_game_for_anyone(seated):
    event, game, _path = seated
    address = f"/events/{event.slug}/games/{game.pk}/"
    page = Client().get(address)
    assert page.status_code == 200 and 'data-live="' in page.content.decode()
    tag = page["ETag"]
    with CaptureQueriesContext(connection) as captured:
        quiet = Client().get(address, headers={**FETCH, "If-None-Match": tag})
    assert quiet.status_code == 304
    assert len(captured) == 1, [q["sql"] for q in captured]  # the game's version and seats
    _move(game)
    assert Client().get(address, headers={**FETCH, "If-None-Match": tag}).status_code == 200
    assert Client().get(f"/events/{event.slug}/games/999999/", headers=FETCH).status_code == 404


def test_a_round_s_page_follows_the_round_until_every_table_has_finished(seated):
    """The public round page (walk finding: it never followed its round): a table's hand
    shows its live score without a reload; 304 for one query while nothing moved; once every
    table has finished the page is shown once more and asks no more."""
    event, game, _path = seated
    address = f"/events/{event.slug}/rounds/1/"
    page = Client().get(address)
    body = page.content.decode()
    assert page.status_code == 200 and f'data-live="{address}"' in body and "js/live.js" in body
    tag = page["ETag"]
    assert f'data-tag="{tag.strip(chr(34))}"' in body  # the first poll's tag
    with CaptureQueriesContext(connection) as captured:
        quiet = Client().get(address, headers={**FETCH, "If-None-Match": tag})
    assert quiet.status_code == 304
    assert len(captured) == 1, [q["sql"] for q in captured]  # the event
    names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
    hand = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 3, "fu": 30}]}}
    game_hand_add(game=game, hand=hand, expected_version=game.version)
    moved = Client().get(address, headers={**FETCH, "If-None-Match": tag})
    assert moved.status_code == 200 and moved["ETag"] != tag
    # South won 3,900 from West: their live scores, beside their names.
    shown = moved.content.decode()
    south, west = (
        f"{name}</span></span></td><td>{score}<"
        for name, score in ((names[1], 28900), (names[2], 21100))
    )
    assert south in shown and west in shown
    # How far the table has played: the hand entered last (South's ron, East still deals).
    assert '<p class="meta last-hand">Last hand entered: E1-0</p>' in shown
    # The tables are drawn once per version: the next reader's page reads no seat.
    # Expect 4 queries: the event, the round and its games (the clock, whether any plays:
    # 2), the round numbers (the tabs).
    with CaptureQueriesContext(connection) as captured:
        again = Client().get(address)
    assert again.status_code == 200 and south in again.content.decode()
    sqls = [q["sql"] for q in captured]
    assert len(sqls) == 4 and not [q for q in sqls if "tournament_seat" in q], sqls
    for table in Game.objects.filter(round__event=event).select_related("round"):
        seats = [s.player.name for s in table.seats.select_related("player").order_by("position")]
        data = {"round": 1, "table": table.table, "seats": seats, "scores": FINAL}
        game_correct(game=table, data=data, expected_version=table.version, replace_hands=True)
    over = Client().get(address, headers={**FETCH, "If-None-Match": moved["ETag"]})
    done = over.content.decode()
    assert over.status_code == 200 and 'id="round-live"' in done and "data-live=" not in done
    assert "js/live.js" not in done


def test_a_game_that_may_reach_its_last_hand_follows_the_other_tables(seated):
    """What each player needs at the last hand moves with every table's result: a game in
    play is tagged by the event too (a finished one by its own version: test_conditional)."""
    event, game, _path = seated
    Game.objects.filter(pk=game.pk).update(mode="hands")  # its first hand entered
    address = f"/events/{event.slug}/games/{game.pk}/"
    tag = Client().get(address)["ETag"]
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)  # another table
    moved = Client().get(address, headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved["ETag"] != tag
