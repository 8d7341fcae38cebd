"""A game sheet shows its organizers and referees the game's own pages on their side (issue
66); a reader not signed in, or signed in for another event, sees none."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.factories import PLAYERS, make_event, scores_game
from tests.tournament.organize_support import logged_in, organizer_for

pytestmark = pytest.mark.django_db


def test_the_sheet_links_its_organizer_to_the_games_pages(client: Client) -> None:
    event = make_event(slug="sheet-links", players=PLAYERS[:4])
    game = scores_game(event, 1, 1, PLAYERS[:4])
    address = f"/events/{event.slug}/games/{game.pk}/"
    hands = f"/events/{event.slug}/manage/games/{game.pk}/hands/"
    assert hands not in client.get(address).content.decode()
    stranger = get_user_model().objects.create_user("stranger", password="x")
    assert hands not in logged_in(stranger).get(address).content.decode()
    page = logged_in(organizer_for(event)).get(address).content.decode()
    assert hands in page and f"/games/{game.pk}/scores/" in page
