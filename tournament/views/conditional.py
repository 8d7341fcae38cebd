"""ETags from the event's version, for the pages phones poll (Django's `condition` decorator).

Every write to an event moves its `version` on in the write's own transaction, so the version
says whether anything a public page shows can have changed. The tag is made before the view
runs, from one small query (for a page of one event, the event's row, which the view then
gets); a phone that sends it back with nothing new gets 304 Not Modified and costs no
standings work at all. The tag also holds what else changes the page: the language, the
query (stage, sort, page), who is signed in (organizers see links the public do not), and
the release (a deploy may change every page).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournament.caching import event_stamp
from tournament.selectors.compiled import EVENT_BY_SLUG, GAME_VERSION, PLAYER_EVENTS

try:
    RELEASE = settings.RELEASE or version("jansou")
except PackageNotFoundError:  # running from a checkout that was never installed
    RELEASE = settings.RELEASE


def _tag(request: HttpRequest, kind: str, stamps: Iterable[Any]) -> str:
    user = request.user.pk if request.user.is_authenticated else ""
    parts = [RELEASE, kind, get_language(), request.GET.urlencode(), user, *stamps]
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _answer(
    request: HttpRequest, tag: str, view: Callable[..., HttpResponse], *args: Any, **kwargs: Any
) -> HttpResponse:
    """304 when the phone holds `tag` already, else the view's answer with the tag."""

    @condition(etag_func=lambda *_args, **_kwargs: tag)
    def answer(request: HttpRequest) -> HttpResponse:
        return view(request, *args, **kwargs)

    return answer(request)


def by_event_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page of one event, `view(request, event, …)`: the event is read
    once, for the tag and for the view — a phone holding this version gets 304 without the
    view running; an unknown address, 404."""

    @wraps(view)
    def read_event(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        found = EVENT_BY_SLUG.instances(slug)  # the first read, compiled (selectors/compiled.py)
        if not found:
            raise Http404
        event = found[0]
        tag = _tag(request, request.path, [event_stamp(event)])
        return _answer(request, tag, view, event, *args, **kwargs)

    return read_event


@dataclass(frozen=True)
class GameVersion:
    """What a game sheet is keyed by, read without building the game: the game's own stamp
    (id, creation time, version), its players' names in seat order, and its event's id,
    stamp and name. The event's rules are not in it: they are copied when the event is made
    and never change."""

    game_id: int
    stamp: str
    names: list[str]
    event_id: int
    event_stamp: str
    event_name: str


def by_game_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a game sheet, `view(request, version)`: one query of plain values, a row per seat
    (a GameVersion), for the tag — the event's stamp — and for the view's key; the view
    reads the game itself only when it makes the sheet."""

    @wraps(view)
    def read_game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
        rows = GAME_VERSION.rows(game_id, slug)
        if not rows:  # no such game in this event (a game always has its seats)
            raise Http404
        _name, created, number, event_id, event_created, event_number, name = rows[0]
        found = GameVersion(
            game_id,
            event_stamp((game_id, created, number)),  # the game's own, made the same way
            [row[0] for row in rows],
            event_id,
            event_stamp((event_id, event_created, event_number)),
            name,
        )
        tag = _tag(request, request.path, [found.event_stamp])
        return _answer(request, tag, view, found)

    return read_game


@dataclass(frozen=True)
class PlayerEvents:
    """What a player's page is keyed by: their name (a rename moves no event on) and each
    event they entered, by id: (stamp, name, slug)."""

    name: str
    events: dict[int, tuple[str, str, str]]


def by_player_events(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a player's page, `view(request, player_id, entered)`: the page shows where they
    stand in every event they entered, so its tag holds each one's stamp, the player's name
    and their rating's newest step (one query) — `entered`, a PlayerEvents, None for a
    player in no event."""

    @wraps(view)
    def read_events(request: HttpRequest, player_id: int) -> HttpResponse:
        rows = PLAYER_EVENTS.rows(player_id)
        if not rows:
            return view(request, player_id, None)
        entered = PlayerEvents(
            rows[0][0],
            {
                pk: (event_stamp((pk, created, number)), name, slug)
                for _n, pk, created, number, name, slug, _step in rows
            },
        )
        # Their rating too: a correction in an earlier event replays it in later ones.
        stamps = [entered.name, *entered.events.items(), rows[0][-1]]
        return _answer(request, _tag(request, "player", stamps), view, player_id, entered)

    return read_events
