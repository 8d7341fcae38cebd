"""ETags from the event's version, for the pages phones poll and the API's answers about one
event (Django's `condition` decorator).

Every write to an event moves its `version` on in the write's own transaction, so the version
says whether anything a public page shows can have changed. The tag is made before the view
runs, from one small query (selectors/versions.py; for a page of one event, the event's row,
which the view then gets); a phone that sends it back with nothing new gets 304 Not Modified
and costs no standings work at all. The tag also holds what else changes the page: the
language, the query (stage, sort, page), who is signed in (organizers see links the public do
not), and the release (a deploy may change every page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournament.http_caching.whole_pages import whole_page
from tournament.selectors.cache import event_stamp, tag_hash
from tournament.selectors.events import event_by_slug
from tournament.selectors.versions import (
    GameVersion,
    PlayerEvents,
    event_stamp_by_slug,
    game_version,
    player_events,
)

__all__ = [
    "GameVersion",
    "PlayerEvents",
    "answer_by_tag",
    "api_by_event_version",
    "by_event_version",
    "by_game_version",
    "by_player_events",
    "page_tag",
]

try:
    RELEASE = settings.RELEASE or version("jansou")
except PackageNotFoundError:  # running from a checkout that was never installed
    RELEASE = settings.RELEASE


def page_tag(
    request: HttpRequest, kind: str, stamps: Iterable[Any], *, per_user: bool = True
) -> str:
    """The page's tag: the release, what it is, the language, the query and the stamps — and
    who reads it where the page differs by reader (`per_user`; reading the user opens the
    session, so the answer varies by cookie). The decorators below make it from the event's
    stamp; a page that reads its own stamps (a table's page, the organizer's dashboard and
    round sheet, polled by live.js) calls it with them."""
    user = (request.user.pk if request.user.is_authenticated else "") if per_user else ""
    parts = [RELEASE, kind, get_language(), request.GET.urlencode(), user, *stamps]
    return tag_hash(parts)


def answer_by_tag(
    request: HttpRequest,
    tag: str,
    view: Callable[..., HttpResponse],
    *args: Any,
    public: bool = False,
    **kwargs: Any,
) -> HttpResponse:
    """304 when the reader holds `tag` already (the view not run), else the view's answer
    with the tag. `public`: the page is the same for every reader with the tag but for CSRF
    tokens (no session in it) — kept whole for the next one (http_caching/whole_pages.py)."""

    @condition(etag_func=lambda *_args, **_kwargs: tag)
    def answer(request: HttpRequest) -> HttpResponse:
        if public:
            return whole_page(request, tag, lambda: view(request, *args, **kwargs))
        return view(request, *args, **kwargs)

    return answer(request)


def by_event_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page of one event, `view(request, event, …)`: the event is read
    once, for the tag and for the view — a phone holding this version gets 304 without the
    view running; an unknown address, 404."""

    @wraps(view)
    def read_event(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        event = event_by_slug(slug)
        if event is None:
            raise Http404
        tag = page_tag(request, request.path, [event_stamp(event)])
        return answer_by_tag(request, tag, view, event, *args, public=True, **kwargs)

    return read_event


def by_game_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a game sheet, `view(request, version)`: one query of plain values, a row per seat
    (a GameVersion), for the tag and for the view's key; the view reads the game itself only
    when it makes the sheet. The tag is what the sheet shows — the game's own stamp, round and
    table, its players' names, the event's name, whether it is final — and the event's stamp
    only while the game may reach its last hand (what each player needs moves with the other
    tables): a result at another table leaves a finished game's tag, and its kept page, as
    they were."""

    @wraps(view)
    def read_game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
        found = game_version(game_id, slug)
        if found is None:  # no such game in this event
            raise Http404
        tag = page_tag(request, request.path, found.shown)
        return answer_by_tag(request, tag, view, found, public=True)

    return read_game


def by_player_events(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a player's page, `view(request, player_id, entered)`: the page shows where they
    stand in every event they entered, so its tag holds each one's stamp, the player's name
    and their rating's newest step (one query) — `entered`, a PlayerEvents, None for a
    player in no event."""

    @wraps(view)
    def read_events(request: HttpRequest, player_id: int) -> HttpResponse:
        entered = player_events(player_id)
        if entered is None:
            return view(request, player_id, None)
        # Their rating too: a correction in an earlier event replays it in later ones.
        stamps = [entered.name, *entered.events.items(), entered.rating_step, entered.ratings_due]
        stamps.append(sorted(entered.running))  # "Notify me" under the events still played
        tag = page_tag(request, "player", stamps)
        return answer_by_tag(request, tag, view, player_id, entered, public=True)

    return read_events


def _api_event_tag(request: HttpRequest, slug: str, **_path: Any) -> str | None:
    """The API's tag: the same answer for everyone, so no user in it — reading the user would
    open the session and make every answer vary by cookie (a shared cache kept one per
    reader; found by the page diff of issue 45)."""
    stamp = event_stamp_by_slug(slug)
    return page_tag(request, request.path, [stamp], per_user=False) if stamp is not None else None


def api_by_event_version(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For an API answer about one event, through django-ninja's `decorate_view` (the
    operation's view, which returns an HttpResponse): the tag from the event's stamp (one
    query) before the answer is made, 304 when the reader holds it; an unknown event, no tag
    (the answer's 404). Only an answer (200) carries the tag: a 404 or 400 tagged would be
    answered 304 when asked again, its error gone."""
    tagged = condition(etag_func=_api_event_tag)(view)

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = tagged(request, *args, **kwargs)
        if response.status_code not in (200, 304) and response.has_header("ETag"):
            del response["ETag"]
        return response

    return answer
