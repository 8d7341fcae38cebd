"""Shared pages (views/public.py): the standings page, a game sheet and a player's page share
their content between readers of a version, made once; a reader who is not signed in gets the
whole page kept by its tag (http_caching.whole_page) with a CSRF token of their own, a signed-in
reader or one with a message waiting a frame drawn for them. And their cache keys hold only the
checked query (views/query.py): made-up parameters add no entry."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import info
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import InvalidCacheBackendError, cache
from django.test import Client
from django.urls import resolve

from tests.tournament.factories import league_data
from tests.tournament.organize_support import logged_in, organizer_for, text, url
from tournament.models import Game, Player
from tournament.services.games import game_record
from tournament.views.public.standings import event_detail

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NAMES = [f"Player {i:04d}" for i in range(4)]
CONTENT = ("tournament/_event_standings.html", "tournament/_game_sheet.html")


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


def drawn(response) -> set[str]:
    return {t.name for t in response.templates if t.name}


def test_readers_share_the_page_and_each_gets_a_token_of_their_own(event):
    for address in addresses(event):
        first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
        made = first.get(address)
        assert "base.html" in drawn(made), address
        served = second.get(address)
        assert not drawn(served), address  # the whole page, kept
        assert served["Content-Type"] == made["Content-Type"] and served["ETag"] == made["ETag"]
        assert served["Content-Security-Policy"], address
        html = text(served)
        tokens = TOKEN.findall(html)
        assert len(tokens) == 1 and tokens != TOKEN.findall(text(made))
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
        Client().get(address)  # the shared content is made
        theirs = text(logged_in(organizer).get(address))
        assert organizer.get_username() in theirs and "Log out" in theirs, address
        public = text(Client().get(address))
        assert organizer.get_username() not in public and "Log in" in public, address


def test_a_waiting_message_is_shown_to_its_reader_only(event, rf):
    address = url("event-detail", event.slug)
    Client().get(address)  # the whole page is kept
    request = rf.get(address)
    SessionMiddleware(lambda r: None).process_request(request)
    MessageMiddleware(lambda r: None).process_request(request)
    request.user = AnonymousUser()
    request.resolver_match = resolve(address)
    info(request, "Saved: round 3 table 2")
    page = event_detail(request, event.slug)
    assert "Saved: round 3 table 2" in text(page)
    assert "Saved: round 3 table 2" not in text(Client().get(address))


def test_the_next_version_is_made_not_the_kept_page(event):
    address = url("event-detail", event.slug)
    Client().get(address)
    game_record(
        event=event,
        data={"round": 3, "table": 1, "seats": NAMES, "scores": [10000, 20000, 30000, 40000]},
    )
    after = Client().get(address)
    assert "base.html" in drawn(after)
    assert ">R3<" in text(after).replace(" ", "").replace("\n", "")


def test_one_page_however_its_address_is_spelled_and_a_query_is_made_each_time(event):
    player = Player.objects.get(name="Player 0000")
    Client().get(f"/players/{player.pk}/")
    assert not drawn(Client().get(f"/players/{player.pk:04d}/"))  # the same page
    address = url("event-detail", event.slug)
    for query in ("?sort=total", "?sort=total"):
        assert "base.html" in drawn(Client().get(address + query))  # spellings are many


class Counting:
    """The shared cache, counting what is written to it through either door: the selectors'
    (selectors/cache.py) and the templates' `{% cache %}` fragments."""

    def __init__(self) -> None:
        self.written = 0

    def __getattr__(self, name: str):
        return getattr(cache, name)

    def set(self, *args, **kwargs):
        self.written += 1
        return cache.set(*args, **kwargs)

    def set_many(self, values, *args, **kwargs):
        self.written += len(values)
        return cache.set_many(values, *args, **kwargs)


class Fragments(dict):
    """The caches `{% cache %}` looks in: the counting one as its default."""

    def __missing__(self, name: str):
        raise InvalidCacheBackendError(name)


@pytest.fixture
def writes(monkeypatch) -> Counting:
    counting = Counting()
    monkeypatch.setattr("tournament.selectors.cache.cache", counting)
    monkeypatch.setattr("django.templatetags.cache.caches", Fragments(default=counting))
    return counting


def test_made_up_parameters_add_no_cache_entry(event, writes):
    client = Client()
    for address in addresses(event):
        client.get(address)
    client.get(url("standings-live", event.slug))
    before = writes.written
    assert before  # the pages above were made and shared
    for n in range(300):
        address = addresses(event)[n % 3]
        answer = client.get(f"{address}?utm_{n}={n}")
        assert answer.status_code == 302 and answer["Location"] == address
        assert client.get(f"{url('standings-live', event.slug)}?x{n}=1").status_code == 302
    assert writes.written == before


@pytest.mark.parametrize(
    "query",
    ["stage=nothing", "sort=secret", "sort=total&sort=games", "page=0", "page=99", "page=x"],
)
def test_a_value_no_page_shows_is_404(event, query):
    for name in ("event-detail", "standings-live"):
        assert Client().get(f"{url(name, event.slug)}?{query}").status_code == 404, name


def test_known_parameters_in_any_spelling_share_one_entry(event, writes):
    client = Client()
    address = url("event-detail", event.slug)
    client.get(f"{address}?sort=-total")
    before = writes.written
    for query in ("sort=-total", "sort=-total&page=1", "page=1&sort=-total", "page=01&sort=-total"):
        assert client.get(f"{address}?{query}").status_code == 200
    assert writes.written == before


@pytest.mark.parametrize(("language", "said"), [("en", "Not found"), ("ja", "見つかりません")])
def test_a_404_says_so_in_the_readers_language_with_the_way_back(event, language, said):
    page = Client(headers={"accept-language": language}).get(
        f"{url('event-detail', event.slug)}?stage=nothing"
    )
    assert page.status_code == 404
    html = text(page)
    assert said in html and f'href="{url("home")}"' in html and f'lang="{language}"' in html
