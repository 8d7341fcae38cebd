"""Issue 33 (Pantheon #778): two players sat at each other's wind, or each other's table, and
hands were entered. The organizer swaps the two seats: every hand kept and replayed with the
players where they really sat, logged, each game's version moved on; a finished table, a
stale form or seats of another round are refused."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.factories import make_event
from tests.tournament.organize_support import text
from tournament.models import AuditEntry, Game
from tournament.selectors.games import game_sheet
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.hands import game_hand_add
from tournament.services.rounds import round_seat
from tournament.services.seat_fix import seats_swap

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{i}" for i in range(8)]
RON = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 3, "fu": 30}]}}


@pytest.fixture
def two_tables():
    event = make_event(slug="fix", ruleset="tenhou", players=PLAYERS)
    round_seat(event=event, rng=random.Random(4))
    one, two = Game.objects.filter(round__event=event).order_by("table")
    for game in (one, two):
        game.mode = "hands"
        game.save(update_fields=["mode"])
        game_hand_add(game=game, hand=RON, expected_version=game.version)
    one.refresh_from_db()
    two.refresh_from_db()
    return event, one, two


def names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("position")]


def test_two_winds_of_one_table_swap_and_the_hands_stay(two_tables):
    event, one, two = two_tables
    before = names(one)
    scores = game_sheet(event, one).flow.scores
    seats_swap(
        game_a=one,
        position_a=1,
        game_b=one,
        position_b=2,
        versions={one.pk: one.version, two.pk: two.version},
    )
    after = names(one)
    assert after == [before[0], before[2], before[1], before[3]]
    sheet = game_sheet(event, one)
    assert sheet.flow.scores == scores and len(sheet.hands) == 1  # the seats' scores, kept
    # The winner is now the player who really sat South.
    assert sheet.names[1] == before[2]
    log = AuditEntry.objects.filter(event=event, action="game.seats").get()
    assert log.before == {
        before[1]: {"table": 1, "seat": 1},
        before[2]: {"table": 1, "seat": 2},
    }


def test_two_players_of_two_tables_swap_and_a_stale_form_is_refused(two_tables):
    _event, one, two = two_tables
    a, b = names(one)[0], names(two)[3]
    versions = {one.pk: one.version, two.pk: two.version}
    seats_swap(game_a=one, position_a=0, game_b=two, position_b=3, versions=versions)
    assert names(one)[0] == b and names(two)[3] == a
    with pytest.raises(ConflictError):  # the same form again: both games moved on
        seats_swap(game_a=one, position_a=0, game_b=two, position_b=3, versions=versions)


def test_a_finished_table_or_the_same_seat_is_refused(two_tables):
    _event, one, two = two_tables
    versions = {one.pk: one.version, two.pk: two.version}
    with pytest.raises(ServiceError) as same:
        seats_swap(game_a=one, position_a=1, game_b=one, position_b=1, versions=versions)
    assert same.value.code == "swap.same"
    Game.objects.filter(pk=two.pk).update(finished=True)
    with pytest.raises(ServiceError) as closed:
        seats_swap(game_a=one, position_a=0, game_b=two, position_b=0, versions=versions)
    assert closed.value.code == "swap.closed"


def test_the_round_sheet_offers_it_and_says_what_happened(two_tables):
    _event, one, two = two_tables
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("o", "o@example.com", "pw"))
    page = text(client.get("/events/fix/manage/rounds/1/", headers={"accept-language": "ja"}))
    assert "座り間違いを直す" in page and f'value="{one.pk}:0"' in page
    post = {"a": f"{one.pk}:0", "b": f"{two.pk}:1", f"v{one.pk}": one.version}
    post[f"v{two.pk}"] = two.version
    done = client.post("/events/fix/manage/rounds/1/seats/", post, follow=True)
    assert "The two seats are swapped; every hand is kept." in text(done)
    stale = client.post("/events/fix/manage/rounds/1/seats/", post, follow=True)
    assert "The two seats are swapped" not in text(stale)
    junk = client.post("/events/fix/manage/rounds/1/seats/", {"a": "x", "b": "9:9:9"})
    assert junk.status_code == 302
    audit = text(client.get("/events/fix/manage/audit/", headers={"accept-language": "ja"}))
    assert "席の入れ替え" in audit and "1卓目 東 → 2卓目 南" in audit
