"""Pages shared whole (views/public.py: `framed`): for a reader not signed in with no message
waiting, the standings page, a game sheet and a player's page are made once per version and
shared, the frame included; each answer still carries its own CSRF token, which works."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import info
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client

from tests.tournament.factories import league_data
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import Game, Player
from tournament.views.public import CSRF_MARK, event_detail

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def addresses(event) -> list[str]:
    game = Game.objects.filter(round__event=event).first()
    player = Player.objects.get(name="Player 0000")
    return [
        url("event-detail", event.slug),
        url("game-detail", event.slug, game.pk),
        url("player-detail", player.pk),
    ]


@pytest.fixture
def event():
    from tournament.services.imports import event_import

    return event_import(league_data(8, 2))


def test_a_reader_not_signed_in_gets_the_shared_page_with_a_token_of_their_own(event):
    for address in addresses(event):
        first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
        made = first.get(address)
        served = second.get(address)
        assert made.templates and not served.templates, address  # the second drew nothing
        html = text(served)
        assert CSRF_MARK not in html
        tokens = TOKEN.findall(html)
        assert len(tokens) == 1 and tokens != TOKEN.findall(text(made))
        # The token works: the language form posts with it, and the page comes in Japanese.
        changed = second.post(
            url("set_language"),
            {"language": "ja", "next": address, "csrfmiddlewaretoken": tokens[0]},
        )
        assert changed.status_code == 302, address
        assert 'lang="ja"' in text(second.get(address))
        assert 'lang="en"' in text(first.get(address))


def test_a_signed_in_organizer_gets_their_own_frame_and_nobody_else_sees_it(event):
    organizer = organizer_for(event)
    for address in addresses(event):
        Client().get(address)  # the shared page is made
        theirs = text(logged_in(organizer).get(address))
        assert organizer.get_username() in theirs and "Log out" in theirs, address
        public = text(Client().get(address))
        assert organizer.get_username() not in public and "Log in" in public, address


def test_a_waiting_message_is_shown_not_the_shared_page(event, rf):
    Client().get(url("event-detail", event.slug))  # the shared page is made
    request = rf.get(url("event-detail", event.slug))
    SessionMiddleware(lambda r: None).process_request(request)
    MessageMiddleware(lambda r: None).process_request(request)
    request.user = AnonymousUser()
    info(request, "Saved: round 3 table 2")
    page = event_detail(request, event.slug)
    assert "Saved: round 3 table 2" in text(page)
