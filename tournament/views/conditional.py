"""ETags from the event's version, for the pages phones poll (Django's `condition` decorator).

Every write to an event moves its `version` on in the write's own transaction, so the version
says whether anything a public page shows can have changed. The tag is made before the view
runs, from one small query (for a page of one event, the event's row, which the view then
gets); a phone that sends it back with nothing new gets 304 Not Modified and costs no
standings work at all. The tag also holds what else changes the page: the
language, the query (stage, sort, page), who is signed in (organizers see links the public do
not), and the release (a deploy may change every page).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import wraps
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournament.caching import event_stamp
from tournament.models import Entry, Event, Game

try:
    RELEASE = settings.RELEASE or version("jansou")
except PackageNotFoundError:  # running from a checkout that was never installed
    RELEASE = settings.RELEASE


def _tag(request: HttpRequest, kind: str, stamps: Iterable[Any]) -> str:
    user = request.user.pk if request.user.is_authenticated else ""
    parts = [RELEASE, kind, get_language(), request.GET.urlencode(), user, *stamps]
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def by_event_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page of one event, `view(request, event, …)`: the event (with its venue) is read
    once, for the tag and for the view — a phone holding this version gets 304 without the
    view running; an unknown address, 404."""

    @wraps(view)
    def read_event(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        event = get_object_or_404(Event.objects.select_related("venue"), slug=slug)
        tag = _tag(request, request.resolver_match.url_name or "", [event_stamp(event)])

        @condition(etag_func=lambda *_args, **_kwargs: tag)
        def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            return view(request, event, *args, **kwargs)

        return answer(request, *args, **kwargs)

    return read_event


def _player_etag(request: HttpRequest, player_id: int) -> str | None:
    """A player's page shows every event they entered: its tag holds each one's version, and
    the player's name (a rename moves no event on)."""
    rows = list(
        Entry.objects.filter(player_id=player_id)
        .order_by("event_id")
        .values_list("player__name", "event_id", "event__created_at", "event__version")
    )
    if not rows:
        return None
    return _tag(request, "player", [rows[0][0], *(event_stamp(r[1:]) for r in rows)])


def _game_etag(request: HttpRequest, slug: str, game_id: int) -> str | None:
    row = (
        Game.objects.filter(pk=game_id, round__event__slug=slug)
        .values_list("round__event_id", "round__event__created_at", "round__event__version")
        .first()
    )
    return None if row is None else _tag(request, "game", [game_id, event_stamp(row)])


# Decorators for the views: a 304 when the phone already holds this version of the page.
by_player_events = condition(etag_func=_player_etag)
by_game_event = condition(etag_func=_game_etag)
