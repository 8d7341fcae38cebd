"""The organizer's final-scores form over a game kept hand by hand: a walk of the day saved
different scores there and the hands were silently replaced (the public game page then showed
only the final scores). Now the form says how many hands saving replaces and asks for a tick;
without it nothing is written and what was typed is kept."""

from __future__ import annotations

import pytest

from tests.tournament.factories import PLAYERS, make_event
from tests.tournament.organize_support import logged_in, organizer_for, scores_post, url
from tournament.models import Game, Hand
from tournament.services.errors import ServiceError
from tournament.services.games import game_correct, game_record

pytestmark = pytest.mark.django_db

SEATS = PLAYERS[:4]
RON = {"result": {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "han": 1, "fu": 30}]}}
DRAW = {"result": {"type": "draw", "tenpai": [0]}}
TYPED = [40000, 30000, 20000, 10000]


def _hands_game() -> Game:
    event = make_event(slug="hands", players=SEATS)
    data = {"round": 1, "table": 1, "seats": SEATS, "hands": [RON, DRAW]}
    return game_record(event=event, data=data)


def test_the_form_says_the_hands_go_and_saves_nothing_unticked():
    game = _hands_game()
    client = logged_in(organizer_for(game.round.event))
    address = url("game-scores", game.round.event.slug, game.pk)
    page = client.get(address, headers={"accept-language": "en"}).content.decode()
    assert "This game has 2 hands recorded; saving final scores replaces them." in page
    assert 'name="replace_hands"' in page
    japanese = client.get(address, headers={"accept-language": "ja"}).content.decode()
    assert (
        "この対局には2局が記録されています。最終点数を保存すると、それらは置き換えられます。"
        in japanese
    )
    assert "記録済みの局をこの最終点数で置き換える" in japanese

    for language, error in (
        ("en", "tick “Replace its hands with these final scores” to save them"),
        ("ja", "「記録済みの局をこの最終点数で置き換える」にチェックを入れてください"),
    ):
        refused = client.post(
            address, scores_post(game, TYPED), headers={"accept-language": language}
        )
        assert refused.status_code == 400
        body = refused.content.decode()
        assert error in body
        assert 'value="40000"' in body and 'value="10000"' in body  # what was typed, kept
        assert Hand.objects.filter(game=game).count() == 2  # nothing written
        game.refresh_from_db()
        assert game.mode == "hands"

    saved = client.post(address, scores_post(game, TYPED, replace_hands="on"))
    assert saved.status_code == 302
    game.refresh_from_db()
    assert game.mode == "scores" and not Hand.objects.filter(game=game).exists()
    assert [s.score for s in game.seats.order_by("position")] == TYPED


def test_the_service_refuses_unasked_and_a_scores_game_needs_no_tick():
    game = _hands_game()
    data = {"round": 1, "table": 1, "seats": SEATS, "scores": TYPED}
    with pytest.raises(ServiceError) as refused:
        game_correct(game=game, data=data, expected_version=game.version)
    assert refused.value.code == "game.hands_replaced" and refused.value.field == "replace_hands"
    assert Hand.objects.filter(game=game).count() == 2
    # A game of final scores corrected: no hand to lose, nothing asked.
    game_correct(game=game, data=data, expected_version=game.version, replace_hands=True)
    game.refresh_from_db()
    again = {**data, "scores": [39000, 31000, 20000, 10000]}
    game_correct(game=game, data=again, expected_version=game.version)
