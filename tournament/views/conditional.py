"""ETags from the event's version, for the pages phones poll (Django's `condition` decorator).

Every write to an event moves its `version` on in the write's own transaction, so the version
says whether anything a public page shows can have changed. The tag is made before the view
runs, from one small query; a phone that sends it back with nothing new gets 304 Not Modified
and costs no standings work at all. The tag also holds what else changes the page: the
language, the query (stage, sort, page), who is signed in (organizers see links the public do
not), and the release (a deploy may change every page).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from django.conf import settings
from django.http import HttpRequest
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


def _event_etag(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> str | None:
    row = Event.objects.filter(slug=slug).values_list("pk", "created_at", "version").first()
    if row is None:
        return None  # the view answers 404 itself
    return _tag(request, request.resolver_match.url_name or "", [event_stamp(row)])


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
by_event_version = condition(etag_func=_event_etag)
by_player_events = condition(etag_func=_player_etag)
by_game_event = condition(etag_func=_game_etag)
